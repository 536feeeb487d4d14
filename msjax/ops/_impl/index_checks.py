"""Index range checks of gather/scatter ops, with MindSpore's kernels' exceptions and messages.

MindSpore's CPU kernels raise for an index out of range in GRAPH_MODE as in PyNative. On concrete
indices (PyNative) each helper raises at once; on traced ones (a compiled function) it registers a
check that the program computes and the host raises when the program has run
(``_core.runtime_checks``). Outside a compiled program, or for indices of a nested transform (a
``vmap`` over them), nothing is registered and the kernel clamps or drops such an index, as XLA
does.

``messages`` are ``(exception name, template)`` pairs; the payload's first entry picks one, the
rest fill the template (``{0}``, ``{1}``, ``{rest}``: all but ``{0}``, ``{restlist}``: them as a
list)."""
from __future__ import annotations

import jax.numpy as jnp
import numpy as np

from ..._core import runtime_checks
from .array import _concrete

__all__ = ["check_values", "check_rows", "check_elements"]


def _report(bad, payload, messages, xp):
    if xp is np:
        if bad:
            runtime_checks.raise_payload(messages, payload)
    else:
        runtime_checks.add(bad, payload, messages)


def _arrays(idx):
    """``(values, xp)``: NumPy for known indices, jax.numpy for traced ones; ``(None, None)`` for
    traced ones no compiled program collects checks of (nothing to compute)."""
    v = _concrete(idx)
    if v is not None:
        return v, np
    return (idx, jnp) if runtime_checks.wanted(idx) else (None, None)


def _first(bad, xp):
    """``(any bad, position of the first bad one)``: one min-reduction (XLA compiles it faster than an argmax)."""
    flat = bad.reshape(-1)
    n = flat.shape[0]
    pos = xp.min(xp.where(flat, xp.arange(n), n))
    return pos < n, xp.minimum(pos, n - 1)


def check_values(idx, lo, hi, messages, sign_choice=False, wrap=None):
    """Every value of ``idx`` in ``[lo, hi)``; the payload is the first bad value (``{0}``).
    ``sign_choice``: ``messages[0]`` for a negative value, ``messages[1]`` for one too large;
    ``wrap``: a negative value counts from the end of a dimension of that size first."""
    idx, xp = _arrays(idx)
    if xp is None:
        return
    if idx.size == 0:
        return
    flat = idx.reshape(-1).astype(xp.int64)
    if wrap is not None:
        flat = xp.where(flat < 0, flat + wrap, flat)
    bad, pos = _first((flat < lo) | (flat >= hi), xp)
    value = flat[pos]
    choice = (value >= 0).astype(xp.int64) if sign_choice else xp.zeros((), xp.int64)
    _report(bad, xp.stack([choice, value]), messages, xp)


def _rows(idx, limits):
    """``(idx as int64 rows of len(limits) indices, xp)``; ``(None, None)`` when there is nothing to check."""
    idx, xp = _arrays(idx)
    if xp is None or idx.size == 0 or len(limits) == 0:
        return None, None
    return idx.reshape(-1, len(limits)).astype(xp.int64), xp


def check_rows(idx, limits, messages, negative_choice=False, flat_position=False, wrap=None):
    """Every row of ``idx`` (its last axis indexes the leading ``len(limits)`` dimensions) inside
    ``[0, limits)``; the payload is the row's position (``{0}``) and the row (``{rest}``), or with
    ``flat_position`` that position times the row length. ``negative_choice``: ``messages[1]``
    for a row holding a negative index, with its first negative value as ``{0}``; ``wrap``: a negative
    index counts from the end of a dimension of that size first (one index per row)."""
    rows, xp = _rows(idx, limits)
    if rows is None:
        return
    k = len(limits)
    if wrap is not None:
        rows = xp.where(rows < 0, rows + wrap, rows)
    bad, pos = _first(((rows < 0) | (rows >= xp.asarray(limits, xp.int64))).any(axis=1), xp)
    row = rows[pos]
    lead = xp.asarray(pos * k if flat_position else pos, xp.int64)
    choice = xp.zeros((), xp.int64)
    if negative_choice:
        neg = row < 0
        choice = neg.any().astype(xp.int64)
        lead = xp.where(neg.any(), row[_first(neg, xp)[1]], lead)
    _report(bad, xp.concatenate([xp.stack([choice, lead]), row]), messages, xp)


def check_elements(idx, limits, messages):
    """ScatterNd's element order: each coordinate of each row, a negative one (``messages[0]``,
    ``{0}`` the value) before one at or past its dimension (``messages[1]``, ``{0}`` the value,
    ``{1}`` the dimension's size)."""
    vals, xp = _rows(idx, limits)
    if vals is None:
        return
    lim = xp.broadcast_to(xp.asarray(limits, xp.int64), vals.shape)
    bad, pos = _first((vals < 0) | (vals >= lim), xp)
    value, size = vals.reshape(-1)[pos], lim.reshape(-1)[pos]
    _report(bad, xp.stack([(value >= 0).astype(xp.int64), value, size]), messages, xp)
