"""MindSpore's CPU ``Svd`` signs: Eigen's ``JacobiSVD`` replayed on the host, LAPACK's derivatives.

MindSpore's CPU kernel is Eigen's ``BDCSVD``, which hands a matrix of fewer than 16 columns to
``JacobiSVD`` (column-pivoting Householder QR to a square triangle, two-sided Jacobi sweeps,
negative diagonal entries moved into ``U``, sorting). Singular vectors are unique only up to
sign, and ``ms.grad`` of a function of ``u``/``v`` depends on which sign the kernel picked, so
``eigen_svd`` replays that algorithm step by step on the host (real matrices of fewer than 16
columns) and ``svd_like_eigen`` gives its values with the derivative of LAPACK's SVD turned to the same
signs (the exact derivative, as MindSpore's bprop: extra ``full_matrices`` columns included where
``|m - n| == 1``). Wider matrices (Eigen's divide and conquer) and complex ones keep LAPACK's
signs and phases.
"""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

ALGO_SWAP = 16  # BDCSVD's m_algoswap: fewer columns than this go to JacobiSVD


def _householder(x):
    """Eigen's ``makeHouseholder`` of the column ``x``: (essential part, tau, beta)."""
    c0, tail = x[0], x[1:]
    t2 = np.dot(tail, tail) if tail.size else x.dtype.type(0)
    if t2 <= np.finfo(x.dtype).tiny:
        return np.zeros_like(tail), x.dtype.type(0), c0
    beta = np.sqrt(c0 * c0 + t2)
    beta = -beta if c0 >= 0 else beta
    return tail / (c0 - beta), (beta - c0) / beta, beta


def _col_piv_qr(a):
    """Eigen's ``ColPivHouseholderQR`` of ``a`` (m >= n): (R n x n, Q m x m, P n x n)."""
    a = a.copy()
    m, n = a.shape
    norms = np.sqrt((a * a).sum(axis=0))
    direct, perm, vs, taus = norms.copy(), np.arange(n), [], []
    for k in range(n):
        j = k + int(np.argmax(norms[k:]))
        for arr in (a.T, norms, direct, perm):
            arr[[k, j]] = arr[[j, k]]
        ess, tau, beta = _householder(a[k:, k])
        a[k, k], a[k + 1:, k] = beta, ess
        v = np.concatenate([np.ones(1, a.dtype), ess])
        a[k:, k + 1:] -= tau * np.outer(v, v @ a[k:, k + 1:])
        for jj in range(k + 1, n):   # LAPACK's stable norm downdate (xGEQPF), as Eigen
            if norms[jj] != 0:
                t = abs(a[k, jj]) / norms[jj]
                t = max((1 + t) * (1 - t), 0)
                if t * (norms[jj] / direct[jj]) ** 2 <= np.sqrt(np.finfo(a.dtype).eps):
                    direct[jj] = norms[jj] = np.sqrt(np.dot(a[k + 1:, jj], a[k + 1:, jj]))
                else:
                    norms[jj] *= np.sqrt(t)
        vs.append(v)
        taus.append(tau)
    q = np.eye(m, dtype=a.dtype)
    for k in reversed(range(n)):
        q[k:] -= taus[k] * np.outer(vs[k], vs[k] @ q[k:])
    return np.triu(a[:n, :n]), q, np.eye(n, dtype=a.dtype)[:, perm]


def _two_by_two(w, p, q):
    """Eigen's ``real_2x2_jacobi_svd``: the left and right rotations (c, s) of block (p, q)."""
    one, tiny = w.dtype.type(1), np.finfo(w.dtype).tiny
    a, b, c, d = w[p, p], w[p, q], w[q, p], w[q, q]
    if abs(c - b) < tiny:
        s1, c1 = 0 * one, one
    else:
        u = (a + d) / (c - b)
        tmp = np.sqrt(one + u * u)
        s1, c1 = one / tmp, u / tmp
    x, y, z = c1 * a + s1 * c, c1 * b + s1 * d, -s1 * b + c1 * d
    if 2 * abs(y) < tiny:
        cr, sr = one, 0 * one
    else:
        tau = (x - z) / (2 * abs(y))
        root = np.sqrt(tau * tau + one)
        t = one / (tau + root) if tau > 0 else one / (tau - root)
        cr = one / np.sqrt(t * t + one)
        sr = -(one if t > 0 else -one) * (y / abs(y)) * abs(t) * cr
    return (c1 * cr + s1 * sr, -c1 * sr + s1 * cr), (cr, sr)


def _rotate(m, p, q, c, s, rows):
    if rows:   # applyOnTheLeft(p, q, J)
        x, y = m[p].copy(), m[q].copy()
        m[p], m[q] = c * x + s * y, -s * x + c * y
    else:      # applyOnTheRight(p, q, J)
        x, y = m[:, p].copy(), m[:, q].copy()
        m[:, p], m[:, q] = c * x - s * y, s * x + c * y


def _eigen_one(a, max_sweeps=64):
    """``JacobiSVD`` of one real matrix: (s, U m x m, V n x n) as Eigen's with full U and V."""
    m, n = a.shape
    d = min(m, n)
    scale = np.abs(a).max()
    scale = scale if scale != 0 else a.dtype.type(1)
    a = a / scale
    if m > n:
        w, u, v = _col_piv_qr(a)
    elif n > m:
        r, v, u = _col_piv_qr(a.T)
        w = r.T.copy()
    else:
        w, u, v = a.copy(), np.eye(m, dtype=a.dtype), np.eye(n, dtype=a.dtype)
    prec, tiny = 2 * np.finfo(a.dtype).eps, np.finfo(a.dtype).tiny
    maxd = np.abs(np.diag(w)).max()
    for _ in range(max_sweeps):
        finished = True
        for p in range(1, d):
            for q in range(p):
                thr = max(tiny, prec * maxd)
                if abs(w[p, q]) > thr or abs(w[q, p]) > thr:
                    finished = False
                    (cl, sl), (cr, sr) = _two_by_two(w, p, q)
                    _rotate(w, p, q, cl, sl, True)
                    _rotate(u, p, q, cl, -sl, False)
                    _rotate(w, p, q, cr, sr, False)
                    _rotate(v, p, q, cr, sr, False)
                    maxd = max(maxd, abs(w[p, p]), abs(w[q, q]))
        if finished:
            break
    diag = np.diag(w).copy()
    s = np.abs(diag) * scale
    u[:, :d][:, diag < 0] *= -1
    for i in range(d):   # selection sort, stopping at the first zero maximum
        if s[i:].max() == 0:
            break
        pos = i + int(np.argmax(s[i:]))
        for arr in (s, u.T, v.T):
            arr[[i, pos]] = arr[[pos, i]]
    return s, u, v


def uses_jacobi(x):
    """Whether MindSpore's CPU kernel takes ``JacobiSVD``'s path for ``x`` (real, < 16 columns)."""
    return not jnp.issubdtype(x.dtype, jnp.complexfloating) and x.shape[-1] < ALGO_SWAP and 0 not in x.shape


def _host_eigen(x):
    x = np.asarray(x)
    m, n = x.shape[-2:]
    flat = x.reshape((-1, m, n))
    outs = [_eigen_one(a) for a in flat]
    return tuple(np.stack([o[i] for o in outs]).reshape(x.shape[:-2] + o_shape)
                 for i, o_shape in enumerate(((min(m, n),), (m, m), (n, n))))


def eigen_svd(x):
    """(s, U, V) of every matrix of ``x`` as Eigen's ``JacobiSVD`` with full ``U`` and ``V``, on the
    host (as MindSpore's CPU kernel; a traced ``x`` reaches it through a callback)."""
    if not isinstance(x, jax.core.Tracer):
        return tuple(jnp.asarray(o) for o in _host_eigen(x))
    m, n = x.shape[-2:]
    batch = x.shape[:-2]
    specs = tuple(jax.ShapeDtypeStruct(batch + sh, x.dtype) for sh in ((min(m, n),), (m, m), (n, n)))
    return jax.pure_callback(_host_eigen, specs, x, vmap_method="expand_dims")


def _straight(value, differentiable):
    """``value`` with the derivative of ``differentiable``."""
    return lax.stop_gradient(value) + (differentiable - lax.stop_gradient(differentiable))


def _extra_columns(x, u1, s, v1, u2):
    """``u2`` (left singular vectors beyond ``min(m, n)``) with its derivative where it is unique
    up to the basis: ``d u2 = -U1 S^-1 V1^T dA^T u2``."""
    mt = jnp.swapaxes
    stop = lax.stop_gradient
    s = stop(s)
    inv = jnp.where(s == 0, 0, 1 / jnp.where(s == 0, 1, s))   # a zero singular value adds nothing
    lin = -(stop(u1) * inv[..., None, :]) @ mt(stop(v1), -1, -2) @ mt(x, -1, -2) @ stop(u2)
    return _straight(u2, lin)


def _refuse(exc, message):
    """Zero with a backward pass that raises ``exc(message)`` (a bprop MindSpore refuses)."""
    @jax.custom_vjp
    def zero(x):
        return jnp.zeros_like(x)

    def bwd(_, __):
        raise exc(message)

    zero.defvjp(lambda x: (jnp.zeros_like(x), None), bwd)
    return zero


_COMPLEX_GRAD = ("For primitive[MatrixDiagV3], the input argument[x] must be a type of {Tensor[BFloat16], "
                 "Tensor[Float16], Tensor[Float32], Tensor[Float64], Tensor[Int16], Tensor[Int32], Tensor[Int64], "
                 "Tensor[Int8], Tensor[UInt16], Tensor[UInt32], Tensor[UInt64], Tensor[UInt8]}, but got Tensor[{}].")


def _reference(x):
    """(s, U, V) whose values and signs the result takes: Eigen's JacobiSVD where MindSpore's CPU
    kernel runs it, else LAPACK's full decomposition."""
    if uses_jacobi(x):
        return eigen_svd(x)
    u, s, vh = jnp.linalg.svd(x, full_matrices=True)
    return s, u, jnp.conj(jnp.swapaxes(vh, -1, -2))


def svd_values(x):
    """The singular values alone (``compute_uv=False``), with LAPACK's derivative ``U diag(ds) V^T``."""
    s = jnp.linalg.svd(x, compute_uv=False)
    if jnp.issubdtype(x.dtype, jnp.complexfloating):
        name = "Complex64" if x.dtype == jnp.complex64 else "Complex128"
        s = s + jnp.real(_refuse(TypeError, _COMPLEX_GRAD.replace("{}", name))(x)).sum(axis=(-2, -1))[..., None]
    return s


def svd_like_eigen(x, full_matrices):
    """(s, u, v) of ``x`` with MindSpore's CPU signs (real ``x`` of fewer than 16 columns: Eigen's
    ``JacobiSVD``, else LAPACK's) and the exact derivative; ``u``'s (``v``'s) columns beyond
    ``min(m, n)`` take the reference's basis and, as MindSpore, a gradient only when ``|m - n| == 1``."""
    m, n = x.shape[-2:]
    d = min(m, n)
    s_e, u_e, v_e = _reference(lax.stop_gradient(x))
    u_l, s_l, vh_l = jnp.linalg.svd(x, full_matrices=False)
    v_l = jnp.conj(jnp.swapaxes(vh_l, -1, -2))
    phase = lax.stop_gradient(jnp.sum(jnp.conj(u_l) * u_e[..., :d], axis=-2))
    if jnp.issubdtype(x.dtype, jnp.complexfloating):
        phase = phase / jnp.where(jnp.abs(phase) == 0, 1, jnp.abs(phase))
        name = "Complex64" if x.dtype == jnp.complex64 else "Complex128"
        s_l = s_l + jnp.real(_refuse(TypeError, _COMPLEX_GRAD.replace("{}", name))(x)).sum(axis=(-2, -1))[..., None]
    else:
        phase = jnp.where(phase < 0, -1, 1).astype(x.dtype)
    s = _straight(s_e, s_l)
    u = _straight(u_e[..., :d], u_l * phase[..., None, :])
    v = _straight(v_e[..., :d], v_l * phase[..., None, :])
    if not full_matrices or m == n:
        return s, u, v
    if m > n:
        extra = _extra_columns(x, u, s_l, v, u_e[..., d:])
    else:
        extra = _extra_columns(jnp.conj(jnp.swapaxes(x, -1, -2)), v, s_l, u, v_e[..., d:])
    if abs(m - n) > 1:
        extra = extra + _refuse(RuntimeError, "For 'Svd' gradient, not support for abs(m - n) > 1 with "
                                              "full_matrices is True.")(extra)
    if m > n:
        return s, jnp.concatenate([u, extra], axis=-1), v
    return s, u, jnp.concatenate([v, extra], axis=-1)
