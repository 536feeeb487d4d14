"""Spectral ops: the window functions (``hann_window``, ``hamming_window``, ``blackman_window``,
``bartlett_window``, ``kaiser_window`` and the ``HammingWindow``/``BartlettWindow``/``BlackmanWindow``
Primitives), MindSpore's ``spectral_func``."""
from __future__ import annotations

import jax.numpy as jnp
import numpy as np

from ..._core import dtype as mstype
from ..._core.registry import op
from ._util import Tensor, wrap
from .array import _need_concrete


# ---------------------------------------------------------------------------
# windows
# ---------------------------------------------------------------------------


def _hann(n, m):
    return 0.5 - 0.5 * np.cos(2 * np.pi * n / m)


def _blackman(n, m):
    return 0.42 - 0.5 * np.cos(2 * np.pi * n / m) + 0.08 * np.cos(4 * np.pi * n / m)


def _bartlett(n, m):
    return 1 - np.abs(2 * n / m - 1)


def _window(length, periodic, dt, formula):
    """``formula(n, N - 1)`` over ``n = 0..N-1`` (``periodic``: the ``N + 1`` window without its last
    value), computed in float64 and cast to ``dt``."""
    if length <= 1:
        return wrap(jnp.ones((max(length, 0),), dt))
    n = np.arange(length, dtype=np.float64)
    return wrap(jnp.asarray(formula(n, length if periodic else length - 1), dt))


def _fn_window(name, length, periodic, dtype, formula):
    """``hann_window``/``kaiser_window``: a Python int length, Float64 unless ``dtype`` says otherwise."""
    if isinstance(length, bool) or not isinstance(length, (int, np.integer)):
        raise TypeError(f"For '{name}', 'window_length' must be a non-negative integer, but got {type(length)}")
    if length < 0:
        raise ValueError(f"For '{name}', 'window_length' must be a non-negative integer, but got {length}")
    if not isinstance(periodic, bool):
        raise TypeError(f"For '{name}', 'periodic' must be a variable of Boolean type, but got {type(periodic)}")
    dt = mstype.to_np(mstype.float64 if dtype is None else dtype)
    if not jnp.issubdtype(dt, jnp.floating):
        raise TypeError(f"For '{name}', 'dtype' must be floating point dtypes, but got {dtype}.")
    return _window(int(length), periodic, dt, formula)


def _prim_length(name, window_length, ndim):
    """The window Primitives take the length as an Int32/Int64 Tensor of rank ``ndim``."""
    if not isinstance(window_length, Tensor):
        raise TypeError(f"For Primitive[{name}], the type of input argument[window_length] must be Tensor but got "
                        f"{type(window_length).__name__}.")
    a = window_length._data
    if a.dtype not in (jnp.int32, jnp.int64):
        raise TypeError(f"For primitive[{name}], the input argument[window_length] must be a type of "
                        f"{{Tensor[Int32], Tensor[Int64]}}, but got Tensor[{mstype.from_np(a.dtype)}].")
    if a.ndim != ndim or a.size != 1:
        raise ValueError(f"For '{name}', the dim of window_length must be {ndim}, but got: {a.ndim}.")
    n = int(_need_concrete(a, name).reshape(()))
    if n < 0:
        raise ValueError(f"For primitive[{name}], the length value must be greater than or equal to 0, but got {n}.")
    return n


def _prim_window_dtype(name, periodic, dtype):
    if not isinstance(periodic, bool):
        raise TypeError(f"For '{name}', the 'periodic' must be bool, but got {type(periodic).__name__}.")
    dt = mstype.to_np(dtype)
    if dt not in (jnp.float16, jnp.float32, jnp.float64):
        raise TypeError(f"For '{name}', the 'dtype' must be float16, float32 or float64, but got {dtype}.")
    return dt


@op("hann_window", family="nn")
def hann_window(window_length, periodic=True, *, dtype=None):
    """``ops.hann_window(window_length, periodic=True, *, dtype=None)``: ``0.5 - 0.5 cos(2 pi n / (N-1))``
    (Float64 by default)."""
    return _fn_window("hann_window", window_length, periodic, dtype, _hann)


@op("kaiser_window", family="nn")
def kaiser_window(window_length, periodic=True, beta=12.0, *, dtype=None):
    """``ops.kaiser_window(window_length, periodic=True, beta=12.0, *, dtype=None)``:
    ``I0(beta sqrt(1 - (2n/(N-1) - 1)^2)) / I0(beta)`` (Float64 by default)."""
    if isinstance(beta, bool) or not isinstance(beta, (int, float)):
        raise TypeError(f"For 'kaiser_window', 'beta' must be float, but got {type(beta)}")
    return _fn_window("kaiser_window", window_length, periodic, dtype,
                      lambda n, m: np.i0(beta * np.sqrt(np.clip(1 - (2 * n / m - 1) ** 2, 0, None))) / np.i0(beta))


def _hamming(alpha, beta):
    return lambda n, m: alpha - beta * np.cos(2 * np.pi * n / m)


@op("hamming_window", family="nn")
def hamming_window(window_length, periodic=True, alpha=0.54, beta=0.46, *, dtype=None):
    """``ops.hamming_window(window_length, periodic=True, alpha=0.54, beta=0.46, *, dtype=None)``:
    ``alpha - beta cos(2 pi n / (N-1))``; a Python int length, Float32 by default."""
    if isinstance(window_length, bool) or not isinstance(window_length, (int, np.integer)):
        raise TypeError(f"For array function 'hamming_window', 'window_length' must be int, but got "
                        f"{type(window_length)}.")
    if window_length < 0:
        raise ValueError(f"For array function 'hamming_window', 'window_length' must be non-negative, but got "
                         f"{window_length}.")
    for k, v in (("alpha", alpha), ("beta", beta)):
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise TypeError(f"For array function 'hamming_window', '{k}' must be float, but got {type(v)}.")
    dt = _prim_window_dtype("hamming_window", periodic, mstype.float32 if dtype is None else dtype)
    return _window(int(window_length), periodic, dt, _hamming(alpha, beta))


@op("blackman_window", primitive="BlackmanWindow", prim_args=("periodic", "dtype"), family="nn")
def blackman_window(window_length, periodic=True, *, dtype=None):
    """``ops.blackman_window(window_length, periodic=True, *, dtype=None)`` and
    ``ops.BlackmanWindow(periodic=True, dtype=float32)(window_length)``: the length is a 0-d
    Int32/Int64 Tensor (also in the functional form)."""
    n = _prim_length("BlackmanWindow", window_length, 0)
    dt = _prim_window_dtype("BlackmanWindow", periodic, mstype.float32 if dtype is None else dtype)
    return _window(n, periodic, dt, _blackman)


@op("bartlett_window", primitive="BartlettWindow", prim_args=("periodic", "dtype"), family="nn")
def bartlett_window(window_length, periodic=True, *, dtype=None):
    """``ops.bartlett_window(window_length, periodic=True, *, dtype=None)`` and
    ``ops.BartlettWindow(periodic=True, dtype=float32)(window_length)``: the triangular window; the
    length is a 0-d Int32/Int64 Tensor."""
    n = _prim_length("BartlettWindow", window_length, 0)
    dt = _prim_window_dtype("BartlettWindow", periodic, mstype.float32 if dtype is None else dtype)
    return _window(n, periodic, dt, _bartlett)


@op("prim_hamming_window", primitive="HammingWindow", prim_args=("periodic", "alpha", "beta", "dtype"),
    family="nn")
def prim_hamming_window(length, periodic=True, alpha=0.54, beta=0.46, dtype=mstype.float32):
    """``ops.HammingWindow(periodic=True, alpha=0.54, beta=0.46, dtype=float32)(length)``; ``length``
    is a 1-element 1-D Int32/Int64 Tensor."""
    n = _prim_length("HammingWindow", length, 1)
    return _window(n, periodic, _prim_window_dtype("HammingWindow", periodic, dtype), _hamming(alpha, beta))
