"""``<prefix>-graph.meta`` (msjax/train/_graph_meta.py): the compiled step as an ANF IR ModelProto.
When MindSpore writes it and what it holds are golden cases (``edges:graph_meta_when_and_what``);
these check the writer's own guarantees on a step with a tuple output, a multi-output op and prints."""
import numpy as np

import msjax as ms
from msjax import nn, ops
from msjax.train import anf_ir_pb2
from msjax.train._graph_meta import graph_proto, save_graph


class _Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(2, 3, 3, has_bias=True)
        self.bn = nn.BatchNorm2d(3)
        self.fc = nn.Dense(3, 2)

    def construct(self, x):
        print("traced once")
        h = self.bn(self.conv(x))
        return self.fc(ops.ReduceMean()(h, (2, 3)))


def _step():
    net = _Net()
    loss = nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"))
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    step = nn.TrainOneStepWithLossScaleCell(loss, opt, ms.Tensor(8.0, ms.float32))
    step.set_train()
    x = ms.Tensor(np.random.default_rng(0).standard_normal((2, 2, 6, 6)).astype(np.float32))
    return step, (x, ms.Tensor(np.array([0, 1], np.int32)))


def test_graph_proto_of_a_loss_scaled_step(capsys):
    step, batch = _step()
    before = {p.name: p.asnumpy().copy() for p in step.get_parameters()}
    model = anf_ir_pb2.ModelProto()
    model.ParseFromString(graph_proto(step, batch))
    assert "traced once" not in capsys.readouterr().out       # the step's prints are not repeated
    for p in step.get_parameters():                            # tracing changed nothing
        np.testing.assert_array_equal(p.asnumpy(), before[p.name])
    g = model.graph
    names = [p.name for p in g.parameters]
    assert names[:2] == ["inputs0", "inputs1"]
    assert {"conv.weight", "bn.moving_mean", "moments.fc.weight", "scale_sense"} <= set(names)
    nodes = {n.name: n for n in g.node}
    # every input is a parameter, an earlier node or a constant
    consts = {c.key for c in g.const_vals}
    for i, n in enumerate(g.node, 1):
        assert n.name == str(i)
        assert all(x.name in consts or x.name in names or int(x.name) < i for x in n.input), n
    ops_ = {n.op_type for n in g.node}
    assert {"Conv2D", "MatMul", "Assign", "Depend", "TupleGetItem"} <= ops_   # the overflow check: a multi-output op
    scopes = {n.scope for n in g.node}
    assert "Default/network-WithLossCell/_backbone-_Net/conv-Conv2d" in scopes
    assert any(s.startswith("Gradients/Default/network-WithLossCell/_backbone-_Net/conv-Conv2d") for s in scopes)
    # the written Parameters: one Assign each, the moving statistics among them
    assigned = {n.input[0].name for n in g.node if n.op_type == "Assign"}
    assert {"conv.weight", "bn.moving_mean", "moments.conv.weight"} <= assigned
    out = nodes[g.outputs[0].name]
    assert out.op_type == "Depend" and g.outputs[0].type.data_type == anf_ir_pb2.DT_TUPLE
    assert len(g.outputs[0].type.sequence_type.elem_types) == 3      # loss, overflow, scale


def test_nothing_written_in_pynative(tmp_path):
    step, batch = _step()
    ms.set_context(mode=ms.PYNATIVE_MODE)
    assert not save_graph(step, str(tmp_path / "n-graph.meta"), batch)
    assert list(tmp_path.iterdir()) == []
