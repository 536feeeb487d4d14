"""MindSpore 2.10's CPU float division by a broadcast divisor, bit for bit (recorded by
tests/golden/record_divide.py): one IEEE division per element, where XLA multiplies by the divisor's
reciprocal (``ops/_impl/divide_exact.py``). FasterRCNN's boxes over their (1,) scale parted so in
the census (issue 34)."""
import os

import numpy as np
import pytest

import msjax as ms
from msjax import nn, ops

REC = np.load(os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "divide_mindspore.npz"))
CASES = sorted(k[:-len("_pynative")] for k in REC.files if k.endswith("_pynative"))


def _operands(case):
    x = ms.Tensor(REC[f"{case}_x"])
    return (x, ms.Tensor(REC[f"{case}_y"])) if f"{case}_y" in REC.files else (x, 1.7132)


def _bits_equal(got, want):
    assert got.dtype == want.dtype and got.shape == want.shape
    bits = f"u{want.itemsize}"
    assert np.array_equal(got.view(bits), want.view(bits)), f"{int((got != want).sum())} of {want.size} values differ"


@pytest.mark.parametrize("case", CASES)
def test_division_is_elementwise(case):
    want = REC[f"{case}_pynative"]
    _bits_equal(REC[f"{case}_graph"], want)
    x, y = _operands(case)
    _bits_equal((x / y).asnumpy(), want)
    _bits_equal(ms.jit(lambda a, b: a / b)(x, y).asnumpy() if isinstance(y, ms.Tensor)
                else ms.jit(lambda a: a / y)(x).asnumpy(), want)
    if isinstance(y, ms.Tensor):
        _bits_equal(ops.div(x, y).asnumpy(), want)
        _bits_equal(ops.RealDiv()(x, y).asnumpy(), want)


def test_written_division_keeps_its_operands(tmp_path):
    """The writers write the division of the operands as given (no broadcast node)."""
    from msjax.train._mind_ir_pb import ModelProto

    class Div(nn.Cell):
        def construct(self, a, b):
            return a / b
    x, y = _operands("boxes_scale")
    ms.export(Div(), x, y, file_name=str(tmp_path / "div"), file_format="MINDIR")
    m = ModelProto()
    with open(tmp_path / "div.mindir", "rb") as f:
        m.ParseFromString(f.read())
    kinds = sorted(p.op_type for p in m.primitives)
    assert "RealDiv" in kinds and "BroadcastTo" not in kinds, kinds
    got = nn.GraphCell(ms.load(str(tmp_path / "div.mindir")))(x, y).asnumpy()
    _bits_equal(got, REC["boxes_scale_pynative"])


def test_constant_divisor(tmp_path):
    """A Tensor attribute is a constant of the graph (and of the written file), which XLA would
    otherwise turn into a product by its reciprocal (FasterRCNN's ``scale / finest_scale``)."""
    class ByConstant(nn.Cell):
        def __init__(self, y):
            super().__init__()
            self.y = y

        def construct(self, a):
            return a / self.y
    x, y = _operands("same_shape")
    want = REC["same_shape_pynative"]
    net = ByConstant(y)
    _bits_equal(ms.jit(net.construct)(x).asnumpy(), want)
    ms.export(net, x, file_name=str(tmp_path / "const"), file_format="MINDIR")
    _bits_equal(nn.GraphCell(ms.load(str(tmp_path / "const.mindir")))(x).asnumpy(), want)
