"""How a convolution is computed: XLA's convolution or patches times one matrix product
(im2col), chosen per backend, shape and pass (forward, input gradient, weight gradient).

Every convolution in msjax (``Conv1d/2d/3d``, ``ops.conv*``, the ``Conv2D``/``Conv3D``
Primitives, and their transposes, which are the input gradients of the forward ones) goes
through :func:`convolve`. On GPU and TPU it is ``lax.conv_general_dilated``. On the CPU,
XLA hands most convolutions to Eigen, but some fall to an unoptimised loop nest that is 10-50x
slower than a matrix product doing the same work: in practice, the ones whose kernel reaches
over the whole input, such as a 3x3 kernel on the 2x2 and 1x1 feature maps at the end of a
ResNet, and the input gradient of a strided 3x3 convolution on a 4x4 map
(``bench/conv_lowering.py`` measures each pass both ways). Pointwise convolutions (1x1 kernel,
stride 1, no padding) are matrix products, faster as one ``dot_general`` in every pass. For those passes msjax gathers the
``k**d`` shifted, strided views of the padded input into a patches array and contracts it with
the weight in one ``dot_general``. The three passes are chosen separately; the derivative rule
(a ``jax.custom_jvp``, so forward mode works too) computes the tangent of each argument with the
lowering chosen for its pass, and reverse mode transposes that.

With msjax's native oneDNN kernels (``msjax/ops/_native``: XLA FFI custom calls, built on first
use; the default install on Linux x86-64), ``auto`` sends float32 CPU passes to oneDNN (``plan``
says which); they are cacheable. Only where those cannot be had, the optional ``cpu-kernels``
extra (PyTorch's CPU build, host callbacks) takes narrow float32 convolutions, unless the
persistent compile cache is on: JAX cannot store programs with host callbacks. A float16
convolution on the CPU is the float32 one rounded once (:func:`raised_to_float32`). On the CPU,
kernel taps that only ever meet padding are dropped first (:func:`crop_dead_taps`), except before
msjax's native oneDNN kernels (MindSpore's kernels keep them, and its sums with them).

The choice is made when the convolution is traced, from its shapes, and can be forced with the
environment variable ``MSJAX_CONV_LOWERING``: ``auto`` (default), ``xla`` (always XLA's
convolution), ``im2col`` (always patches + matrix product, on every backend) or ``onednn``
(oneDNN wherever the extra can serve: float32, outside forward-mode traces);
``MSJAX_CPU_KERNELS=0`` keeps ``auto`` off oneDNN. Results agree
with XLA's convolution to float32 rounding (the sums are taken in another order).

Difference from MindSpore: on the native oneDNN kernels the values are MindSpore's (the same
primitives on the same plain layouts; oneDNN 3.2 against MindSpore's 3.10.1 differs in the weight
gradient of a one-channel input), elsewhere they agree to float rounding; MindSpore has no such setting.
"""
from __future__ import annotations

import contextlib
import contextvars
import functools
import itertools
import math
import os

import jax
import jax.numpy as jnp
from jax import lax

from ..._core import compile_cache, state
from . import conv_onednn

LOWERINGS = ("auto", "xla", "im2col", "onednn")
ENV = "MSJAX_CONV_LOWERING"
KERNELS_ENV = "MSJAX_CPU_KERNELS"
# With the cpu-kernels extra installed, a convolution goes to oneDNN when each output sums over few
# inputs (C_in / groups * kernel taps, where Eigen's matrix kernels are poorly used: LeNet5's 25 and
# 150) and it has enough multiply-adds to repay the callback's fixed cost (~0.3 ms); wider
# convolutions (ResNet's 576 and up) are as fast or faster on XLA (bench/conv_lowering.py).
ONEDNN_MAX_CONTRACTION = 160
ONEDNN_MIN_MACS = 2_000_000


_FORCED = contextvars.ContextVar("msjax_conv_lowering", default=None)


@contextlib.contextmanager
def forced(value):
    """Trace with the lowering ``value`` (one of ``LOWERINGS``) in this thread / task only, over
    ``MSJAX_CONV_LOWERING``: the exporters trace every convolution as XLA's (a MindIR ``Conv2D``,
    an ONNX ``Conv``) without touching the process environment other threads read."""
    token = _FORCED.set(value)
    try:
        yield
    finally:
        _FORCED.reset(token)


def exporting():
    """Whether an exporter's trace forced XLA's forms (``forced("xla")``): ops keep their one-node form."""
    return _FORCED.get() == "xla"


def setting():
    """The forced lowering: ``forced(...)``'s, else ``MSJAX_CONV_LOWERING`` (``auto`` when unset)."""
    value = _FORCED.get() or os.environ.get(ENV, "auto").strip().lower() or "auto"
    if value not in LOWERINGS:
        raise ValueError(f"{ENV} must be one of {list(LOWERINGS)}, but got '{value}'.")
    return value


def _onednn_usable(dtype):
    """oneDNN through the cpu-kernels extra: installed, float32, and not in a forward-mode trace
    (its passes are a custom_vjp)."""
    return (dtype == jnp.float32 and state.FORWARD_MODE[0] == 0 and conv_onednn.available())


def _dimension_numbers(nd):
    s = "DHW"[3 - nd:]
    return lax.conv_dimension_numbers((1,) * (nd + 2), (1,) * (nd + 2), ("NC" + s, "OI" + s, "NC" + s))


def xla_conv(x, w, stride, pads, dilation, groups):
    """``lax.conv_general_dilated`` in MindSpore's layout (NC*, OI*)."""
    return lax.conv_general_dilated(x, w, window_strides=stride, padding=pads, rhs_dilation=dilation,
                                    feature_group_count=groups, dimension_numbers=_dimension_numbers(x.ndim - 2),
                                    precision=lax.Precision.HIGHEST)


def _out_sizes(in_sizes, kernel, stride, pads, dilation):
    return tuple((n + lo + hi - d * (k - 1) - 1) // s + 1
                 for n, k, s, (lo, hi), d in zip(in_sizes, kernel, stride, pads, dilation))


def window_views(xp, kernel, stride, dilation, sizes):
    """The ``prod(kernel)`` strided views of the (already padded) ``xp`` that sliding windows over
    its last ``len(kernel)`` axes read, one per kernel offset (row-major), each of ``sizes``."""
    lead = xp.ndim - len(kernel)
    views = []
    for offset in itertools.product(*(range(k) for k in kernel)):
        start = tuple(i * d for i, d in zip(offset, dilation))
        limit = tuple(b + (m - 1) * s + 1 for b, m, s in zip(start, sizes, stride))
        views.append(lax.slice(xp, (0,) * lead + start, xp.shape[:lead] + limit, (1,) * lead + tuple(stride)))
    return views


def im2col_conv(x, w, stride, pads, dilation, groups):
    """The same convolution as patches (N, C, k**d, *out) contracted with the weight over (C, k**d)."""
    n, c = x.shape[:2]
    o, kernel = w.shape[0], w.shape[2:]
    zero = jnp.zeros((), x.dtype)
    xp = lax.pad(x, zero, [(0, 0, 0), (0, 0, 0)] + [(lo, hi, 0) for lo, hi in pads])
    out = _out_sizes(x.shape[2:], kernel, stride, pads, dilation)
    views = window_views(xp, kernel, stride, dilation, out)
    kk, length = math.prod(kernel), math.prod(out)
    patches = jnp.stack(views, axis=2)                               # N, C, k**d, *out
    cg, og = c // groups, o // groups
    patches = patches.reshape(n, groups, cg * kk, length)
    wg = w.reshape(groups, og, cg * kk)
    y = lax.dot_general(wg, patches, (((2,), (2,)), ((0,), (1,))),   # groups, O/g, N, L
                        precision=lax.Precision.HIGHEST)
    y = jnp.transpose(y, (2, 0, 1, 3))
    return y.reshape((n, o) + out)


_IMPLS = {"xla": xla_conv, "im2col": im2col_conv}


def _xla_slow(in_sizes, kernel, dilation):
    """Whether XLA:CPU's convolution over inputs of ``in_sizes`` (after any stride dilation of the
    input, before padding) is the slow loop nest: measured, when the dilated kernel spans the input."""
    return any((k - 1) * d + 1 >= n for n, k, d in zip(in_sizes, kernel, dilation))


def _onednn_kind(dtype):
    """Which oneDNN path ``auto`` may use: ``'ffi'`` / ``'torch'`` (see :mod:`conv_onednn`) or None
    (off through ``MSJAX_CPU_KERNELS=0``, not float32, in a forward-mode trace, or neither path)."""
    if os.environ.get(KERNELS_ENV, "1") == "0" or dtype != jnp.float32 or state.FORWARD_MODE[0] != 0:
        return None
    return conv_onednn.backend()


def plan(x_shape, w_shape, stride, pads, dilation, groups, backend=None, dtype=jnp.float32):
    """The lowering of each pass, ``(forward, input gradient, weight gradient)``, for this convolution."""
    forced = setting()
    if forced == "onednn":
        empty = math.prod(x_shape) == 0 or math.prod(w_shape) == 0
        forced = "onednn" if _onednn_usable(dtype) and not empty else "xla"
    if forced != "auto":
        return (forced,) * 3
    backend = backend or jax.default_backend()
    kernel = w_shape[2:]
    out = _out_sizes(x_shape[2:], kernel, stride, pads, dilation)
    if backend != "cpu" or min(out, default=1) < 1 or math.prod(x_shape) == 0 or math.prod(w_shape) == 0:
        return ("xla",) * 3
    contraction = math.prod(w_shape[1:])
    macs = x_shape[0] * w_shape[0] * math.prod(out) * contraction
    slow = _xla_slow(x_shape[2:], kernel, dilation)
    if all(k == 1 for k in kernel) and all(st == 1 for st in stride) and not any(lo or hi for lo, hi in pads):
        # a pointwise (1x1, stride 1, unpadded) convolution is a matrix product: XLA:CPU's
        # convolution was 1.5-2x slower forward and 3-8x slower for the weight gradient
        # (PointNet's Conv1d stack over 2,500 points; bench/conv_lowering.py --nets pointnet)
        base = ("im2col",) * 3
    else:
        # grouped convolutions (ShuffleNet's and MobileNet's depthwise 3x3) are XLA:CPU's slow loop in
        # every pass, the input gradient worst (3.9 s vs 0.09 s as patches for 8x120x56x56, stride 2)
        grouped = groups > 1
        fwd = "im2col" if slow or grouped else "xla"
        # the input gradient is a convolution over the output gradient dilated by the stride
        grad_in = tuple((m - 1) * s + 1 for m, s in zip(out, stride))
        bx = "im2col" if grouped or _xla_slow(grad_in, kernel, dilation) else "xla"
        base = (fwd, bx, fwd)
    kind = _onednn_kind(dtype)
    if kind == "ffi":
        # msjax's native oneDNN kernels (no callback, cacheable): every pass, as MindSpore's CPU
        # kernels run them (its bits: issue 33). Two passes were kept on the plan above while
        # oneDNN did them slower (bench/conv_lowering.py): the input gradient of a convolution with
        # under 4 input channels per group and the weight gradient of one whose output map has at
        # most 4 positions (ResNet's 2x2 and 1x1 maps); they gave the zoo ResNet-18 other bits
        return ("onednn",) * 3
    # PyTorch's kernels through callbacks: JAX stores no executable with host callbacks in the
    # persistent cache, so with the compile cache on, auto keeps convolutions cacheable
    # (MSJAX_CONV_LOWERING=onednn still forces oneDNN)
    if (kind == "torch" and not slow and contraction <= ONEDNN_MAX_CONTRACTION and macs >= ONEDNN_MIN_MACS
            and compile_cache.active_path() is None):
        return ("onednn",) * 3
    return base


def _jax_passes(name, stride, pads, dilation, groups):
    """``(forward(x, w), grad_input(g, x, w), grad_weight(g, x, w))`` of a JAX lowering."""
    impl = functools.partial(_IMPLS[name], stride=stride, pads=pads, dilation=dilation, groups=groups)
    return (impl,
            lambda g, x, w: jax.vjp(lambda x_: impl(x_, w), x)[1](g)[0],
            lambda g, x, w: jax.vjp(lambda w_: impl(x, w_), w)[1](g)[0])


def _mixed_vjp(lowerings, stride, pads, dilation, groups):
    """A ``jax.custom_vjp`` whose passes mix msjax's oneDNN FFI kernels with JAX lowerings."""
    ffi = conv_onednn.ffi_passes(stride, pads, dilation, groups)
    fwd, bx, bw = (ffi[i] if name == "onednn" else _jax_passes(name, stride, pads, dilation, groups)[i]
                   for i, name in enumerate(lowerings))

    @jax.custom_vjp
    def conv(x, w):
        return fwd(x, w)

    def conv_fwd(x, w):
        return conv(x, w), (x, w)

    def conv_bwd(res, g):
        x, w = res
        return bx(g, x, w), bw(g, x, w)

    conv.defvjp(conv_fwd, conv_bwd)
    return conv


@functools.lru_cache(maxsize=None)
def _planned(lowerings, stride, pads, dilation, groups):
    """A convolution of (x, w) whose passes use ``lowerings``; one function per configuration."""
    if "onednn" in lowerings:
        if len(set(lowerings)) > 1 and conv_onednn.backend() == "ffi":
            return _mixed_vjp(lowerings, stride, pads, dilation, groups)
        return conv_onednn.conv_function(stride, pads, dilation, groups)
    fwd, bx, bw = (functools.partial(_IMPLS[name], stride=stride, pads=pads, dilation=dilation, groups=groups)
                   for name in lowerings)
    if len(set(lowerings)) == 1:
        return fwd            # one lowering: JAX differentiates it directly

    @jax.custom_jvp
    def conv(x, w):
        return fwd(x, w)

    def conv_jvp(primals, tangents):
        x, w = primals
        dx, dw = tangents
        parts = []
        if not isinstance(dx, jax.custom_derivatives.SymbolicZero):
            parts.append(bx(dx, w))
        if not isinstance(dw, jax.custom_derivatives.SymbolicZero):
            parts.append(bw(x, dw))
        y = fwd(x, w)
        return y, functools.reduce(jnp.add, parts) if parts else jnp.zeros_like(y)

    conv.defjvp(conv_jvp, symbolic_zeros=True)
    return conv


def live_taps(in_sizes, kernel, stride, pads, dilation):
    """Per spatial axis, the first and last kernel tap that some output position reads inside
    the input (the others only ever meet padding), or None when every tap does."""
    out = _out_sizes(in_sizes, kernel, stride, pads, dilation)
    spans, cropped = [], False
    for n, k, s, (lo, _), d, m in zip(in_sizes, kernel, stride, pads, dilation, out):
        # the first output position whose tap t lands at or after the input's start
        first = [max(0, -((t * d - lo) // s)) for t in range(k)]
        live = [t for t, o in zip(range(k), first) if o < m and o * s + t * d - lo < n]
        if not live:
            return None
        spans.append((live[0], live[-1]))
        cropped |= live[0] > 0 or live[-1] < k - 1
    return tuple(spans) if cropped else None


def crop_dead_taps(x, w, stride, pads, dilation):
    """The same convolution without the kernel taps that only ever multiply padding (a 3x3
    kernel on ResNet's 1x1 maps is its centre tap: a matrix product): ``(x, w, pads)``, the input
    sliced where the new padding would be negative. Exact: the dropped products are zeros, and
    the dropped taps' weight gradient is zero."""
    kernel = w.shape[2:]
    spans = live_taps(x.shape[2:], kernel, stride, pads, dilation)
    if spans is None:
        return x, w, pads
    w = lax.slice(w, (0, 0) + tuple(a for a, _ in spans), w.shape[:2] + tuple(b + 1 for _, b in spans))
    # the kept taps a..b cover the same output positions with lo' = lo - a*d, hi' = hi - (K-1-b)*d
    new_pads, starts, limits = [], [], []
    for n, k, (lo, hi), d, (a, b) in zip(x.shape[2:], kernel, pads, dilation, spans):
        lo2, hi2 = lo - a * d, hi - (k - 1 - b) * d
        starts.append(max(0, -lo2))
        limits.append(n - max(0, -hi2))
        new_pads.append((max(0, lo2), max(0, hi2)))
    if any(starts) or tuple(limits) != tuple(x.shape[2:]):
        x = lax.slice(x, (0, 0) + tuple(starts), x.shape[:2] + tuple(limits))
    return x, w, tuple(new_pads)


def convolve(x, w, stride, pads, dilation, groups):
    """N-d convolution in MindSpore's layout, each pass lowered as :func:`plan` says; on the CPU,
    kernel taps that only meet padding are dropped first (:func:`crop_dead_taps`), except from the
    forward pass on msjax's native oneDNN kernels (:func:`_full_forward`). A float16 convolution on
    the CPU is the float32 one rounded (:func:`raised_to_float32`)."""
    stride, dilation = tuple(stride), tuple(dilation)
    pads = tuple(tuple(p) for p in pads)
    if raised_to_float32(x, w):
        return convolve(x.astype(jnp.float32), w.astype(jnp.float32), stride, pads, dilation, groups).astype(x.dtype)
    dtype = x.dtype if x.dtype == w.dtype else None     # mixed operand dtypes never reach oneDNN
    if jax.default_backend() != "cpu" or setting() != "auto":
        return _planned(plan(x.shape, w.shape, stride, pads, dilation, groups, dtype=dtype),
                        stride, pads, dilation, groups)(x, w)
    if _onednn_kind(dtype) == "ffi" and live_taps(x.shape[2:], w.shape[2:], stride, pads, dilation) is not None:
        return _full_forward(stride, pads, dilation, groups)(x, w)
    x, w, pads = crop_dead_taps(x, w, stride, pads, dilation)
    return _planned(plan(x.shape, w.shape, stride, pads, dilation, groups, dtype=dtype),
                    stride, pads, dilation, groups)(x, w)


def raised_to_float32(x, w):
    """Whether this convolution runs in float32 and rounds its result: float16 operands on the CPU
    under the ``auto``/``onednn`` lowerings. MindSpore 2.10's CPU build has float32 convolution
    kernels only; its kernel selection (``kernel_select_cpu.cc``, ``InputDtypeMatch``: a float32 kernel
    accepts float16 inputs) widens a float16 ``Conv2D`` (and ``Conv2DBackpropInput`` /
    ``Conv2DBackpropFilter``, the gradients) to float32 with casts, runs the float32 kernel and casts
    the result back to float16 (round to nearest even), so every pass is the float32 one rounded
    once (``tests/golden/conv_float16.py``, bit for bit). The casts' transposes are casts, so JAX's
    reverse mode gives both gradients that way too. XLA:CPU's own float16 convolution was also 6x
    slower than the float32 one (the zoo Unet at O3: 0.26x MindSpore's steps/s, issue 36)."""
    return (x.dtype == jnp.float16 and w.dtype == jnp.float16 and setting() in ("auto", "onednn")
            and jax.default_backend() == "cpu")


@functools.lru_cache(maxsize=None)
def _full_forward(stride, pads, dilation, groups):
    """``conv(x, w)`` with dead kernel taps, for oneDNN: the forward pass keeps them, as MindSpore's
    kernels do (the shorter contraction of the cropped kernel is summed in another order: the zoo
    ResNet-18's 3x3 convolutions on 2x2 and 1x1 maps gave other bits), while both gradients are the
    cropped convolution's (the same bits as the full kernel's on oneDNN, bench/resnet18_step_bits.py;
    a 3x3 kernel on a 1x1 map's gradients 18x faster)."""
    def cropped(x, w):
        x2, w2, p2 = crop_dead_taps(x, w, stride, pads, dilation)
        return _planned(plan(x2.shape, w2.shape, stride, p2, dilation, groups), stride, p2, dilation, groups)(x2, w2)

    @jax.custom_vjp
    def conv(x, w):
        return _planned(plan(x.shape, w.shape, stride, pads, dilation, groups), stride, pads, dilation, groups)(x, w)

    def conv_fwd(x, w):
        return conv(x, w), (x, w)

    def conv_bwd(res, g):
        return jax.vjp(cropped, *res)[1](g)

    conv.defvjp(conv_fwd, conv_bwd)
    return conv
