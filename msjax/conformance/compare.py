"""Output comparator for the conformance suite.

Compares a script's actual stdout with the documented (expected) output,
tolerant only of float *formatting*:

* both texts are tokenized into numbers, words (identifiers such as
  ``Tensor``, ``Float32``, ``fc.weight`` -> ``fc`` ``.`` ``weight``) and single
  punctuation characters; whitespace is never a token, so runs of spaces,
  line breaks inside a bracketed value and the space after ``value=`` do not
  matter;
* numbers are compared numerically (relative tolerance ``rtol``, absolute
  tolerance ``atol`` for values near zero), so ``4.``, ``4.0``, ``4`` and
  ``4.00000000e+000`` are the same number;
* a ``,`` whose innermost open bracket is ``[`` and which separates two
  numbers or two bracketed rows (``1.0, 2.0`` / ``], [``) is a separator
  equivalent to whitespace: numpy's ``[[4.5 2.7]\\n [4.5 2.7]]`` equals the
  comma layout ``[[4.5, 2.7],\\n[4.5, 2.7]]``.

Everything else must match exactly: the same words, the same punctuation
(so the same bracket/parenthesis nesting and tuple commas) and the same
number of numbers.

With ``as_written=True`` a number also matches when it agrees with the
expected number to the precision the expected text was written with
(``4.5`` accepts anything in ``[4.45, 4.55]``).  This is only for documented
outputs that were rounded by hand (see the per-example ``.json`` sidecar).

This module is pure Python (stdlib only) and must stay importable without
importing msjax itself.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import List, Optional, Tuple

__all__ = [
    "Token",
    "CompareResult",
    "tokenize",
    "compare",
    "split_expected",
    "find_exception",
    "EXCEPTION_LINE_RE",
]

DEFAULT_RTOL = 1e-5
DEFAULT_ATOL = 1e-6

_TOKEN_RE = re.compile(
    r"""
    (?P<ws>\s+)
  | (?P<word>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<num>[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?)
  | (?P<punct>.)
    """,
    re.VERBOSE | re.DOTALL,
)

_OPEN = {"(": ")", "[": "]", "{": "}"}
_CLOSE = {v: k for k, v in _OPEN.items()}

# A traceback's final line: ``ValueError: message`` / ``pkg.mod.MyError: msg``
# / a bare ``KeyboardInterrupt``.
EXCEPTION_LINE_RE = re.compile(
    r"^(?P<type>[A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt|Iteration|Warning))"
    r"(?::\s?(?P<msg>.*))?$"
)


@dataclass(frozen=True)
class Token:
    kind: str  # 'num' | 'word' | 'punct'
    text: str
    line: int  # 1-based line number in the source text
    value: Optional[float] = None  # for 'num'

    def describe(self) -> str:
        if self.kind == "num":
            return f"number {self.text}"
        if self.kind == "word":
            return f"word {self.text!r}"
        return f"{self.text!r}"


@dataclass
class CompareResult:
    ok: bool
    message: str = ""

    def __bool__(self) -> bool:  # ``if compare(a, e): ...``
        return self.ok


def _raw_tokens(text: str) -> List[Token]:
    toks: List[Token] = []
    line = 1
    for m in _TOKEN_RE.finditer(text):
        kind = m.lastgroup
        s = m.group()
        if kind == "ws":
            line += s.count("\n")
            continue
        if kind == "num":
            # a sign glued to a preceding word/number/closing bracket is an
            # operator ("a-1", "2-3"), not part of the number
            if s[0] in "+-" and toks and (
                toks[-1].kind in ("word", "num") or toks[-1].text in ")]}"
            ) and m.start() > 0 and not text[m.start() - 1].isspace():
                toks.append(Token("punct", s[0], line))
                s = s[1:]
            toks.append(Token("num", s, line, float(s)))
        else:
            toks.append(Token(kind, s, line))
    return toks


def tokenize(text: str) -> List[Token]:
    """Tokenize ``text``; commas that merely separate array elements are dropped."""
    toks = _raw_tokens(text)
    out: List[Token] = []
    stack: List[str] = []
    for i, t in enumerate(toks):
        if t.kind == "punct":
            if t.text in _OPEN:
                stack.append(t.text)
            elif t.text in _CLOSE:
                if stack and stack[-1] == _CLOSE[t.text]:
                    stack.pop()
            elif t.text == "," and stack and stack[-1] == "[":
                prev = toks[i - 1] if i > 0 else None
                nxt = toks[i + 1] if i + 1 < len(toks) else None
                if (
                    prev is not None
                    and nxt is not None
                    and (prev.kind == "num" or prev.text == "]")
                    and (nxt.kind == "num" or nxt.text == "[")
                ):
                    continue  # array element separator == whitespace
        out.append(t)
    return out


def _written_half_ulp(text: str) -> float:
    """Half a unit in the last written decimal place of a number literal."""
    try:
        exp = Decimal(text.lstrip("+-")).as_tuple().exponent
    except InvalidOperation:  # pragma: no cover - regex guarantees a literal
        return 0.0
    if not isinstance(exp, int):
        return 0.0
    return 0.5 * 10.0 ** exp


def _numbers_match(actual: Token, expected: Token, rtol: float, atol: float,
                   as_written: bool) -> bool:
    a, e = actual.value, expected.value
    assert a is not None and e is not None
    if math.isclose(a, e, rel_tol=rtol, abs_tol=atol):
        return True
    if as_written:
        return abs(a - e) <= _written_half_ulp(expected.text) * (1 + 1e-9) + atol
    return False


def _line(text: str, lineno: int) -> str:
    lines = text.splitlines()
    if 1 <= lineno <= len(lines):
        return lines[lineno - 1]
    return "<end of output>"


def _clip(s: str, n: int = 160) -> str:
    return s if len(s) <= n else s[: n - 3] + "..."


def compare(actual: str, expected: str, rtol: float = DEFAULT_RTOL,
            atol: float = DEFAULT_ATOL, as_written: bool = False) -> CompareResult:
    """Compare ``actual`` output with ``expected``; see the module docstring."""
    at, et = tokenize(actual), tokenize(expected)
    for i, (a, e) in enumerate(zip(at, et)):
        if a.kind == "num" and e.kind == "num":
            if _numbers_match(a, e, rtol, atol, as_written):
                continue
            denom = max(abs(a.value), abs(e.value)) or 1.0
            what = (f"number mismatch: expected {e.text}, got {a.text} "
                    f"(rel diff {abs(a.value - e.value) / denom:.3g}, rtol {rtol:g})")
        elif a.kind == e.kind and a.text == e.text:
            continue
        else:
            what = f"expected {e.describe()}, got {a.describe()}"
        return CompareResult(False, (
            f"{what} at token {i} (expected line {e.line}, actual line {a.line})\n"
            f"  expected: {_clip(_line(expected, e.line))}\n"
            f"  actual:   {_clip(_line(actual, a.line))}"))
    if len(at) != len(et):
        if len(at) > len(et):
            extra = at[len(et)]
            return CompareResult(False, (
                f"actual output has extra content starting with {extra.describe()} "
                f"(actual line {extra.line}; {len(at) - len(et)} extra tokens)\n"
                f"  actual:   {_clip(_line(actual, extra.line))}"))
        missing = et[len(at)]
        return CompareResult(False, (
            f"actual output ends early: missing {missing.describe()} "
            f"(expected line {missing.line}; {len(et) - len(at)} tokens missing)\n"
            f"  expected: {_clip(_line(expected, missing.line))}"))
    return CompareResult(True, "")


def split_expected(text: str) -> Tuple[str, Optional[Tuple[str, str]]]:
    """Split an ``.expected`` file into (stdout text, expected exception).

    If the last non-blank line looks like a traceback's final line
    (``ValueError: message``) the example is expected to raise: the exception
    is returned as ``(type, message)`` and removed from the stdout text.
    """
    lines = text.rstrip("\n").split("\n") if text.strip() else []
    while lines and not lines[-1].strip():
        lines.pop()
    if lines:
        m = EXCEPTION_LINE_RE.match(lines[-1].strip())
        if m:
            stdout = "\n".join(lines[:-1])
            return (stdout + "\n" if stdout else ""), (m.group("type"), m.group("msg") or "")
    return text, None


def find_exception(stderr: str) -> Optional[Tuple[str, str]]:
    """The last traceback-final-looking line of ``stderr`` as (type, message)."""
    found = None
    for line in stderr.splitlines():
        m = EXCEPTION_LINE_RE.match(line.rstrip())
        if m:
            found = (m.group("type"), m.group("msg") or "")
    return found
