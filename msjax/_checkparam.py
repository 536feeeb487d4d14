"""``mindspore._checkparam``: argument checks with MindSpore's messages (real
scripts import ``Validator`` from here), used by the optimizers, learning-rate
schedules, training cells and op-registration info. Stands on nothing else in msjax."""
from __future__ import annotations

import math
import re

__all__ = ["check_value_type", "check_positive_int", "check_positive_float", "check_non_negative_float",
           "check_is_float", "check_is_int", "check_bool", "check_float_range", "check_non_negative_int",
           "check_int", "check_isinstance", "check_file_name_by_regular", "EQ", "NE", "LT", "LE", "GT", "GE",
           "INC_NEITHER", "INC_LEFT", "INC_RIGHT", "INC_BOTH"]

# MindSpore's relation constants
EQ, NE, LT, LE, GT, GE = 1, 2, 3, 4, 5, 6
INC_NEITHER, INC_LEFT, INC_RIGHT, INC_BOTH = 7, 8, 9, 10
_RELATIONS = {EQ: ("==", lambda a, b: a == b), NE: ("!=", lambda a, b: a != b), LT: ("<", lambda a, b: a < b),
              LE: ("<=", lambda a, b: a <= b), GT: (">", lambda a, b: a > b), GE: (">=", lambda a, b: a >= b)}


def _prefix(prim_name):
    return f"For '{prim_name}', the " if prim_name else "The "


def _number(arg_value, value, rel_ok, rel_str, arg_type, arg_name, prim_name):
    info = _prefix(prim_name) + (f"'{arg_name}'" if arg_name else "input value")
    if isinstance(arg_value, arg_type) and not isinstance(arg_value, bool):
        if math.isinf(arg_value) or math.isnan(arg_value):
            raise ValueError(f"{info} must be a legal value, but got '{arg_value}'.")
    else:
        raise TypeError(f"{info} must be {arg_type.__name__}, but got '{type(arg_value).__name__}'")
    if not rel_ok(arg_value):
        raise ValueError(f"{info} must be {arg_type.__name__} and must {rel_str}, "
                         f"but got '{arg_value}' with type '{type(arg_value).__name__}'.")
    return arg_value


def check_int(arg_value, value, rel, arg_name=None, prim_name=None):
    """An int (not a bool) in relation ``rel`` (``GE``...) to ``value``: ``TypeError`` for another
    type, ``ValueError`` outside the relation, as MindSpore."""
    sym, ok = _RELATIONS[rel]
    return _number(arg_value, value, lambda v: ok(v, value), f"{sym} {value}", int, arg_name, prim_name)


def check_positive_int(arg_value, arg_name=None, prim_name=None):
    return _number(arg_value, 0, lambda v: v > 0, "> 0", int, arg_name, prim_name)


def check_non_negative_int(arg_value, arg_name=None, prim_name=None):
    return _number(arg_value, 0, lambda v: v >= 0, ">= 0", int, arg_name, prim_name)


def check_positive_float(arg_value, arg_name=None, prim_name=None):
    return _number(arg_value, 0, lambda v: v > 0, "> 0", float, arg_name, prim_name)


def check_non_negative_float(arg_value, arg_name=None, prim_name=None):
    return _number(arg_value, 0, lambda v: v >= 0, ">= 0", float, arg_name, prim_name)


def _check_is_number(arg_value, arg_type, arg_name, prim_name):
    p = f"For '{prim_name}', the" if prim_name else "The"
    n = f"'{arg_name}'" if arg_name else "input value"
    if isinstance(arg_value, arg_type) and not isinstance(arg_value, bool):
        if math.isinf(arg_value) or math.isnan(arg_value):
            raise ValueError(f"{p} {n} must be a legal float, but got '{arg_value}'.")
        return arg_value
    raise TypeError(f"{p} type of {n} must be '{arg_type.__name__}', but got '{type(arg_value).__name__}'.")


def check_is_float(arg_value, arg_name=None, prim_name=None):
    return _check_is_number(arg_value, float, arg_name, prim_name)


def check_is_int(arg_value, arg_name=None, prim_name=None):
    return _check_is_number(arg_value, int, arg_name, prim_name)


def check_bool(arg_value, arg_name=None, prim_name=None):
    if not isinstance(arg_value, bool):
        p = f"For '{prim_name}', the" if prim_name else "The"
        n = f"'{arg_name}'" if arg_name else "input value"
        raise TypeError(f"{p} {n} must be a bool, but got {type(arg_value).__name__}.")
    return arg_value


def check_value_type(arg_name, arg_value, valid_types, prim_name=None):
    valid_types = tuple(valid_types) if isinstance(valid_types, (list, tuple)) else (valid_types,)

    def fail():
        names = [getattr(t, "__name__", str(t)) for t in valid_types]
        p = f"For '{prim_name}', the" if prim_name else "The"
        raise TypeError(f"{p} type of '{arg_name}' should be {'one of ' if len(names) > 1 else ''}"
                        f"'{names if len(names) > 1 else names[0]}', but got type '{type(arg_value).__name__}'.")

    if isinstance(arg_value, bool) and bool not in valid_types:
        fail()
    if not isinstance(arg_value, valid_types):
        fail()
    return arg_value


def check_float_range(arg_value, lower, upper, arg_name=None, prim_name=None, inc_left=False, inc_right=False):
    """Open interval (lower, upper) by default (MindSpore's INC_NEITHER)."""
    p = f"For '{prim_name}', the" if prim_name else "The"
    n = f"'{arg_name}'" if arg_name else "input value"
    if isinstance(arg_value, bool) or not isinstance(arg_value, float):
        raise TypeError(f"{p} {n} must be float, but got '{type(arg_value).__name__}'.")
    ok_l = arg_value >= lower if inc_left else arg_value > lower
    ok_r = arg_value <= upper if inc_right else arg_value < upper
    if not (ok_l and ok_r):
        lb = "[" if inc_left else "("
        rb = "]" if inc_right else ")"
        raise ValueError(f"{p} {n} must be in range of {lb}{lower}, {upper}{rb}, but got {arg_value} "
                         f"with type '{type(arg_value).__name__}'.")
    return arg_value


def check_isinstance(arg_name, arg_value, classes):
    """MindSpore's ``Validator.check_isinstance``: a ``ValueError`` (not a TypeError) naming the value."""
    if not isinstance(arg_value, classes):
        raise ValueError(f"The parameter '{arg_name}' must be isinstance of {classes}, but got {arg_value}.")
    return arg_value


_FILE_NAME_REGULAR = r"^[0-9a-zA-Z@\_\-\.\:\/\\]+$"


def check_file_name_by_regular(target, reg=None, prim_name=None):
    """MindSpore's file-name check (``export``, ``save_mindir``, ...): a string, not a directory
    path, only letters, digits and ``@_-.:/\\``."""
    p = f"For '{prim_name}', the" if prim_name else "The"
    if not isinstance(target, str):
        raise TypeError(f"{p} '{target}' must be string, but got {type(target)}.")
    if target.endswith("\\") or target.endswith("/"):
        raise ValueError(f"{p} '{target}' cannot be a directory path.")
    reg = _FILE_NAME_REGULAR if reg is None else reg
    if re.match(reg, target) is None:
        raise ValueError(f"{p} '{target}' is illegal, it must be match regular '{reg}'.")
    return True
