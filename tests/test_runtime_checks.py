"""Run-time index checks of compiled programs (``msjax/_core/runtime_checks.py``): an index out
of range given to a gather/scatter op inside a GRAPH_MODE Cell, ``ms.jit`` or a compiled training
step raises MindSpore's kernel exception when the program has run (MindSpore's messages: the
``jit_*_index_out_of_range`` golden cases of tests/golden/cases_st_ops.py), instead of XLA's
silent clamping; indices in range give the values of the unchecked kernel."""
import os
import textwrap

import numpy as np
import pytest

import msjax as ms
from msjax import nn, ops
from msjax._core import runtime_checks

GATHER_ERR = "For 'Gather', the 'input_indices' should be in the range [0, 3), but got 5, error_code[58]"


class Lookup(nn.Cell):
    def __init__(self):
        super().__init__()
        self.table = ms.Parameter(ms.Tensor(np.arange(12, dtype=np.float32).reshape(3, 4)), name="table")

    def construct(self, ids):
        return ops.gather(self.table, ids, 0).sum(axis=1)


def _ids(*v):
    return ms.Tensor(np.array(v, np.int32))


@pytest.fixture
def graph_mode():
    ms.set_context(mode=ms.GRAPH_MODE)
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE)


def test_graph_cell_raises_kernel_error_and_keeps_working(graph_mode):
    net = Lookup()
    good = net(_ids(2, -1, 0)).asnumpy()
    with pytest.raises(RuntimeError) as err:
        net(_ids(0, 5, 1))
    assert str(err.value) == GATHER_ERR and type(err.value) is RuntimeError
    assert err.value.__cause__ is None and err.value.__context__ is None   # raised by msjax, not through JAX
    np.testing.assert_array_equal(net(_ids(2, -1, 0)).asnumpy(), good)   # the same compiled program
    np.testing.assert_array_equal(good, [38.0, 38.0, 6.0])


def test_training_step_raises_and_its_parameters_stay_usable(graph_mode):
    """A donating TrainOneStepCell: the Parameters it writes are updated before the error is
    raised (no Parameter is left holding a donated buffer), and the next good step runs."""
    net = Lookup()
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.1))
    y = ms.Tensor(np.zeros(2, np.float32))
    first = float(step(_ids(0, 1), y))
    with pytest.raises(RuntimeError, match="should be in the range"):
        step(_ids(0, 3), y)
    assert np.isfinite(net.table.asnumpy()).all()
    assert float(step(_ids(0, 1), y)) < first


def test_in_range_values_equal_the_unchecked_program(graph_mode, monkeypatch):
    """The checks change no value: the same Cell traced with ``add`` switched off gives the same bits."""
    x = ms.Tensor(np.random.RandomState(0).randn(5, 6).astype(np.float32))
    idx = _ids(4, 0, -2, 3)
    pos = ms.Tensor(np.array([[1, 2], [4, 5], [0, 0]], np.int32))

    last = ms.Tensor(np.full((5, 6), -1, np.int32))

    class Net(nn.Cell):
        def construct(self, a, i, p, d):
            g = ops.gather(a, i, 0)
            return ops.tensor_scatter_add(a, p, ops.gather_nd(a, p) * 2.0), g, ops.gather_d(a, 1, d)
    checked = [o.asnumpy() for o in Net()(x, idx, pos, last)]
    monkeypatch.setattr(runtime_checks, "add", lambda *a: False)
    plain = [o.asnumpy() for o in Net()(x, idx, pos, last)]
    for a, b in zip(checked, plain):
        np.testing.assert_array_equal(a, b)


def test_jit_function_and_pynative_gradient_raise():
    """``ms.jit`` outside GRAPH_MODE, and a PyNative ``ms.grad`` (traced as one program) raise too."""
    x = ms.Tensor(np.arange(12, dtype=np.float32).reshape(3, 4))

    @ms.jit
    def pick(a, i):
        return ops.gather_nd(a, i)
    with pytest.raises(RuntimeError, match=r"indices\[1\]: \[const vector\]\{3, 2\}"):
        pick(x, ms.Tensor(np.array([[0, 1], [3, 2]], np.int32)))

    def loss(a, i):
        return ops.gather(a, i, 0).sum()
    with pytest.raises(RuntimeError, match="but got 5"):
        ms.grad(loss)(x, _ids(0, 5))
    np.testing.assert_array_equal(ms.grad(loss)(x, _ids(0, 0)).asnumpy()[0], [2.0] * 4)


def test_first_failing_check_is_reported(graph_mode):
    """Two ops out of range in one program: the first in program order is raised."""
    class Net(nn.Cell):
        def construct(self, a, i, p):
            return ops.gather(a, i, 0), ops.tensor_scatter_update(a, p, ops.ones((1, 4), ms.float32))
    x = ms.Tensor(np.zeros((3, 4), np.float32))
    with pytest.raises(ValueError, match="TensorScatterUpdate', indices out of range"):
        Net()(x, _ids(0, 1), ms.Tensor(np.array([[7]], np.int32)))
    with pytest.raises(RuntimeError, match="For 'Gather'"):
        Net()(x, _ids(9, 1), ms.Tensor(np.array([[7]], np.int32)))


@pytest.mark.parametrize("mode", ["pynative", "graph"])
def test_vmap_over_the_indices_checks_each_example(mode):
    """``ops.vmap`` hands its body's checks on per example (tests/st/ops/cpu/test_gather_op.py's
    vmap case): raised at once in PyNative, from the program in a GRAPH_MODE Cell."""
    x = ms.Tensor(np.arange(12, dtype=np.float32).reshape(2, 2, 3))

    class Net(nn.Cell):
        def construct(self, a, i):
            return ops.vmap(lambda b, j: ops.gather(b, j, 0), (0, 0), 0)(a, i)
    ms.set_context(mode=ms.GRAPH_MODE if mode == "graph" else ms.PYNATIVE_MODE)
    try:
        out = Net()(x, ms.Tensor(np.array([[0, 1], [1, 0]], np.int32))).asnumpy()
        np.testing.assert_array_equal(out, x.asnumpy()[[[0], [1]], [[0, 1], [1, 0]]])
        with pytest.raises(RuntimeError, match=r"the 'input_indices' should be in the range \[0, 2\), but got 2,"):
            Net()(x, ms.Tensor(np.array([[0, 1], [2, 0]], np.int32)))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_a_second_process_raises_from_the_stored_program(preloaded, tmp_path):
    """The front-end cache stores the checks' messages with the program: a process that loads it
    (tracing nothing) raises the same error."""
    script = tmp_path / "check.py"
    script.write_text(textwrap.dedent("""
        import sys
        import numpy as np
        import mindspore as ms
        from mindspore import nn, ops
        from msjax._core import transforms

        class Net(nn.Cell):
            def construct(self, a, i):
                return ops.gather(a, i, 0)
        ms.set_context(mode=ms.GRAPH_MODE, enable_compile_cache=True, compile_cache_path=sys.argv[1])
        x = ms.Tensor(np.arange(12, dtype=np.float32).reshape(3, 4))
        good = Net()(x, ms.Tensor(np.array([2, 0], np.int32))).asnumpy().sum()
        try:
            Net()(x, ms.Tensor(np.array([0, 5], np.int32)))
            err = "none"
        except RuntimeError as e:
            err = str(e)
        print("RESULT", transforms.TRACES[0], good, err)
    """))
    env = dict(os.environ, MS_COMPILER_CACHE_ENABLE="0", MSJAX_CACHE_KEY_DIR=str(tmp_path / "key"))
    results = []
    for _ in range(2):
        rc, stdout, stderr = preloaded.run(["run", str(script), str(tmp_path / "cache")], os.getcwd(), env, 300)
        assert rc == 0, stderr.decode()[-3000:]
        results.append([ln for ln in stdout.decode().splitlines() if ln.startswith("RESULT")][-1].split(" ", 3))
    (_, traces1, good1, err1), (_, traces2, good2, err2) = results
    assert int(traces1) >= 1 and int(traces2) == 0
    assert good1 == good2 == "44.0" and err1 == err2 == GATHER_ERR
