"""Matrix ops beyond ``linalg``: Cholesky and its inverse/solve, ``MatrixDeterminant``,
``LogMatrixDeterminant``/``slogdet``, ``matrix_power``, ``MatrixSolve``,
``MatrixTriangularSolve``, ``matrix_band_part`` and the ``Ger`` Primitive."""
from __future__ import annotations

import jax.numpy as jnp
import jax.scipy.linalg as jsl

from ..._core.registry import op
from ._util import arr, to_array
from .linalg import det, ger
from .math import _float_input, _need_tensor, _out


def _square(name, x, what="input"):
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
    _square("Cholesky", x, "input_x")
    low = jnp.linalg.cholesky(x)
    return _out(_mT(low).conj() if upper else low)


@op("cholesky_inverse", primitive="CholeskyInverse", prim_args=("upper",), methods="cholesky_inverse",
    family="linalg")
def cholesky_inverse(input_x, upper=False):
    """``ops.cholesky_inverse(input_x, upper=False)``: ``A^-1`` from its Cholesky factor."""
    _need_tensor("cholesky_inverse", "input_x", input_x)
    u = input_x._data
    _square("CholeskyInverse", u, "input_x")
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
    """``ops.slogdet(input)``: ``(sign, log|det|)``."""
    _need_tensor("slogdet", "input", input)
    x = input._data
    _square("LogMatrixDeterminant", x)
    s, ld = jnp.linalg.slogdet(x)
    return _out(s.astype(x.dtype)), _out(ld)


@op("matrix_power", primitive="MatrixPower", prim_args=("n",), methods="matrix_power", family="linalg")
def matrix_power(input, n):
    """``ops.matrix_power(input, n)``: ``input`` multiplied by itself ``n`` times (``n < 0``: of its
    inverse); a batch of square matrices."""
    _need_tensor("matrix_power", "input", input)
    x = input._data
    _square("MatrixPower", x, "x")
    if isinstance(n, bool) or not isinstance(n, int):
        raise TypeError(f"For 'MatrixPower', the 'n' must be an int, but got {type(n).__name__}.")
    return _out(jnp.linalg.matrix_power(x, n))


@op("prim_matrix_solve", primitive="MatrixSolve", prim_args=("adjoint",), family="linalg")
def matrix_solve(matrix, rhs, adjoint=False):
    """``ops.MatrixSolve(adjoint=False)(matrix, rhs)``: ``X`` with ``matrix X = rhs`` (``matrix^H``)."""
    a, b = arr(matrix), arr(rhs)
    _square("MatrixSolve", a, "matrix")
    if adjoint:
        a = _mT(a).conj()
    return _out(jnp.linalg.solve(a, b))


@op("prim_matrix_triangular_solve", primitive="MatrixTriangularSolve", prim_args=("lower", "adjoint"),
    family="linalg")
def matrix_triangular_solve(matrix, rhs, lower=True, adjoint=False):
    """``ops.MatrixTriangularSolve(lower=True, adjoint=False)(matrix, rhs)``: only the ``lower`` (or
    upper) triangle of ``matrix`` is read."""
    a, b = arr(matrix), arr(rhs)
    _square("MatrixTriangularSolve", a, "matrix")
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
