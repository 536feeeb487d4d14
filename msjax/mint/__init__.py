"""``mindspore.mint``: MindSpore's torch-style namespace (``dim``/``keepdim`` arguments,
``(values, indices)`` reductions, ``alpha``/``value`` keywords, ``dtype`` keywords).

Every name is a thin signature over the one implementation in ``msjax.ops`` (or a Tensor
method): renamed and reordered arguments, MindSpore's defaults and result dtypes; names whose
``mindspore.ops`` form already has mint's signature are that very function.

Differences from MindSpore 2.10:
- ``empty``/``empty_like`` return zero-filled Tensors (XLA has no uninitialised memory);
  ``device``/``pin_memory`` are accepted and ignored.
- Random functions draw from msjax's JAX key (or the ``generator`` given), so values differ
  from MindSpore's; shapes and dtypes are MindSpore's.
- Many mint ops have no CPU kernel in MindSpore 2.10 (``argmax``, ``sort``, ``topk``, ``std``,
  ``conv2d``...); msjax runs them on every backend.
"""
from __future__ import annotations

import builtins as _builtins

import numpy as _np
from jax import lax as _lax

from .. import ops as _ops
from ..ops._impl import random as _random
from ..ops._impl import views as _views
from ..ops._impl import linalg as _linalg
from .._core import dtype as _mstype
from .._core import rng as _rng
from .._core.tensor import Tensor

# Names whose mindspore.ops form has mint's signature: the very same function.
from ..ops import (abs, acos, acosh, addbmm, addcmul, addmm, addmv, arange, arccos, arccosh, arcsin,  # noqa: F401
                   arcsinh, arctan, arctan2, arctanh, asin, asinh, atan, atan2, atanh, baddbmm,
                   bitwise_and, bitwise_or, bitwise_xor, bmm, broadcast_to, ceil, cos, cosh, cross,
                   cumprod, div, divide, dstack, einsum, eq, erf, erfc, erfinv, exp, exp2, expm1, eye, flip,
                   float_power, floor, floor_divide, fmod, frac, full_like, gcd, ge, greater, greater_equal, gt,
                   histc, hstack, imag, isclose, isfinite, isinf, isnan, isneginf, le, lerp, less, less_equal, log,
                   log10, log1p, log2, logaddexp, logaddexp2, logical_and, logical_not, logical_or, logical_xor,
                   logsumexp, lt, masked_select, matmul, maximum, minimum, mm, mul, mv, ne, neg, negative, nonzero,
                   not_equal, ones_like, outer, polar, ravel, real, reciprocal, remainder, reshape, roll, round,
                   rsqrt, sign, sin, sinc, sinh, sqrt, square, t, take, tan, tanh, tile, trace, tril, triu, trunc,
                   unbind, unique_consecutive, unsqueeze, xlogy, zeros_like, searchsorted, sigmoid, inverse, narrow,
                   permute)  # noqa: F401
from . import nn, optim, linalg, special, distributed  # noqa: E402,F401
from .nn.functional import conv2d, softmax  # noqa: E402,F401


def _need(name, x, arg="input"):
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{name}', the '{arg}' must be a Tensor, but got {type(x).__name__}.")
    return x


# ---------------------------------------------------------------------------
# arithmetic with torch's keywords
# ---------------------------------------------------------------------------

def add(input, other, *, alpha=1):
    """``mint.add(input, other, *, alpha=1)``: ``input + alpha * other``."""
    return _need("add", input).add(other, alpha=alpha)


def sub(input, other, *, alpha=1):
    """``mint.sub(input, other, *, alpha=1)``: ``input - alpha * other``."""
    return _need("sub", input).sub(other, alpha=alpha)


def addcdiv(input, tensor1, tensor2, *, value=1):
    """``mint.addcdiv(input, tensor1, tensor2, *, value=1)``."""
    return _ops.addcdiv(input, tensor1, tensor2, value)


def pow(input, exponent):  # noqa: A001
    """``mint.pow(input, exponent)``."""
    return _ops.pow(input, exponent)


def clamp(input, min=None, max=None):  # noqa: A002
    """``mint.clamp(input, min=None, max=None)``: ``min``/``max`` both Tensors (or None) or both
    numbers (or None); a Tensor with a number is a TypeError, as MindSpore's overloads."""
    kinds = {isinstance(v, Tensor) for v in (min, max) if v is not None}
    if len(kinds) > 1:
        raise TypeError(f"Failed calling clamp with \"clamp(Tensor, {type(min).__name__}, {type(max).__name__})\". "
                        "'min' and 'max' must both be Tensors or both be numbers.")
    return _ops.clamp(input, min, max)


def clip(input, min=None, max=None):  # noqa: A002
    """``mint.clip``: ``mint.clamp``."""
    return clamp(input, min, max)


def equal(input, other):
    """``mint.equal(input, other)``: ``mint.eq`` (element-wise, as MindSpore 2.10)."""
    return _ops.eq(input, other)


def bitwise_not(input):
    """``mint.bitwise_not(input)``: ``~input`` (``ops.invert``; Bool is logical not)."""
    _need("bitwise_not", input)
    return _ops.logical_not(input) if input.dtype == _mstype.bool_ else _ops.Invert()(input)


def fix(input):
    """``mint.fix``: ``mint.trunc``."""
    return trunc(input)


def allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False):
    """``mint.allclose(input, other, rtol=1e-05, atol=1e-08, equal_nan=False)``: a Python bool."""
    return _builtins.bool(_ops.isclose(input, other, rtol, atol, equal_nan).all())


def clone(input):
    """``mint.clone(input)``: an independent copy."""
    return _need("clone", input).clone()


def item(input):
    """``mint.item(input)``: the one element as a Python number."""
    return _need("item", input).item()


def addr_(input, vec1, vec2, beta=1, alpha=1):
    """``mint.addr_(input, vec1, vec2, beta=1, alpha=1)``: ``ops.addr`` written into ``input``."""
    return _need("addr_", input).copy_(_ops.addr(input, vec1, vec2, beta=beta, alpha=alpha))


def dot(input, other):
    """``mint.dot(input, other)``: the inner product of two 1-D Tensors (``ops.matmul``)."""
    _need("dot", input)
    _need("dot", other, "other")
    if input.ndim != 1 or other.ndim != 1:
        raise RuntimeError(f"For 'dot', both inputs must be 1-D, but got {input.ndim}-D and {other.ndim}-D.")
    return _ops.matmul(input, other)


def vdot(input, other):
    """``mint.vdot(input, other)``: ``dot(conj(input), other)`` of two 1-D Tensors."""
    _need("vdot", input)
    return dot(_ops.conj(input) if input.is_complex() else input, other)


def triangular_solve(b, A, upper=True, transpose=False, unitriangular=False):
    """``mint.triangular_solve(b, A, upper=True, transpose=False, unitriangular=False)``:
    ``(X, A)`` with ``op(A) X = b`` (``ops.MatrixTriangularSolve``)."""
    _need("triangular_solve", A, "A")
    a = A
    if unitriangular:
        eye_ = _ops.eye(A.shape[-1], A.shape[-1], A.dtype)
        a = A * (1 - eye_) + eye_
    x = _ops.MatrixTriangularSolve(adjoint=transpose, lower=not upper)(a, b)
    return x, A.clone()


def cdist(x1, x2, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary"):
    """``mint.cdist(x1, x2, p=2.0, compute_mode=...)``: ``compute_mode`` is accepted (XLA picks)."""
    return _ops.cdist(x1, x2, p)


def kthvalue(input, k, dim=-1, keepdim=False):
    """``mint.kthvalue(input, k, dim=-1, keepdim=False)``: ``(values, indices)`` of the k-th smallest."""
    return _need("kthvalue", input).kthvalue(k, dim, keepdim)


def diag(input, diagonal=0):
    """``mint.diag(input, diagonal=0)``: a 1-D Tensor on a diagonal of a square matrix, or the
    ``diagonal``-th diagonal of a 2-D Tensor."""
    _need("diag", input)
    if input.ndim == 1:
        return _ops.diagflat(input, diagonal)
    if input.ndim != 2:
        raise ValueError(f"For 'diag', the input must be 1-D or 2-D, but got {input.ndim}-D.")
    return _ops.diagonal(input, diagonal)


# ---------------------------------------------------------------------------
# reductions: dim/keepdim, (values, indices) tuples
# ---------------------------------------------------------------------------

def _with_dtype(x, dtype):
    return x if dtype is None else _need("dtype", x).astype(dtype)


def sum(input, dim=None, keepdim=False, *, dtype=None):  # noqa: A001
    """``mint.sum(input, dim=None, keepdim=False, *, dtype=None)``."""
    return _ops.sum(input, dim, keepdim, dtype=dtype)


def mean(input, dim=None, keepdim=False, *, dtype=None):
    """``mint.mean(input, dim=None, keepdim=False, *, dtype=None)``."""
    return _ops.mean(_with_dtype(input, dtype), dim, keepdim)


def prod(input, dim=None, keepdim=False, *, dtype=None):
    """``mint.prod(input, dim=None, keepdim=False, *, dtype=None)``."""
    return _ops.prod(input, dim, keepdim, dtype)


def nansum(input, dim=None, keepdim=False, *, dtype=None):
    """``mint.nansum(input, dim=None, keepdim=False, *, dtype=None)``."""
    return _ops.nansum(input, dim, keepdim, dtype=dtype)


def all(input, dim=None, keepdim=False):  # noqa: A001
    """``mint.all(input, dim=None, keepdim=False)``."""
    return _ops.all(input, dim, keepdim)


def any(input, dim=None, keepdim=False):  # noqa: A001
    """``mint.any(input, dim=None, keepdim=False)``."""
    return _ops.any(input, dim, keepdim)


def amax(input, dim=(), keepdim=False):
    """``mint.amax(input, dim=(), keepdim=False)``: ``()`` reduces every dimension."""
    return _ops.amax(input, None if dim in ((), []) else dim, keepdim)


def amin(input, dim=(), keepdim=False):
    """``mint.amin(input, dim=(), keepdim=False)``."""
    return _ops.amin(input, None if dim in ((), []) else dim, keepdim)


_UNSET = object()


def _extreme(name, pick, elementwise, input, dim, keepdim, other):
    """MindSpore's overloads of ``mint.max``/``min``: ``(input)``, ``(input, dim: int, keepdim:
    bool=False)`` and ``(input, other)`` (a Tensor, float or bool second argument is ``other``),
    with its TypeErrors for the calls that match none."""
    if other is not None or isinstance(dim, (Tensor, float, _builtins.bool)):
        return elementwise(input, dim if other is None else other)
    _need(name, input)
    if dim is _UNSET:
        if keepdim is not _UNSET:
            raise TypeError(f'Failed calling {name} with "{name}(Tensor, keepdim={type(keepdim).__name__})".')
        return pick(input)[0]
    if dim is None:
        if keepdim is not _UNSET:
            raise TypeError(f"{name}(): missing 1 required positional argument: dim.")
        raise TypeError(f'Failed calling {name} with "{name}(Tensor, None)".')
    if keepdim is _UNSET:
        keepdim = False
    elif keepdim is None:
        raise TypeError(f"{name}(): missing 1 required positional argument: keepdim.")
    elif not isinstance(keepdim, _builtins.bool):
        raise TypeError(f"{name}(): argument 'keepdim' (position 3) must be bool, not {type(keepdim).__name__}.")
    return pick(input, dim, keepdim)


def max(input, dim=_UNSET, keepdim=_UNSET, *, other=None):  # noqa: A001
    """``mint.max(input)`` (the maximum), ``mint.max(input, dim, keepdim=False)`` (``(values,
    indices)``) or ``mint.max(input, other)`` (``mint.maximum``; a float or bool ``other`` too)."""
    return _extreme("max", _ops.max, _ops.maximum, input, dim, keepdim, other)


def min(input, dim=_UNSET, keepdim=_UNSET, *, other=None):  # noqa: A001
    """``mint.min``: as ``mint.max`` for the minimum."""
    return _extreme("min", _ops.min, _ops.minimum, input, dim, keepdim, other)


def argmax(input, dim=None, keepdim=False):
    """``mint.argmax(input, dim=None, keepdim=False)``: Int64 indices."""
    return _ops.argmax(input, dim, keepdim)


def argmin(input, dim=None, keepdim=False):
    """``mint.argmin(input, dim=None, keepdim=False)``: Int64 indices."""
    return _ops.argmin(input, dim, keepdim).astype(_mstype.int64)


def bincount(input, weights=None, minlength=0):
    """``mint.bincount(input, weights=None, minlength=0)``: Int64 counts, or sums of ``weights``."""
    out = _ops.bincount(input, weights, minlength)
    return out.astype(_mstype.int64) if weights is None else out


def median(input, dim=None, keepdim=False):
    """``mint.median(input)`` (the lower median of all elements) or ``mint.median(input, dim,
    keepdim=False)`` (``(values, indices)``)."""
    _need("median", input)
    if dim is None:
        return _ops.median(input.reshape(-1), 0, False)[0]
    return _ops.median(input, dim, keepdim)


def count_nonzero(input, dim=None):
    """``mint.count_nonzero(input, dim=None)``: Int64 counts."""
    return _ops.count_nonzero(input, () if dim is None else dim, False, _mstype.int64)


def _var_std(fn, input, dim, correction, keepdim):
    return fn(input, dim, ddof=correction, keepdims=keepdim)


def std(input, dim=None, *, correction=1, keepdim=False):
    """``mint.std(input, dim=None, *, correction=1, keepdim=False)``."""
    return _var_std(_ops.std, input, dim, correction, keepdim)


def _var_kernel(name, input, dim, correction, keepdim):
    # MindSpore's Var/VarMean kernels differentiate the formula (gradient 0 where all values are
    # equal), not ops.var's ReduceStd (NaN there)
    from ..ops._impl import reduction as _reduction
    v, m = _reduction._var_mean(name, input, dim, correction, keepdim, reduce_std=False)
    return _reduction.wrap(v), _reduction.wrap(m)


def var(input, dim=None, *, correction=1, keepdim=False):
    """``mint.var(input, dim=None, *, correction=1, keepdim=False)``."""
    return _var_kernel("var", input, dim, correction, keepdim)[0]


def std_mean(input, dim=None, *, correction=1, keepdim=False):
    """``mint.std_mean(...)``: ``(std, mean)``."""
    return _var_std(_ops.std_mean, input, dim, correction, keepdim)


def var_mean(input, dim=None, *, correction=1, keepdim=False):
    """``mint.var_mean(...)``: ``(var, mean)``."""
    return _var_kernel("var_mean", input, dim, correction, keepdim)


def norm(input, p="fro", dim=None, keepdim=False, *, dtype=None):
    """``mint.norm(input, p='fro', dim=None, keepdim=False, *, dtype=None)``: ``'fro'`` over all
    dimensions or one is the 2-norm, over two dimensions the Frobenius norm; ``'nuc'`` the nuclear
    norm; a number the vector ``p``-norm over ``dim`` (``ops.vector_norm``/``ops.matrix_norm``)."""
    _need("norm", input)
    dims = None if dim is None else ((dim,) if isinstance(dim, int) else tuple(dim))
    if p == "nuc" or (p == "fro" and dims is not None and len(dims) == 2):
        return _linalg.matrix_norm_ext(input, p, dims if dims is not None else (-2, -1), keepdim, dtype=dtype)
    if isinstance(p, str) and p != "fro":
        raise ValueError(f"For 'norm', 'p' must be 'fro', 'nuc' or a number, but got {p!r}.")
    return _linalg.vector_norm_ext(input, 2 if p == "fro" else p, dims, keepdim, dtype=dtype)


# ---------------------------------------------------------------------------
# scans, sorting, selection
# ---------------------------------------------------------------------------

def cumsum(input, dim, dtype=None):
    """``mint.cumsum(input, dim, dtype=None)``."""
    return _ops.cumsum(input, dim, dtype)


def cummax(input, dim):
    """``mint.cummax(input, dim)``: ``(values, indices)``."""
    return _ops.cummax(input, dim)


def cummin(input, dim):
    """``mint.cummin(input, dim)``: ``(values, Int64 indices)``."""
    values, indices = _ops.cummin(input, dim)
    return values, indices.astype(_mstype.int64)


def diff(input, n=1, dim=-1, prepend=None, append=None):
    """``mint.diff(input, n=1, dim=-1, prepend=None, append=None)``: MindSpore's ``diff_ext`` (any
    ``n``)."""
    from ._diff_ext import diff_ext
    return diff_ext(input, n, dim, prepend, append)


def sort(input, *, dim=-1, descending=False, stable=False):
    """``mint.sort(input, *, dim=-1, descending=False, stable=False)``: ``(values, Int64 indices)``
    (a stable sort always)."""
    values, indices = _ops.sort(input, dim, descending)
    return values, indices.astype(_mstype.int64)


def argsort(input, dim=-1, descending=False, stable=False):
    """``mint.argsort(input, dim=-1, descending=False, stable=False)``: Int64 indices."""
    return sort(input, dim=dim, descending=descending, stable=stable)[1]


def topk(input, k, dim=-1, largest=True, sorted=True):  # noqa: A002
    """``mint.topk(input, k, dim=-1, largest=True, sorted=True)``: ``(values, Int64 indices)``."""
    values, indices = _ops.topk(input, k, dim, largest, sorted)
    return values, indices.astype(_mstype.int64)


def unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None):  # noqa: A002
    """``mint.unique(input, sorted=True, return_inverse=False, return_counts=False, dim=None)``."""
    return _need("unique", input).unique(sorted, return_inverse, return_counts, dim)


def gather(input, dim, index):
    """``mint.gather(input, dim, index)``: ``ops.gather_elements``."""
    return _ops.gather_elements(input, dim, index)


def index_select(input, dim, index):
    """``mint.index_select(input, dim, index)``."""
    return _ops.index_select(input, dim, index)


def index_add(input, dim, index, source, *, alpha=1):
    """``mint.index_add(input, dim, index, source, *, alpha=1)``: a new Tensor."""
    return _need("index_add", input).index_add(dim, index.astype(_mstype.int32), source, alpha=alpha)


def scatter(input, dim, index, src):
    """``mint.scatter(input, dim, index, src)``: ``ops.scatter`` (``src`` a Tensor or a number; as
    MindSpore's, no ``value``/``reduce`` keywords: ``Tensor.scatter`` takes ``reduce``)."""
    return _ops.scatter(_need("scatter", input), dim, index, src)


def scatter_add(input, dim, index, src):
    """``mint.scatter_add(input, dim, index, src)``: sums ``src`` into ``input`` at ``index``."""
    return _ops.tensor_scatter_elements(input, index, src, dim, "add")


def select(input, dim, index):
    """``mint.select(input, dim, index)``: the slice at ``index`` of dimension ``dim`` (one
    dimension fewer), a view of ``input`` (in-place ops on it write ``input``: ``ops/_impl/views.py``)."""
    _need("select", input)
    i = index % input.shape[dim]
    out = _ops.narrow(input, dim, i, 1).squeeze(dim)
    ax = dim % input.ndim
    return _views.mark_view(out, input, lambda b: _lax.index_in_dim(b, i, ax, keepdims=False),
                            lambda b, v: b.at[(slice(None),) * ax + (i,)].set(v.astype(b.dtype)))


def where(condition, input=None, other=None):
    """``mint.where(condition, input, other)``; ``mint.where(condition)`` is
    ``mint.nonzero(condition, as_tuple=True)``."""
    if input is None and other is None:
        return _ops.nonzero(condition, as_tuple=True)
    return _ops.where(condition, input, other)


def repeat_interleave(input, repeats, dim=None, *, output_size=None):
    """``mint.repeat_interleave(input, repeats, dim=None, *, output_size=None)``."""
    return _ops.repeat_interleave(input, repeats, dim)


# ---------------------------------------------------------------------------
# shape and joining
# ---------------------------------------------------------------------------

def cat(tensors, dim=0):
    """``mint.cat(tensors, dim=0)``."""
    return _ops.cat(tensors, dim)


def concat(tensors, dim=0):
    """``mint.concat``: ``mint.cat``."""
    return cat(tensors, dim)


def stack(tensors, dim=0):
    """``mint.stack(tensors, dim=0)``."""
    return _ops.stack(tensors, dim)


def split(tensor, split_size_or_sections, dim=0):
    """``mint.split(tensor, split_size_or_sections, dim=0)``."""
    return _ops.split(tensor, split_size_or_sections, dim)


def chunk(input, chunks, dim=0):
    """``mint.chunk(input, chunks, dim=0)``."""
    return _ops.chunk(input, chunks, dim)


def flatten(input, start_dim=0, end_dim=-1):
    """``mint.flatten(input, start_dim=0, end_dim=-1)``."""
    return _ops.flatten(input, start_dim=start_dim, end_dim=end_dim)


def squeeze(input, dim):
    """``mint.squeeze(input, dim)``."""
    return _ops.squeeze(input, dim)


def transpose(input, dim0, dim1):
    """``mint.transpose(input, dim0, dim1)``: swaps two dimensions."""
    return _ops.swapaxes(input, dim0, dim1)


def swapaxes(input, axis0, axis1):
    """``mint.swapaxes``: ``mint.transpose``."""
    return _ops.swapaxes(input, axis0, axis1)


def meshgrid(*tensors, indexing=None):
    """``mint.meshgrid(*tensors, indexing=None)``: ``'ij'`` indexing unless told."""
    if len(tensors) == 1 and isinstance(tensors[0], (tuple, list)):
        tensors = tuple(tensors[0])
    return _ops.meshgrid(*tensors, indexing="ij" if indexing is None else indexing)


def nan_to_num(input, nan=None, posinf=None, neginf=None):
    """``mint.nan_to_num(input, nan=None, posinf=None, neginf=None)``: NaN to 0 by default."""
    return _ops.nan_to_num(input, 0.0 if nan is None else nan, posinf, neginf)


# ---------------------------------------------------------------------------
# creation and random
# ---------------------------------------------------------------------------

def _size(size):
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        return tuple(size[0])
    return tuple(size)


def zeros(size, *, dtype=None):
    """``mint.zeros(size, *, dtype=None)``: Float32 by default."""
    return _ops.zeros(size, dtype if dtype is not None else _mstype.float32)


def ones(size, *, dtype=None):
    """``mint.ones(size, *, dtype=None)``: Float32 by default."""
    return _ops.ones(size, dtype if dtype is not None else _mstype.float32)


def full(size, fill_value, *, dtype=None):
    """``mint.full(size, fill_value, *, dtype=None)``: without ``dtype``, Bool, Int64 or Float32 from
    the type of ``fill_value`` (``ops.full`` makes Int64 always)."""
    if dtype is None:
        if isinstance(fill_value, Tensor):  # by the dtype's kind: no value is read (traced calls)
            kind = _np.dtype(_mstype.dtype_to_nptype(fill_value.dtype)).kind
            v = {"b": True, "i": 0, "u": 0, "c": 0j}.get(kind, 0.0)
        else:
            v = fill_value
        dtype = (_mstype.bool_ if isinstance(v, _builtins.bool) else
                 _mstype.int64 if isinstance(v, int) else
                 _mstype.complex64 if isinstance(v, complex) else _mstype.float32)
    return _ops.full(size, fill_value, dtype=dtype)


def empty(*size, dtype=None, device=None, pin_memory=False):
    """``mint.empty(*size, dtype=None, device=None, pin_memory=False)``: zero-filled (XLA has no
    uninitialised memory)."""
    return zeros(_size(size), dtype=dtype)


def empty_like(input, *, dtype=None, device=None, pin_memory=False):
    """``mint.empty_like(input, *, dtype=None, device=None, pin_memory=False)``: zero-filled."""
    return _ops.zeros_like(input, dtype=dtype)


def linspace(start, end, steps, *, dtype=None):
    """``mint.linspace(start, end, steps, *, dtype=None)``: Float32 by default."""
    out = _ops.linspace(start, end, steps)
    return out.astype(dtype if dtype is not None else _mstype.float32)


def _shape_of(size, name):
    return _random._size(tuple(_size(size)), name)


def _float_np(dtype, name):
    return _random._float_dtype(dtype, name)


class _Drawing:
    """Runs a random op on ``generator``'s stream: the global key parameter holds the generator's
    key for the call, and both streams are put back in place afterwards."""

    def __init__(self, generator):
        self.generator = generator

    def __enter__(self):
        if self.generator is not None:
            self._glob, self._gen = _rng.key_param(), self.generator._key_param()
            self._saved = self._glob._data
            self._glob._data = self._gen._data
        return self

    def __exit__(self, *exc):
        if self.generator is not None:
            self._gen._data = self._glob._data
            self._glob._data = self._saved
        return False


def rand(*size, generator=None, dtype=None, device=None):
    """``mint.rand(*size, generator=None, dtype=None, device=None)``: uniform in [0, 1)."""
    with _Drawing(generator):
        return _random.key_uniform(_shape_of(size, "rand"), _float_np(dtype, "rand"))


def randn(*size, generator=None, dtype=None, device=None):
    """``mint.randn(*size, generator=None, dtype=None, device=None)``: standard normal."""
    with _Drawing(generator):
        return _random.key_normal(_shape_of(size, "randn"), _float_np(dtype, "randn"))


def rand_like(input, *, dtype=None, device=None):
    """``mint.rand_like(input, *, dtype=None, device=None)``."""
    return _random.key_uniform(input.shape, _float_np(input.dtype if dtype is None else dtype, "rand_like"))


def randn_like(input, *, dtype=None, device=None):
    """``mint.randn_like(input, *, dtype=None, device=None)``."""
    return _random.key_normal(input.shape, _float_np(input.dtype if dtype is None else dtype, "randn_like"))


def _low_high(name, args):
    if len(args) == 1:
        return 0, args[0]
    if len(args) == 2:
        return args
    raise TypeError(f"For '{name}', expected (high) or (low, high) before 'size', but got {len(args)} numbers.")


def randint(*args, generator=None, dtype=None, device=None):
    """``mint.randint(low=0, high, size, *, generator=None, dtype=None, device=None)``: Int64."""
    if len(args) < 2:
        raise TypeError(f"For 'randint', expected (low, high, size) or (high, size), but got {args}.")
    low, high = _low_high("randint", args[:-1])
    with _Drawing(generator):
        return _random.key_randint(low, high, tuple(args[-1]), _mstype.to_np(_mstype.int64 if dtype is None else dtype))


def randint_like(input, *args, dtype=None, device=None):
    """``mint.randint_like(input, low=0, high, *, dtype=None, device=None)``."""
    low, high = _low_high("randint_like", args)
    return _random.key_randint(low, high, input.shape).astype(input.dtype if dtype is None else dtype)


def randperm(n, *, generator=None, dtype=_mstype.int64):
    """``mint.randperm(n, *, generator=None, dtype=mindspore.int64)``."""
    with _Drawing(generator):
        return _random.key_permutation(int(n._data) if isinstance(n, Tensor) else n, _mstype.to_np(dtype))


def normal(mean=0.0, std=1.0, size=None, generator=None):
    """``mint.normal(mean, std, *, generator=None)`` (Tensor mean and/or std, broadcast) or
    ``mint.normal(mean, std, size, *, generator=None)`` (float mean and std)."""
    if size is None:
        shape = _np.broadcast_shapes(*[tuple(a.shape) for a in (mean, std) if isinstance(a, Tensor)])
    else:
        shape = tuple(size)
    with _Drawing(generator):
        z = _random.key_normal(shape)
    dt = next((a.dtype for a in (mean, std) if isinstance(a, Tensor)), _mstype.float32)
    return (z.astype(dt) * std + mean).astype(dt)


def bernoulli(input, *, generator=None):
    """``mint.bernoulli(input, *, generator=None)``: 0/1 samples with probabilities ``input``."""
    with _Drawing(generator):
        return _need("bernoulli", input).bernoulli()


def multinomial(input, num_samples, replacement=False, *, generator=None):
    """``mint.multinomial(input, num_samples, replacement=False, *, generator=None)``: Int64."""
    with _Drawing(generator):
        return _random.key_multinomial(input, num_samples, replacement).astype(_mstype.int64)


# ---------------------------------------------------------------------------
# Sync-BatchNorm building blocks and other mint-only kernels (Ascend names)
# ---------------------------------------------------------------------------

def _channel_view(x, v):
    return v.reshape((1, -1) + (1,) * (x.ndim - 2))


def batch_norm_stats(input, eps):
    """``mint.batch_norm_stats(input, eps)``: per-channel ``(mean, invstd)`` over every dimension but 1
    (Float32)."""
    x = _need("batch_norm_stats", input).astype(_mstype.float32)
    axes = tuple(d for d in range(x.ndim) if d != 1)
    m = _ops.mean(x, axes)
    v = _ops.mean(_ops.square(x - _channel_view(x, m)), axes)
    return m, _ops.rsqrt(v + eps)


def batch_norm_elemt(input, weight=None, bias=None, mean=None, invstd=None, eps=1e-05):
    """``mint.batch_norm_elemt(input, weight, bias, mean, invstd, eps)``: ``(x - mean) * invstd *
    weight + bias`` per channel."""
    x = _need("batch_norm_elemt", input)
    out = (x - _channel_view(x, mean)) * _channel_view(x, invstd)
    if weight is not None:
        out = out * _channel_view(x, weight)
    if bias is not None:
        out = out + _channel_view(x, bias)
    return out.astype(x.dtype)


def batch_norm_gather_stats_with_counts(input, mean, invstd, running_mean=None, running_var=None, momentum=0.1,
                                        eps=1e-05, counts=None):
    """``mint.batch_norm_gather_stats_with_counts(...)``: the global ``(mean, invstd)`` from the
    per-device rows of ``mean``/``invstd`` and their ``counts``; ``running_mean``/``running_var``
    are updated in place (unbiased variance)."""
    c = counts.astype(_mstype.float32).reshape(-1, 1)
    total = c.sum()
    g_mean = (mean * c).sum(0) / total
    var_i = 1.0 / (invstd * invstd) - eps
    g_var = ((var_i + _ops.square(mean - g_mean)) * c).sum(0) / total
    if running_mean is not None:
        running_mean.copy_(running_mean * (1 - momentum) + g_mean * momentum)
    if running_var is not None:
        running_var.copy_(running_var * (1 - momentum) + g_var * (total / (total - 1)) * momentum)
    return g_mean, _ops.rsqrt(g_var + eps)


def npu_gelu(input, approximate="none"):
    """``mint.npu_gelu``: ``mint.nn.functional.gelu`` (the Ascend kernel's name)."""
    return nn.functional.gelu(input, approximate=approximate)


def conv_tbc(input, weight, bias, pad=0):
    """``mint.conv_tbc(input, weight, bias, pad=0)``: a 1-D convolution of a (time, batch, channel)
    input with a (kernel, in, out) weight, by ``ops.conv1d``."""
    x = _ops.permute(input, (1, 2, 0))
    w = _ops.permute(weight, (2, 1, 0))
    y = _ops.conv1d(x, w, bias, 1, "pad", pad)
    return _ops.permute(y, (2, 0, 1))


__all__ = sorted(n for n in list(globals()) if not n.startswith("_") and n not in (
    "annotations", "Tensor", "nn", "optim", "linalg", "special", "distributed"))
