"""MindSpore's argument-parser messages for a call that no overload of a Tensor method accepts
(``_dispatch`` in ``math``), for methods whose overloads annotate their parameters with MindSpore's
type lists (``dim: "int"``, ``axis: "None, int, list of int, tuple of int"``).

What MindSpore 2.10's parser prints, and so msjax: more positional arguments than any overload takes:
``max() takes 2 positional arguments but 3 were given.``; positional arguments an overload accepts and
a keyword it lacks: ``max() got an unexpected keyword argument 'il'.``; otherwise every overload with
parameters and why it failed::

    Failed calling max with "max(int, List<int>)".
    The valid calling should be:
    "Tensor.max(dim=<int>, keepdim=<bool>)"
        match failed because invalid types: (int, List<int>)
                                                  ~~~~~~~~~~~

(``incorrect keyword name: a, b`` names the keywords from the first one the overload lacks on).
Only positional arguments are type-checked here; keyword arguments' types are the overload's own
checks once it is chosen."""
from __future__ import annotations

import inspect

from ..._core.tensor import Tensor

_PREFIX = "    match failed because invalid types: "


def annotated(table):
    """Whether every overload with parameters annotates all of them (the messages need the types)."""
    return all(p.annotation is not inspect.Parameter.empty
               for sig, _, _ in table for p in list(sig.parameters.values())[1:])


def type_name(v):
    """A value's type as MindSpore's parser shows it (``int``, ``List<int>``, ``Tensor``...)."""
    if isinstance(v, Tensor):
        return "Tensor"
    if v is None:
        return "None"
    if isinstance(v, (list, tuple)):
        kind = "List" if isinstance(v, list) else "Tuple"
        inner = sorted({type_name(x) for x in v})
        return f"{kind}<{', '.join(inner)}>" if inner else kind
    return type(v).__name__


def _accepts(annotation, v):
    for t in (s.strip() for s in str(annotation).strip("'\"").split(",")):
        if t == "None" and v is None or t == "Tensor" and isinstance(v, Tensor) or \
                t == "bool" and isinstance(v, bool) or t == "float" and isinstance(v, float):
            return True
        if t == "int" and isinstance(v, int) and not isinstance(v, bool):
            return True
        if t == "Number" and isinstance(v, (int, float)):
            return True
        if t in ("list of int", "tuple of int") and isinstance(v, list if t[0] == "l" else tuple) and \
                all(isinstance(x, int) and not isinstance(x, bool) for x in v):
            return True
    return False


def matched(sig, args):
    """How many leading positional arguments overload ``sig`` accepts by type."""
    params = [p for p in list(sig.parameters.values())[1:] if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    n = 0
    for p, v in zip(params, args):
        if not _accepts(p.annotation, v):
            break
        n += 1
    return n


def _takes_keywords(sig, kwargs):
    names = {p.name for p in sig.parameters.values() if p.kind != p.POSITIONAL_ONLY}
    return all(k in names for k in kwargs)


def best(table, args, kwargs):
    """The one overload (a ``table`` row) that takes every keyword given and accepts more leading
    positional arguments than every other such one, or None: MindSpore's parser then reports that
    overload's own argument error."""
    if not args:
        return None
    scores = sorted(((matched(row[0], args), i) for i, row in enumerate(table)
                     if len(row[0].parameters) > 1 and _takes_keywords(row[0], kwargs)), reverse=True)
    if len(scores) == 1 or scores and scores[0][0] > scores[1][0]:
        return table[scores[0][1]]
    return None


def _reason(sig, args, kwargs):
    """``(kind, detail)`` of why overload ``sig`` (``self`` first) does not take the call."""
    params = list(sig.parameters.values())[1:]
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    if len(args) > len(positional):
        return "count", len(positional)
    names = {p.name for p in params if p.kind != p.POSITIONAL_ONLY}
    taken = {p.name for p in positional[:len(args)]}
    keys = list(kwargs)
    bad = next((i for i, k in enumerate(keys) if k not in names or k in taken), None)
    for i, (p, v) in enumerate(zip(positional, args)):
        if not _accepts(p.annotation, v):
            return "types", i
    if bad is not None:
        return "keywords", keys[bad:]
    return "types", None


def _signature(name, sig):
    parts, star = [], False
    for p in list(sig.parameters.values())[1:]:
        if p.kind == p.KEYWORD_ONLY and not star:
            parts.append("*")
            star = True
        parts.append(f"{p.name}=<{str(p.annotation).strip(chr(39) + chr(34))}>")
    return f'"Tensor.{name}({", ".join(parts)})"'


def error(name, table, args, kwargs):
    """The TypeError MindSpore raises for ``Tensor.name(*args, **kwargs)`` when no overload of ``table``
    (``(signature, fn, guard)`` rows) takes it."""
    rows = [(sig, _reason(sig, args, kwargs)) for sig, _, _ in table if len(sig.parameters) > 1]
    if rows and all(kind == "count" for _, (kind, _) in rows):
        most = max(n for _, (_, n) in rows)
        return TypeError(f"{name}() takes {most} positional argument{'s' if most != 1 else ''} but {len(args)} "
                         f"{'was' if len(args) == 1 else 'were'} given.")
    if args:
        for _, (kind, detail) in rows:
            if kind == "keywords":
                return TypeError(f"{name}() got an unexpected keyword argument '{detail[0]}'.")
    shown = ", ".join([type_name(a) for a in args] + [f"{k}={type_name(v)}" for k, v in kwargs.items()])
    lines = [f'Failed calling {name} with "{name}({shown})".', "The valid calling should be:"]
    call = "(" + ", ".join(type_name(a) for a in args + tuple(kwargs.values())) + ")"
    for sig, (kind, detail) in rows:
        lines.append(_signature(name, sig))
        if kind == "keywords":
            lines.append(f"    match failed because incorrect keyword name: {', '.join(detail)}")
        elif kind == "types":
            lines.append(_PREFIX + call)
            if detail is not None:
                col = len(_PREFIX) + 1 + sum(len(type_name(a)) + 2 for a in args[:detail])
                lines.append(" " * col + "~" * (len(type_name(args[detail])) + 2))
    return TypeError("\n".join(lines) + "\n")
