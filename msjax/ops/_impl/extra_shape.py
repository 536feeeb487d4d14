"""Stacking and reshaping helpers: ``block_diag``, ``cartesian_prod``, ``hstack``/``vstack``/
``row_stack``/``dstack``/``column_stack``, ``atleast_1d/2d/3d``, ``kron``, ``vander``,
``diag_embed``, and the ``Unpack``, ``ReverseSequence``, ``UnravelIndex``, ``DiagPart``,
``ConjugateTranspose`` and ``AdaptiveMaxPool3D`` Primitives."""
from __future__ import annotations

import jax.numpy as jnp
import numpy as np

from ..._core import dtype as mstype
from ..._core.registry import op
from ._util import Tensor, arr, wrap
from .array import _need_concrete, unstack


def _tensors(name, tensors):
    """The arrays of a tuple/list of Tensors, all of one dtype (MindSpore's Concat kernel mixes none)."""
    if isinstance(tensors, Tensor) or not isinstance(tensors, (tuple, list)) or not tensors:
        raise TypeError(f"For '{name}', the input must be a non-empty tuple or list of Tensors, but got "
                        f"{type(tensors).__name__}.")
    xs = []
    for t in tensors:
        if not isinstance(t, Tensor):
            raise TypeError(f"For '{name}', every element must be a Tensor, but got {type(t).__name__}.")
        xs.append(t._data)
    if len({x.dtype for x in xs}) > 1:
        raise RuntimeError(f"For '{name}', the Tensors must have one dtype, but got "
                           f"{[str(mstype.from_np(x.dtype)) for x in xs]}.")
    return xs


def _atleast(name, inputs, nd):
    def one(t):
        if not isinstance(t, Tensor):
            raise TypeError(f"For '{name}', the input must be a Tensor or a sequence of Tensors, but got "
                            f"{type(t).__name__}.")
        x = t._data
        if x.ndim >= nd:
            return t
        if nd == 3:
            x = x.reshape((1,) * (1 - min(x.ndim, 1)) + x.shape)   # 0-D -> (1,)
            x = x[None, :, None] if x.ndim == 1 else x[..., None]
            return wrap(x)
        return wrap(x.reshape((1,) * (nd - x.ndim) + x.shape))
    if isinstance(inputs, (tuple, list)):
        return tuple(one(t) for t in inputs)
    return one(inputs)


@op("atleast_1d", family="array")
def atleast_1d(inputs):
    """``ops.atleast_1d(inputs)``: a Tensor (or a tuple for a sequence) with at least 1 dimension."""
    return _atleast("atleast_1d", inputs, 1)


@op("atleast_2d", family="array")
def atleast_2d(inputs):
    """``ops.atleast_2d(inputs)``: 0-D -> (1, 1), (n,) -> (1, n)."""
    return _atleast("atleast_2d", inputs, 2)


@op("atleast_3d", family="array")
def atleast_3d(inputs):
    """``ops.atleast_3d(inputs)``: 0-D -> (1, 1, 1), (n,) -> (1, n, 1), (a, b) -> (a, b, 1)."""
    return _atleast("atleast_3d", inputs, 3)


@op("hstack", family="array")
def hstack(tensors):
    """``ops.hstack(tensors)``: concatenated along axis 1 (axis 0 for 1-D Tensors)."""
    xs = _tensors("hstack", [t if t.ndim else wrap(t._data.reshape(1)) for t in tensors]
                  if isinstance(tensors, (tuple, list)) and all(isinstance(t, Tensor) for t in tensors) else tensors)
    return wrap(jnp.concatenate(xs, axis=0 if xs[0].ndim == 1 else 1))


@op("vstack", family="array")
def vstack(inputs):
    """``ops.vstack(inputs)``: the (at least 2-D) Tensors concatenated along axis 0."""
    xs = _tensors("vstack", inputs)
    return wrap(jnp.concatenate([x.reshape((1,) * (2 - x.ndim) + x.shape) if x.ndim < 2 else x for x in xs], 0))


@op("row_stack", family="array")
def row_stack(tensors):
    """``ops.row_stack(tensors)``: ``ops.vstack``."""
    return vstack(tensors)


@op("dstack", family="array")
def dstack(tensors):
    """``ops.dstack(tensors)``: the (at least 3-D) Tensors concatenated along axis 2."""
    _tensors("dstack", tensors)
    return wrap(jnp.concatenate([t._data for t in atleast_3d(tensors)], 2))


@op("column_stack", family="array")
def column_stack(tensors):
    """``ops.column_stack(tensors)``: 0-D and 1-D Tensors as columns, then concatenated along axis 1."""
    xs = _tensors("column_stack", tensors)
    return wrap(jnp.concatenate([x.reshape(-1, 1) if x.ndim < 2 else x for x in xs], 1))


@op("block_diag", family="array")
def block_diag(*inputs):
    """``ops.block_diag(*inputs)``: the Tensors (0-D as 1x1, 1-D as one row) on the diagonal of a
    zero matrix."""
    xs = [x.reshape((1,) * (2 - x.ndim) + x.shape) for x in _tensors("block_diag", list(inputs))]
    if any(x.ndim != 2 for x in xs):
        raise ValueError("For 'block_diag', the dimension of every input must be at most 2.")
    out = jnp.zeros((sum(x.shape[0] for x in xs), sum(x.shape[1] for x in xs)), xs[0].dtype)
    r = c = 0
    for x in xs:
        out = out.at[r:r + x.shape[0], c:c + x.shape[1]].set(x)
        r, c = r + x.shape[0], c + x.shape[1]
    return wrap(out)


@op("cartesian_prod", family="array")
def cartesian_prod(*inputs):
    """``ops.cartesian_prod(*inputs)``: the (N, k) rows of all combinations of the 1-D inputs."""
    xs = _tensors("cartesian_prod", list(inputs))
    if any(x.ndim != 1 for x in xs):
        raise ValueError("For 'cartesian_prod', every input must be 1-D.")
    if len(xs) == 1:
        return wrap(xs[0])
    grids = jnp.meshgrid(*xs, indexing="ij")
    return wrap(jnp.stack([g.reshape(-1) for g in grids], 1))


@op("kron", family="math")
def kron(input, other):
    """``ops.kron(input, other)``: the Kronecker product (dtypes promoted)."""
    for k, v in (("input", input), ("other", other)):
        if not isinstance(v, Tensor):
            raise TypeError(f"For 'kron', the '{k}' must be a Tensor, but got {type(v).__name__}.")
    return wrap(jnp.kron(input._data, other._data))


@op("vander", family="math")
def vander(x, N=None):
    """``ops.vander(x, N=None)``: the columns ``x**(N-1), ..., x, 1`` of a 1-D Tensor (integers give
    Int64)."""
    if not isinstance(x, Tensor):
        raise TypeError(f"For 'vander', the 'x' must be a Tensor, but got {type(x).__name__}.")
    a = x._data
    if a.ndim != 1:
        raise ValueError(f"For 'vander', the 'x' must be 1-D, but got {a.ndim}-D.")
    n = a.shape[0] if N is None else N
    if isinstance(n, bool) or not isinstance(n, int):
        raise TypeError(f"For vander, N must be an integer, but got {type(n)}.")
    if n <= 0:
        raise ValueError(f"For vander, N must be greater than 0, but got {n}.")
    if jnp.issubdtype(a.dtype, jnp.integer):
        a = a.astype(jnp.int64)
    return wrap(jnp.vander(a, n))


@op("diag_embed", family="array")
def diag_embed(input, offset=0, dim1=-2, dim2=-1):
    """``ops.diag_embed(input, offset=0, dim1=-2, dim2=-1)``: the last axis of ``input`` on the
    ``offset`` diagonal of the planes ``(dim1, dim2)`` of a new Tensor, one rank higher."""
    x = arr(input)
    nd = x.ndim + 1
    d1, d2 = dim1 % nd, dim2 % nd
    if not (-nd <= dim1 < nd and -nd <= dim2 < nd) or d1 == d2:
        raise ValueError(f"For 'diag_embed', 'dim1' and 'dim2' must be different dimensions in [{-nd}, {nd}), "
                         f"but got {dim1} and {dim2}.")
    k = x.shape[-1]
    n = k + abs(offset)
    out = jnp.zeros(x.shape[:-1] + (n, n), x.dtype)
    j = jnp.arange(k)
    out = out.at[..., j + max(-offset, 0), j + max(offset, 0)].set(x)
    return wrap(jnp.moveaxis(out, (-2, -1), (d1, d2)))


@op("prim_unpack", primitive="Unpack", prim_args=("axis",), family="array")
def prim_unpack(x, axis=0):
    """``ops.Unpack(axis=0)(x)``: the old name of ``ops.Unstack``."""
    return unstack(x, axis)


@op("prim_reverse_sequence", primitive="ReverseSequence", prim_args=("seq_dim", "batch_dim"), family="array")
def reverse_sequence(x, seq_lengths, seq_dim, batch_dim=0):
    """``ops.ReverseSequence(seq_dim, batch_dim=0)(x, seq_lengths)``: for each batch entry ``b``, the
    first ``seq_lengths[b]`` elements along ``seq_dim`` reversed."""
    a, ln = arr(x), arr(seq_lengths)
    if not jnp.issubdtype(ln.dtype, jnp.integer) or ln.ndim != 1 or ln.shape[0] != a.shape[batch_dim]:
        raise ValueError(f"For 'ReverseSequence', 'seq_lengths' must be a 1-D integer Tensor of length "
                         f"x.shape[batch_dim], but got {list(ln.shape)}.")
    n = a.shape[seq_dim]
    pos = jnp.arange(n)
    src = jnp.where(pos[None, :] < ln[:, None], ln[:, None] - 1 - pos[None, :], pos[None, :])  # (batch, n)
    shape = [1] * a.ndim
    shape[batch_dim], shape[seq_dim] = a.shape[batch_dim], n
    order = [batch_dim, seq_dim] if batch_dim < seq_dim else [seq_dim, batch_dim]
    idx = src if order[0] == batch_dim else src.T
    return wrap(jnp.take_along_axis(a, jnp.broadcast_to(idx.reshape(shape), a.shape), seq_dim))


@op("prim_unravel_index", primitive="UnravelIndex", family="array")
def unravel_index(indices, dims):
    """``ops.UnravelIndex()(indices, dims)``: the coordinates in a ``dims``-shaped array of each flat
    index, one row per dimension."""
    i, d = arr(indices), arr(dims)
    shape = tuple(int(v) for v in _need_concrete(d, "UnravelIndex").reshape(-1))
    return wrap(jnp.stack(jnp.unravel_index(i, shape)).astype(i.dtype))


@op("prim_diag_part", primitive="DiagPart", family="array")
def diag_part(input_x):
    """``ops.DiagPart()(input_x)``: the diagonal of a (d1..dk, d1..dk) Tensor, shape (d1..dk)."""
    x = arr(input_x)
    k = x.ndim // 2
    if x.ndim % 2 or x.ndim == 0 or x.shape[:k] != x.shape[k:]:
        raise ValueError(f"For 'DiagPart', the shape of 'input_x' must be (d1, ..., dk, d1, ..., dk), but got "
                         f"{list(x.shape)}.")
    n = int(np.prod(x.shape[:k]))
    return wrap(jnp.diagonal(x.reshape(n, n)).reshape(x.shape[:k]))


@op("prim_conjugate_transpose", primitive="ConjugateTranspose", family="array")
def conjugate_transpose(x, perm):
    """``ops.ConjugateTranspose()(x, perm)``: ``x`` transposed by ``perm`` and conjugated."""
    a = arr(x)
    return wrap(jnp.conj(jnp.transpose(a, tuple(perm))) if jnp.iscomplexobj(a) else jnp.transpose(a, tuple(perm)))
