"""``MatrixSetDiagV3`` (``ops.MatrixSetDiagV3(align='RIGHT_LEFT')(x, diagonal, k)``): ``x`` with the
diagonals ``k`` (one offset, or a band ``(k0, k1)``) replaced by the rows of ``diagonal``, packed as
MindSpore (and TensorFlow) pack them: diagonal ``d`` in row ``k1 - d``, super- and subdiagonals shorter
than the longest aligned left or right as ``align`` says."""
from __future__ import annotations

import numpy as np
import jax.numpy as jnp

from ..._core.registry import op
from ._util import arr, wrap
from .array import _ints
from .math import _need_tensor

_ALIGNS = ("LEFT_RIGHT", "RIGHT_LEFT", "LEFT_LEFT", "RIGHT_RIGHT")


def _check(align="RIGHT_LEFT"):
    if align not in _ALIGNS:
        raise ValueError(f"For 'MatrixSetDiagV3', attr 'align' should be in {list(_ALIGNS)}, but got {align}.")


@op("matrix_set_diag_v3", primitive="MatrixSetDiagV3", prim_args=("align",), family="array", prim_check=_check)
def matrix_set_diag_v3(x, diagonal, k, align="RIGHT_LEFT"):
    """``MatrixSetDiagV3(align)(x, diagonal, k)``: ``x`` (..., M, N) with diagonals ``k`` set from
    ``diagonal`` ((..., max_len) for one ``k``, (..., k1 - k0 + 1, max_len) for a band)."""
    for n, a in (("x", x), ("diagonal", diagonal), ("k", k)):
        _need_tensor("MatrixSetDiagV3", n, a)
    a, dg = arr(x), arr(diagonal)
    ks = _ints(k, "k", "MatrixSetDiagV3")
    k0, k1 = (ks[0], ks[0]) if len(ks) == 1 else ks[:2]
    if k0 > k1:
        raise ValueError(f"For 'MatrixSetDiagV3', k[0] must not be greater than k[1], but got k[0]: {k0}, k[1]: {k1}.")
    m, n = a.shape[-2:]
    if k0 == k1:
        dg = dg[..., None, :]
    super_right, sub_right = align.startswith("RIGHT"), align.endswith("RIGHT")
    max_len = max(min(m + min(0, d), n - max(0, d)) for d in range(k0, k1 + 1))
    rows, cols = np.meshgrid(np.arange(m), np.arange(n), indexing="ij")
    d = cols - rows
    inside = (d >= k0) & (d <= k1)
    length = np.minimum(m + np.minimum(0, d), n - np.maximum(0, d))
    right = ((d >= 0) & super_right) | ((d <= 0) & sub_right)
    offset = np.where(right, max_len - length, 0)
    band = np.clip(k1 - d, 0, k1 - k0)
    pos = np.clip(cols - np.maximum(d, 0) + offset, 0, dg.shape[-1] - 1)
    picked = dg[..., band, pos]
    return wrap(jnp.where(inside, picked.astype(a.dtype), a))
