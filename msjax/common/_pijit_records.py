"""PIJit's code records (``mindspore._c_expression.get_code_extra``), as far as msjax can give them truthfully.

MindSpore's PIJit (``jit(capture_mode="bytecode")``) keeps, per code object, how it compiled the function:
``stat``, ``break_count_`` (graph breaks), ``compile_count_`` (graphs built) and ``code`` (``call_count_``: calls
that ran a compiled graph, ``phase_``: the graph's name). msjax traces a bytecode-mode function whole with JAX, so
a function it compiled has no graph break: its record says ``GRAPH_CALLABLE`` with ``break_count_`` 0, and counts
the programs msjax built (one per argument signature it traced) and the calls that ran one. A function msjax
ran uncompiled (Python control flow on Tensor values, MindSpore's graph breaks) gets no record (``None``), and a
test expecting MindSpore's break counts there fails: msjax does not split functions into graphs.
"""
from __future__ import annotations

import types

from .._core import provided

__all__ = ["note_call", "record_of"]

_RECORDS = {}   # id(code object) -> (the code object, kept alive so its id stays its own; record), as PIJit keys them


def _code_of(obj):
    """The code object PIJit keys ``obj``'s record on (a function, a method or a code object; a jit wrapper has
    its own code, with no record, as in MindSpore: its tests read ``fn.__wrapped__``)."""
    if isinstance(obj, types.CodeType):
        return obj
    return getattr(getattr(obj, "__func__", obj), "__code__", None)


def note_call(function, sf, before):
    """After a call of ``function`` compiled in bytecode mode: ``sf`` is its stateful core (its programs in
    ``sf._cache``, the one this call ran in ``sf.last_entry``, ``None`` when the call was traced inline into
    an enclosing transform), ``before`` the programs it had before the call."""
    code = _code_of(function)
    entry = getattr(sf, "last_entry", None)
    if code is None or entry is None:
        return
    record = _RECORDS.get(id(code), (None, None))[1]
    if record is None:
        record = {"stat": "GRAPH_CALLABLE", "break_count_": 0, "compile_count_": 0, "code": None, "codes": {}}
        _RECORDS[id(code)] = (code, record)
    if _uncompiled(entry):
        record["stat"] = "NEVER_COMPILE"
        return
    live = {id(e) for e in sf._cache.values()}
    codes = record["codes"] = {k: v for k, v in record["codes"].items() if k in live}
    if all(e is not entry for e in before):
        record["compile_count_"] += 1
    info = codes.setdefault(id(entry), {"call_count_": 0, "phase_": f"msjax.jit.{code.co_name}.{len(live)}",
                                        "compiled_code_": None})
    info["call_count_"] += 1
    record["code"] = info


def _uncompiled(entry):
    return bool(getattr(entry.call, "msjax_uncompiled", False))


def record_of(obj):
    """``get_code_extra(obj)``: the record of a function msjax compiled in bytecode mode, else ``None``."""
    record = _RECORDS.get(id(_code_of(obj)), (None, None))[1]
    if record is None or record["stat"] != "GRAPH_CALLABLE":
        return None
    return {"stat": record["stat"], "break_count_": 0, "compile_count_": record["compile_count_"],
            "code": dict(record["code"])}


provided.provide("pijit_record", note_call)
