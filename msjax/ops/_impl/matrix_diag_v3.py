"""MindSpore's ``array_ops.MatrixDiagV3``, ``MatrixDiagPartV3`` and ``MatrixSetDiagV3``: a band of
diagonals ``k`` (an int, or ``(lower, upper)``) of the last two dimensions, stored one diagonal per row
from the highest to the lowest, each padded to the longest and aligned by ``align`` (``"RIGHT_LEFT"``:
superdiagonals to the right, subdiagonals to the left...).

``k``, ``num_rows`` and ``num_cols`` fix the output shape, so their values must be known: in compiled
code msjax then runs the function op by op. Gradients are those of the gathers and selections; as in
MindSpore, ``padding_value`` gets none."""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from ..._checkparam import check_value_type
from ..._core.registry import Primitive
from ._util import arr, wrap
from .array import _need_concrete

__all__ = ["MatrixDiagV3", "MatrixDiagPartV3", "MatrixSetDiagV3"]

_ALIGNS = ("LEFT_RIGHT", "RIGHT_LEFT", "LEFT_LEFT", "RIGHT_RIGHT")


def _band(prim, k):
    v = np.asarray(_need_concrete(arr(k), prim)).reshape(-1)
    if v.size not in (1, 2):
        raise ValueError(f"For '{prim}', the input k must have one or two elements, but got {v.size}.")
    lower, upper = int(v[0]), int(v[-1])
    if lower > upper:
        raise ValueError(f"For '{prim}', k[0] must not be greater than k[1], but got k[0] = {lower}, k[1] = {upper}.")
    return lower, upper


def _diag_len(d, rows, cols):
    return min(rows + min(d, 0), cols - max(d, 0))


def _right_aligned(align, d):
    """Whether diagonal ``d`` is aligned to the right (the first word is for superdiagonals)."""
    return (align.split("_")[0] if d >= 0 else align.split("_")[1]) == "RIGHT"


def _layout(align, lower, upper, rows, cols):
    """For each stored diagonal (highest first) and slot: the row and column it reads, and whether
    it holds an element (else padding)."""
    width = max(_diag_len(d, rows, cols) for d in range(lower, upper + 1))
    diags = list(range(upper, lower - 1, -1))
    r = np.zeros((len(diags), width), np.int64)
    c = np.zeros_like(r)
    ok = np.zeros(r.shape, bool)
    for i, d in enumerate(diags):
        n = _diag_len(d, rows, cols)
        off = width - n if _right_aligned(align, d) else 0
        t = np.arange(width) - off
        ok[i] = (t >= 0) & (t < n)
        t = np.where(ok[i], t, 0)
        r[i], c[i] = t + max(-d, 0), t + max(d, 0)
    return r, c, ok


class _Aligned(Primitive):
    def __init__(self, align="RIGHT_LEFT"):
        check_value_type("align", align, [str], self.__class__.__name__)
        if align not in _ALIGNS:
            raise ValueError(f"For '{self.__class__.__name__}', attr 'align' must be one of {list(_ALIGNS)}, "
                             f"but got {align}.")
        super().__init__()
        self.align, self._attrs = align, {}


class MatrixDiagPartV3(_Aligned):
    """``MatrixDiagPartV3(align="RIGHT_LEFT")(x, k, padding_value)``: the diagonals ``k`` of ``x``
    (shape ``[..., num_diags, max_len]``, ``[..., max_len]`` for one diagonal)."""

    def __call__(self, x, k, padding_value):
        a = arr(x)
        if a.ndim < 2:
            raise ValueError(f"For 'MatrixDiagPartV3', the rank of 'x' must be at least 2, but got {a.ndim}.")
        lower, upper = _band(self.name, k)
        rows, cols = a.shape[-2:]
        if not (-rows < lower <= upper < cols) and not (rows == 0 or cols == 0):
            raise ValueError(f"For 'MatrixDiagPartV3', the value of k must be in (-x.shape[-2], x.shape[-1]), "
                             f"meaning the value of k must be in ({-rows}, {cols}) in this case, but got "
                             f"{lower} and {upper}.")
        r, c, ok = _layout(self.align, lower, upper, rows, cols)
        out = jnp.where(ok, a[..., r, c], jax.lax.stop_gradient(arr(padding_value)).astype(a.dtype))
        return wrap(out[..., 0, :] if lower == upper else out)


class MatrixSetDiagV3(_Aligned):
    """``MatrixSetDiagV3(align="RIGHT_LEFT")(x, diagonal, k)``: ``x`` with its diagonals ``k`` replaced by
    ``diagonal`` (laid out as ``MatrixDiagPartV3`` returns them)."""

    def __call__(self, x, diagonal, k):
        a, diag = arr(x), arr(diagonal)
        lower, upper = _band(self.name, k)
        rows, cols = a.shape[-2:]
        r, c, ok = _layout(self.align, lower, upper, rows, cols)
        if lower == upper:
            diag = diag[..., None, :]
        if diag.shape[-2:] != r.shape:
            raise ValueError(f"For 'MatrixSetDiagV3', the shape of 'diagonal' must fit the band k = ({lower}, "
                             f"{upper}) of 'x' {list(a.shape)}, but got {list(arr(diagonal).shape)}.")
        src = np.full((rows, cols, 2), -1, np.int64)   # matrix element -> (stored diagonal, slot)
        i, j = np.nonzero(ok)
        src[r[i, j], c[i, j]] = np.stack([i, j], -1)
        hit = src[..., 0] >= 0
        taken = diag.astype(a.dtype)[..., np.where(hit, src[..., 0], 0), np.where(hit, src[..., 1], 0)]
        return wrap(jnp.where(hit, taken, a))


class MatrixDiagV3(_Aligned):
    """``MatrixDiagV3(align="RIGHT_LEFT")(x, k, num_rows, num_cols, padding_value)``: a matrix (batch) whose
    diagonals ``k`` are ``x`` (laid out as ``MatrixDiagPartV3`` returns them), ``padding_value`` elsewhere;
    ``num_rows``/``num_cols`` of -1 are the smallest that hold the band (TensorFlow's rule)."""

    def __call__(self, x, k, num_rows, num_cols, padding_value):
        diag = arr(x)
        lower, upper = _band(self.name, k)
        if lower == upper:
            diag = diag[..., None, :]
        width = diag.shape[-1]
        min_rows, min_cols = width - min(upper, 0), width + max(lower, 0)
        rows = int(np.asarray(_need_concrete(arr(num_rows), self.name)).reshape(-1)[0])
        cols = int(np.asarray(_need_concrete(arr(num_cols), self.name)).reshape(-1)[0])
        if rows == -1 and cols == -1:
            rows = cols = max(min_rows, min_cols)
        elif rows == -1:
            rows = min_rows
        elif cols == -1:
            cols = min_cols
        if not (-rows < lower and upper < cols):
            raise ValueError(f"For MatrixDiagV3, the value of k must be in (-num_rows, num_cols), meaning the value "
                             f"of k must be in ({-rows}, {cols}) in this case, but got "
                             f"{lower if lower <= -rows else upper}.")
        if max(_diag_len(d, rows, cols) for d in range(lower, upper + 1)) != width:
            raise ValueError("For MatrixDiagV3, the number of rows or columns is not consistent with the specified k "
                             "and x.")
        base = jnp.broadcast_to(jax.lax.stop_gradient(arr(padding_value)).astype(diag.dtype), diag.shape[:-2] + (rows, cols))
        return MatrixSetDiagV3(self.align)(wrap(base), wrap(diag if lower != upper else diag[..., 0, :]),
                                           wrap(jnp.asarray([lower, upper])))
