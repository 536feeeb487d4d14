"""Decompositions and solvers: the ``Qr`` Primitive, ``geqrf``/``Geqrf``, ``orgqr``/``Orgqr``,
``eig``/``Eig``, ``lstsq``/``Lstsq``, ``MatrixLogarithm``, ``matrix_exp``/``MatrixExp`` and the
``LpNorm``/``EuclideanNorm`` Primitives."""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax._src.lax.linalg import geqrf as _lax_geqrf  # not re-exported by jax.lax.linalg

from ..._core import dtype as mstype
from ..._core.registry import op
from ._util import Tensor, arr, wrap
from .math import _norm_axes
from .tensor_methods import qr


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


_FLOATS = ("Float32", "Float64")
_FLOATS_COMPLEX = ("Float32", "Float64", "Complex64", "Complex128")


@op("prim_qr", primitive="Qr", prim_args=("full_matrices",), family="linalg")
def prim_qr(x, full_matrices=False):
    """``ops.Qr(full_matrices=False)(x)``: ``ops.qr`` ('complete' when ``full_matrices``)."""
    _matrices("Qr", _typed("Qr", x, _FLOATS_COMPLEX + ("Float16",)))
    return qr(x, "complete" if full_matrices else "reduced")


@op("geqrf", primitive="Geqrf", family="linalg")
def geqrf(input):
    """``ops.geqrf(input)``: LAPACK's QR in Householder form, ``(a, tau)``: ``R`` on and above the
    diagonal of ``a``, the reflectors below it (Float32/Float64)."""
    a = _typed("Geqrf", input, _FLOATS)
    _matrices("Geqrf", a)
    r, tau = _lax_geqrf(a)
    return wrap(r), wrap(tau)


@op("orgqr", primitive="Orgqr", family="linalg")
def orgqr(input, input2):
    """``ops.orgqr(input, input2)``: the first ``n`` columns of the product of the Householder
    reflectors stored below the diagonal of ``input`` (m x n, m >= n) with factors ``input2``."""
    a = _typed("Orgqr", input, _FLOATS_COMPLEX)
    t = _typed("Orgqr", input2, _FLOATS_COMPLEX, "tau")
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
    a = _typed("Eig", A, _FLOATS_COMPLEX)
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError(f"For 'Eig', 'x' must be a batch of square matrices, but got shape {list(a.shape)}.")
    w, v = jnp.linalg.eig(a)
    cdt = jnp.complex64 if a.dtype in (jnp.float32, jnp.complex64) else jnp.complex128
    return wrap(w.astype(cdt)), wrap(v.astype(cdt) if compute_v else jnp.zeros((), cdt))


@op("prim_eig", primitive="Eig", prim_args=("compute_v",), family="linalg")
def prim_eig(x, compute_v=False):
    """``ops.Eig(compute_v=False)(x)``: ``(eigenvalues, eigenvectors)``; without ``compute_v`` the
    second output is a placeholder scalar (MindSpore's holds an unspecified value)."""
    return _eig(x, compute_v)


@op("lstsq", family="linalg")
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
    a = _typed("MatrixExp", input, ("Float16",) + _FLOATS_COMPLEX)
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
