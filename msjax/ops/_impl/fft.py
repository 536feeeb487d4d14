"""The FFT family of ``mindspore.ops`` (``fft``/``ifft``/``rfft``/``irfft``/``hfft``/``ihfft``, their
``2``/``n`` forms, ``fftshift``/``ifftshift``, ``fftfreq``/``rfftfreq``, the ``FFTWithSize`` Primitive) on
``jax.numpy.fft``.

As MindSpore 2.10's CPU kernels: Int16/Int32/Int64, Float16, BFloat16 and Float32 inputs compute in
Float32 (Complex64 results), Float64 in Float64; Int8, UInt* and Bool inputs raise its TypeError.
``rfft*`` and ``ihfft*`` also take complex inputs (the complex transform, cut to ``n // 2 + 1``).
``norm`` is case-insensitive. Each transform's gradient is MindSpore's backward rule (the opposite
transform with the opposite ``norm``, zero-padded or cut to the input's shape; the one-sided
spectrum's inner entries doubled after ``irfft*``/``hfft*``; cast to the input's dtype), written as a
``jax.custom_vjp``.

Differences (docs/differences.md): ``rfft*``/``ihfft*`` of a complex batch give each row's transform
(MindSpore 2.10 fills the rows after the first from the wrong part of its buffer); ``fftn(x, s)`` with
more sizes than ``x`` has dimensions raises a ValueError and the gradient of ``irfftn``/``hfftn`` given
``s`` without ``dim`` is computed (MindSpore 2.10 aborts the process on both); ``fftn(x, dim=())``
returns ``x`` as a complex Tensor (MindSpore 2.10 returns uninitialized memory); an unsupported dtype's
TypeError gives the kernel-selection line only.
"""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from ..._core import dtype as mstype
from ..._core import state
from ..._core.registry import op
from ._util import Tensor, shape_text, wrap

_OK = {np.dtype(t) for t in (np.int16, np.int32, np.int64, np.float16, np.float32, np.float64,
                             np.complex64, np.complex128)} | {np.dtype(jnp.bfloat16)}
_SWAP = {"backward": "forward", "forward": "backward", "ortho": "ortho"}


# ---------------------------------------------------------------------------
# argument checks, with MindSpore's messages
# ---------------------------------------------------------------------------

def _type_name(v):
    """MindSpore's name of an argument's type in its signature errors."""
    if isinstance(v, Tensor):
        return "Tensor"
    if v is None:
        return "None"
    if isinstance(v, str):
        return "string"
    if isinstance(v, (tuple, list)):
        return f"{type(v).__name__.capitalize()}<{', '.join(map(_type_name, v))}>"
    if isinstance(v, (bool, int, float)):
        return type(v).__name__
    return f"<class '{type(v).__module__}.{type(v).__name__}'>" if type(v).__module__ != "builtins" \
        else f"<class '{type(v).__name__}'>"


def _is_int(v):
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def _ints(v):
    return isinstance(v, (tuple, list)) and all(_is_int(i) for i in v)


def _signature_error(prim, args, valid):
    shown = ", ".join(f"{k}={'string' if k == 'norm' and v is None else _type_name(v)}" for k, v in args)
    return TypeError(f'Failed calling {prim} with "{prim}()({shown})".\nThe valid calling should be: \n'
                     f'"{prim}()({valid})".')


def _dtype_error(prim, a):
    return TypeError(f"Select CPU operator[{prim}] fail! Unsupported data type! The supported data types are "
                     f"Int16, Int32, Int64, BFloat16, Float16, Float32, Float64, Complex64 and Complex128, but got "
                     f"{mstype.from_np(a.dtype)}.")


def _norm(prim, norm):
    if norm is None:
        return "backward"
    key = norm.lower()
    if key not in _SWAP:
        raise ValueError(f"Failed to convert the value \"{norm}\" of input 'norm' of '{prim}' to enum.")
    return key


def _positive(what, values):
    for v in values:
        if v <= 0:
            raise ValueError(f"The argument[{what}] must be greater than 0, but got {v}.")


def _axis(prim, d, ndim, high):
    if not -ndim <= d < ndim:
        raise ValueError(f"For primitive[{prim}], the dim must be in [{-ndim},{high}), but got {d}.")
    return d % ndim


def _input(prim, x, args, valid):
    """The array of ``x`` (a Tensor of a supported dtype and rank 1 to 8), after the signature check."""
    if not isinstance(x, Tensor):
        raise _signature_error(prim, args, valid)
    a = x._data
    if a.dtype not in _OK:
        raise _dtype_error(prim, a)
    if not 1 <= a.ndim <= 8:
        raise ValueError(f"For primitive[{prim}], the rank of input must be in [1,8], but got {a.ndim}.")
    return a


def _norm_type(prim, norm):
    if not (norm is None or isinstance(norm, str)):
        raise TypeError(f"For '{prim}', the input 'norm' should be a str, but got {type(norm)}.")


def _one_args(prim, x, n, dim, norm):
    """The checked ``(array, s, axes, norm)`` of a one-dimensional transform."""
    args = (("input", x), ("n", n), ("dim", dim), ("norm", norm))
    valid = "input=<Tensor>, n=<int>, dim=<int>, norm=<string>"
    if not isinstance(x, Tensor) or not (n is None or _is_int(n)) or not _is_int(dim):
        raise _signature_error(prim, args, valid)
    _norm_type(prim, norm)
    a = _input(prim, x, args, valid)
    axis = _axis(prim, int(dim), a.ndim, a.ndim - 1)
    if n is not None:
        _positive("n", (int(n),))
    return a, (None if n is None else (int(n),)), (axis,), _norm(prim, norm)


def _many_args(prim, x, s, dim, norm, dim_none_ok):
    """The checked ``(array, s, axes, norm)`` of a 2-D / N-D transform (``s`` None or one size per axis)."""
    args = (("input", x), ("s", s), ("dim", dim), ("norm", norm))
    seq = "<list of int, tuple of int>"
    valid = f"input=<Tensor>, s={seq}, dim={seq}, norm=<string>"
    if not isinstance(x, Tensor) or not (s is None or _ints(s)) or not (_ints(dim) or dim is None and dim_none_ok):
        raise _signature_error(prim, args, valid)
    _norm_type(prim, norm)
    a = _input(prim, x, args, valid)
    norm = _norm(prim, norm)
    if s is not None:
        _positive("s", s)
    if dim is None:
        k = a.ndim if s is None else len(s)
        if k > a.ndim:
            raise ValueError(f"For primitive[{prim}], the length of s must be in [1,{a.ndim}], but got {k}.")
        axes = tuple(range(a.ndim - k, a.ndim))
    else:
        if s is not None and len(s) != len(dim):
            raise ValueError("When givec, dim and s arguuments must have the same length.")
        axes = tuple(_axis(prim, int(d), a.ndim, a.ndim) for d in dim)
        if len(set(axes)) != len(axes):
            raise ValueError("The dims must be unique.")
    return a, (None if s is None else tuple(int(v) for v in s)), axes, norm


# ---------------------------------------------------------------------------
# the transforms and MindSpore's backward rules
# ---------------------------------------------------------------------------

def _real_dtype(a):
    return jnp.float64 if a.dtype in (jnp.float64, jnp.complex128) else jnp.float32


def _as_real(a):
    return a if jnp.issubdtype(a.dtype, jnp.complexfloating) else a.astype(_real_dtype(a))


def _as_complex(a):
    return a.astype(jnp.complex128 if _real_dtype(a) == jnp.float64 else jnp.complex64)


def _shape_copy(g, shape):
    """MindSpore's ``FFTShapeCopy``: ``g`` cut or zero-padded (at the end) to ``shape``."""
    g = g[tuple(slice(0, d) for d in shape)]
    pad = [(0, d - e) for d, e in zip(shape, g.shape)]
    return jnp.pad(g, pad) if any(p for _, p in pad) else g


def _double(g, n, axis):
    """MindSpore's ``IRFFTDouble``: entries ``1 .. ceil(n / 2) - 1`` of ``axis`` doubled (the one-sided
    spectrum's entries that stand for two)."""
    w = np.ones(g.shape[axis], np.float32)
    w[1:(n + 1) // 2] = 2
    return g * w.reshape((-1,) + (1,) * (g.ndim - axis - 1)).astype(g.dtype)


def _c2c(a, s, axes, norm, inverse):
    return (jnp.fft.ifftn if inverse else jnp.fft.fftn)(a, s, axes, norm)


def _r2c(a, s, axes, norm, inverse):
    """``rfftn`` (``inverse`` False) or ``ihfftn``; a complex input is transformed whole, then cut."""
    if jnp.issubdtype(a.dtype, jnp.complexfloating):
        y = _c2c(a, s, axes, norm, inverse)
        return y[(slice(None),) * axes[-1] + (slice(0, y.shape[axes[-1]] // 2 + 1),)]
    y = jnp.fft.rfftn(a, s, axes, _SWAP[norm] if inverse else norm)
    return jnp.conj(y) if inverse else y


def _c2r(a, s, axes, norm, hermitian):
    """``irfftn`` or (``hermitian``) ``hfftn``, for complex ``a`` and a full ``s``."""
    if s[-1] == 0:   # irfft of one entry: MindSpore returns an empty result
        shape = list(a.shape)
        for ax, d in zip(axes, s):
            shape[ax] = d
        return jnp.zeros(shape, _real_dtype(a))
    if hermitian:
        return jnp.fft.irfftn(jnp.conj(a), s, axes, _SWAP[norm])
    return jnp.fft.irfftn(a, s, axes, norm)


def _transform(forward, backward):
    """``forward(a, s, axes, norm, flag)`` as a ``jax.custom_vjp`` whose gradient is MindSpore's rule
    ``backward(g, s, axes, norm, flag, input shape, input dtype)`` (forward mode: JAX's own derivative)."""
    f = jax.custom_vjp(forward, nondiff_argnums=(1, 2, 3, 4))

    def fwd(a, s, axes, norm, flag):
        return forward(a, s, axes, norm, flag), (a.shape, jnp.zeros((0,), a.dtype))   # the dtype, as an array

    def bwd(s, axes, norm, flag, res, g):
        return (backward(g, s, axes, norm, flag, res[0], res[1].dtype),)

    f.defvjp(fwd, bwd)
    # a forward-mode (jvp) trace cannot use a custom backward rule: it differentiates the transform itself
    return lambda *args: forward(*args) if state.FORWARD_MODE[0] else f(*args)


def _c2c_grad(g, s, axes, norm, inverse, shape, dt):
    # the opposite transform with the opposite norm, cut or zero-padded to the input's shape
    return _shape_copy(_c2c(g, None, axes, _SWAP[norm], not inverse), shape)


def _r2c_grad(g, s, axes, norm, inverse, shape, dt):
    # rfft: ifft of the one-sided gradient zero-padded, opposite norm; ihfft: ifft with the same norm
    r = _shape_copy(_c2c(g, s, axes, norm if inverse else _SWAP[norm], True), shape)
    return r if jnp.issubdtype(dt, jnp.complexfloating) else jnp.real(r).astype(dt)


def _c2r_grad(g, s, axes, norm, hermitian, shape, dt):
    # irfft: rfft of the gradient, hfft: ihfft of it (opposite norm), the inner entries doubled
    r = _r2c(g, s, axes, _SWAP[norm], hermitian)
    return _shape_copy(_double(r, s[-1], axes[-1]), shape).astype(dt)


_fft = _transform(_c2c, _c2c_grad)
_rfft = _transform(_r2c, _r2c_grad)
_irfft = _transform(_c2r, _c2r_grad)


def _full_s(a, s, axes, onesided_input):
    """``s`` with its defaults: the input's sizes (``2 (m - 1)`` on the last axis of a one-sided input)."""
    if s is not None:
        return s
    s = [a.shape[ax] for ax in axes]
    if onesided_input:
        s[-1] = 2 * (s[-1] - 1)
    return tuple(s)


def _complex_out(a, s, axes, norm, inverse):
    return wrap(_fft(_as_complex(a), s, axes, norm, inverse))


def _onesided_out(a, s, axes, norm, inverse):
    return wrap(_rfft(_as_real(a), _full_s(a, s, axes, False), axes, norm, inverse))


def _real_out(a, s, axes, norm, hermitian):
    return wrap(_irfft(_as_complex(a), _full_s(a, s, axes, True), axes, norm, hermitian))


def _register(name, prim, kind, flag, ndim):
    """``ops.<name>``: a 1-D (``ndim`` 1), 2-D or N-D transform of ``kind``."""
    if ndim == 1:
        def fn(input, n=None, dim=-1, norm=None):  # noqa: A002 - MindSpore's argument name
            return kind(*_one_args(prim, input, n, dim, norm), flag)
    else:
        default = (-2, -1) if ndim == 2 else None

        def fn(input, s=None, dim=default, norm=None):  # noqa: A002 - MindSpore's argument name
            return kind(*_many_args(prim, input, s, dim, norm, ndim != 2), flag)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = (f"``ops.{name}(input, {'n=None, dim=-1' if ndim == 1 else 's=None, dim=' + repr(default)}, "
                  f"norm=None)``: ``numpy.fft.{name}``'s transform with MindSpore's dtypes, errors and gradient.")
    return op(name, family="spectral")(fn)


for _name, _kind, _flag in (("fft", _complex_out, False), ("ifft", _complex_out, True),
                            ("rfft", _onesided_out, False), ("ihfft", _onesided_out, True),
                            ("irfft", _real_out, False), ("hfft", _real_out, True)):
    for _nd, _suffix in ((1, ""), (2, "2"), (3, "n")):
        _register(_name + _suffix, (_name + _suffix).upper(), _kind, _flag, _nd)


# ---------------------------------------------------------------------------
# fftshift / ifftshift, fftfreq / rfftfreq
# ---------------------------------------------------------------------------

def _shift(prim, x, dim, inverse):
    args, valid = (("input", x), ("dim", dim)), "input=<Tensor>, dim=<list of int, int, tuple of int>"
    if not isinstance(x, Tensor) or not (dim is None or _is_int(dim) or _ints(dim)):
        raise _signature_error(prim, args, valid)
    a = x._data
    if dim is None:
        axes = tuple(range(a.ndim))
    else:
        if a.ndim == 0:
            raise IndexError("input rank is zero, dim cannot be set.")
        axes = tuple(_axis(prim, int(d), a.ndim, a.ndim) for d in ((dim,) if _is_int(dim) else dim))
    if not axes:
        return wrap(a)
    shifts = [-(a.shape[ax] // 2) if inverse else a.shape[ax] // 2 for ax in axes]
    return wrap(jnp.roll(a, shifts, axes))


@op("fftshift", family="spectral")
def fftshift(input, dim=None):  # noqa: A002 - MindSpore's argument name
    """``ops.fftshift(input, dim=None)``: the zero frequency moved to the middle of each ``dim``
    (every dimension by default; a repeated dimension is shifted again, as NumPy's)."""
    return _shift("FFTShift", input, dim, False)


@op("ifftshift", family="spectral")
def ifftshift(input, dim=None):  # noqa: A002 - MindSpore's argument name
    """``ops.ifftshift(input, dim=None)``: the inverse of ``fftshift``."""
    return _shift("IFFTShift", input, dim, True)


def _freq(prim, n, d, dtype, onesided):
    args = (("n", n), ("d", d), ("dtype", "mindspore.dtype"))
    if isinstance(n, Tensor) and n._data.ndim == 0 and jnp.issubdtype(n._data.dtype, jnp.integer):
        n = int(n._data)
    if isinstance(d, Tensor) and d._data.ndim == 0:
        d = d._data.item()
    elif isinstance(d, Tensor):
        raise ValueError((f"For '{prim}', the value of 'd' is invalid: '{np.asarray(d._data)}'.",
                          "Only support 0-dim tenor to scalar."))
    if not _is_int(n) or not isinstance(d, float):
        shown = ", ".join(f"{k}={v if k == 'dtype' else _type_name(v)}" for k, v in args)
        raise TypeError(f'Failed calling {prim} with "{prim}()({shown})".\nThe valid calling should be: \n'
                        f'"{prim}()(n=<int>, d=<float>, dtype=<mindspore.dtype>)".')
    _positive("n", (n,))
    k = np.arange(n // 2 + 1) if onesided else np.concatenate([np.arange((n - 1) // 2 + 1),
                                                                np.arange(-(n // 2), 0)])
    with np.errstate(divide="ignore", invalid="ignore"):
        v = k / (n * np.float64(d))
    return wrap(jnp.asarray(v.astype(mstype.to_np(mstype.float32 if dtype is None else dtype))))


@op("fftfreq", family="spectral")
def fftfreq(n, d=1.0, dtype=None):
    """``ops.fftfreq(n, d=1.0, dtype=None)``: the sample frequencies ``[0, 1, ..., -1] / (n d)``,
    computed in Float64 and cast to ``dtype`` (Float32 by default)."""
    return _freq("FFTFreq", n, d, dtype, False)


@op("rfftfreq", family="spectral")
def rfftfreq(n, d=1.0, dtype=None):
    """``ops.rfftfreq(n, d=1.0, dtype=None)``: the ``n // 2 + 1`` non-negative frequencies."""
    return _freq("RFFTFreq", n, d, dtype, True)


# ---------------------------------------------------------------------------
# the FFTWithSize Primitive
# ---------------------------------------------------------------------------

_FWS_ARGS = ("signal_ndim", "inverse", "real", "norm", "onesided", "signal_sizes")
_RFFT_IN = {np.dtype(t) for t in (np.bool_, np.float32, np.float64, np.int16, np.int32, np.int64, np.int8, np.uint8)}


def _fws_check(signal_ndim=None, inverse=None, real=None, norm="backward", onesided=True, signal_sizes=()):
    if isinstance(norm, str):
        _norm("FFTWithSize", norm)


def _fws_types(x, attrs):
    ok = (_is_int(attrs[0]) and all(isinstance(v, bool) for v in attrs[1:3] + attrs[4:5])
          and isinstance(attrs[3], str) and _ints(attrs[5]) and isinstance(x, Tensor))
    if not ok:
        shown = ", ".join(f"{k}={_type_name(v)}" for k, v in zip(_FWS_ARGS, attrs))
        raise TypeError(f'Failed calling FFTWithSize with "FFTWithSize({shown})(x={_type_name(x)})".\nThe valid '
                        f'calling should be: \n"FFTWithSize(signal_ndim=<int>, inverse=<bool>, real=<bool>, '
                        f'norm=<string>, onesided=<bool>, signal_sizes=<tuple of int>)(x=<Tensor>)".')


def _fws_irfft_s(a, axes, signal_sizes):
    """The output sizes of FFTWithSize's onesided irfft, checked as MindSpore checks ``signal_sizes``."""
    m = a.shape[-1]
    if m == 1:
        raise ValueError(f"For 'FFTWithSize', the last dimension of the input cannot be 1, but got: {m}")
    lead = [a.shape[ax] for ax in axes[:-1]]
    if not signal_sizes:
        return tuple(lead + [2 * (m - 1)])
    if len(signal_sizes) != len(axes):
        raise ValueError(f"For 'FFTWithSize', signal_sizes is expected to be empty (default) or of "
                         f"signal_ndim={len(axes)}D, but got signal_sizes={shape_text(signal_sizes)}")
    if list(signal_sizes[:-1]) != lead or signal_sizes[-1] not in (2 * (m - 1), 2 * (m - 1) + 1):
        raise ValueError(f"For 'FFTWithSize', got invalid signal_sizes: {shape_text(signal_sizes)}, a valid one "
                         f"should be {shape_text(lead + [2 * (m - 1)])}, or {shape_text(lead + [2 * m - 1])}.")
    return tuple(int(v) for v in signal_sizes)


@op("prim_fft_with_size", primitive="FFTWithSize", prim_args=_FWS_ARGS, family="spectral", prim_check=_fws_check)
def prim_fft_with_size(x, signal_ndim=1, inverse=False, real=False, norm="backward", onesided=True, signal_sizes=()):
    """``ops.FFTWithSize(signal_ndim, inverse, real, norm='backward', onesided=True, signal_sizes=())(x)``: the
    fft/ifft (``real`` False), rfft or irfft (``real`` True) of the last ``signal_ndim`` dimensions, with the
    FFT family's backward rules (MindSpore's own rules for this Primitive compute the same gradients, but for
    a 3-D onesided rfft with norm forward/ortho, which MindSpore 2.10 divides by n / sqrt(n) once more)."""
    _fws_types(x, (signal_ndim, inverse, real, norm, onesided, signal_sizes))
    a = x._data
    if signal_ndim < 1 or a.ndim < signal_ndim:
        raise RuntimeError("x_dims must not be less than signal_ndim.")
    # as MindSpore 2.10's kernel, a signal_ndim above 3 transforms the last 3 dimensions
    axes, norm = tuple(range(a.ndim - min(signal_ndim, 3), a.ndim)), _norm("FFTWithSize", norm)
    mode = ("irfft" if inverse else "rfft") if real else "fft/ifft"
    allowed = _RFFT_IN if mode == "rfft" else {np.dtype(np.complex64), np.dtype(np.complex128)}
    if a.dtype not in allowed:
        names = ", ".join(sorted(str(mstype.from_np(d)) for d in allowed))
        raise TypeError(f"For primitive[FFTWithSize], the input argument[x] in {mode} mode must be a type of "
                        f"{{{names}}}, but got {mstype.from_np(a.dtype)}.")
    if not real:
        return wrap(_fft(a, None, axes, norm, inverse))
    if not inverse:
        a = _as_real(a)
        if onesided:
            return wrap(_rfft(a, tuple(a.shape[ax] for ax in axes), axes, norm, False))
        return wrap(_fft(_as_complex(a), None, axes, norm, False))
    if onesided:
        return wrap(_irfft(a, _fws_irfft_s(a, axes, signal_sizes), axes, norm, False))
    return wrap(jnp.real(_fft(a, None, axes, norm, True)))
