"""Pipeline parallel (issue 21) on one device: MindSpore 2.10's training sample
(docs/sample_code/distributed_pipeline_parallel) in small, checked against a hand-written
JAX reference (the loss is the sum of the micro-batch losses, SGD steps on the summed
gradient); the stage and context checks; the inference sample's wrapper.

MindSpore's values used here, from MindSpore 2.10 (CPU wheel): stand-alone,
``nn.PipelineGradReducer`` returns zeros (nothing fills ``accu_grads``) and, with
``opt_shard=True``, the gradients over ``scale_sense``; the error messages of
``Cell.pipeline_stage``, ``set_auto_parallel_context`` and ``PipelineCell``."""
import collections

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import msjax as ms
from msjax import Parameter, Tensor, nn, ops

MICRO, BATCH, LR = 4, 16, 0.05


@pytest.fixture
def stages2():
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.SEMI_AUTO_PARALLEL, pipeline_stages=2)
    yield
    ms.reset_auto_parallel_context()


class MatMulCell(nn.Cell):
    def __init__(self, shape):
        super().__init__()
        self.param = Parameter(Tensor(np.random.default_rng(1).normal(0, 0.3, shape).astype(np.float32)), name="param")
        self.matmul = ops.MatMul()

    def construct(self, x):
        return self.matmul(x, self.param)


class Network(nn.Cell):
    """The sample's network in small: flatten, MatMulCell, ReLU, Dense, ReLU, Dense."""

    def __init__(self):
        super().__init__()
        rng = np.random.default_rng(2)

        def init(*shape):
            return Tensor(rng.normal(0, 0.3, shape).astype(np.float32))
        self.flatten = nn.Flatten()
        self.layer1 = MatMulCell((12, 10))
        self.relu1 = nn.ReLU()
        self.layer2 = nn.Dense(10, 10, weight_init=init(10, 10), bias_init=init(10))
        self.relu2 = nn.ReLU()
        self.layer3 = nn.Dense(10, 4, weight_init=init(4, 10), bias_init=init(4))

    def construct(self, x):
        x = self.relu1(self.layer1(self.flatten(x)))
        return self.layer3(self.relu2(self.layer2(x)))


def _staged_net():
    net = Network()
    net.layer1.pipeline_stage = 0
    net.relu1.pipeline_stage = 0
    net.layer2.pipeline_stage = 0
    net.relu2.pipeline_stage = 1
    net.layer3.pipeline_stage = 1
    return net


def _batches(steps):
    rng = np.random.default_rng(0)
    return [(rng.normal(size=(BATCH, 3, 4)).astype(np.float32), rng.integers(0, 4, BATCH).astype(np.int32))
            for _ in range(steps)]


def _sample_step(net, wrapper=nn.PipelineCell, reducer=nn.PipelineGradReducer, **reducer_kw):
    """The sample's training step: value_and_grad of the PipelineCell's loss, the
    reducer, SGD, in ``ms.jit``."""
    optimizer = nn.SGD(net.trainable_params(), LR)
    net_with_loss = wrapper(nn.WithLossCell(net, nn.CrossEntropyLoss()), MICRO)
    net_with_loss.set_train()

    def forward_fn(inputs, target):
        return net_with_loss(inputs, target)

    grad_fn = ops.value_and_grad(forward_fn, None, optimizer.parameters)
    pp_grad_reducer = reducer(optimizer.parameters, **reducer_kw)

    @ms.jit
    def train_one_step(inputs, target):
        loss, grads = grad_fn(inputs, target)
        grads = pp_grad_reducer(grads)
        optimizer(grads)
        return loss, grads

    return train_one_step, pp_grad_reducer


def _params(net):
    return {n: np.asarray(p.asnumpy()) for n, p in net.parameters_and_names()}


def _reference_loss(p, x, y):
    """The sum over the micro-batches of the mean cross entropy, in plain JAX."""
    total = 0.0
    n = BATCH // MICRO
    for i in range(MICRO):
        xb, yb = x[n * i:n * (i + 1)].reshape(n, -1), y[n * i:n * (i + 1)]
        h = jax.nn.relu(xb @ p["layer1.param"])
        h = jax.nn.relu(h @ p["layer2.weight"].T + p["layer2.bias"])
        logits = h @ p["layer3.weight"].T + p["layer3.bias"]
        total = total + jnp.mean(-jnp.take_along_axis(jax.nn.log_softmax(logits), yb[:, None], axis=1))
    return total


def _reference_run(params, batches, scale=1.0):
    p = {k: jnp.asarray(v) for k, v in params.items()}

    @jax.jit
    def step(p, x, y):      # one program a step (eager updates compiled an op per shape)
        loss, g = jax.value_and_grad(_reference_loss)(p, x, y)
        g = {k: v / scale for k, v in g.items()}
        return loss, g, {k: p[k] - LR * g[k] for k in p}
    losses, grads = [], []
    for x, y in batches:
        loss, g, p = step(p, x, y)
        losses.append(float(loss))
        grads.append(g)
    return losses, grads, p


@pytest.mark.parametrize("wrapper", ["nn", "parallel.nn"])
def test_pipeline_training_equals_summed_gradient_reference(stages2, mode, wrapper):
    """pipeline_stages=2, 4 micro-batches: each step's loss is the sum of the micro-batch
    losses and the reducer hands SGD the micro-batch-summed gradient (the reference)."""
    net = _staged_net()
    start = _params(net)
    if wrapper == "nn":
        step, reducer = _sample_step(net)
    else:
        from msjax.parallel.nn import Pipeline, PipelineGradReducer
        step, reducer = _sample_step(net, Pipeline, PipelineGradReducer, opt_shard=False)
    batches = _batches(4)
    losses, grads, final = _reference_run(start, batches)
    names = [p.name for p in net.trainable_params()]
    for (x, y), want_loss, want_grads in zip(batches, losses, grads):
        loss, got = step(Tensor(x), Tensor(y))
        np.testing.assert_allclose(float(loss), want_loss, rtol=1e-6, atol=1e-6)
        for name, g in zip(names, got):
            np.testing.assert_allclose(g.asnumpy(), want_grads[name], rtol=1e-5, atol=1e-6)
    for name, value in _params(net).items():
        np.testing.assert_allclose(value, final[name], rtol=1e-5, atol=1e-6)
    assert all(not a.asnumpy().any() for a in reducer.accu_grads)     # cleared after each step
    assert losses[-1] < losses[0]


def test_pipeline_grad_reducer_scale_sense(stages2):
    net = _staged_net()
    start = _params(net)
    step, _ = _sample_step(net, scale_sense=4.0)
    batches = _batches(2)
    losses, _, final = _reference_run(start, batches, scale=4.0)
    for (x, y), want in zip(batches, losses):
        np.testing.assert_allclose(float(step(Tensor(x), Tensor(y))[0]), want, rtol=1e-6, atol=1e-6)
    for name, value in _params(net).items():
        np.testing.assert_allclose(value, final[name], rtol=1e-5, atol=1e-6)


def test_stand_alone_is_mindspores():
    """Stand-alone (and pipeline_stages > 1 outside semi-auto/auto parallel, where MindSpore
    does not split), nothing fills accu_grads: zeros, the weights never move; with
    opt_shard the reducer passes the gradients over scale_sense (MindSpore 2.10)."""
    for settings in ({}, {"pipeline_stages": 2}):
        ms.set_auto_parallel_context(**settings)
        try:
            net = _staged_net()
            start = _params(net)
            step, _ = _sample_step(net)
            x, y = _batches(1)[0]
            first = float(step(Tensor(x), Tensor(y))[0])
            loss, grads = step(Tensor(x), Tensor(y))
            assert float(loss) == first and all(not g.asnumpy().any() for g in grads)
            assert all((_params(net)[k] == v).all() for k, v in start.items())
        finally:
            ms.reset_auto_parallel_context()
    w = Parameter(Tensor(np.ones((2,), np.float32)), name="w")
    red = nn.PipelineGradReducer(ms.ParameterTuple([w]), scale_sense=2.0, opt_shard=True)
    np.testing.assert_array_equal(red((Tensor(np.array([2.0, 4.0], np.float32)),))[0].asnumpy(), [1.0, 2.0])
    red = nn.PipelineGradReducer(ms.ParameterTuple([w]), scale_sense=2.0)
    red.accu_grads[0].set_data(Tensor(np.array([4.0, 8.0], np.float32)))
    np.testing.assert_array_equal(red((Tensor(np.zeros(2, np.float32)),))[0].asnumpy(), [2.0, 4.0])
    assert not red.accu_grads[0].asnumpy().any()
    with pytest.raises(RuntimeError, match="The length of the first element in HyperMap is 1, but the length "
                                           "of the second element in HyperMap is 2"):
        red((Tensor(np.zeros(2, np.float32)),) * 2)


def test_pipeline_stage_property():
    cell = nn.Dense(2, 2)
    with pytest.raises(AttributeError, match=r"^The 'Dense' object has no attribute 'pipeline_stage'\.$"):
        cell.pipeline_stage
    for bad in (1.5, True, "0"):
        with pytest.raises(TypeError, match=r"For 'Cell', the property 'pipeline_stage' must be int type, but got "
                                            rf"type : {type(bad)}"):
            cell.pipeline_stage = bad
    with pytest.raises(ValueError, match="For 'Cell', the property 'pipeline_stage' can not be less than 0, "
                                         "but got -1"):
        cell.pipeline_stage = -1
    cell.pipeline_stage = 3
    assert cell.pipeline_stage == 3
    with pytest.raises(TypeError, match="the argument 'pipeline_stages' must be int type"):
        cell.pipeline_segment = 0.5
    cell.pipeline_segment = 1
    assert cell.pipeline_segment == 1


def test_context_checks():
    try:
        with pytest.raises(ValueError, match="the argument 'pipeline_stages' should be greater or equal 1, but got "
                                             "the value of stages : 0."):
            ms.set_auto_parallel_context(pipeline_stages=0)
        with pytest.raises(TypeError, match="the argument 'pipeline_stages' must be int, but got the type : "
                                            "<class 'bool'>."):
            ms.set_auto_parallel_context(pipeline_stages=True)
        with pytest.raises(TypeError, match="The parameter 'pipeline_stages' must be <class 'int'>, but got "
                                            "<class 'float'>"):
            ms.set_auto_parallel_context(pipeline_stages=2.0)
        with pytest.raises(TypeError, match="The parameter 'pipeline_result_broadcast' must be <class 'bool'>"):
            ms.set_auto_parallel_context(pipeline_result_broadcast=1)
        ms.set_auto_parallel_context(pipeline_stages=4, pipeline_result_broadcast=True)
        assert ms.get_auto_parallel_context("pipeline_stages") == 4
        assert ms.get_auto_parallel_context("pipeline_result_broadcast") is True
    finally:
        ms.reset_auto_parallel_context()


@pytest.mark.parametrize("stages, message", [
    ((0, 1, 2), "Stage num is 2 is not equal to stage used: 3"),
    ((0, 0, 0), "Stage num is 2 is not equal to stage used: 1"),
    ((0, 5, 5), "The pipeline_stage of cell '_backbone.relu1' is 5, but it must be less than pipeline_stages"),
])
def test_stage_errors_before_any_step(stages2, stages, message):
    net = _staged_net()
    net.layer1.pipeline_stage, net.relu1.pipeline_stage, net.layer3.pipeline_stage = stages
    net.layer2.pipeline_stage = net.relu2.pipeline_stage = stages[0]
    start = _params(net)
    step, _ = _sample_step(net)
    x, y = _batches(1)[0]
    with pytest.raises(RuntimeError, match=message):
        step(Tensor(x), Tensor(y))
    assert all((_params(net)[k] == v).all() for k, v in start.items())


def test_stage_config_and_wrapper_checks(capsys):
    net = Network()
    loss_cell = nn.WithLossCell(net, nn.CrossEntropyLoss())
    nn.PipelineCell(loss_cell, 2, stage_config={"_backbone.layer1": 0, "_backbone.layer3": 1})
    assert (net.layer1.pipeline_stage, net.layer3.pipeline_stage) == (0, 1)
    with pytest.raises(KeyError, match=r"the argument 'stage_config' : \{'nope': 0\} is not found in 'network'"):
        nn.PipelineCell(loss_cell, 2, stage_config={"nope": 0})
    assert "pipeline_cell stage_config set pipeline_stage fail!" in capsys.readouterr().out
    with pytest.raises(ValueError, match="For 'PipelineCell', no 'shard' on 'PipelineCell' is allowed."):
        nn.PipelineCell(loss_cell, 2).shard(((1,),))
    with pytest.raises(TypeError, match="For 'PipelineCell', the argument 'micro_size' must be integer"):
        nn.PipelineCell(loss_cell, 2.0)
    with pytest.raises(ValueError, match="For 'PipelineCell', the argument 'micro_size' must be large than 0"):
        nn.PipelineCell(loss_cell, 0)
    from msjax.parallel.nn import GradAccumulation, MicroBatchInterleaved
    with pytest.raises(TypeError, match="For 'GradAccumulation', the argument 'network' must cell type"):
        GradAccumulation(3, 2)
    # MicroBatchInterleaved starts from 0.0, as MindSpore's Add(0.0, output): an int output is float32
    out = MicroBatchInterleaved(nn.Identity(), 2)(Tensor(np.arange(8, dtype=np.int32).reshape(4, 2)))
    assert out.dtype == ms.float32
    np.testing.assert_array_equal(out.asnumpy(), [[4, 6], [8, 10]])


class VocabEmbedding(nn.Cell):
    def __init__(self, vocab_size, embedding_size):
        super().__init__()
        self.embedding_table = Parameter(Tensor(np.ones([vocab_size, embedding_size]), ms.float32),
                                         name="embedding_table")
        self.gather = ops.Gather()

    def construct(self, x):
        output = self.gather(self.embedding_table, x, 0)
        return output.squeeze(1), self.embedding_table.value()


class Head(nn.Cell):
    def __init__(self):
        super().__init__()
        self.matmul = ops.MatMul(transpose_b=True)

    def construct(self, state, embed):
        return self.matmul(state, embed)


class InferNet(nn.Cell):
    @ms.lazy_inline
    def __init__(self):
        super().__init__()
        self.word_embedding = VocabEmbedding(vocab_size=32, embedding_size=32)
        self.layer1 = nn.Dense(32, 32)
        self.layer2 = nn.Dense(32, 32)
        self.head = Head()

    def construct(self, x):
        x, embed = self.word_embedding(x)
        return self.head(self.layer2(self.layer1(x)), embed)


class PipelineCellInference(nn.Cell):
    def __init__(self, network, micro_batch_num):
        super().__init__()
        self.network = network
        self.micro_batch_num = micro_batch_num
        self.concat = ops.Concat()

    def construct(self, x):
        ret = ()
        for i in range(self.micro_batch_num):
            micro_batch_size = x.shape[0] // self.micro_batch_num
            ret = ret + (self.network(x[micro_batch_size * i:micro_batch_size * (i + 1)]),)
        return self.concat(ret)


def test_inference_wrapper_runs(mode):
    """The inference sample: 4 stages, result broadcast, compile, sync, run: the
    micro-batch concat equals the network on the whole batch."""
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.SEMI_AUTO_PARALLEL, dataset_strategy="full_batch",
                                 pipeline_stages=4, pipeline_result_broadcast=True)
    try:
        net = InferNet()
        for i, cell in enumerate((net.word_embedding, net.layer1, net.layer2, net.head)):
            cell.pipeline_stage = i
        inference_network = PipelineCellInference(network=net, micro_batch_num=4)
        inference_network.set_train(False)
        input_ids = Tensor(np.random.default_rng(0).integers(0, 32, (8, 1)), ms.int32)
        before = _params(inference_network)
        inference_network.compile(input_ids)
        ms.sync_pipeline_shared_parameters(inference_network)
        assert all((_params(inference_network)[k] == v).all() for k, v in before.items())
        logits = inference_network(input_ids)
        assert logits.shape == (8, 32)
        np.testing.assert_allclose(logits.asnumpy(), net(input_ids).asnumpy(), rtol=1e-6, atol=1e-6)
        net.head.pipeline_stage = 7
        with pytest.raises(RuntimeError, match="The pipeline_stage of cell 'network.head' is 7"):
            ms.sync_pipeline_shared_parameters(inference_network)
    finally:
        ms.reset_auto_parallel_context()
    with pytest.raises(TypeError, match="For 'sync_pipeline_shared_parameters', the argument 'net' should be a "
                                        "Cell, but got <class 'int'>."):
        ms.sync_pipeline_shared_parameters(3)


def test_model_train_with_pipeline_stages_takes_the_micro_batch_mean(stages2):
    """Model(PipelineCell(...)) builds MindSpore's _TrainGradAccuStepCell: the optimizer gets the
    micro-batch gradients' mean (the summed loss's gradient over micro_size)."""
    from msjax import dataset as ds
    from msjax.train import Model
    net = _staged_net()
    start = _params(net)
    batches = _batches(2)
    data = ds.NumpySlicesDataset({"x": np.concatenate([b[0] for b in batches]),
                                  "y": np.concatenate([b[1] for b in batches])}, shuffle=False).batch(BATCH)
    model = Model(nn.PipelineCell(nn.WithLossCell(net, nn.CrossEntropyLoss()), MICRO),
                  optimizer=nn.SGD(net.trainable_params(), LR))
    model.train(1, data)
    _, _, ref = _reference_run(start, batches, scale=MICRO)
    for name, value in _params(net).items():
        np.testing.assert_allclose(value, np.asarray(ref[name]), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("scheduler", ["1f1b", "gpipe"])
@pytest.mark.parametrize("stages, micro", [(2, 4), (4, 4), (4, 8), (3, 5)])
def test_schedules_and_their_bubble(scheduler, stages, micro):
    """Each stage runs every forward and backward once, a backward after its forward; 1F1B
    warms up with S - s - 1 forwards. With a backward twice a forward, the simulated step's
    idle share is MindSpore's (S - 1) / (micro + S - 1) for both schedules."""
    from msjax.communication._pipeline_step import _start_times, schedule_order
    for s in range(stages):
        order = schedule_order(s, stages, micro, scheduler)
        assert sorted(order) == sorted([("F", m) for m in range(micro)] + [("B", m) for m in range(micro)])
        assert all(order.index(("F", m)) < order.index(("B", m)) for m in range(micro))
        if scheduler == "1f1b":
            assert [k for k, _ in order[:stages - s]] == ["F"] * min(stages - s, micro)
    start = _start_times(stages, micro, scheduler, True)
    span = max(t + (1 if k == "F" else 2) for (_, k, _), t in start.items())
    bubble = 1 - micro * 3 / span
    assert bubble == pytest.approx((stages - 1) / (micro + stages - 1))


def test_pipeline_scheduler_settings_checked_as_mindspore():
    from msjax.parallel.auto_parallel import AutoParallel
    ap = AutoParallel(nn.Dense(2, 2))
    with pytest.raises(ValueError, match="the argument 'scheduler' must be '1f1b'/'gpipe'/'seqpipe'/'seqvpp'/"
                                         "'seqsmartvpp'/'zero_bubble_v' , but got the value : bad."):
        ap.pipeline(stages=2, scheduler="bad")
    with pytest.raises(TypeError, match="the argument 'scheduler' must be str type"):
        ap.pipeline(stages=2, scheduler=1)
    ap.pipeline(stages=2, scheduler="gpipe")
    try:
        with pytest.raises(TypeError, match="When pipeline_interleave is False, 'gpipe' is not supported, only "
                                            "'1f1b' is allowed."):
            ms.set_auto_parallel_context(pipeline_config={"pipeline_interleave": False, "pipeline_scheduler": "gpipe"})
        with pytest.raises(ValueError, match=r"Unknown config: \['x'\]"):
            ms.set_auto_parallel_context(pipeline_config={"x": 1})
        with pytest.raises(TypeError, match="The parameter 'pipeline_config' must be <class 'dict'>"):
            ms.set_auto_parallel_context(pipeline_config=3)
        from msjax.parallel._context import pipeline_scheduler
        assert pipeline_scheduler() == "1f1b"
        ms.set_auto_parallel_context(pipeline_config={"pipeline_interleave": True, "pipeline_scheduler": "gpipe"})
        assert pipeline_scheduler() == "gpipe"
    finally:
        ms.reset_auto_parallel_context()


def test_micro_batch_gradient_sums_follow_the_schedule():
    """A Parameter's gradient over micro-batches is added in micro-batch order, each addition
    in its micro-batch's backward (so a stage accumulates as it goes, as ``accu_grads`` do);
    the re-associated step gives the same gradient."""
    from msjax.communication import _pipeline_step as ps
    from msjax.parallel import _stages
    xs = jnp.arange(12.0).reshape(4, 3)

    def loss(w):
        total = 0.0
        for m in range(4):
            with jax.named_scope(f"msjax_pp_m{m}"), jax.named_scope("msjax_pp_s0"):
                total = total + jnp.sum(jnp.sin(w * xs[m]))
        return total
    closed = jax.make_jaxpr(jax.grad(loss))(jnp.ones(3))
    marks = [_stages.marks(e.source_info.name_stack) for e in closed.jaxpr.eqns]
    jaxpr, new_marks = ps._sums_in_micro_order(closed.jaxpr, marks)

    def sums(eqns, marks):      # the micro-batches of the additions of w's gradient
        return [m[1] for e, m in zip(eqns, marks) if e.primitive.name == "add_any" and e.outvars[0].aval.shape == (3,)]
    assert sums(closed.jaxpr.eqns, marks) == [2, 1, 0]      # trace order: the last micro-batch's first
    assert sums(jaxpr.eqns, new_marks) == [1, 2, 3]
    got = jax.core.eval_jaxpr(jaxpr, closed.consts, jnp.ones(3))[0]
    np.testing.assert_allclose(got, jax.grad(loss)(jnp.ones(3)), rtol=1e-6)


def test_layout_operations_on_state_recomputed_in_each_group():
    """A weight's transpose made in a micro-batch's forward and read by its backward (the product
    of the input's gradient) is recomputed there: each (stage, micro-batch, direction) program
    multiplies the operands the stand-alone program does, which XLA folds the same way (a
    materialised transpose changed the order of the sums: the docs sample's losses 9.5e-5 off)."""
    from msjax.communication import _pipeline_step as ps
    from msjax.parallel import _stages
    xs = jnp.arange(24.0, dtype=jnp.float32).reshape(2, 3, 4) / 10

    def loss(w1, w2):
        total = 0.0
        for m in range(2):
            with jax.named_scope(f"msjax_pp_m{m}"), jax.named_scope("msjax_pp_s0"):
                total = total + jnp.sum(jnp.tanh(jnp.tanh(xs[m] @ w1.T) @ w2.T))
        return total
    w = (jnp.arange(20.0, dtype=jnp.float32).reshape(5, 4) / 7, jnp.arange(15.0, dtype=jnp.float32).reshape(3, 5) / 9)
    closed = jax.make_jaxpr(jax.grad(loss, argnums=(0, 1)))(*w)
    marks = [_stages.marks(e.source_info.name_stack) for e in closed.jaxpr.eqns]

    def crossing(jaxpr, marks):       # reads of a state transpose made in another group
        made = {v: (e.primitive.name, m) for e, m in zip(jaxpr.eqns, marks) for v in e.outvars}
        return [(made[v][1], m) for e, m in zip(jaxpr.eqns, marks) for v in e.invars
                if ps._is_var(v) and v in made and made[v][0] == "transpose" and made[v][1] != m
                and all(u in jaxpr.invars for u in next(x for x in jaxpr.eqns if v in x.outvars).invars)]
    assert crossing(closed.jaxpr, marks)       # the backward reads the forward's w2.T
    jaxpr, new_marks = ps._layout_per_group(closed.jaxpr, marks, closed.jaxpr.invars)
    assert crossing(jaxpr, new_marks) == []
    # the same operations otherwise (the numbers: tests/test_pipeline_stages.py, bit for bit)
    count = collections.Counter(e.primitive.name for e in jaxpr.eqns)
    count.subtract(e.primitive.name for e in closed.jaxpr.eqns)
    assert +count == collections.Counter(transpose=len(crossing(closed.jaxpr, marks)))


def test_state_reads_stay_in_the_programs_that_use_them():
    """A weight's sharding constraint in each micro-batch's forward, and the optimizer's work on
    state alone (here ``0.9 * w``), run inside the programs that read them, not in the stage's
    prologue program: there each came out as a materialised copy (the 2-stage
    ``bench/pipeline_parallel.py`` prologue copied every Parameter once per micro-batch and wrote
    the optimizer's state-only terms out: 555 outputs, 55-160 ms a step; now 75, 11 ms)."""
    from msjax.communication import _pipeline_step as ps
    from msjax.parallel import _stages
    whole = jax.sharding.NamedSharding(jax.sharding.Mesh(np.array(jax.devices()[:1]), ("x",)),
                                       jax.sharding.PartitionSpec())
    xs = jnp.arange(24.0, dtype=jnp.float32).reshape(2, 3, 4) / 10

    def step(w):
        def loss(w):
            total = 0.0
            for m in range(2):
                with jax.named_scope(f"msjax_pp_m{m}"), jax.named_scope("msjax_pp_s0"):
                    total = total + jnp.sum(jnp.tanh(xs[m] @ jax.lax.with_sharding_constraint(w, whole)))
            return total
        return w * 0.9 - jax.grad(loss)(w)
    w = jnp.arange(20.0, dtype=jnp.float32).reshape(4, 5) / 7
    closed = jax.make_jaxpr(step)(w)
    marks = [_stages.marks(e.source_info.name_stack) for e in closed.jaxpr.eqns]
    jaxpr, marks = ps._layout_per_group(closed.jaxpr, marks, closed.jaxpr.invars)
    state = {v: 0 for v in jaxpr.invars}
    stage, users = ps._assign_stages(jaxpr, marks, state, {0: 0}, {})
    groups, _, _ = ps._segments(jaxpr, stage, marks, users, set(), set(state))
    names = {k[:3]: [jaxpr.eqns[i].primitive.name for i in idx] for k, idx in groups.items()}
    assert "sharding_constraint" not in names.get((0, -1, False), [])
    assert "mul" not in names.get((0, -1, False), [])       # 0.9 * w: with the update that reads it
    assert "mul" in names[(0, None, False)]
    for m in range(2):
        assert "sharding_constraint" in names[(0, m, False)]
    # the same operations (the numbers: tests/test_pipeline_stages.py)
    assert sorted(e.primitive.name for e in jaxpr.eqns) == sorted(e.primitive.name for e in closed.jaxpr.eqns)
