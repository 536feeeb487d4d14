"""MindSpore's float32 CPU-kernel arithmetic (``ops/_impl/cpu_kernel_math.py``) as PyNative runs it:
one eager program per call, with the bits of the same arithmetic evaluated primitive by primitive."""
import jax
import numpy as np
import pytest

from msjax import Tensor, ops
from msjax.common import _eager_store
from msjax.ops._impl import cpu_kernel_math
from msjax.runtime import _host_eager as he


def _values():
    f32 = np.float32
    lo, hi = f32(-87.3365478515625), f32(88.72283935546875)     # nnacl's clamp of exp's argument
    edges = [lo, hi, -lo, -hi, np.nextafter(lo, f32(0)), np.nextafter(hi, f32(0)), np.nextafter(-lo, f32(-1e9)),
             np.nextafter(-hi, f32(1e9)), 0.0, -0.0, 1e-45, -1e-45, 1e-40, -1e-40, 1.17549435e-38, -1.17549435e-38,
             88.0, -88.0, 87.0, -87.0, 100.0, -100.0, 1e30, -1e30, np.inf, -np.inf, np.nan, 0.5, -0.5, 1.0, -1.0]
    rs = np.random.RandomState(7)
    rand = np.concatenate([rs.standard_normal(3000), rs.standard_normal(3000) * 10, rs.uniform(-95, 95, 1969)])
    return np.concatenate([np.asarray(edges, f32), rand.astype(f32)]).reshape(-1, 16)


@pytest.fixture
def no_store(monkeypatch):
    monkeypatch.setenv(_eager_store.OFF_ENV, "0")
    monkeypatch.setattr(he, "_ON", True)
    yield


def test_sigmoid_is_one_eager_program_with_the_primitive_by_primitive_bits(no_store, monkeypatch):
    x = _values()
    assert cpu_kernel_math.applies(jax.numpy.asarray(x))
    before = he._STATS["host"] + he._STATS["compiled"]
    got = ops.sigmoid(Tensor(x)).asnumpy()
    assert he._STATS["host"] + he._STATS["compiled"] - before == 1      # one program, not one per primitive
    # the same arithmetic primitive by primitive, each on the host path (XLA's bits, no compile)
    monkeypatch.setattr(he, "THRESHOLD", 10 ** 9)
    with jax.disable_jit():
        ref = np.asarray(cpu_kernel_math.sigmoid(jax.numpy.asarray(x)))
    assert got.dtype == ref.dtype == np.float32
    nan = np.isnan(ref)
    assert nan.sum() == 1 and np.array_equal(np.isnan(got), nan)
    # every number bit for bit; a NaN's sign is the one program's (MindSpore's: sigmoid(nan) is -nan,
    # where primitive by primitive it came out as +nan)
    assert got[~nan].tobytes() == ref[~nan].tobytes()
    assert ops.sigmoid(Tensor(x)).asnumpy().tobytes() == got.tobytes()      # a later call
