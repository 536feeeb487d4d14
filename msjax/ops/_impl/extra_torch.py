"""Functional ops that MindSpore 2.10 added with its torch-style API (``mindspore.mint`` uses
them): ``exp2``, ``polar``, ``mv``, ``vector_norm``, ``matrix_norm``, ``take`` and
``searchsorted``. ``vector_norm``/``matrix_norm`` stand on ``ops.norm``; ``take`` and
``searchsorted`` on the Tensor methods of the same name."""
from __future__ import annotations

import jax.numpy as jnp
from jax import lax

from ..._core import dtype as mstype
from ..._core.registry import op
from ._util import Tensor, wrap
from .math import _norm_axis
from .linalg import norm
from .indexing import _take
from .comparison import _searchsorted


def _need_tensor(name, arg, x):
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{name}', the '{arg}' must be a Tensor, but got {type(x).__name__}.")
    return x


@op("exp2", family="math")
def exp2(input):
    """``ops.exp2(input)``: ``2 ** input``; integer and bool inputs give Float32."""
    x = _need_tensor("exp2", "input", input)._data
    if not jnp.issubdtype(x.dtype, jnp.inexact):
        x = x.astype(jnp.float32)
    return wrap(jnp.exp2(x))


@op("polar", family="math")
def polar(abs, angle):  # noqa: A002  (MindSpore's argument name)
    """``ops.polar(abs, angle)``: the complex Tensor ``abs * (cos(angle) + i sin(angle))``
    (Complex64 from Float32, Complex128 from Float64)."""
    a, t = _need_tensor("polar", "abs", abs)._data, _need_tensor("polar", "angle", angle)._data
    if a.dtype != t.dtype or a.dtype not in (jnp.float32, jnp.float64):
        raise TypeError(f"For 'polar', 'abs' and 'angle' must both be Float32 or both Float64, but got "
                        f"{mstype.from_np(a.dtype)} and {mstype.from_np(t.dtype)}.")
    return wrap(lax.complex(a * jnp.cos(t), a * jnp.sin(t)))


@op("mv", family="linalg")
def mv(input, vec):
    """``ops.mv(input, vec)``: the product of an (n, m) matrix and an (m,) vector."""
    x, v = _need_tensor("mv", "input", input)._data, _need_tensor("mv", "vec", vec)._data
    if x.ndim != 2 or v.ndim != 1:
        raise ValueError(f"For 'mv', 'input' must be 2-D and 'vec' 1-D, but got {x.ndim}-D and {v.ndim}-D.")
    if x.shape[1] != v.shape[0]:
        raise ValueError(f"For 'mv', the columns of 'input' ({x.shape[1]}) must equal the length of 'vec' "
                         f"({v.shape[0]}).")
    return wrap(jnp.matmul(x, v))


@op("vector_norm", family="math")
def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None):  # noqa: A002
    """``ops.vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None)``: the ``ord``-norm of
    ``x`` flattened over ``dim`` (all dimensions when None), computed by ``ops.norm`` on one axis."""
    _need_tensor("vector_norm", "x", x)
    if isinstance(ord, str):
        raise TypeError(f"For 'vector_norm', 'ord' must be a number, but got {ord!r}.")
    nd = x.ndim
    if dim is None:
        dims = tuple(range(nd))
    else:
        dims = tuple(sorted({_norm_axis("vector_norm", d, max(nd, 1)) for d in
                             ((dim,) if isinstance(dim, int) else tuple(dim))}))
    a = x._data
    if nd == 0:
        a = a.reshape(1)
        dims = (0,)
    rest = [d for d in range(a.ndim) if d not in dims]
    moved = jnp.transpose(a, rest + list(dims)).reshape([a.shape[d] for d in rest] + [-1])
    out = norm(wrap(moved), float(ord), -1, False, dtype=dtype)
    if keepdim:
        out = wrap(out._data.reshape([1 if d in dims else s for d, s in enumerate(x.shape)]))
    return out


@op("matrix_norm", family="math")
def matrix_norm(A, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None):  # noqa: A002
    """``ops.matrix_norm(A, ord='fro', dim=(-2, -1), keepdim=False, *, dtype=None)``: ``ops.norm``
    over the two dimensions ``dim``."""
    _need_tensor("matrix_norm", "A", A)
    if A.ndim < 2:
        raise ValueError(f"For 'matrix_norm', 'A' must have at least 2 dimensions, but got {A.ndim}.")
    if not isinstance(dim, (tuple, list)) or len(dim) != 2:
        raise TypeError(f"For 'matrix_norm', 'dim' must be a tuple of two ints, but got {dim}.")
    return norm(A, ord, tuple(dim), keepdim, dtype=dtype)


@op("take", family="array")
def take(input, index):
    """``ops.take(input, index)``: the elements of ``input`` (read flattened) at ``index``, in
    ``index``'s shape."""
    _need_tensor("take", "input", input)
    _need_tensor("take", "index", index)
    return _take(input, index)


@op("searchsorted", family="math")
def searchsorted(sorted_sequence, values, *, out_int32=False, right=False, side=None, sorter=None, dtype=None):
    """``ops.searchsorted(sorted_sequence, values, *, out_int32=False, right=False, side=None,
    sorter=None)``: insertion points (Int64, or Int32 with ``out_int32``) that keep each last-axis
    row sorted; ``side`` ('left'/'right') overrides ``right``."""
    _need_tensor("searchsorted", "sorted_sequence", sorted_sequence)
    if side is not None and side not in ("left", "right"):
        raise ValueError(f"For 'searchsorted', 'side' must be 'left' or 'right', but got {side!r}.")
    if side == "left" and right:
        raise ValueError("For 'searchsorted', 'side' and 'right' contradict each other.")
    side = side or ("right" if right else "left")
    v = values if isinstance(values, Tensor) else wrap(jnp.asarray(values, sorted_sequence._data.dtype))
    out = _searchsorted(sorted_sequence, v, side, sorter)
    want = mstype.int32 if out_int32 else (dtype or mstype.int64)
    return wrap(out._data.astype(mstype.to_np(want)))
