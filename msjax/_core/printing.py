"""MindSpore 2.x text forms of a Tensor.

``str(t)`` is numpy's ``str`` of the value (as in MindSpore, whose ``__str__`` is
``str(self.asnumpy())``); ``repr(t)`` is MindSpore's C++ form
``Tensor(shape=[2], dtype=Float32, value= [ 1.00000000e+00,  2.00000000e+00])``.
"""
from __future__ import annotations

import numpy as np

# MindSpore summarises a value with '...' above this many elements, keeping
# EDGEITEMS at each end of every axis (like numpy's threshold/edgeitems).
THRESHOLD = 1000
EDGEITEMS = 3


def _fmt_scalar(v, kind):
    if kind == "bool":
        return "True" if bool(v) else "False"
    if kind in ("int", "uint"):
        return str(int(v))
    if kind == "complex":
        return str(complex(v))
    f = float(v)
    if np.isnan(f):
        return "nan"
    if np.isinf(f):
        return "inf" if f > 0 else "-inf"
    return "%g" % f


def _fmt_elem(v, kind):
    if kind == "float":
        f = float(v)
        if np.isnan(f):
            return " nan"
        if np.isinf(f):
            return " inf" if f > 0 else "-inf"
        return "% .8e" % f
    return _fmt_scalar(v, kind)


def _fmt_array(a, kind, indent, summarise):
    if a.ndim == 1:
        n = a.shape[0]
        if summarise and n > 2 * EDGEITEMS:
            items = [_fmt_elem(x, kind) for x in a[:EDGEITEMS]] + ["..."] + \
                    [_fmt_elem(x, kind) for x in a[-EDGEITEMS:]]
        else:
            items = [_fmt_elem(x, kind) for x in a]
        return "[" + ", ".join(items) + "]"
    n = a.shape[0]
    idx = list(range(n))
    if summarise and n > 2 * EDGEITEMS:
        idx = idx[:EDGEITEMS] + [None] + idx[-EDGEITEMS:]
    sep = "," + "\n" * (a.ndim - 1) + " " * (indent + 1)
    parts = ["..." if i is None else _fmt_array(a[i], kind, indent + 1, summarise) for i in idx]
    return "[" + sep.join(parts) + "]"


def value_text(a: np.ndarray, kind: str) -> str:
    if a.ndim == 0:
        return " " + _fmt_scalar(a, kind)
    if a.size == 0:
        return " []"
    body = _fmt_array(a, kind, 0, a.size > THRESHOLD)
    return ("\n" if a.ndim > 1 else " ") + body


def tensor_repr(a: np.ndarray, dtype) -> str:
    shape = "[" + ", ".join(str(d) for d in a.shape) + "]"
    return f"Tensor(shape={shape}, dtype={dtype}, value={value_text(a, dtype.kind)})"


def tensor_str(a: np.ndarray) -> str:
    return str(a)
