"""``mindspore.numpy``: every public name MindSpore 2.10 has is present with the same kind
(tests/fixtures/numpy_names.json, recorded by tests/fixtures/record_numpy_names.py), the
namespace resolves through the ``mindspore`` alias and MindSpore's submodule paths, and a few
behaviours beyond the golden suite (``cases_numpy.py``): hand-checked NumPy references and
the errors for values that cannot be traced."""
import importlib
import json
import math
import os
import types

import numpy as np
import pytest

import msjax as ms
from msjax import numpy as mnp
from msjax import _compat

_FIXTURE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "numpy_names.json")
with open(_FIXTURE) as _f:
    _NAMES = json.load(_f)["modules"]


def _module(path):
    return mnp if path == "mindspore.numpy" else mnp.fft


@pytest.mark.parametrize("path", sorted(_NAMES))
def test_every_numpy_name_is_present(path):
    mod = _module(path)
    problems = []
    for name, (kind, value) in _NAMES[path].items():
        if not hasattr(mod, name):
            problems.append(f"{name}: missing")
            continue
        obj = getattr(mod, name)
        if kind == "module" and not isinstance(obj, types.ModuleType):
            problems.append(f"{name}: not a module")
        elif kind == "dtype" and str(obj) != value:
            problems.append(f"{name}: {obj} != {value}")
        elif kind == "float" and not (obj == value or (isinstance(value, str) and str(obj) == value)):
            problems.append(f"{name}: {obj} != {value}")
        elif kind == "list" and obj != value:
            problems.append(f"{name}: list differs")
        elif kind == "function" and not callable(obj):
            problems.append(f"{name}: not callable")
    assert not problems, problems
    assert len(_NAMES["mindspore.numpy"]) == 273


def test_numpy_resolves_through_the_mindspore_alias():
    _compat.install()
    mindspore = importlib.import_module("mindspore")
    assert mindspore.numpy is mnp
    assert importlib.import_module("mindspore.numpy") is mnp
    assert importlib.import_module("mindspore.numpy.math_ops").add is mnp.add
    assert importlib.import_module("mindspore.numpy.array_ops").flip is mnp.flip
    assert importlib.import_module("mindspore.numpy.fft").rfft is mnp.fft.rfft
    ns = {}
    exec("from mindspore.numpy import flip, outer, sum as npsum", ns)
    assert ns["flip"] is mnp.flip and ns["outer"] is mnp.outer and ns["npsum"] is mnp.sum


_X = np.array([[0.5, -1.25, 2.0], [3.5, -0.75, 1.0]], np.float32)


@pytest.mark.parametrize("name,ref", [
    ("cov", lambda x: np.cov(x)), ("corrcoef", lambda x: np.corrcoef(x)),
    ("ptp", lambda x: np.ptp(x)), ("cumprod", lambda x: np.cumprod(x)),
    ("nancumsum", lambda x: np.nancumsum(x)), ("trapz", lambda x: np.trapezoid(x)),
    ("gradient", lambda x: np.gradient(x[0])),
])
def test_statistics_match_numpy(name, ref):
    x = ms.Tensor(_X)
    arg = ms.Tensor(_X[0]) if name == "gradient" else x
    np.testing.assert_allclose(getattr(mnp, name)(arg).asnumpy(), ref(_X), rtol=1e-5, atol=1e-6)


def test_fft_matches_numpy():
    x = np.array([[1.0, 2.0, -1.0, 0.5], [0.0, 3.0, 2.0, -2.0]], np.float32)
    t = ms.Tensor(x)
    for name in ("fft", "ifft", "rfft", "fft2", "ifft2", "rfft2", "fftn", "rfftn", "ihfft"):
        res = getattr(mnp.fft, name)(t)
        np.testing.assert_allclose(res.asnumpy(), getattr(np.fft, name)(x), rtol=1e-5, atol=1e-5, err_msg=name)
    assert str(mnp.fft.fft(t).dtype) == "Complex64"
    spec = np.fft.rfft(x)
    np.testing.assert_allclose(mnp.fft.irfft(ms.Tensor(spec.astype(np.complex64))).asnumpy(), np.fft.irfft(spec),
                               rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(mnp.fft.hfft(ms.Tensor(spec.astype(np.complex64))).asnumpy(), np.fft.hfft(spec),
                               rtol=1e-4, atol=1e-4)
    import scipy.fft
    # MindSpore 2.10 returns a real (2, 6) Tensor for ihfftn here; msjax follows scipy's definition
    np.testing.assert_allclose(mnp.fft.ihfftn(t).asnumpy(), scipy.fft.ihfftn(x), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(mnp.fft.hfftn(ms.Tensor(spec.astype(np.complex64))).asnumpy(), scipy.fft.hfftn(spec),
                               rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(mnp.fft.fftfreq(5, 0.5).asnumpy(), np.fft.fftfreq(5, 0.5), rtol=1e-6)
    np.testing.assert_allclose(mnp.fft.rfftfreq(6).asnumpy(), np.fft.rfftfreq(6), rtol=1e-6)


def test_random_creation_shapes_and_ranges():
    ms.set_seed(3)
    r = mnp.rand(2, 3)
    assert r.shape == (2, 3) and str(r.dtype) == "Float32" and 0 <= r.asnumpy().min() and r.asnumpy().max() < 1
    n = mnp.randn((4, 5), dtype=ms.float16)
    assert n.shape == (4, 5) and str(n.dtype) == "Float16"
    i = mnp.randint(2, 5, (100,))
    assert str(i.dtype) == "Int32" and set(np.unique(i.asnumpy())) <= {2, 3, 4}
    with pytest.raises(ValueError):
        mnp.randint(5, 2)
    with pytest.raises(ValueError):     # MindSpore's _check_rand_type (golden err_randn_int_dtype)
        mnp.rand(2, dtype=ms.int32)


def test_value_dependent_shapes_run_uncompiled_in_jit_and_raise_clearly_in_a_gradient():
    @ms.jit
    def f(x):
        return mnp.unique(x)
    assert f(ms.Tensor([1, 2, 2], ms.int32)).asnumpy().tolist() == [1, 2]    # MindSpore: a dynamic shape
    with pytest.raises(RuntimeError, match=r"mindspore.numpy.unique: the result's shape depends"):
        ms.grad(lambda x: (mnp.unique(x) * 2).sum())(ms.Tensor([1.0, 2.0, 2.0]))
    assert mnp.unique(ms.Tensor([2, 1, 2], ms.int32)).asnumpy().tolist() == [2, 1]


def test_constants():
    assert mnp.pi == math.pi and math.isinf(mnp.PINF) and mnp.NINF < 0 and math.isnan(mnp.nan)
    assert mnp.int_ is ms.int32 and mnp.float_ is ms.float32 and mnp.uint is ms.uint32


def test_flip_gradient_is_the_reversed_cotangent():
    """MindSpore 2.10's CPU build gets ``mindspore.numpy.flip``'s gradient wrong ([[0, 1, 0],
    [0, 3, 2]] here; ``ops.flip`` gives the right one); msjax's is checked by hand."""
    w = np.arange(6.0, dtype=np.float32).reshape(2, 3)
    g = ms.grad(lambda x: mnp.sum(mnp.flip(x, 1) * ms.Tensor(w)))(ms.Tensor(np.ones((2, 3), np.float32)))
    np.testing.assert_array_equal(g.asnumpy(), w[:, ::-1])
    g2 = ms.grad(lambda x: mnp.sum(mnp.stack((x, mnp.flipud(x)), 0) * ms.Tensor(np.stack([w, w]))))(
        ms.Tensor(np.ones((2, 3), np.float32)))
    np.testing.assert_array_equal(g2.asnumpy(), w + w[::-1])


def test_multiply_and_float_power_take_numbers_as_documented():
    """MindSpore 2.10's CPU build rejects numbers in ``multiply`` (and ``float_power``'s second
    argument) with a TypeError; its documentation (and its GPU/Ascend builds) accept them."""
    x = ms.Tensor(np.array([1, -2, 3], np.int32))
    r = mnp.multiply(x, 2)
    assert str(r.dtype) == "Int32" and r.asnumpy().tolist() == [2, -4, 6]
    r = mnp.multiply([1.5, 2.0], [2, 2])
    assert str(r.dtype) == "Float32" and r.asnumpy().tolist() == [3.0, 4.0]
    r = mnp.float_power(x, 2)
    assert str(r.dtype) == "Float32" and r.asnumpy().tolist() == [1.0, 4.0, 9.0]


@pytest.mark.parametrize("call,exc", [
    (lambda A, B: mnp.tensordot(A, B, 1), ValueError),
    (lambda A, B: mnp.hstack((A, B)), ValueError),
    (lambda A, B: mnp.append(A, B, 0), ValueError),
    (lambda A, B: mnp.stack((A, B)), ValueError),
    (lambda A, B: mnp.tile(A, "x"), ValueError),
    (lambda A, B: mnp.trace(A[0]), RuntimeError),
    (lambda A, B: mnp.arange(0, 5, 0), ZeroDivisionError),
    (lambda A, B: mnp.ravel_multi_index((A[0], A[0]), (2, 3)), TypeError),
    (lambda A, B: mnp.meshgrid(A[0], indexing="zz"), TypeError),
    (lambda A, B: mnp.where(A > 0), TypeError),
])
def test_errors_are_mindspore_types_with_clear_messages(call, exc):
    """MindSpore's exception types (where MindSpore raises; where it lets a mismatched shape
    through, a ValueError), never a raw JAX/numpy exception."""
    A, B = ms.Tensor(np.ones((2, 3), np.float32)), ms.Tensor(np.ones((4, 5), np.float32))
    with pytest.raises(exc) as info:
        call(A, B)
    assert "jax" not in str(info.value).lower()


def test_bincount_counts_negatives_as_zero_and_isclose_takes_lists():
    assert mnp.bincount(ms.Tensor(np.array([-1, 2], np.int32))).asnumpy().tolist() == [1.0, 0.0, 1.0]
    assert mnp.isclose([1.0, 2.0], [1.0, 2.5]).asnumpy().tolist() == [True, False]
