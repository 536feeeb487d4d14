"""Framework-neutral serializer / comparer for golden fixtures.

Only numpy and the standard library are used, so the same code serializes
results produced by real MindSpore (when recording) and by msjax (when
testing).

JSON encoding of a case result
------------------------------
* Tensor-like (has ``asnumpy``, ``dtype`` and ``shape``)::

      {"kind": "tensor", "dtype": "Float32", "shape": [1, 3],
       "values": [[4.0, 6.0, 8.0]]}

  A Parameter (detected by class name ``Parameter`` anywhere in the MRO) gets
  ``"kind": "parameter"`` plus ``"name"`` and ``"requires_grad"``.
  nan / inf / -inf are stored as the strings "nan", "inf", "-inf".
* numpy.ndarray -> ``{"kind": "ndarray", "dtype": "float32", ...}``
* numpy scalar  -> ``{"kind": "npscalar", "dtype": "float32", "value": ...}``
* tuple / list  -> ``{"kind": "tuple"|"list", "items": [...]}``
* dict          -> ``{"kind": "dict", "items": {str(key): value}}``
* str / bool / int / float / None -> ``{"kind": "str"|"bool"|"int"|"float"|"none", "value": ...}``
* exception     -> ``{"kind": "error", "type": "ValueError", "message": "..."}``
  (message trimmed of MindSpore's appended C++ call-stack sections)
* anything else -> ``{"kind": "other", "type": type name, "str": str(obj)}``
"""
import math
import re

import numpy as np

__all__ = ["serialize", "serialize_error", "trim_message", "compare",
           "run_case"]


# ---------------------------------------------------------------------------
# serialization
# ---------------------------------------------------------------------------
_CPP_SECTION = re.compile(r"\n*-{20,}\n- (C\+\+ Call Stack|Framework Unexpected Exception|"
                          r"The Traceback of Net Construct Code|Ascend Error Message|"
                          r"Python Traceback|Frontend|The Function Call Stack)")


def trim_message(msg):
    """Cut MindSpore's appended '-----\\n- C++ Call Stack: ...' sections."""
    msg = str(msg)
    m = _CPP_SECTION.search(msg)
    if m:
        msg = msg[:m.start()]
    # GRAPH_MODE appends graph ids and source locations (absolute paths)
    for marker in ("\nFunctionGraph ID :", "\nNodeInfo: In file"):
        i = msg.find(marker)
        if i >= 0:
            msg = msg[:i]
    # memory addresses (e.g. "value_ptr: 0x7f1f200058a0") are not reproducible
    msg = re.sub(r"0x[0-9a-fA-F]{6,}", "0x?", msg)
    return msg.strip()


def _is_tensor_like(obj):
    return (hasattr(obj, "asnumpy") and hasattr(obj, "dtype")
            and hasattr(obj, "shape") and not isinstance(obj, type))


def _is_parameter(obj):
    return any(c.__name__ == "Parameter" for c in type(obj).__mro__)


def _float_to_json(v):
    v = float(v)
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return v


def _array_values(arr):
    arr = np.asarray(arr)
    if arr.dtype.kind in "fc":
        if arr.dtype.kind == "c":
            arr = arr.real  # complex not expected in these fixtures
        arr = arr.astype(np.float64)
        flat = [_float_to_json(v) for v in arr.reshape(-1).tolist()]
        out = np.empty(len(flat), dtype=object)
        out[:] = flat
        return out.reshape(arr.shape).tolist() if arr.ndim else flat[0]
    if arr.dtype.kind == "b":
        return arr.tolist()
    if arr.dtype.kind in "iu":
        return arr.tolist()
    # bfloat16 or exotic dtypes: go through float64
    try:
        return _array_values(arr.astype(np.float64))
    except Exception:  # pragma: no cover
        return str(arr)


def serialize_error(exc):
    return {"kind": "error", "type": type(exc).__name__,
            "message": trim_message(exc)}


def serialize(obj):
    if isinstance(obj, BaseException):
        return serialize_error(obj)
    if obj is None:
        return {"kind": "none"}
    # bool must be tested before int
    if isinstance(obj, bool):
        return {"kind": "bool", "value": obj}
    if isinstance(obj, (np.ndarray,)):
        return {"kind": "ndarray", "dtype": str(obj.dtype),
                "shape": list(obj.shape), "values": _array_values(obj)}
    if isinstance(obj, np.generic):
        return {"kind": "npscalar", "dtype": str(obj.dtype),
                "value": _array_values(np.asarray(obj))}
    if isinstance(obj, int):
        return {"kind": "int", "value": int(obj)}
    if isinstance(obj, float):
        return {"kind": "float", "value": _float_to_json(obj)}
    if isinstance(obj, str):
        return {"kind": "str", "value": obj}
    if _is_tensor_like(obj):
        arr = obj.asnumpy()
        d = {"kind": "tensor", "dtype": str(obj.dtype),
             "shape": [int(s) for s in obj.shape],
             "values": _array_values(arr)}
        if _is_parameter(obj):
            d["kind"] = "parameter"
            d["name"] = str(getattr(obj, "name", None))
            d["requires_grad"] = bool(getattr(obj, "requires_grad", True))
        return d
    if isinstance(obj, tuple):
        # a ParameterTuple is a tuple subclass; keep kind "tuple"
        return {"kind": "tuple", "items": [serialize(x) for x in obj]}
    if isinstance(obj, list):
        return {"kind": "list", "items": [serialize(x) for x in obj]}
    if isinstance(obj, dict):
        return {"kind": "dict",
                "items": {str(k): serialize(v) for k, v in obj.items()}}
    return {"kind": "other", "type": type(obj).__name__, "str": str(obj)}


def run_case(fn, module):
    """Run ``fn(module)`` and serialize its result or the exception it raised."""
    try:
        result = fn(module)
    except Exception as e:  # noqa: BLE001 - we record every exception
        return serialize_error(e)
    try:
        return serialize(result)
    except Exception as e:  # noqa: BLE001 - e.g. asnumpy() raising lazily
        return serialize_error(e)


# ---------------------------------------------------------------------------
# comparison
# ---------------------------------------------------------------------------
def _num(v):
    if isinstance(v, str):
        return float(v)  # "nan", "inf", "-inf"
    return v


def _flatten(v):
    if isinstance(v, list):
        out = []
        for x in v:
            out.extend(_flatten(x))
        return out
    return [v]


def _values_close(exp, act, rtol, atol, exact):
    """Return None if equal, else a short description of the first mismatch."""
    fe, fa = _flatten(exp), _flatten(act)
    if len(fe) != len(fa):
        return "number of values %d != %d" % (len(fe), len(fa))
    bad = []
    for i, (e, a) in enumerate(zip(fe, fa)):
        if exact or isinstance(e, bool) or isinstance(a, bool):
            ok = e == a
        else:
            e2, a2 = _num(e), _num(a)
            if isinstance(e2, float) and math.isnan(e2):
                ok = isinstance(a2, float) and math.isnan(a2)
            elif isinstance(e2, float) and math.isinf(e2):
                ok = e2 == a2
            else:
                try:
                    ok = abs(float(a2) - float(e2)) <= atol + rtol * abs(float(e2))
                except (TypeError, ValueError):
                    ok = False
        if not ok:
            bad.append(i)
    if not bad:
        return None
    i = bad[0]
    return "%d/%d values differ; first at flat index %d: expected %r, got %r" % (
        len(bad), len(fe), i, fe[i], fa[i])


def compare(expected, actual, rtol=1e-5, atol=1e-6, soft=None, path="result"):
    """Compare two serialized results.

    Returns a list of human-readable (hard) mismatch descriptions; empty list
    means equal.  Differences in exception *messages* are not hard
    mismatches: they are appended to ``soft`` (a list) if given, so a test can
    decide whether to check them (e.g. by substring).
    """
    out = []
    ek, ak = expected.get("kind"), actual.get("kind")
    if ek != ak:
        if ek == "error":
            out.append("%s: expected exception %s(%r), got %s: %s" % (
                path, expected["type"], expected["message"][:200], ak,
                _short(actual)))
        elif ak == "error":
            out.append("%s: expected %s %s, got exception %s: %s" % (
                path, ek, _short(expected), actual["type"],
                actual["message"][:300]))
        else:
            out.append("%s: kind mismatch: expected %s %s, got %s %s" % (
                path, ek, _short(expected), ak, _short(actual)))
        return out

    if ek == "error":
        if expected["type"] != actual["type"]:
            out.append("%s: exception type: expected %s(%r), got %s(%r)" % (
                path, expected["type"], expected["message"][:200],
                actual["type"], actual["message"][:200]))
        if expected["message"] != actual["message"] and soft is not None:
            soft.append("%s: exception message: expected %r, got %r" % (
                path, expected["message"], actual["message"]))
        return out

    if ek in ("tuple", "list"):
        ei, ai = expected["items"], actual["items"]
        if len(ei) != len(ai):
            out.append("%s: %s length: expected %d, got %d (expected %s, got %s)" % (
                path, ek, len(ei), len(ai), _short(expected), _short(actual)))
            return out
        for i, (e, a) in enumerate(zip(ei, ai)):
            out.extend(compare(e, a, rtol, atol, soft, "%s[%d]" % (path, i)))
        return out

    if ek == "dict":
        ei, ai = expected["items"], actual["items"]
        if sorted(ei) != sorted(ai):
            out.append("%s: dict keys: expected %s, got %s" % (
                path, sorted(ei), sorted(ai)))
        for k in ei:
            if k in ai:
                out.extend(compare(ei[k], ai[k], rtol, atol, soft,
                                   "%s[%r]" % (path, k)))
        return out

    if ek in ("tensor", "parameter", "ndarray"):
        if expected["dtype"] != actual["dtype"]:
            out.append("%s: dtype: expected %s, got %s" % (
                path, expected["dtype"], actual["dtype"]))
        if expected["shape"] != actual["shape"]:
            out.append("%s: shape: expected %s, got %s" % (
                path, expected["shape"], actual["shape"]))
            return out
        exact = not any(s in expected["dtype"].lower() for s in ("float", "complex"))
        msg = _values_close(expected["values"], actual["values"], rtol, atol, exact)
        if msg:
            out.append("%s: values: %s" % (path, msg))
        if ek == "parameter":
            for key in ("name", "requires_grad"):
                if expected.get(key) != actual.get(key):
                    out.append("%s: parameter %s: expected %r, got %r" % (
                        path, key, expected.get(key), actual.get(key)))
        return out

    if ek == "npscalar":
        if expected["dtype"] != actual["dtype"]:
            out.append("%s: numpy scalar dtype: expected %s, got %s" % (
                path, expected["dtype"], actual["dtype"]))
        exact = not any(s in expected["dtype"] for s in ("float", "complex"))
        msg = _values_close(expected["value"], actual["value"], rtol, atol, exact)
        if msg:
            out.append("%s: value: %s" % (path, msg))
        return out

    if ek == "float":
        msg = _values_close(expected["value"], actual["value"], rtol, atol, False)
        if msg:
            out.append("%s: float: expected %r, got %r" % (
                path, expected["value"], actual["value"]))
        return out

    if ek in ("str", "int", "bool"):
        if expected["value"] != actual["value"]:
            out.append("%s: %s: expected %r, got %r" % (
                path, ek, expected["value"], actual["value"]))
        return out

    if ek == "none":
        return out

    # "other"
    if expected != actual:
        out.append("%s: expected %r, got %r" % (path, expected, actual))
    return out


def _short(d, limit=160):
    s = repr(d)
    return s if len(s) <= limit else s[:limit] + "..."
