"""The writers' errors name the MindSpore layer or operator and the user's line, never a JAX
primitive (msjax/train/_export/_where.py): an op with no form in the format, met inside a Cell
of the user's network, raises MindSpore's RuntimeError naming the operator, the Cell class and
its path, and the line of the user's ``construct`` that called it; nothing is written."""
import os

import numpy as np
import pytest

import msjax as ms
from msjax import nn, ops
from msjax.train._export.mindir_writer import write_mindir
from msjax.train._export.onnx import write_onnx

HERE = os.path.abspath(__file__)


class Noise(nn.Cell):
    def construct(self, x):
        return x + ops.uniform(x.shape, ms.Tensor(0.0), ms.Tensor(1.0))


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(4, 4)
        self.noise = Noise()

    def construct(self, x):
        y = self.dense(x)
        return self.noise(y) * 2          # the user's line: the call of the layer without a form


def _line(text):
    with open(HERE) as f:
        return next(i for i, line in enumerate(f, 1) if text in line)


def _check(message):
    assert "random" not in message and "primitive" not in message     # no JAX names
    assert "'UniformReal'" in message or "key UniformReal " in message
    assert "in 'Noise' (Net/Noise)" in message
    assert f"at {HERE}:{_line('return x + ops.uniform')}: `return x + ops.uniform(" in message


def test_mindir_error_names_operator_layer_and_line(tmp_path):
    with pytest.raises(RuntimeError) as info:
        write_mindir(Net(), (ms.Tensor(np.ones((2, 4), np.float32)),), str(tmp_path / "n.mindir"))
    assert str(info.value).startswith("Exporting MINDIR failed: the MindSpore operator 'UniformReal' in 'Noise'")
    _check(str(info.value))
    assert os.listdir(tmp_path) == []


def test_onnx_error_names_operator_layer_and_line(tmp_path):
    pytest.importorskip("onnx")
    with pytest.raises(RuntimeError) as info:
        write_onnx(Net(), (ms.Tensor(np.ones((2, 4), np.float32)),), str(tmp_path / "n.onnx"))
    assert str(info.value).startswith("Can not find key UniformReal in convert map. Exporting UniformReal "
                                      "operator is not yet supported. [msjax: no ONNX opset 11 form; in 'Noise'")
    _check(str(info.value))
    assert os.listdir(tmp_path) == []


def test_built_in_layer_without_user_construct_names_the_layer(tmp_path):
    """A library Cell exported on its own has no user line; the layer is still named."""
    class Random(nn.Cell):
        def construct(self, x):
            return ops.uniform(x.shape, ms.Tensor(0.0), ms.Tensor(1.0))
    with pytest.raises(RuntimeError, match=r"'UniformReal' in 'Random' \(Random\), at "):
        write_mindir(Random(), (ms.Tensor(np.ones((2,), np.float32)),), str(tmp_path / "r.mindir"))
