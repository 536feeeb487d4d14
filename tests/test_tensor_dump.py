"""``ops.TensorDump``/``DumpGradient`` inside compiled code, where MindSpore's CPU build has no kernel
(its PyNative files are golden: tests/golden/cases_st_ops.py, ``tensordump_and_dump_gradient``)."""
import os

import numpy as np

import msjax as ms
from msjax import ops


def _files(folder):
    return sorted(os.listdir(folder), key=lambda f: int(f.rsplit("_", 1)[1][:-4]))


def test_dump_gradient_inside_jit(tmp_path):
    dg = ops.DumpGradient()
    path = str(tmp_path / "x_dout.npy")

    def f(x, y):
        return (dg(path, x, "out") ** 2) * y
    x = np.array([1.0, -2.0, 3.0], np.float32)
    y = np.array([0.5, 4.0, -1.0], np.float32)
    gx, gy = ms.jit(ms.grad(f, (0, 1)))(ms.Tensor(x), ms.Tensor(y))
    files = _files(tmp_path)
    assert len(files) == 1 and files[0].startswith("x_dout_float32_")
    dumped = np.load(tmp_path / files[0])
    np.testing.assert_allclose(dumped, 2 * x * y)          # d(x^2 y)/dx, the gradient reaching x
    np.testing.assert_allclose(gx.asnumpy(), dumped)
    np.testing.assert_allclose(gy.asnumpy(), x * x)
    assert os.stat(tmp_path / files[0]).st_mode & 0o777 == 0o400


def test_tensor_dump_each_run_of_a_compiled_function(tmp_path):
    dump = ops.TensorDump()
    path = str(tmp_path / "h")

    @ms.jit
    def step(a):
        h = a * 3
        dump(path, h)
        return h + 1
    for k in range(3):
        step(ms.Tensor(np.full((2,), k, np.int32)))
    files = _files(tmp_path)
    assert [f.rsplit("_", 1)[0] for f in files] == ["h_int32"] * 3
    assert [np.load(tmp_path / f).tolist() for f in files] == [[0, 0], [3, 3], [6, 6]]
