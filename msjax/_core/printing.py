"""MindSpore 2.x text forms of a Tensor.

``str(t)`` is numpy's ``str`` of the value (MindSpore's ``__str__`` is
``str(self.asnumpy())``). ``repr(t)`` follows MindSpore's C++ tensor printer
(``Tensor(shape=[2], dtype=Float32, value= [ 1.00000000e+00,  2.00000000e+00])``):

* scalars print like C++ ``ostream << value`` (``%g``; ``True``/``False``);
* floats print as ``%15.8e`` (Float16: ``%11.4e``), bools right-aligned in 5
  columns, integers right-aligned to the widest printed integer;
* the innermost axis keeps 3 + 3 items around `` ... `` when it is longer than 6
  (longer than 1000 for a 1-D tensor), outer axes keep 3 + 3 rows around ``...``;
* a 1-D tensor breaks the line every 12 floats/bools or 24 integers.
"""
from __future__ import annotations

import math

import numpy as np

THRESHOLD = 6
THRESHOLD_1D = 1000
HALF = THRESHOLD >> 1


def _cpp_general(v) -> str:
    """C++ ``ostream << double`` with the default precision 6."""
    f = float(v)
    if np.isnan(f):
        return "-nan" if np.signbit(f) else "nan"
    if np.isinf(f):
        return "inf" if f > 0 else "-inf"
    return "%g" % f


class _Printer:
    def __init__(self, a: np.ndarray, kind: str, use_comma=True):
        self.comma = "," if use_comma else ""    # the graph Print op prints without commas
        self.flat = a.reshape(-1)
        self.shape = a.shape
        self.ndim = a.ndim
        self.kind = kind
        self.is_f16 = a.dtype == np.float16
        self.int_width = 0
        self.parts: list = []   # strings, and ('int', text) placeholders padded at the end

    # one element ------------------------------------------------------------------
    def _elem(self, v):
        if self.kind == "float" and not _is_bf16(self.flat.dtype):
            width, prec = (11, 4) if self.is_f16 else (15, 8)
            self.parts.append("%*.*e" % (width, prec, float(v)))
        elif self.kind == "bool":
            self.parts.append("%5s" % ("True" if v else "False"))
        elif self.kind == "complex":
            self.parts.append(_complex_text(complex(v)))
        else:
            text = _cpp_general(v) if self.kind == "float" else str(int(v))
            self.int_width = max(self.int_width, len(text))
            self.parts.append(("pad", text))

    def _run(self, cursor, start, end):
        linefeed = 12 if self.kind in ("float", "bool") and not _is_bf16(self.flat.dtype) else 24
        for i in range(start, end):
            if cursor + i >= self.flat.size:
                break
            self._elem(self.flat[cursor + i])
            if i != end - 1:
                self.parts.append(self.comma + " ")
            if self.ndim == 1 and end - start > HALF and (i + 1) % linefeed == 0:
                self.parts.append("\n ")

    def _recurse(self, cursor, depth):
        self.parts.append("[")
        num = self.shape[depth]
        if depth == self.ndim - 1:
            if (num > THRESHOLD and self.ndim > 1) or (num > THRESHOLD_1D and self.ndim == 1):
                self._run(cursor, 0, HALF)
                self.parts.append(" ... ")
                self._run(cursor, num - HALF, num)
            else:
                self._run(cursor, 0, num)
            cursor += num
        else:
            indent = " " * (depth + 1)
            for i in range(min(HALF, num)):
                if i > 0:
                    self.parts.append(self.comma + "\n" + indent)
                cursor = self._recurse(cursor, depth + 1)
            if num > THRESHOLD:
                self.parts.append(self.comma + "\n" + indent + "...")
                cursor += int(np.prod(self.shape[depth + 1:])) * (num - THRESHOLD)
            if num > HALF:
                for i in range(min(num - HALF, HALF)):
                    self.parts.append((self.comma if (i != 0 or num <= THRESHOLD) else "") + "\n" + indent)
                    cursor = self._recurse(cursor, depth + 1)
        self.parts.append("]")
        return cursor

    def text(self):
        self._recurse(0, 0)
        w = self.int_width
        return "".join(p if isinstance(p, str) else p[1].rjust(w) for p in self.parts)


def _is_bf16(dtype) -> bool:
    return dtype.name == "bfloat16"


def _scalar_text(v, kind) -> str:
    if kind == "bool":
        return "True" if bool(v) else "False"
    if kind in ("int", "uint"):
        return str(int(v))
    if kind == "complex":
        return _complex_text(complex(v))
    return _cpp_general(v)


def _complex_text(c) -> str:
    """MindSpore 2.10's complex element: ``1+2j``, ``-0-1.5j``, ``1e-05+1j``."""
    neg_imag = c.imag < 0 or (c.imag == 0 and math.copysign(1.0, c.imag) < 0)
    return f"{_cpp_general(c.real)}{'' if neg_imag else '+'}{_cpp_general(c.imag)}j"


def value_text(a: np.ndarray, kind: str, use_comma=True) -> str:
    if a.size == 0:
        return ""
    if a.ndim == 0:
        return _scalar_text(a.reshape(()).item() if kind != "float" else a.astype(np.float64), kind)
    return _Printer(a, kind, use_comma).text()


def head(a: np.ndarray, dtype, space=" ") -> str:   # the value follows a newline (several axes) or space
    shape = ", ".join(str(d) for d in a.shape)
    return f"Tensor(shape=[{shape}], dtype={dtype}, value={chr(10) if a.ndim > 1 else space}"


def tensor_repr(a: np.ndarray, dtype) -> str:
    return f"{head(a, dtype)}{value_text(a, dtype.kind)})"


def host_tensor_repr(a: np.ndarray, dtype) -> str:
    """A Tensor made from a numpy array (``from_numpy``, dataset iterators): MindSpore prints its
    value with numpy's formatting (``separator=', '``)."""
    if _is_bf16(a.dtype):
        return tensor_repr(a, dtype)
    return f"{head(a, dtype)}{np.array2string(a, separator=', ')})"


def _np1_float_scalar(x) -> str:
    """numpy 1.x ``str`` of a float scalar (MindSpore runs on numpy<2): positional
    between 1e-4 and 1e16, shortest round-trip digits of the value's own width."""
    f = float(x)
    if not np.isfinite(f):
        return str(f)
    if f == 0 or 1e-4 <= abs(f) < 1e16:
        return np.format_float_positional(x, unique=True, trim="0")
    return np.format_float_scientific(x, unique=True, trim="-")


def tensor_str(a: np.ndarray) -> str:
    if _is_bf16(a.dtype):
        # numpy<2 prints ml_dtypes' bfloat16 with C's %f
        if a.ndim == 0:
            return "%f" % float(a)
        return np.array2string(a.astype(np.float32), formatter={"all": lambda v: "%f" % v})
    if a.ndim == 0 and a.dtype.kind == "f":
        return _np1_float_scalar(a[()])
    return str(a)
