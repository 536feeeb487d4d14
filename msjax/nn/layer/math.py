"""Math Cells (mostly deprecated in MindSpore): ``ReduceLogSumExp``, ``Moments``, ``MatInverse``,
``MatDet``, ``LGamma``, ``DiGamma``, ``IGamma``, ``LBeta``, ``MatrixDiag``, ``MatrixDiagPart``,
``MatrixSetDiag`` and ``L1Regularizer``. The special functions use ``jax.scipy.special``; MindSpore
evaluates a float32 Lanczos series, which loses ~1e-6 absolute near lgamma's zeros (x = 1, 2). ``MatInverse``/``MatDet`` go
through a Cholesky factorisation as MindSpore's do, so they expect symmetric positive-definite input."""
from __future__ import annotations

import math

import jax
import jax.numpy as jnp
import jax.scipy.special as jss

from ..._core import dtype as mstype
from ..._core.tensor import Tensor, wrap
from ..cell import Cell

__all__ = ["ReduceLogSumExp", "Moments", "MatInverse", "MatDet", "LGamma", "DiGamma", "IGamma", "LBeta",
           "MatrixDiag", "MatrixDiagPart", "MatrixSetDiag", "L1Regularizer"]


def _check_dtype(name, x, allowed, cls_name):
    if x.dtype not in allowed:
        raise TypeError(f"For '{cls_name}', the '{name}' should be one of "
                        f"[{', '.join(str(a) for a in allowed)}], but got {x.dtype}.")


class ReduceLogSumExp(Cell):
    """``nn.ReduceLogSumExp(axis, keep_dims=False)``: ``log(sum(exp(x - max(x)), axis)) + max(x)``
    (the maximum is taken over the whole tensor, as in MindSpore)."""

    def __init__(self, axis, keep_dims=False):
        super().__init__()
        if isinstance(axis, bool) or not isinstance(axis, (int, list, tuple)):
            raise TypeError(f"For 'ReduceLogSumExp', the type of 'axis' must be int, list or tuple, "
                            f"but got {type(axis).__name__}.")
        if not isinstance(keep_dims, bool):
            raise TypeError(f"For 'ReduceLogSumExp', the type of 'keep_dims' must be bool, "
                            f"but got {type(keep_dims).__name__}.")
        self.axis = axis
        self.keep_dims = keep_dims

    def construct(self, x):
        a = x._data
        m = jnp.max(a)
        axis = tuple(self.axis) if isinstance(self.axis, (list, tuple)) else self.axis
        axis = None if axis == () else axis
        return wrap(jnp.log(jnp.sum(jnp.exp(a - m), axis=axis, keepdims=self.keep_dims)) + m)


class Moments(Cell):
    """``nn.Moments(axis=None, keep_dims=None)``: (mean, variance) over ``axis`` (Float16 computed in
    Float32); the variance has no gradient path through the mean."""

    def __init__(self, axis=None, keep_dims=None):
        super().__init__()
        if axis is None:
            axis = ()
        if isinstance(axis, tuple):
            for i, item in enumerate(axis):
                if not isinstance(item, int) or isinstance(item, bool):
                    raise TypeError(f"For 'Moments', the type of 'axis[{i}]' must be int, "
                                    f"but got {type(item).__name__}.")
        elif not isinstance(axis, int) or isinstance(axis, bool):
            raise TypeError(f"For 'Moments', the type of 'axis' must be int or tuple, but got {type(axis).__name__}.")
        keep_dims = False if keep_dims is None else keep_dims
        if not isinstance(keep_dims, bool):
            raise TypeError(f"For 'Moments', the type of 'keep_dims' must be bool, but got {type(keep_dims).__name__}.")
        self.axis = axis
        self.keep_dims = keep_dims

    def construct(self, x):
        _check_dtype("input x", x, (mstype.float16, mstype.float32), "Moments")
        a = x._data
        f16 = a.dtype == jnp.float16
        if f16:
            a = a.astype(jnp.float32)
        axis = None if self.axis == () else self.axis
        mean = jnp.mean(a, axis=axis, keepdims=True)
        var = jnp.mean(jnp.square(a - jax.lax.stop_gradient(mean)), axis=axis, keepdims=True)
        if not self.keep_dims:
            sq = tuple(range(a.ndim)) if axis is None else ((axis,) if isinstance(axis, int) else axis)
            sq = tuple(sorted({i % a.ndim for i in sq}))
            mean, var = jnp.squeeze(mean, sq), jnp.squeeze(var, sq)
        if f16:
            mean, var = mean.astype(jnp.float16), var.astype(jnp.float16)
        return wrap(mean), wrap(var)


class MatInverse(Cell):
    """``nn.MatInverse()``: the inverse of a symmetric positive-definite matrix (via Cholesky)."""

    def construct(self, a):
        _check_dtype("input_a", a, (mstype.float16, mstype.float32), "MatInverse")
        x = a._data
        lower = jnp.linalg.cholesky(x)
        inv_l = jax.scipy.linalg.solve_triangular(lower, jnp.eye(x.shape[-1], dtype=x.dtype), lower=True)
        return wrap(jnp.swapaxes(inv_l, -1, -2) @ inv_l)


class MatDet(Cell):
    """``nn.MatDet()``: the determinant of a symmetric positive-definite matrix (via Cholesky)."""

    def construct(self, a):
        _check_dtype("input_a", a, (mstype.float16, mstype.float32), "MatDet")
        lower = jnp.linalg.cholesky(a._data)
        return wrap(jnp.square(jnp.prod(jnp.diagonal(lower, axis1=-2, axis2=-1), axis=-1)))


class LGamma(Cell):
    """``nn.LGamma()``: log |Gamma(x)|."""

    def construct(self, x):
        _check_dtype("x", x, (mstype.float16, mstype.float32), "LGamma")
        return wrap(jss.gammaln(x._data))


class DiGamma(Cell):
    """``nn.DiGamma()``: the digamma function."""

    def construct(self, x):
        _check_dtype("x", x, (mstype.float16, mstype.float32), "DiGamma")
        return wrap(jss.digamma(x._data))


class IGamma(Cell):
    """``nn.IGamma()``: ``construct(a, x)``, the regularised lower incomplete gamma function P(a, x)."""

    def construct(self, a, x):
        _check_dtype("a", a, (mstype.float16, mstype.float32), "IGamma")
        _check_dtype("x", x, (mstype.float16, mstype.float32), "IGamma")
        return wrap(jss.gammainc(a._data, x._data))


class LBeta(Cell):
    """``nn.LBeta()``: ``construct(x, y)``, log |Beta(x, y)|."""

    def construct(self, x, y):
        _check_dtype("x", x, (mstype.float16, mstype.float32), "LBeta")
        _check_dtype("y", y, (mstype.float16, mstype.float32), "LBeta")
        a, b = x._data, y._data
        return wrap(jss.gammaln(a) + jss.gammaln(b) - jss.gammaln(a + b))


class MatrixDiag(Cell):
    """``nn.MatrixDiag()``: (..., n) -> (..., n, n) with ``x`` on the diagonal."""

    def construct(self, input_x):
        x = input_x._data
        if x.ndim < 1:
            raise ValueError(f"For '_get_matrix_diag_assist', the 'x rank' must be >= 1, but got {x.ndim}.")
        return wrap(x[..., None] * jnp.eye(x.shape[-1], dtype=x.dtype))


class MatrixDiagPart(Cell):
    """``nn.MatrixDiagPart()``: (..., m, n) -> (..., m, n) keeping only the diagonal (MindSpore's
    deprecated op multiplies by an identity assist matrix)."""

    def construct(self, input_x):
        x = input_x._data
        if x.ndim < 2:
            raise ValueError(f"For '_get_matrix_diag_part_assist', the 'x rank' must be >= 2, but got {x.ndim}.")
        return wrap(jnp.diagonal(x, axis1=-2, axis2=-1))


class MatrixSetDiag(Cell):
    """``nn.MatrixSetDiag()``: ``construct(x, diagonal)`` replaces the main diagonal of (..., m, n)."""

    def construct(self, input_x, diagonal):
        x, d = input_x._data, diagonal._data
        if x.ndim < 2:
            raise ValueError(f"For '_get_matrix_diag_part_assist', the 'x rank' must be >= 2, but got {x.ndim}.")
        m, n = x.shape[-2:]
        eye = jnp.eye(m, n, dtype=jnp.bool_)
        k = min(m, n)
        dd = jnp.zeros(x.shape, x.dtype)
        dd = dd.at[..., jnp.arange(k), jnp.arange(k)].set(d[..., :k])
        return wrap(jnp.where(eye, dd, x))


class L1Regularizer(Cell):
    """``nn.L1Regularizer(scale)``: ``scale * sum(|weights|)``."""

    def __init__(self, scale):
        super().__init__()
        if isinstance(scale, bool) or not isinstance(scale, (int, float)):
            raise TypeError(f"For 'L1Regularizer', the type of 'scale' must be int or float, "
                            f"but got {type(scale).__name__}.")
        if scale <= 0:
            raise ValueError(f"For 'L1Regularizer', the 'scale' must be greater than 0, but got {scale}.")
        if math.isinf(scale) or math.isnan(scale):
            raise ValueError(f"For 'L1Regularizer', the 'scale' can not be INF or NAN, but got {scale}.")
        self.scale = Tensor(scale, dtype=mstype.float32)

    def construct(self, weights):
        if not isinstance(weights, Tensor):
            raise TypeError(f"For 'L1Regularizer', the 'weights' must be a Tensor, but got {type(weights).__name__}.")
        if weights.dtype.kind not in ("float", "int", "uint"):
            raise TypeError(f"For 'L1Regularizer', the 'weights' must be a number type, but got {weights.dtype}.")
        return wrap(self.scale._data * jnp.sum(jnp.abs(weights._data)))
