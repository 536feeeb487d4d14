"""Conformance suite runner: MindSpore documentation examples vs. msjax.

``python -m msjax.conformance --help`` for the CLI; programmatic API::

    from msjax.conformance import run_all, discover, run_case
    results = run_all("both")            # list of Result
    ok = all(r.passed for r in results)

Stdlib only: importing this package (or its ``compare`` module) needs nothing
from msjax itself.
"""

from .compare import CompareResult, compare, tokenize
from .runner import MODES, Case, Result, default_root, discover, format_table, main, run_all, run_case

__all__ = [
    "CompareResult", "compare", "tokenize",
    "MODES", "Case", "Result", "default_root", "discover", "format_table", "main",
    "run_all", "run_case",
]
