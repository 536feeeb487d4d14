"""Linear algebra ops: the matmul family and dot products, ``outer``/``cross``/``diff``/``trace``,
determinants and inverses, Cholesky and the solvers (``MatrixSolve``, ``MatrixTriangularSolve``,
``lstsq``), decompositions (``svd``, ``qr``, ``geqrf``/``orgqr``, ``eig``), matrix functions
(``matrix_power``, ``matrix_exp``, ``MatrixLogarithm``, ``matrix_band_part``) and the norms
(``norm``, ``vector_norm``, ``matrix_norm``, the ``LpNorm``/``EuclideanNorm`` Primitives), ``mv``,
``cdist``, ``einsum``, ``kron`` and ``vander``.

MindSpore's matrix products want both operands of one dtype (Int32 @ Float32 is a TypeError,
there is no promotion); ``MatMul`` takes 2-D Tensors only and ``BatchMatMul`` does not broadcast
batch dimensions on CPU/GPU. ``ops.matmul`` follows NumPy (1-D operands, broadcasting batches).
``Einsum`` has no CPU kernel in MindSpore; here it is ``jnp.einsum``.
"""
from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import jax.scipy.linalg as jsl
import numpy as np
from jax import lax
from jax._src.lax.linalg import geqrf as _lax_geqrf  # not re-exported by jax.lax.linalg

from ..._core import dtype as mstype
from ..._core.registry import op
from ..._core.tensor import Tensor
from ._util import arr, operand_pair, shape_text, to_array, wrap
from .math import (_abs, _dispatch, _dn, _float_input, _is_bool, _is_float, _need_tensor, _norm_axes, _norm_axis, _out,
                   _tensor_method)
from .reduction import _arg_with_value
from . import matmul_onednn, svd_eigen
from .array import _ints
from ...parallel import _apply

_FLOATS = (jnp.float16, jnp.float32, jnp.float64)


def _same_dtype(name, x, y, a="x1", b="x2"):
    if x.dtype != y.dtype:
        raise TypeError(f"For '{name}', the type of '{b}' should be same as '{a}', but got '{a}' with type "
                        f"Tensor[{_dn(x)}] and '{b}' with type Tensor[{_dn(y)}].")


def _no_bool(name, x):
    if _is_bool(x):
        raise TypeError(f"For '{name}', the input does not support Bool (MindSpore has no CPU kernel for it).")


@op("matmul", family="math")
def matmul(input, other):
    """``ops.matmul(input, other)``: NumPy's matmul (1-D operands, broadcast batch dimensions);
    both operands must have the same dtype. A float32 product of two 2-D Tensors with at least two
    rows and columns runs on oneDNN as MindSpore's CPU kernel (MindSpore's bits); others on XLA's dot."""
    _need_tensor("matmul", "input", input)
    _need_tensor("matmul", "other", other)
    x, y = input._data, other._data
    _same_dtype("MatMulExt", x, y)
    _no_bool("MatMul", x)
    if x.ndim == 0 or y.ndim == 0:
        raise ValueError("For 'MatMulExt', the inputs must not be scalars.")
    kx = x.shape[-1]
    ky = y.shape[0] if y.ndim == 1 else y.shape[-2]
    if kx != ky:
        raise RuntimeError(f"For 'MatMulExt' op, shape1[-1] must be equal to shape2[-2], but got {kx} and {ky}.")
    if x.ndim == 2 and y.ndim == 2 and x.dtype == jnp.float32 and x.shape[0] > 1 and y.shape[1] > 1 and \
            matmul_onednn.usable(x, y) and _apply.active() is None:
        # MatMulExt's CPU kernel is oneDNN's matmul, as MatMul's (golden/matmul_ext_mindspore.json); a
        # product with one row or one column is XLA's dot (MindSpore's differs from both there)
        return wrap(matmul_onednn.matmul(x, y))
    try:
        return wrap(jnp.matmul(x, y))
    except (TypeError, ValueError) as e:
        raise ValueError(f"For 'MatMulExt', the batch dimensions of {list(x.shape)} and {list(y.shape)} "
                         f"must broadcast: {e}") from None


def _tensor_matmul_other(self, other):
    return matmul(self, other)


def _tensor_matmul_t2(self, tensor2):
    return matmul(self, tensor2)


_tensor_method("tensor_m_matmul", "matmul", _dispatch("matmul", _tensor_matmul_other, _tensor_matmul_t2),
               "``Tensor.matmul(other)``.")


def _mat2d(name, input, mat2, transpose_a, transpose_b):
    x, y = arr(input), arr(mat2)
    if x.ndim != 2 or y.ndim != 2:
        raise ValueError("MatMul inputs should have the same dimension size and equal to 2.")
    _same_dtype(name, x, y)
    _no_bool(name, x)
    if transpose_a:
        x = x.T
    if transpose_b:
        y = y.T
    if x.shape[1] != y.shape[0]:
        raise ValueError(f"For '{name}' the input dimensions must be equal, but got 'x1_col': {x.shape[1]} and "
                         f"'x2_row': {y.shape[0]}.")
    return x, y


@op("prim_matmul", primitive="MatMul", prim_args=("transpose_a", "transpose_b"), family="math")
def _prim_matmul(input, mat2, transpose_a=False, transpose_b=False):
    """``MatMul(transpose_a=False, transpose_b=False)(input, mat2)``: 2-D Tensors of one dtype; float32 and
    float16 on the CPU run on oneDNN as MindSpore's kernel does (:mod:`.matmul_onednn`)."""
    a, b = arr(input), arr(mat2)
    x, y = _mat2d("MatMul", input, mat2, transpose_a, transpose_b)
    if matmul_onednn.usable(a, b) and _apply.active() is None:
        return wrap(matmul_onednn.matmul(a, b, bool(transpose_a), bool(transpose_b)))
    return wrap(jnp.matmul(x, y))


@op("mm", methods="mm", family="math")
def mm(input, mat2):
    """``ops.mm(input, mat2)``: the product of two 2-D Tensors (a number or list is MindSpore's TypeError)."""
    if not (isinstance(input, Tensor) and isinstance(mat2, Tensor)):
        shown = ["Tensor" if isinstance(v, Tensor) else type(v).__name__ for v in (input, mat2)]
        raise TypeError(f'Failed calling Mm with "Mm()(input={shown[0]}, mat2={shown[1]})".\nThe valid calling '
                        'should be: \n"Mm()(input=<Tensor>, mat2=<Tensor>)".')
    x, y = _mat2d("mm", input, mat2, False, False)
    return wrap(jnp.matmul(x, y))


@functools.partial(jax.jit, static_argnums=(2, 3))
def _onednn_batches(a, b, ta, tb):
    """MindSpore's CPU BatchMatMul: oneDNN's 2-D matmul of each batch, a transposed operand by its strides."""
    out = jax.vmap(lambda p, q: matmul_onednn.matmul(p, q, ta, tb))(a.reshape(-1, *a.shape[-2:]),
                                                                     b.reshape(-1, *b.shape[-2:]))
    return out.reshape(*a.shape[:-2], *out.shape[-2:])


def _batch_matmul(name, x, y, transpose_a, transpose_b):
    _same_dtype(name, x, y)
    _no_bool(name, x)
    if x.ndim < 2 or y.ndim < 2:
        raise ValueError(f"For '{name}', the inputs must have rank >= 2, but got {x.ndim} and {y.ndim}.")
    if x.shape[:-2] != y.shape[:-2]:
        raise ValueError(f"For {name}, inputs shape cannot be broadcast on CPU/GPU, with x shape "
                         f"{list(x.shape)}, y shape {list(y.shape)}")
    xs, ys = x.shape, y.shape
    original = x, y
    if transpose_a:
        x = jnp.swapaxes(x, -1, -2)
    if transpose_b:
        y = jnp.swapaxes(y, -1, -2)
    if x.shape[-1] != y.shape[-2]:
        if name == "BatchMatMul":
            raise ValueError("For BatchMatMul, the row of the input 'y' should be same as the col of the input 'x', "
                             f"with x shape {shape_text(xs)}(transpose_a={int(transpose_a)}), y shape {shape_text(ys)}"
                             f"(transpose_b={int(transpose_b)})")
        raise ValueError(f"For '{name}', x1_col must be equal to x2_row, but got {x.shape[-1]} and {y.shape[-2]}.")
    a, b = original
    n = a.ndim
    if n < 3:
        return jnp.matmul(x, y)
    if matmul_onednn.usable(a[(0,) * (n - 2)], b[(0,) * (n - 2)]) and _apply.active() is None:
        return _onednn_batches(a, b, bool(transpose_a), bool(transpose_b))
    # the flags as the contracted axes (no transposed copies: the MINDIR writer writes BatchMatMul's flags)
    batch = tuple(range(n - 2))
    return lax.dot_general(a, b, (((n - 2 if transpose_a else n - 1,), (n - 1 if transpose_b else n - 2,)),
                                  (batch, batch)), precision=lax.Precision.HIGHEST)


@op("prim_batch_matmul", primitive="BatchMatMul", prim_args=("transpose_a", "transpose_b"), family="math")
def _prim_batch_matmul(x, y, transpose_a=False, transpose_b=False):
    """``BatchMatMul(transpose_a=False, transpose_b=False)(x, y)``: equal batch dimensions; float32 and float16 on
    the CPU run each batch on oneDNN's matmul as MindSpore's kernel does (:mod:`.matmul_onednn`)."""
    return wrap(_batch_matmul("BatchMatMul", arr(x), arr(y), transpose_a, transpose_b))


@op("bmm", methods="bmm", family="math")
def bmm(input_x, mat2):
    """``ops.bmm(input_x, mat2)``: batched matrix product (``BatchMatMul``)."""
    return wrap(_batch_matmul("BatchMatMul", arr(input_x), arr(mat2), False, False))


@op("dot", family="math")
def dot(input, other):
    """``ops.dot(input, other)``: Float16/Float32 Tensors of rank >= 2; the last axis of ``input``
    contracts with the second-to-last of ``other`` (``numpy.dot``)."""
    x, y = arr(input), arr(other)
    for n, v in (("x1", x), ("x2", y)):
        if v.dtype not in (jnp.float16, jnp.float32):
            raise TypeError(f"The '{n}' doesn't support '{_dn(v)}' and expect to receive "
                            "[mindspore.float16, mindspore.float32].")
    if x.dtype != y.dtype:
        raise TypeError(f"For 'dot', the inputs must be the same type, but got x1_type: {_dn(x)} and "
                        f"x2_type: {_dn(y)}.")
    if x.ndim < 2 or y.ndim < 2:
        raise ValueError(f"For 'dot', the inputs x1, x2 should have 'dimension >= 2',but got 'len(x1_shape)': "
                         f"({x.ndim}) and 'len(x2_shape)': ({y.ndim}).")
    if x.shape[-1] != y.shape[-2]:
        raise ValueError(f"For 'MatMul' the input dimensions must be equal, but got 'x1_col': {x.shape[-1]} and "
                         f"'x2_row': {y.shape[-2]}.")
    return wrap(jnp.dot(x, y))


def _tensor_dot_method(self, other):
    return dot(self, other)


_tensor_method("tensor_m_dot", "dot", _tensor_dot_method, "``Tensor.dot(other)``.")


def _tensordot_axes(name, x1_shape, x2_shape, axes):
    if isinstance(axes, bool) or not isinstance(axes, (int, tuple, list)):
        raise TypeError(f"For 'tensor dot', the type of 'axes' should be one of [int, tuple, list], "
                        f"but got {type(axes).__name__}.")
    if isinstance(axes, int):
        if axes < 0:
            raise ValueError(f"For '{name}', the 'axes' must be at least 0, but got {axes}.")
        if axes > len(x1_shape) or axes > len(x2_shape):
            raise ValueError(f"For '{name}', the 'axes' cannot be greater than the length of 'x1_shape' and "
                             f"'x2_shape', but got 'axes': {axes}, 'x1_shape': {x1_shape}, 'x2_shape': {x2_shape}.")
        axes = (tuple(range(len(x1_shape))[len(x1_shape) - axes:]), tuple(range(axes)))
    axes = list(axes)
    if len(axes) != 2:
        raise ValueError(f"For '{name}', the dimension of 'axes' must be 2, but got 'axes': {axes}.")
    a = [tuple(v) if isinstance(v, (tuple, list)) else (v,) for v in axes]
    if len(a[0]) != len(a[1]):
        raise ValueError(f"For '{name}', the first and second dim of 'axes' have to be the same size/length, "
                         f"but got 'axes': {tuple(a)}.")
    for i, shape in enumerate((x1_shape, x2_shape)):
        for v in a[i]:
            if not -len(shape) <= v < len(shape):
                raise ValueError(f"For '{name}', the value in 'axes' must be in range: [{-len(shape)}, "
                                 f"{len(shape) - 1}], but got {v}.")
    n = len(a[0])
    if any(x1_shape[a[0][i]] != x2_shape[a[1][i]] for i in range(n)) and \
            any(x1_shape[a[0][i]] != x2_shape[a[1][n - 1 - i]] for i in range(n)):
        if True:
            raise ValueError(f"For '{name}', the 'i' should exist such that 'x1_shape[axes[0][i]]' is equal to "
                             f"'x2_shape[axes[1][i]]', but got 'x1_shape': {x1_shape}, 'x2_shape': {x2_shape}, "
                             f"'axes': {tuple(a)}.")
    return tuple(a)


@op("tensor_dot", family="math")
def tensor_dot(x1, x2, axes):
    """``ops.tensor_dot(x1, x2, axes)``: ``numpy.tensordot`` (``axes`` an int or a pair of axis lists)."""
    a, b = arr(x1), arr(x2)
    _same_dtype("MatMul", a, b)
    _no_bool("MatMul", a)
    ax = _tensordot_axes("tensor_dot", a.shape, b.shape, axes)
    try:
        return wrap(jnp.tensordot(a, b, axes=ax))
    except (TypeError, ValueError):
        raise ValueError(f"For 'tensor_dot', the contracted dimensions of {a.shape} and {b.shape} along "
                         f"{ax} do not match.") from None


@op("batch_dot", family="math")
def batch_dot(x1, x2, axes=None):
    """``ops.batch_dot(x1, x2, axes=None)``: a dot product per batch element (axis 0) of two
    Float32 Tensors; 2-D operands give a ``(batch, 1)`` result."""
    a, b = arr(x1), arr(x2)
    if a.ndim < 2 or b.ndim < 2:
        raise ValueError(f"For 'batch_dot', the inputs x1, x2 should have 'dimension >= 2', but got "
                         f"'len(x1_shape)': ({a.ndim}) and 'len(x2_shape)': ({b.ndim}).")
    for n, v in (("x1", a), ("x2", b)):
        if v.dtype != jnp.float32:
            raise TypeError(f"The '{n}' doesn't support '{_dn(v)}' and expect to receive [mindspore.float32].")
    if a.shape[0] != b.shape[0]:
        raise ValueError(f"For 'batch_dot', the inputs 'x1', 'x2' should have the same batch sizes, but got "
                         f"'x1_batch_size': {a.shape[0]} and 'x2_batch_size': {b.shape[0]}.")
    if axes is None:
        axes = [a.ndim - 1, b.ndim - 1] if b.ndim == 2 else [a.ndim - 1, b.ndim - 2]
    if isinstance(axes, (list, tuple)):
        axes = list(axes)
        if 0 in axes:
            raise ValueError(f"For 'batch_dot', the 'axes' cannot contain 0, but got axes: {axes}.")
        if len(axes) != 2:
            raise ValueError(f"For 'batch_dot', the length of 'axes' must be equal to 2, but got {len(axes)}.")
        axes = [axes[0] + a.ndim if axes[0] < 0 else axes[0], axes[1] + b.ndim if axes[1] < 0 else axes[1]]
    elif isinstance(axes, int) and not isinstance(axes, bool):
        if axes == 0:
            raise ValueError(f"For 'batch_dot', the 'axes' should not be equal to 0, but got {axes}.")
        axes = [axes + a.ndim, axes + b.ndim] if axes < 0 else [axes, axes]
    else:
        raise ValueError(f"For 'batch_dot', the type of 'axes' must be one of those: int, tuple(int), list(int), "
                         f"but got {type(axes).__name__}.")
    if axes[0] > a.ndim or axes[1] > b.ndim or min(axes) < 0:
        raise ValueError(f"For 'batch_dot', axes[0] must be less than or equal to len(x1_shape), and axes[1] must "
                         f"be less than or equal to len(x2_shape).But got 'axes': {axes}, 'x1_shape': "
                         f"{a.shape}, 'x2_shape': {b.shape}.")
    a_dim, b_dim = a.ndim, b.ndim
    if a_dim == 2:
        a = a[:, None, :]
        axes[0] += 1
    if b_dim == 2:
        b = b[:, :, None]
    if a.shape[axes[0]] != b.shape[axes[1]]:
        raise ValueError(f"For 'batch_dot', the contracted dimensions must be equal, but got "
                         f"{a.shape[axes[0]]} and {b.shape[axes[1]]}.")
    a_sub = list(range(a.ndim))
    b_sub = [0] + [axes[0] if i == axes[1] else a.ndim + i for i in range(1, b.ndim)]
    out_sub = [0] + [i for i in a_sub[1:] if i != axes[0]] + [a.ndim + i for i in range(1, b.ndim) if i != axes[1]]
    out = jnp.einsum(a, a_sub, b, b_sub, out_sub)
    if a_dim == 2:
        out = jnp.squeeze(out, 1)
    elif b_dim == 2:
        out = jnp.squeeze(out, -1)
    return wrap(out)


def _check_scale(name, alpha, beta):
    for n, v in (("alpha", alpha), ("beta", beta)):
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise TypeError(f"For '{name}', parameter '{n}' must be an int or float, but got {type(v)}.")


def _scaled(x, s):
    """``s * x`` with MindSpore's scalar promotion (a Python float keeps a float Tensor's dtype and
    turns an integer one into Float32)."""
    if isinstance(s, float) and not _is_float(x):
        return np.float32(s) * x
    return s * x


@op("addmm", family="math")
def addmm(input, mat1, mat2, *, beta=1, alpha=1):
    """``ops.addmm(input, mat1, mat2, *, beta=1, alpha=1)``: ``beta * input + alpha * (mat1 @ mat2)``."""
    _check_scale("addmm", alpha, beta)
    prod = _prim_matmul(mat1, mat2)._data
    return wrap(_scaled(arr(input), beta) + _scaled(prod, alpha))


@op("addbmm", family="math")
def addbmm(input, batch1, batch2, *, beta=1, alpha=1):
    """``ops.addbmm(input, batch1, batch2, *, beta=1, alpha=1)``:
    ``beta * input + alpha * sum_b(batch1[b] @ batch2[b])``."""
    _check_scale("addbmm", alpha, beta)
    prod = _batch_matmul("BatchMatMul", arr(batch1), arr(batch2), False, False)
    s = jnp.sum(prod, axis=0) if jnp.issubdtype(prod.dtype, jnp.inexact) else jnp.sum(prod, axis=0)
    if not _is_float(s):
        s = s.astype(jnp.int64)
    return wrap(_scaled(arr(input), beta) + _scaled(s, alpha))


@op("baddbmm", family="math")
def baddbmm(input, batch1, batch2, beta=1, alpha=1):
    """``ops.baddbmm(input, batch1, batch2, beta=1, alpha=1)``: ``beta * input + alpha * (batch1 @ batch2)``;
    all three Tensors of one dtype (integer Tensors need integer ``alpha``/``beta``)."""
    if not (isinstance(input, Tensor) and isinstance(batch1, Tensor) and isinstance(batch2, Tensor)):
        raise TypeError("For Baddbmm, inputs must be all tensors.")
    x = input._data
    if not (x.dtype == batch1._data.dtype == batch2._data.dtype):
        raise TypeError("For Baddbmm, the inputs should be the same dtype.")
    if x.dtype in _FLOATS:
        if isinstance(alpha, bool) or isinstance(beta, bool) or not (
                isinstance(alpha, (int, float)) and isinstance(beta, (int, float))):
            raise TypeError("For attributes alpha and beta should be real numbers.")
    elif not (isinstance(alpha, int) and isinstance(beta, int)):
        raise TypeError("For inputs of type not FloatTensor or DoubleTensor, arguments beta and alpha must be "
                        "integers.")
    prod = _batch_matmul("BatchMatMul", batch1._data, batch2._data, False, False)
    return wrap(_scaled(x, beta) + _scaled(prod, alpha))


@op("addmv", family="math")
def addmv(input, mat, vec, *, beta=1, alpha=1):
    """``ops.addmv(input, mat, vec, *, beta=1, alpha=1)``: ``beta * input + alpha * (mat @ vec)``."""
    if not (isinstance(input, Tensor) and isinstance(mat, Tensor) and isinstance(vec, Tensor)):
        raise TypeError("For Addmv, inputs must be all tensors.")
    x, m, v = input._data, mat._data, vec._data
    if m.dtype != v.dtype:
        raise TypeError("For Addmv, the mat and vec should be the same dtype.")
    if x.dtype not in (jnp.float16, jnp.float32, jnp.float64, jnp.int16, jnp.int32, jnp.int64):
        raise TypeError(f"For 'Addmv', the 'input' must be Float16, Float32, Float64, Int16, Int32 or Int64, "
                        f"but got {_dn(x)}.")
    for n, s in (("alpha", alpha), ("beta", beta)):
        if not isinstance(s, (int, float, bool)):
            raise TypeError(f"For 'Addmv', the '{n}' must be int, float or bool, but got {type(s).__name__}.")
    if not _is_float(x):
        alpha, beta = int(alpha), int(beta)
    if m.ndim != 2 or v.ndim != 1:
        raise ValueError(f"For 'Addmv', 'mat' must be 2-D and 'vec' 1-D, but got {m.ndim}-D and {v.ndim}-D.")
    if m.shape[1] != v.shape[0]:
        raise ValueError(f"For 'Addmv', mat.shape[1] must equal vec.shape[0], but got {m.shape[1]} and "
                         f"{v.shape[0]}.")
    return wrap(_scaled(x, beta) + _scaled(jnp.matmul(m, v), alpha))


def _tensor_addmm(self, mat1, mat2, *, beta=1, alpha=1):
    return addmm(self, mat1, mat2, beta=beta, alpha=alpha)


def _tensor_addbmm(self, batch1, batch2, *, beta=1, alpha=1):
    return addbmm(self, batch1, batch2, beta=beta, alpha=alpha)


def _tensor_baddbmm(self, batch1, batch2, *, beta=1, alpha=1):
    return baddbmm(self, batch1, batch2, beta, alpha)


def _tensor_addmv_kw(self, mat, vec, *, beta=1, alpha=1):
    return addmv(self, mat, vec, beta=beta, alpha=alpha)


def _tensor_addmv_pos(self, mat, vec, beta=1, alpha=1):
    return addmv(self, mat, vec, beta=beta, alpha=alpha)


_tensor_method("tensor_m_addmm", "addmm", _tensor_addmm, "``Tensor.addmm(mat1, mat2, *, beta=1, alpha=1)``.")
_tensor_method("tensor_m_addbmm", "addbmm", _tensor_addbmm, "``Tensor.addbmm(batch1, batch2, *, beta=1, alpha=1)``.")
_tensor_method("tensor_m_baddbmm", "baddbmm", _tensor_baddbmm,
               "``Tensor.baddbmm(batch1, batch2, *, beta=1, alpha=1)``.")
_tensor_method("tensor_m_addmv", "addmv", _dispatch("addmv", _tensor_addmv_kw, _tensor_addmv_pos),
               "``Tensor.addmv(mat, vec, *, beta=1, alpha=1)``.")


@op("ger", methods="ger", family="math")
def ger(input, vec2):
    """``ops.ger(input, vec2)``: outer product of two 1-D float Tensors of one dtype."""
    x, y = arr(input), arr(vec2)
    for n, v in (("x1", x), ("x2", y)):
        if v.dtype not in _FLOATS:
            raise TypeError(f"For primitive[Ger], the input argument[{n}] must be a type of {{Tensor[Float16], "
                            f"Tensor[Float32], Tensor[Float64]}}, but got Tensor[{_dn(v)}].")
    if x.dtype != y.dtype:
        raise TypeError("For primitive[Ger], the input type must be same.")
    if x.ndim != 1 or y.ndim != 1:
        raise ValueError(f"For 'Ger', the inputs must be 1-D, but got {x.ndim}-D and {y.ndim}-D.")
    return wrap(jnp.outer(x, y))


@op("outer", methods="outer", family="math")
def outer(input, vec2):
    """``ops.outer(input, vec2)``: ``input.reshape(-1, 1) * vec2``."""
    if not isinstance(input, Tensor):
        raise TypeError("the input input must be Tensor!")
    if not isinstance(vec2, Tensor):
        raise TypeError("the input vec2 must be Tensor!")
    return wrap(jnp.reshape(input._data, (-1, 1)) * vec2._data)


@op("cross", primitive="Cross", prim_args=("dim",), methods="cross", family="math")
def cross(input, other, dim=None):
    """``ops.cross(input, other, dim=None)``: cross product along ``dim`` (the first axis of size 3
    by default)."""
    x, y = arr(input), arr(other)
    if x.dtype != y.dtype:
        raise TypeError(f"For 'Cross', the dtypes of 'input' and 'other' must be the same, but got {_dn(x)} and "
                        f"{_dn(y)}.")
    _no_bool("Cross", x)
    try:
        shape = jnp.broadcast_shapes(x.shape, y.shape)
    except ValueError:
        raise ValueError(f"For 'Cross', 'input' and 'other' must broadcast, but got {list(x.shape)} and "
                         f"{list(y.shape)}.") from None
    if dim is None or dim == -65530:
        cands = [i for i, s in enumerate(shape) if s == 3]
        if not cands:
            raise ValueError(f"For 'Cross', the size of inputs dim must contain 3, but got {list(shape)}.")
        dim = cands[0]
    d = _norm_axis("Cross", dim, len(shape))
    if shape[d] != 3:
        raise ValueError(f"For 'Cross', the size of inputs dim must be 3, but got {shape[d]}.")
    x, y = jnp.broadcast_to(x, shape), jnp.broadcast_to(y, shape)
    return wrap(jnp.cross(x, y, axis=d))


@op("diff", methods="diff", family="math")
def diff(x, n=1, axis=-1, prepend=None, append=None):
    """``ops.diff(x, n=1, axis=-1, prepend=None, append=None)``: first differences along ``axis``
    (MindSpore supports ``n=1`` only)."""
    if not isinstance(x, Tensor):
        raise TypeError(f"For 'diff', 'x' must be a tensor, but got {type(x)}")
    a = x._data
    if a.ndim < 1:
        raise TypeError(f"For 'diff', the dimension 'x' must be at least 1, but got {a.ndim}")
    if 0 in a.shape:
        raise ValueError("For 'diff', 'x' can not be an empty Tensor.")
    if isinstance(n, bool) or not isinstance(n, int):
        raise TypeError(f"For 'diff', the 'n' must be int, but got {type(n).__name__}.")
    if n != 1:
        raise RuntimeError(f"For 'diff', 'n' must be 1, but got {n}")
    if a.dtype in (jnp.uint16, jnp.uint32, jnp.uint64):
        raise TypeError(f"For 'diff', the data type of the elements in 'x' cannot be uint16, uint32, uint64, but "
                        f"got {_dn(a)}")
    ax = _norm_axis("diff", axis, a.ndim)
    parts = [arr(p) for p in (prepend,) if p is not None] + [a] + [arr(p) for p in (append,) if p is not None]
    if len(parts) > 1:
        a = jnp.concatenate(parts, axis=ax)
    hi = jnp.take(a, jnp.arange(1, a.shape[ax]), axis=ax)
    lo = jnp.take(a, jnp.arange(0, a.shape[ax] - 1), axis=ax)
    return wrap(jnp.not_equal(hi, lo) if _is_bool(a) else hi - lo)


@op("trace", primitive="Trace", family="math")
def trace(input):
    """``ops.trace(input)``: sum of the main diagonal of a 2-D Tensor (keeps the dtype)."""
    x = arr(input)
    _no_bool("Trace", x)
    if x.ndim != 2:
        raise RuntimeError(f"For Primitive[Trace], the rank of the input must be 2, but got {x.ndim}!")
    return wrap(jnp.trace(x).astype(x.dtype))


def _tensor_trace(self, offset=0, axis1=0, axis2=1, dtype=None):
    x = self._data
    _no_bool("Trace", x)
    if dtype is not None:
        t = mstype.to_np(dtype)
    elif jnp.issubdtype(x.dtype, jnp.integer):
        t = jnp.int64
    else:
        t = x.dtype
    return wrap(jnp.trace(x, offset=offset, axis1=axis1, axis2=axis2).astype(t))


_tensor_method("tensor_m_trace", "trace", _tensor_trace,
               "``Tensor.trace(offset=0, axis1=0, axis2=1, dtype=None)``: integers sum to Int64.")


def _arg_kind(a):
    if isinstance(a, Tensor):
        return "Tensor"
    if isinstance(a, (tuple, list)):
        inner = ", ".join(type(v).__name__ for v in a)
        return f"{'Tuple' if isinstance(a, tuple) else 'List'}<{inner}>"
    return type(a).__name__


@op("tracev2_grad", primitive="TraceV2Grad", family="math")
def tracev2_grad(dout, shape, offset=0, axis1=1, axis2=0):
    """``TraceV2Grad()(dout, shape, offset=0, axis1=1, axis2=0)`` (``ops.auto_generate.tracev2_grad_op``):
    the gradient of ``trace(x, offset, axis1, axis2)`` for an ``x`` of ``shape`` (an integer Tensor):
    ``dout`` on that diagonal, zeros elsewhere."""
    if not isinstance(dout, Tensor) or not isinstance(shape, Tensor) or not all(
            isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in (offset, axis1, axis2)):
        shown = (f"dout={_arg_kind(dout)}, shape={_arg_kind(shape)}, offset={_arg_kind(offset)}, "
                 f"axis1={_arg_kind(axis1)}, axis2={_arg_kind(axis2)}")
        raise TypeError(f'Failed calling TraceV2Grad with "TraceV2Grad()({shown})".\nThe valid calling should be: \n'
                        '"TraceV2Grad()(dout=<Tensor>, shape=<Tensor>, offset=<int>, axis1=<int>, axis2=<int>)".')
    dims = _ints(shape, "shape", "TraceV2Grad")
    g, nd = dout._data, len(dims)
    a1, a2 = int(axis1) % nd, int(axis2) % nd
    rows, cols = dims[a1], dims[a2]
    r0, c0 = (0, int(offset)) if offset >= 0 else (-int(offset), 0)
    size = max(0, min(rows - r0, cols - c0))
    rest = tuple(d for i, d in enumerate(dims) if i not in (a1, a2))
    z = jnp.zeros(rest + (rows, cols), g.dtype)
    idx = jnp.arange(size)
    z = z.at[..., r0 + idx, c0 + idx].set(jnp.broadcast_to(jnp.reshape(g, rest + (1,)), rest + (size,)))
    return wrap(jnp.moveaxis(z, (-2, -1), (a1, a2)))


def _svd_arrays(x, full_matrices, compute_uv):
    if not _is_float(x) or x.dtype == jnp.float16:
        raise TypeError(f"For 'Svd', the input must be Float32, Float64, Complex64 or Complex128, but got "
                        f"{_dn(x)}.")
    if x.ndim < 2:
        raise ValueError(f"For 'Svd', the rank of the input must be >= 2, but got {x.ndim}.")
    if not compute_uv:
        return svd_eigen.svd_values(x), None, None
    return svd_eigen.svd_like_eigen(x, full_matrices)


@op("svd", family="math")
def svd(input, full_matrices=False, compute_uv=True):
    """``ops.svd(input, full_matrices=False, compute_uv=True)``: ``(s, u, v)`` with
    ``input = u @ diag(s) @ v^H``; only ``s`` when ``compute_uv=False``.

    The singular vectors take the signs of MindSpore's CPU kernel (Eigen's ``JacobiSVD``, replayed
    in ``svd_eigen``) for real matrices of fewer than 16 columns, so gradients of functions of
    ``u``/``v`` match MindSpore's; wider matrices (Eigen's divide and conquer there) and complex
    ones keep LAPACK's signs and phases. The gradient refuses complex inputs and
    ``full_matrices=True`` with ``|m - n| > 1`` as MindSpore's bprop does."""
    _need_tensor("svd", "input", input)
    s, u, v = _svd_arrays(input._data, full_matrices, compute_uv)
    if not compute_uv:
        return wrap(s)
    return wrap(s), wrap(u), wrap(v)


@op("prim_svd", primitive="Svd", prim_args=("full_matrices", "compute_uv"), family="math")
def _prim_svd(input, full_matrices=False, compute_uv=True):
    """``Svd(full_matrices=False, compute_uv=True)(input)``: ``(s, u, v)`` (``u``/``v`` are zeros
    when ``compute_uv=False``)."""
    x = arr(input)
    s, u, v = _svd_arrays(x, full_matrices, compute_uv)
    if not compute_uv:
        return wrap(s), wrap(jnp.zeros((1,), x.dtype)), wrap(jnp.zeros((1,), x.dtype))
    return wrap(s), wrap(u), wrap(v)


def _tensor_svd(self, full_matrices=False, compute_uv=True):
    return svd(self, full_matrices, compute_uv)


_tensor_method("tensor_m_svd", "svd", _tensor_svd, "``Tensor.svd(full_matrices=False, compute_uv=True)``.")


@op("inverse", primitive="MatrixInverse", prim_args=("adjoint",), methods="inverse", family="math")
def inverse(input, adjoint=False):
    """``ops.inverse(input)`` (``MatrixInverse(adjoint=False)(x)``): inverse of (a batch of) square
    Float32/Float64/complex matrices."""
    _need_tensor("inverse", "input", input)
    x = input._data
    if x.dtype not in (jnp.float32, jnp.float64, jnp.complex64, jnp.complex128):
        raise TypeError(f"For primitive[MatrixInverse], the input argument[x] must be a type of "
                        f"{{Tensor[Complex128], Tensor[Complex64], Tensor[Float32], Tensor[Float64]}}, but got "
                        f"Tensor[{_dn(x)}].")
    if x.ndim < 2:
        raise ValueError(f"For primitive[MatrixInverse], the x rank must be greater than or equal to 2, but got "
                         f"{x.ndim}.")
    if x.shape[-1] != x.shape[-2]:
        raise ValueError(f"For primitive[MatrixInverse], the attribute[row size] must be equal to {x.shape[-2]}, "
                         f"but got {x.shape[-1]}.")
    if adjoint:
        x = jnp.conj(jnp.swapaxes(x, -1, -2))
    return wrap(jnp.linalg.inv(x))


@op("det", methods="det", family="math")
def det(input):
    """``ops.det(input)``: determinant of (a batch of) square float matrices."""
    _need_tensor("det", "input", input)
    x = input._data
    if not _is_float(x):
        raise TypeError(f"For 'det', the input must be a float Tensor, but got {_dn(x)}.")
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        raise ValueError(f"For 'det', the input must be (a batch of) square matrices, but got shape "
                         f"{list(x.shape)}.")
    return wrap(jnp.linalg.det(x))


@op("logdet", methods="logdet", family="linalg")
def logdet(input):
    """``ops.logdet(input)``: ``log(det(input))``; NaN for a negative determinant."""
    return wrap(jnp.log(det(input)._data))


@op("tensor_matrix_determinant", methods="matrix_determinant", family="linalg")
def _matrix_determinant(self):
    """``Tensor.matrix_determinant()``: ``ops.det``."""
    return det(self)


@op("tensor_log_matrix_determinant", methods="log_matrix_determinant", family="linalg")
def _log_matrix_determinant(self):
    """``Tensor.log_matrix_determinant()``: ``ops.slogdet`` (sign, log|det|)."""
    return slogdet(self)


@op("qr", methods="qr", family="linalg")
def qr(input, mode="reduced"):
    """``ops.qr(input, mode='reduced')`` (``Tensor.qr(some=True)``): ``(Q, R)``."""
    if isinstance(mode, bool):
        mode = "reduced" if mode else "complete"
    if mode not in ("reduced", "complete"):
        raise TypeError(f"For qr, the arg mode must be 'reduced' or 'complete', but got {mode}.")
    q, r = jnp.linalg.qr(arr(input), mode=mode)
    return wrap(q), wrap(r)


# ---------------------------------------------------------------------------
# Cholesky, determinants, matrix powers and solvers
# ---------------------------------------------------------------------------

def _check_square(name, x, what="input"):
    _float_input(name, x, what)
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        raise ValueError(f"For '{name}', the '{what}' must be a batch of square matrices, but got shape "
                         f"{tuple(x.shape)}.")


def _mT(x):
    return jnp.swapaxes(x, -1, -2)


@op("cholesky", primitive="Cholesky", prim_args=("upper",), methods="cholesky", family="linalg")
def cholesky(input_x, upper=False):
    """``ops.cholesky(input_x, upper=False)``: ``L`` with ``A = L L^T`` (``U`` with ``A = U^T U``)."""
    _need_tensor("cholesky", "input_x", input_x)
    x = input_x._data
    _check_square("Cholesky", x, "input_x")
    low = jnp.linalg.cholesky(x)
    return _out(_mT(low).conj() if upper else low)


@op("cholesky_inverse", primitive="CholeskyInverse", prim_args=("upper",), methods="cholesky_inverse",
    family="linalg")
def cholesky_inverse(input_x, upper=False):
    """``ops.cholesky_inverse(input_x, upper=False)``: ``A^-1`` from its Cholesky factor."""
    _need_tensor("cholesky_inverse", "input_x", input_x)
    u = input_x._data
    _check_square("CholeskyInverse", u, "input_x")
    a = _mT(u) @ u if upper else u @ _mT(u)
    return _out(jnp.linalg.inv(a))


@op("cholesky_solve", primitive="CholeskySolve", prim_args=("upper",), methods="cholesky_solve",
    family="linalg")
def cholesky_solve(input, input2, upper=False):
    """``ops.cholesky_solve(input, input2, upper=False)``: solves ``A X = input`` given ``A``'s
    Cholesky factor ``input2``."""
    _need_tensor("cholesky_solve", "input", input)
    _need_tensor("cholesky_solve", "input2", input2)
    b, c = input._data, input2._data
    _float_input("CholeskySolve", b, "x1")
    return _out(jsl.cho_solve((c, not upper), b))


@op("prim_matrix_determinant", primitive="MatrixDeterminant", family="linalg")
def matrix_determinant(x):
    """``ops.MatrixDeterminant()(x)``: ``ops.det``."""
    return det(x)


@op("slogdet", primitive="LogMatrixDeterminant", methods="slogdet", family="linalg")
def slogdet(input):
    """``ops.slogdet(input)``: ``(sign, log|det|)``, both of ``input``'s dtype (a complex input gives a
    complex ``log|det|`` with a zero imaginary part, as MindSpore's)."""
    _need_tensor("slogdet", "input", input)
    x = input._data
    _check_square("LogMatrixDeterminant", x)
    s, ld = jnp.linalg.slogdet(x)
    return _out(s.astype(x.dtype)), _out(ld.astype(x.dtype))


@op("matrix_power", primitive="MatrixPower", prim_args=("n",), methods="matrix_power", family="linalg")
def matrix_power(input, n):
    """``ops.matrix_power(input, n)``: ``input`` multiplied by itself ``n`` times (``n < 0``: of its
    inverse); a batch of square matrices."""
    _need_tensor("matrix_power", "input", input)
    x = input._data
    _check_square("MatrixPower", x, "x")
    if isinstance(n, bool) or not isinstance(n, int):
        raise TypeError(f"For 'MatrixPower', the 'n' must be an int, but got {type(n).__name__}.")
    return _out(jnp.linalg.matrix_power(x, n))


@op("prim_matrix_solve", primitive="MatrixSolve", prim_args=("adjoint",), family="linalg")
def matrix_solve(matrix, rhs, adjoint=False):
    """``ops.MatrixSolve(adjoint=False)(matrix, rhs)``: ``X`` with ``matrix X = rhs`` (``matrix^H``)."""
    a, b = arr(matrix), arr(rhs)
    _check_square("MatrixSolve", a, "matrix")
    if adjoint:
        a = _mT(a).conj()
    return _out(jnp.linalg.solve(a, b))


@op("prim_matrix_triangular_solve", primitive="MatrixTriangularSolve", prim_args=("lower", "adjoint"),
    family="linalg")
def matrix_triangular_solve(matrix, rhs, lower=True, adjoint=False):
    """``ops.MatrixTriangularSolve(lower=True, adjoint=False)(matrix, rhs)``: only the ``lower`` (or
    upper) triangle of ``matrix`` is read."""
    a, b = arr(matrix), arr(rhs)
    _check_square("MatrixTriangularSolve", a, "matrix")
    return _out(jsl.solve_triangular(a, b, lower=lower, trans=2 if adjoint else 0))


@op("matrix_band_part", primitive="MatrixBandPart", family="linalg")
def matrix_band_part(x, lower, upper):
    """``ops.matrix_band_part(x, lower, upper)``: zero outside the band of ``lower`` sub- and ``upper``
    super-diagonals (a negative count keeps the whole triangle)."""
    _need_tensor("matrix_band_part", "x", x)
    a = x._data
    m, n = a.shape[-2], a.shape[-1]
    lo, up = int(to_array(arr(lower))), int(to_array(arr(upper)))
    i = jnp.arange(m)[:, None]
    j = jnp.arange(n)[None, :]
    keep = ((lo < 0) | (i - j <= lo)) & ((up < 0) | (j - i <= up))
    return _out(jnp.where(keep, a, jnp.zeros((), a.dtype)))


@op("prim_ger", primitive="Ger", family="linalg")
def prim_ger(x1, x2):
    """``ops.Ger()(x1, x2)``: ``ops.ger``."""
    return ger(x1, x2)


# ---------------------------------------------------------------------------
# decompositions, matrix functions, LpNorm/EuclideanNorm
# ---------------------------------------------------------------------------

def _typed(name, x, allowed, what="x"):
    """``x``'s array, a TypeError in MindSpore's words unless its dtype is one of ``allowed``."""
    a = arr(x)
    dn = str(mstype.from_np(a.dtype))
    if dn not in allowed:
        raise TypeError(f"For primitive[{name}], the input argument[{what}] must be a type of "
                        f"{{{', '.join(f'Tensor[{t}]' for t in sorted(allowed))}}}, but got Tensor[{dn}].")
    return a


def _matrices(name, a, what="x"):
    if a.ndim < 2:
        raise ValueError(f"For '{name}', the rank of '{what}' must be at least 2, but got {a.ndim}.")


_FLOAT_NAMES = ("Float32", "Float64")
_FLOAT_COMPLEX_NAMES = ("Float32", "Float64", "Complex64", "Complex128")


@op("prim_qr", primitive="Qr", prim_args=("full_matrices",), family="linalg")
def prim_qr(x, full_matrices=False):
    """``ops.Qr(full_matrices=False)(x)``: ``ops.qr`` ('complete' when ``full_matrices``)."""
    _matrices("Qr", _typed("Qr", x, _FLOAT_COMPLEX_NAMES + ("Float16",)))
    return qr(x, "complete" if full_matrices else "reduced")


@op("geqrf", primitive="Geqrf", methods="geqrf", family="linalg")
def geqrf(input):
    """``ops.geqrf(input)``: LAPACK's QR in Householder form, ``(a, tau)``: ``R`` on and above the
    diagonal of ``a``, the reflectors below it (Float32/Float64)."""
    a = _typed("Geqrf", input, _FLOAT_NAMES)
    _matrices("Geqrf", a)
    r, tau = _lax_geqrf(a)
    return wrap(r), wrap(tau)


@op("orgqr", primitive="Orgqr", methods="orgqr", family="linalg")
def orgqr(input, input2):
    """``ops.orgqr(input, input2)``: the first ``n`` columns of the product of the Householder
    reflectors stored below the diagonal of ``input`` (m x n, m >= n) with factors ``input2``."""
    a = _typed("Orgqr", input, _FLOAT_COMPLEX_NAMES)
    t = _typed("Orgqr", input2, _FLOAT_COMPLEX_NAMES, "tau")
    _matrices("Orgqr", a)
    if a.dtype != t.dtype:
        raise TypeError(f"For 'Orgqr', 'tau' must have the dtype of 'x' ({mstype.from_np(a.dtype)}), but got "
                        f"{mstype.from_np(t.dtype)}.")
    m, n = a.shape[-2:]
    if m < n or t.shape[:-1] != a.shape[:-2] or t.shape[-1] > n:
        raise ValueError(f"For 'Orgqr', 'x' must be a batch of m x n matrices with m >= n and 'tau' of shape "
                         f"batch + [k], k <= n, but got {list(a.shape)} and {list(t.shape)}.")
    return wrap(lax.linalg.householder_product(a, t))


@op("eig", family="linalg")
def eig(A):
    """``ops.eig(A)``: complex ``(eigenvalues, eigenvectors)`` of a square matrix (Complex64 for
    Float32/Complex64 input); each eigenvector has unit norm. Computed by LAPACK: where MindSpore's
    Eigen-based kernel orders the eigenvalues differently or picks another phase for a complex
    eigenvector, the results differ by that order or phase."""
    return _eig(A, True)


def _eig(A, compute_v):
    a = _typed("Eig", A, _FLOAT_COMPLEX_NAMES)
    if a.ndim < 2:
        raise ValueError(f"For 'Eig', 'x' must be a batch of square matrices, but got shape {list(a.shape)}.")
    if a.shape[-1] != a.shape[-2]:
        raise ValueError(f"For Eig, x should be square(squares), but got {a.shape[-2]}  {a.shape[-1]} "
                         f"matrix(matrices).")
    w, v = jnp.linalg.eig(a)
    cdt = jnp.complex64 if a.dtype in (jnp.float32, jnp.complex64) else jnp.complex128
    return wrap(w.astype(cdt)), wrap(v.astype(cdt) if compute_v else jnp.zeros((), cdt))


@op("eigvals", methods="eigvals", family="linalg")
def eigvals(A):
    """``ops.eigvals(A)``: the complex eigenvalues of each square matrix (Complex64 for Float32/Complex64
    input), the first output of ``ops.eig`` (LAPACK: MindSpore's Eigen-based kernel may order them
    otherwise)."""
    return _eig(A, False)[0]


def _lu_solve(b, LU_data, LU_pivots):
    x = _typed("LuSolve", b, ("Float16", "Float32", "Float64"), "x")
    lu = _typed("LuSolve", LU_data, ("Float16", "Float32", "Float64"), "lu_data")
    piv = _typed("LuSolve", LU_pivots, ("Int32",), "lu_pivots")
    if lu.ndim < 2 or lu.shape[-1] != lu.shape[-2]:
        raise ValueError(f"For 'LuSolve', input lu_data must be a square matrix, but got row: "
                         f"{lu.shape[-2] if lu.ndim >= 2 else 0}, col: {lu.shape[-1] if lu.ndim else 0}.")
    n = lu.shape[-1]
    batch = jnp.broadcast_shapes(x.shape[:-2], lu.shape[:-2], piv.shape[:-1])
    x32 = jnp.broadcast_to(x.astype(jnp.float32), batch + x.shape[-2:])
    lu32 = jnp.broadcast_to(lu.astype(jnp.float32), batch + (n, n))
    perm = lax.linalg.lu_pivots_to_permutation(jnp.broadcast_to(piv, batch + (n,)) - 1, n)
    xp = jnp.take_along_axis(x32, perm[..., None], axis=-2)
    y = jsl.solve_triangular(lu32, xp, lower=True, unit_diagonal=True)
    return wrap(jsl.solve_triangular(lu32, y, lower=False).astype(x.dtype))


@op("lu_solve", methods="lu_solve", family="linalg")
def lu_solve(b, LU_data, LU_pivots):
    """``ops.lu_solve(b, LU_data, LU_pivots)``: ``X`` with ``A @ X = b`` from ``A``'s LU factors and
    1-based Int32 pivots (``ops.lu_factor``'s), batches broadcast; computed in float32 as MindSpore's CPU
    kernel does (Float16/Float64 results are rounded from it). Differs from MindSpore: msjax has the
    gradient (MindSpore 2.10 raises that LuSolve's bprop is not defined)."""
    return _lu_solve(b, LU_data, LU_pivots)


@op("prim_eig", primitive="Eig", prim_args=("compute_v",), family="linalg")
def prim_eig(x, compute_v=False):
    """``ops.Eig(compute_v=False)(x)``: ``(eigenvalues, eigenvectors)``; without ``compute_v`` the
    second output is a placeholder scalar (MindSpore's holds an unspecified value)."""
    return _eig(x, compute_v)


@op("lstsq", methods="lstsq", family="linalg")
def lstsq(input, A):
    """``ops.lstsq(input, A)``: the least-squares (minimum-norm when underdetermined) ``X`` of
    ``input @ X = A``; a 1-D ``A`` gives an (n, 1) result."""
    x = _typed("Lstsq", input, ("Float16", "Float32", "Float64"), "matrix")
    b = _typed("Lstsq", A, ("Float16", "Float32", "Float64"), "rhs")
    if x.ndim != 2 or b.ndim not in (1, 2) or b.shape[0] != x.shape[0]:
        raise ValueError(f"For 'Lstsq', 'matrix' must be 2-D and 'rhs' 1-D or 2-D with the same first dimension, "
                         f"but got {list(x.shape)} and {list(b.shape)}.")
    if x.dtype != b.dtype:
        raise TypeError(f"For 'Lstsq', 'matrix' and 'rhs' must have the same dtype, but got "
                        f"{mstype.from_np(x.dtype)} and {mstype.from_np(b.dtype)}.")
    b2 = b.reshape(b.shape[0], -1)
    sol = jnp.linalg.lstsq(x.astype(jnp.float64), b2.astype(jnp.float64))[0]
    return wrap(sol.astype(x.dtype))


@op("prim_lstsq", primitive="Lstsq", prim_args=("fast", "l2_regularizer"), family="linalg")
def prim_lstsq(matrix, rhs, fast=True, l2_regularizer=0.0):
    """``ops.Lstsq(fast=True, l2_regularizer=0.0)(matrix, rhs)``: ``ops.lstsq`` (MindSpore accepts only
    ``fast=True`` and ``l2_regularizer=0.0``)."""
    if fast is not True:
        raise TypeError(f"For 'Lstsq', the 'fast' should be True, but got '{fast}'.")
    if l2_regularizer != 0.0:
        raise TypeError(f"For 'Lstsq', the 'l2_regularizer' should be 0.0, but got '{l2_regularizer}'.")
    return lstsq(matrix, rhs)


@op("prim_lp_norm", primitive="LpNorm", prim_args=("axis", "p", "keep_dims", "epsilon"), family="math")
def lp_norm(input, axis, p=2, keep_dims=False, epsilon=1e-12):
    """``ops.LpNorm(axis, p=2, keep_dims=False, epsilon=1e-12)(input)``: ``(sum |x|^p)^(1/p)`` over
    ``axis`` (``p=0``: the number of non-zeros); the gradient at a zero slice is 0."""
    x = _typed("LpNorm", input, ("Float16", "Float32", "Float64"), "input")
    if isinstance(p, bool) or not isinstance(p, int) or p < 0:
        raise ValueError(f"For 'LpNorm', 'p' must be a non-negative int, but got {p}.")
    axes = _norm_axes("LpNorm", axis, x.ndim)
    if p == 0:
        return wrap(jnp.sum(x != 0, axis=axes, keepdims=keep_dims).astype(x.dtype))
    s = jnp.sum(jnp.abs(x) ** p, axis=axes, keepdims=keep_dims)
    zero = s == 0
    safe = jnp.where(zero, jnp.ones_like(s), s)
    return wrap(jnp.where(zero, jnp.zeros_like(s), safe ** (1.0 / p)).astype(x.dtype))


def _logm(a):
    """Principal matrix logarithm by inverse scaling and squaring: square roots until ``A`` is near
    ``I``, then the series of ``log(I + X)``; in complex128."""
    n = a.shape[-1]
    eye = jnp.eye(n, dtype=a.dtype)

    def cond(c):
        m, k = c
        return (jnp.max(jnp.abs(m - eye)) > 0.25) & (k < 60)

    def body(c):
        m, k = c
        return jax.scipy.linalg.sqrtm(m).astype(a.dtype), k + 1

    m, k = lax.while_loop(cond, body, (a, jnp.int32(0)))
    x = m - eye
    term, out = eye, jnp.zeros_like(a)
    for j in range(1, 61):
        term = term @ x
        out = out + ((-1) ** (j + 1) / j) * term
    return out * (2.0 ** k).astype(a.real.dtype)


@op("prim_matrix_logarithm", primitive="MatrixLogarithm", family="linalg")
def matrix_logarithm(x):
    """``ops.MatrixLogarithm()(x)``: the principal logarithm of each square matrix of a Complex64 or
    Complex128 Tensor."""
    a = _typed("MatrixLogarithm", x, ("Complex64", "Complex128"))
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError(f"For 'MatrixLogarithm', 'x' must be a batch of square matrices, but got shape "
                         f"{list(a.shape)}.")
    flat = a.reshape((-1,) + a.shape[-2:]).astype(jnp.complex128)
    out = jnp.stack([_logm(m) for m in flat]) if flat.shape[0] else flat
    return wrap(out.reshape(a.shape).astype(a.dtype))


@op("matrix_exp", primitive="MatrixExp", family="linalg")
def matrix_exp(input):
    """``ops.matrix_exp(input)``: the exponential of each square matrix (Float16 computed in Float32);
    MindSpore 2.10's CPU build has no kernel for it."""
    a = _typed("MatrixExp", input, ("Float16",) + _FLOAT_COMPLEX_NAMES)
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError(f"For 'MatrixExp', 'x' must be a batch of square matrices, but got shape {list(a.shape)}.")
    work = a.astype(jnp.float32) if a.dtype == jnp.float16 else a
    flat = work.reshape((-1,) + a.shape[-2:])
    out = jax.vmap(jax.scipy.linalg.expm)(flat) if flat.shape[0] else flat
    return wrap(out.reshape(a.shape).astype(a.dtype))


def _euclidean_check(keep_dims=False):
    if not isinstance(keep_dims, bool):
        raise TypeError(f"For 'EuclideanNorm', the type of 'keep_dims' must be bool, but got {type(keep_dims)}.")


@op("prim_euclidean_norm", primitive="EuclideanNorm", prim_args=("keep_dims",), family="math",
    prim_check=_euclidean_check)
def euclidean_norm(x, axes, keep_dims=False):
    """``ops.EuclideanNorm(keep_dims=False)(x, axes)``: ``sqrt(sum x^2)`` over ``axes`` (an Int32/Int64
    Tensor), in ``x``'s dtype (integers truncated); MindSpore 2.10's CPU build has no kernel for it."""
    if not isinstance(x, Tensor):
        raise TypeError(f"For 'EuclideanNorm', 'x' must be a Tensor, but got {type(x)}.")
    a = x._data
    axes = tuple(int(v) for v in np.ravel(np.asarray(arr(axes))))
    for ax in axes:
        if not -max(a.ndim, 1) <= ax < max(a.ndim, 1):
            raise ValueError(f"For 'EuclideanNorm', the 'axes' must be in [{-a.ndim}, {a.ndim}), but got {ax}.")
    work = a if jnp.issubdtype(a.dtype, jnp.inexact) else a.astype(jnp.float64)
    out = jnp.sqrt(jnp.sum(jnp.abs(work) ** 2, axis=_norm_axes("EuclideanNorm", list(axes), a.ndim),
                           keepdims=keep_dims))
    return wrap(out.astype(a.dtype))


# ---------------------------------------------------------------------------
# norm
# ---------------------------------------------------------------------------

def _svd_vals(x, row, col):
    m = jnp.moveaxis(x, (row, col), (-2, -1))
    return jnp.linalg.svd(m, compute_uv=False)


def _keep_matrix(ret, shape, dims):
    out_shape = list(shape)
    for d in dims:
        out_shape[d] = 1
    return jnp.reshape(ret, out_shape)


@op("cosine_similarity", family="math")
def cosine_similarity(x1, x2, dim=1, eps=1e-08):
    """``ops.cosine_similarity(x1, x2, dim=1, eps=1e-08)``: ``sum(x1 * x2, dim) / max(||x1|| * ||x2||, eps)``
    (the inputs broadcast), MindSpore's formula with its gradient."""
    _need_tensor("cosine_similarity", "x1", x1)
    _need_tensor("cosine_similarity", "x2", x2)
    num = (x1 * x2).sum(dim)
    den = norm(x1, 2, dim) * norm(x2, 2, dim)
    return num / den.clip(min=eps)


@op("norm", methods="norm", family="math")
def norm(A, ord=None, dim=None, keepdim=False, *, dtype=None):
    """``ops.norm(A, ord=None, dim=None, keepdim=False, *, dtype=None)``: vector or matrix norms,
    computed as MindSpore does (``inf`` norms pick the first maximal element for the gradient)."""
    _need_tensor("norm", "A", A)
    x = A._data
    if dtype is not None:
        x = x.astype(mstype.to_np(dtype))
    if _is_bool(x):
        raise TypeError("For 'norm', the input does not support Bool (MindSpore has no CPU kernel for it).")
    if not _is_float(x):
        x = x.astype(jnp.float32)
    ndim = x.ndim
    immediate = False
    if dim is None:
        dims = tuple(range(ndim))
        immediate = ord is None or (ord == "fro" and ndim == 2) or (ord == 2 and ndim == 1)
    elif isinstance(dim, int):
        dims = (dim,)
    elif isinstance(dim, tuple):
        if len(dim) > 2:
            raise ValueError("For norm, the dimensions is out of range.")
        dims = dim
    else:
        raise TypeError(f"For norm, the dim should be int or tuple of int, but got {type(dim)}")
    if len(dims) == 1 and isinstance(ord, str):
        raise TypeError(f"For norm, ord mode can not be str for vectors, but got {ord}.")
    if len(dims) == 2 and ord not in (2, -2, 1, -1, float("inf"), -float("inf"), "fro", "nuc", None):
        raise ValueError("For norm, the ord mode must be in [2, -2, 1, -1, float('inf'), -float('inf'), 'fro', "
                         f"'nuc', None] for matrices, but got {ord}.")
    sq = (lambda a: jnp.real(a * jnp.conj(a))) if jnp.issubdtype(x.dtype, jnp.complexfloating) else jnp.square
    if immediate:
        ret = jnp.sqrt(jnp.sum(sq(x), axis=dims))
        return wrap(jnp.reshape(ret, [1] * ndim) if keepdim else ret)
    dims = tuple(_norm_axis("norm", d, ndim) for d in dims)
    ax = _abs(x, "norm")
    if len(dims) == 2:
        row, col = dims
        if row == col:
            raise ValueError("For norm, the elements of dim can not be duplicate.")
        if ord in (1, -1):
            s = jnp.sum(ax, axis=row)
            c = col - 1 if col > row else col
            ret = _arg_with_value(s, c, False, ord == 1)[0]
        elif ord in (float("inf"), -float("inf")):
            s = jnp.sum(ax, axis=col)
            r = row - 1 if row > col else row
            ret = _arg_with_value(s, r, False, ord > 0)[0]
        elif ord in (2, -2):
            sv = _svd_vals(x, row, col)
            ret = jnp.max(sv, axis=-1) if ord == 2 else jnp.min(sv, axis=-1)
        elif ord == "nuc":
            ret = jnp.sum(_svd_vals(x, row, col), axis=-1)
        else:
            ret = jnp.sqrt(jnp.sum(sq(x), axis=dims))
        return wrap(_keep_matrix(ret, x.shape, dims) if keepdim else ret)
    if len(dims) != 1:
        raise ValueError("For norm, the dimensions is out of range.")
    d = dims[0]
    if ord == float("inf") or ord == -float("inf"):
        return wrap(_arg_with_value(ax, d, keepdim, ord > 0)[0])
    if ord == 0:
        return wrap(jnp.sum((x != 0).astype(x.dtype), axis=d, keepdims=keepdim))
    if ord is None:
        return wrap(jnp.sqrt(jnp.sum(sq(x), axis=d, keepdims=keepdim)))
    p = ord
    return wrap(jnp.power(jnp.sum(jnp.power(ax, p), axis=d, keepdims=keepdim), 1.0 / p))


@op("cond", family="linalg")
def cond(A, p=None):
    """``ops.cond(A, p=None)``: the condition number ``norm(A, p) * norm(inverse(A), p)`` of (a batch of)
    square float matrices, ``p=None`` being the 2-norm (ratio of the extreme singular values). As
    MindSpore, a batch (3-D or more) gives Float32 whatever the input's float dtype; the errors are
    ``MatrixInverse``'s and ``norm``'s."""
    if p is None:
        p = 2
    inv = inverse(A)
    if A.ndim < 3:
        return norm(A, p) * norm(inv, p)
    dims = (-2, -1)
    out = norm(A, p, dims)._data * norm(inv, p, dims)._data
    return wrap(out.astype(jnp.float32))


# ---------------------------------------------------------------------------
# cdist, einsum
# ---------------------------------------------------------------------------

@op("cdist", primitive="Cdist", prim_args=("p",), family="math")
def cdist(x1, x2, p=2.0):
    """``ops.cdist(x1, x2, p=2.0)``: p-norm distances between the rows of ``x1`` (B, P, M) and ``x2``
    (B, R, M); ``p=0`` counts differing coordinates, ``p=inf`` is the largest difference."""
    _need_tensor("cdist", "x1", x1)
    _need_tensor("cdist", "x2", x2)
    a, b = x1._data, x2._data
    _float_input("cdist", a, "x1")
    if a.ndim != b.ndim or a.ndim not in (2, 3):
        raise ValueError(f"For 'cdist', rank of input_x and input_y must be 2 or 3 and equal, but got "
                         f"{a.ndim} and {b.ndim}.")
    if a.shape[-1] != b.shape[-1]:
        raise ValueError(f"For 'cdist', the last dimensions of x1 and x2 must be the same, but got "
                         f"{a.shape[-1]} and {b.shape[-1]}.")
    if p < 0:
        raise ValueError(f"For 'cdist', p must be a non-negative value, but got {p}.")
    d = a[..., :, None, :] - b[..., None, :, :]
    ad = jnp.abs(d)
    if p == 0:
        return _out(jnp.sum((ad != 0).astype(a.dtype), -1))
    if np.isinf(p):
        return _out(jnp.max(ad, -1))
    if p == 2.0:
        s = jnp.sum(d * d, -1)
        safe = jnp.where(s == 0, jnp.ones_like(s), s)
        return _out(jnp.where(s == 0, jnp.zeros_like(s), jnp.sqrt(safe)))
    if p == 1.0:
        return _out(jnp.sum(ad, -1))
    s = jnp.sum(ad ** p, -1)
    safe = jnp.where(s == 0, jnp.ones_like(s), s)
    return _out(jnp.where(s == 0, jnp.zeros_like(s), safe ** (1.0 / p)))


@op("einsum", family="math")
def einsum(equation, *operands):
    """``ops.einsum(equation, *operands)`` (MindSpore 2.10's CPU build has no Einsum kernel; this is
    ``jnp.einsum``)."""
    if not isinstance(equation, str):
        raise TypeError(f"For 'Einsum', the 'equation' must be a str, but got {type(equation).__name__}.")
    if len(operands) == 1 and isinstance(operands[0], (tuple, list)):
        operands = tuple(operands[0])
    return _out(jnp.einsum(equation.replace(" ", ""), *(arr(o) for o in operands)))


def _check_equation(equation=None):
    if not isinstance(equation, str):
        raise TypeError(f"For 'Einsum', the 'equation' must be a str, but got {type(equation).__name__}.")


@op("prim_einsum", primitive="Einsum", prim_args=("equation",), family="math", prim_check=_check_equation)
def prim_einsum(operands, equation):
    """``ops.Einsum(equation)((a, b, ...))``: the operands come as one tuple."""
    return einsum(equation, *operands)


# ---------------------------------------------------------------------------
# inner, addr, renorm
# ---------------------------------------------------------------------------

@op("inner", methods="inner", family="math")
def inner(input, other):
    """``ops.inner(input, other)``: sum over the last axes; a 0-D operand multiplies."""
    a, b = operand_pair(input, other)
    a, b = jnp.asarray(a), jnp.asarray(b)
    if a.ndim == 0 or b.ndim == 0:
        return _out(a * b)
    return _out(jnp.inner(a, b))


@op("vecdot", family="math")
def vecdot(x, y, *, axis=-1):
    """``ops.vecdot(x, y, *, axis=-1)``: ``sum(conj(x) * y, axis)`` with broadcasting (MindSpore's definition:
    its ``Mul`` then ``Tensor.sum``, so integer and Bool inputs give Int64, and the product wraps in the
    inputs' integer dtype before the sum)."""
    if not isinstance(x, Tensor) or not isinstance(y, Tensor):
        raise TypeError("For vecdot, x or y must be Tensor.")
    if not isinstance(axis, int):
        raise TypeError(f"For vecdot, the dim should be int, but got {type(axis)}.")
    ndim = max(x.ndim, y.ndim)
    if axis < -ndim or axis >= ndim:
        raise ValueError("For vecdot, the dim is out of range.")
    if x.dtype in (mstype.complex64, mstype.complex128):
        x = x.conj()
    return (x * y).sum(axis=axis)


@op("renorm", methods="renorm", family="math")
def renorm(input, p, axis, maxnorm):
    """``ops.renorm(input, p, axis, maxnorm)``: each slice along ``axis`` with a ``p``-norm above
    ``maxnorm`` scaled down to ``maxnorm``."""
    x = arr(input)
    ax = _norm_axis("renorm", axis, x.ndim)
    others = tuple(d for d in range(x.ndim) if d != ax)
    norm = jnp.sum(jnp.abs(x) ** p, axis=others, keepdims=True) ** (1.0 / p)
    big = norm > maxnorm
    # slices left as they are get gradient 1 (MindSpore), not the 0 * NaN of a zero norm's
    # gradient: the scaled branch sees those slices as ones
    xs = jnp.where(big, x, 1)
    norm = jnp.sum(jnp.abs(xs) ** p, axis=others, keepdims=True) ** (1.0 / p)
    return wrap(jnp.where(big, xs * (maxnorm / (norm + 1e-7)).astype(x.dtype), x))


@op("addr", methods="addr", family="math")
def addr(x, vec1, vec2, *, beta=1, alpha=1):
    """``ops.addr(x, vec1, vec2, *, beta=1, alpha=1)``: ``beta * x + alpha * outer(vec1, vec2)``."""
    a = arr(x)
    return _out(beta * a + alpha * jnp.outer(arr(vec1), arr(vec2)).astype(a.dtype))


@op("prim_renorm", primitive="Renorm", prim_args=("p", "dim", "maxnorm"), family="math")
def prim_renorm(input_x, p, dim, maxnorm):
    """``ops.Renorm(p, dim, maxnorm)(input_x)``: ``ops.renorm``."""
    return renorm(input_x, p, dim, maxnorm)


# ---------------------------------------------------------------------------
# kron, vander
# ---------------------------------------------------------------------------

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


# ---------------------------------------------------------------------------
# mv, vector_norm, matrix_norm
# ---------------------------------------------------------------------------

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


def vector_norm_ext(x, ord=2, dim=None, keepdim=False, *, dtype=None):  # noqa: A002
    """``mint.linalg.vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None)``: the ``ord``-norm of
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


def matrix_norm_ext(A, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None):  # noqa: A002
    """``mint.linalg.matrix_norm(A, ord='fro', dim=(-2, -1), keepdim=False, *, dtype=None)``: ``ops.norm``
    over the two dimensions ``dim``."""
    _need_tensor("matrix_norm", "A", A)
    if A.ndim < 2:
        raise ValueError(f"For 'matrix_norm', 'A' must have at least 2 dimensions, but got {A.ndim}.")
    if not isinstance(dim, (tuple, list)) or len(dim) != 2:
        raise TypeError(f"For 'matrix_norm', 'dim' must be a tuple of two ints, but got {dim}.")
    return norm(A, ord, tuple(dim), keepdim, dtype=dtype)


@op("vector_norm", family="math")
def vector_norm(x, ord=2, axis=None, keepdims=False, *, dtype=None):  # noqa: A002
    """``ops.vector_norm(x, ord=2, axis=None, keepdims=False, *, dtype=None)``: MindSpore's
    ``ops`` spelling (``axis``/``keepdims``, an int or a tuple of axes) of ``mint.linalg.vector_norm``.
    As MindSpore, ``ord=inf``/``-inf`` over several axes reduces every axis between the lowest and the
    highest named one (axis=(0, 2) of a 3-D Tensor gives a scalar)."""
    _need_tensor("vector_norm", "x", x)
    if axis is not None and not isinstance(axis, (int, tuple)):
        raise TypeError(f"For vector_norm , the dim must be tuple or int, but got {type(axis)}")
    axes = (axis,) if isinstance(axis, int) else axis
    if axes is not None:
        seen = [_norm_axis("vector_norm", a, max(x.ndim, 1)) for a in axes]
        if len(set(seen)) != len(seen):
            raise ValueError("For vector_norm, the elements of axis can not be duplicate.")
    if isinstance(ord, bool) or not isinstance(ord, (int, float)):
        raise ValueError(f"For vector_norm, the ord mode must be in [0, 2, float('inf'), -float('inf')] "
                         f"or must be int or float, but got {ord}.")
    if ord in (float("inf"), float("-inf")) and axes is not None and len(axes) > 1:
        # MindSpore flattens every axis from the lowest to the highest named one, named or not
        lo, hi = min(seen), max(seen)
        a = x._data.reshape(x.shape[:lo] + (-1,) + x.shape[hi + 1:])
        out = vector_norm_ext(wrap(a), ord, lo, False, dtype=dtype)
        return out.reshape(tuple(1 if d in seen else n for d, n in enumerate(x.shape))) if keepdims else out
    return vector_norm_ext(x, ord, axes, keepdims, dtype=dtype)


_MATRIX_ORDS = (2, -2, 1, -1, float("inf"), float("-inf"), "fro", "nuc")


@op("matrix_norm", family="math")
def matrix_norm(A, ord="fro", axis=(-2, -1), keepdims=False, *, dtype=None):  # noqa: A002
    """``ops.matrix_norm(A, ord='fro', axis=(-2, -1), keepdims=False, *, dtype=None)``: MindSpore's
    ``ops`` spelling (``axis``/``keepdims``) of ``mint.linalg.matrix_norm``."""
    _need_tensor("matrix_norm", "A", A)
    if not isinstance(axis, (list, tuple)):
        raise TypeError(f"For matrix_norm , the axis should be tuple of int, but got {type(axis)}")
    if len(axis) != 2:
        raise ValueError(f"For matrix_norm, the length of axis should be 2, but got {len(axis)}.")
    if _norm_axis("matrix_norm", axis[0], A.ndim) == _norm_axis("matrix_norm", axis[1], A.ndim):
        raise ValueError("For matrix_norm, the elements of axis can not be duplicate.")
    if not any(ord == o and type(ord) is not bool for o in _MATRIX_ORDS):
        raise ValueError(f"For matrix_norm, the ord mode must be in "
                         f"[2, -2, 1, -1, float('inf'), float('-inf'), 'fro', 'nuc'] but got {ord}.")
    return matrix_norm_ext(A, ord, tuple(axis), keepdims, dtype=dtype)
