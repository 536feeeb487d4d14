"""A compiled function's Python as MindSpore's graph compiler reads it (its compile tutorials
``statements`` and ``static_graph``), for what tracing Python cannot give by itself:

* the statements and expressions MindSpore refuses raise its errors when the function is
  compiled: ``try``, ``del``, ``import``, ``match``, ``nonlocal``, ``async for``/``with``
  (``RuntimeError: Unsupported statement 'Try'.``), a ``for``/``while`` loop with an ``else``
  branch (``The 'for...else...' statement is not supported now.``), ``:=``, set displays and comprehensions,
  ``yield``, ``await`` (``Unsupported expression``), a list or dict comprehension or a generator
  with two ``for`` clauses (TypeError), a ``classmethod`` called through ``self`` (MindSpore's
  TypeError on the argument count);
* graph-only extensions of Python run: ``dict.has_key(k)`` (``k in d``; a dict's ``keys()``,
  ``values()`` and ``items()`` are taken when called, as MindSpore's graph makes them), and a global read and
  then assigned in the function (``z += i`` on a global ``z``: MindSpore starts from the global's
  value, Python raises UnboundLocalError);
* arithmetic on Python floats is MindSpore's graph scalar arithmetic, in float32: ``+ - * / //
  % **``, unary ``-``/``+`` and comparisons with a float operand (or ``/`` of two ints) round
  both operands and the result to float32 (``1.1 + 0.1`` is ``1.2000000476837158``,
  ``float(-123.6)`` is ``-123.5999984741211``); ints stay exact, and what Python's own functions
  compute (``float(x)``, ``abs``, ``round``, ``divmod``, ``math``) stays float64, as in MindSpore;
  ``sum`` adds as ``+`` does.

Only a function that needs one of these is recompiled (from its source, with its globals and
closure cells); every other function runs as written. msjax's own functions are left alone.
The core's ``ms.jit`` borrows :func:`graph_function` (``provided``) before its first trace;
``nn.Cell`` reads its ``construct`` with it in GRAPH_MODE and when called inside a graph. The
user's functions and methods a graph calls are read when called (``_graph_callee``); msjax's,
NumPy's and other installed packages' functions run as they are (MindSpore's JIT Fallback runs
third-party Python).
"""
import ast
import builtins
import inspect
import linecache
import operator
import re
import textwrap
import types

import jax.numpy as jnp
import numpy as np

from .._core import provided
from .._core.tensor import Tensor, wrap
from ._frontend_cache import _module_is_user
from ._graph_builtins import CHECKED

_GLOBALS, _DICT, _SCALAR, _CALL = ("__msjax_globals__", "__msjax_dict_method__", "__msjax_scalar_op__",
                                   "__msjax_graph_call__")
_CACHE = {}     # code object -> _Reading


def _dict_method(obj, name, *args):
    """``obj.name(*args)`` in a graph: for a dict, MindSpore's graph methods: ``has_key(k)`` is
    ``k in obj``; ``keys()`` and ``values()`` are tuples and ``items()`` a list of pairs, taken when
    called (not views that later updates change)."""
    if not isinstance(obj, dict):
        return getattr(obj, name)(*args)
    if name == "has_key":
        return args[0] in obj
    return list(obj.items()) if name == "items" else tuple(getattr(obj, name)())


def _member(x, seq):
    """``x in seq`` in a graph: a Tensor in a tuple or list is a Bool Tensor, whether some item is a
    Tensor of its shape equal to it everywhere (MindSpore's graph; Python's ``in`` would ask one
    Tensor's truth); anything else as Python does."""
    if not (isinstance(x, Tensor) and isinstance(seq, (tuple, list))):
        return x in seq
    same = [jnp.all(x._data == v._data) for v in seq if isinstance(v, Tensor) and v.shape == x.shape]
    return wrap(jnp.any(jnp.stack(same)) if same else jnp.array(False))


def _not_member(x, seq):
    found = _member(x, seq)
    return ~found if isinstance(found, Tensor) else not found


def _not(x):
    """``not x`` in a graph: a Tensor's logical not, a Bool Tensor of its shape (MindSpore's graph)."""
    if not isinstance(x, Tensor):
        return not x
    if x.shape not in ((), (1,)):
        bool(x)     # MindSpore's ValueError for a traced Tensor (a one-element constant passes)
    return wrap(jnp.logical_not(x._data))


_LOGICAL = {"In": _member, "NotIn": _not_member, "Not": _not}
_OPS = {**_LOGICAL, "Add": operator.add, "Sub": operator.sub, "Mult": operator.mul, "Div": operator.truediv,
        "FloorDiv": operator.floordiv, "Mod": operator.mod, "Pow": operator.pow, "USub": operator.neg,
        "UAdd": operator.pos, "Eq": operator.eq, "NotEq": operator.ne, "Lt": operator.lt, "LtE": operator.le,
        "Gt": operator.gt, "GtE": operator.ge}
_IN_PLACE = {"Add": operator.iadd, "Sub": operator.isub, "Mult": operator.imul, "Div": operator.itruediv,
             "FloorDiv": operator.ifloordiv, "Mod": operator.imod, "Pow": operator.ipow}


_ZERO_DIVISOR = {"Div": "The divisor could not be zero. But the divisor is zero now.",
                 "FloorDiv": "The divisor could not be zero. But the divisor is zero now.",
                 "Mod": "Cannot perform modulo operation on zero."}


def _scalar_op(name, *operands):
    """``operands[0] <op> operands[1]`` (or ``<op> operands[0]``) as MindSpore's graph computes it
    on Python numbers: with a float among them (or ``/`` of two ints) in float32, a division by
    zero a ValueError, an int to a negative int power truncated to an int; anything else (Tensors,
    sequences, strings) as Python does."""
    if name == "sum":
        return _scalar_sum(*operands)
    if name == "range":
        return _graph_range(*operands)
    if name == "map":
        return _graph_map(*operands)
    if name == "slice":
        return _graph_slice(*operands)
    if name in _LOGICAL:
        return _LOGICAL[name](*operands)
    base = name[1:] if name not in _OPS else name
    if not all(type(v) in (int, bool, float) or isinstance(v, float) for v in operands):
        return (_OPS.get(name) or _IN_PLACE[base])(*operands)
    if len(operands) == 2 and base in _ZERO_DIVISOR and operands[1] == 0:
        raise ValueError(_ZERO_DIVISOR[base])
    if not any(isinstance(v, float) for v in operands) and base != "Div":
        out = _OPS[base](*operands)
        return int(out) if base == "Pow" and isinstance(out, float) else out
    with np.errstate(all="ignore"):
        out = _OPS[base](*(np.float32(v) for v in operands))
    return bool(out) if isinstance(out, np.bool_) else float(np.float32(out))


def _graph_range(fn, *args):
    """``range(...)`` in a graph: ``_graph_builtins``' checked ``range`` (MindSpore's ``make_range``)."""
    return CHECKED[id(builtins.range)](*args) if fn is builtins.range else fn(*args)


def _type_name(v):
    """A value's type as MindSpore's graph messages name it."""
    if isinstance(v, Tensor):
        return f"Tensor[{v.dtype}]"
    return {bool: "Bool", int: "Int64", float: "Float32"}.get(type(v), type(v).__name__)


def _graph_map(fn, func=None, *seqs):
    """``map(func, *seqs)`` in a graph: MindSpore's ``Map`` checks (at least one sequence, tuples or
    lists only, not both, of one length: its errors), then Python's ``map`` (at once with a NumPy
    array among them: MindSpore's JIT Fallback)."""
    if fn is not builtins.map:
        return fn(*(() if func is None else (func,)), *seqs)
    if not seqs:
        raise TypeError("The Map operator must have at least two arguments. But the size of arguments is 1.")
    if any(isinstance(v, np.ndarray) for v in seqs):     # JIT Fallback: Python's map
        return fn(func, *seqs)
    kinds = {list if isinstance(v, list) else tuple if isinstance(v, tuple) else None for v in seqs}
    if kinds == {None}:
        raise RuntimeError(f"Map can only be applied to list, tuple, but got {_type_name(seqs[0])}.")
    if len(kinds) > 1:
        raise RuntimeError("The types of arguments in Map must be consistent, but the types of arguments are "
                           "inconsistent.")
    if len({len(v) for v in seqs}) > 1:
        raise RuntimeError(f"For 'Map', the length of {'lists' if isinstance(seqs[0], list) else 'tuples'} "
                           "must be the same. ")
    return fn(func, *seqs)


def _slice_bound(v):
    if v is None or isinstance(v, (bool, int)):
        return v
    if isinstance(v, Tensor) and v.dtype.kind in ("int", "uint", "bool") and v.size == 1:
        return int(v)
    kind = "String" if isinstance(v, str) else _type_name(v)
    raise TypeError(f"Slice indices must be integers or bool. But got a {kind} number.")


def _graph_slice(seq, lower, upper, step):
    """``seq[lower:upper:step]`` in a graph: a tuple or list sliced with MindSpore's checks (ints, bools
    or one-element integer Tensors; a zero step: its ValueError); anything else as Python slices it."""
    if not isinstance(seq, (tuple, list)):
        return seq[lower:upper:step]
    lower, upper, step = _slice_bound(lower), _slice_bound(upper), _slice_bound(step)
    if step == 0:
        raise ValueError("Slice step cannot be zero.")
    return seq[lower:upper:step]


def _scalar_sum(fn, iterable, *start):
    """``sum(...)`` in a graph: Python numbers are added with ``_scalar_op`` (float32 once a float
    is among them)."""
    if fn is not builtins.sum:
        return fn(iterable, *start)
    total = start[0] if start else 0
    for v in iterable:
        total = _scalar_op("Add", total, v)
    return total


class _ScalarArithmetic(ast.NodeTransformer):
    """Routes arithmetic and single comparisons through ``_scalar_op``; ``x op= v`` on a name
    becomes ``x = _scalar_op('iop', x, v)`` (the in-place operator for what is not a number)."""

    found = False

    def _call(self, name, operands, node):
        self.found = True
        return ast.copy_location(ast.Call(ast.Name(_SCALAR, ast.Load()), [ast.Constant(name)] + operands, []), node)

    def visit_BinOp(self, node):
        self.generic_visit(node)
        name = type(node.op).__name__
        return self._call(name, [node.left, node.right], node) if name in _OPS else node

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        name = type(node.op).__name__
        return self._call(name, [node.operand], node) if name in _OPS else node

    def visit_Compare(self, node):
        self.generic_visit(node)
        name = type(node.ops[0]).__name__
        return self._call(name, [node.left, node.comparators[0]], node) if len(node.ops) == 1 and name in _OPS \
            else node

    def visit_Call(self, node):
        self.generic_visit(node)
        if isinstance(node.func, ast.Name) and node.func.id == "sum" and 1 <= len(node.args) <= 2 and \
                not node.keywords and not any(isinstance(a, ast.Starred) for a in node.args):
            return self._call("sum", [node.func] + node.args, node)
        if isinstance(node.func, ast.Name) and node.func.id in ("range", "map") and not node.keywords:
            return self._call(node.func.id, [node.func] + node.args, node)
        return node

    def visit_Subscript(self, node):
        self.generic_visit(node)
        if not isinstance(node.ctx, ast.Load) or not isinstance(node.slice, ast.Slice):
            return node
        bounds = [b if b is not None else ast.Constant(None) for b in (node.slice.lower, node.slice.upper,
                                                                       node.slice.step)]
        return self._call("slice", [node.value] + bounds, node)

    def visit_AugAssign(self, node):
        self.generic_visit(node)
        name = type(node.op).__name__
        if not isinstance(node.target, ast.Name) or name not in _IN_PLACE:
            return node
        value = self._call("i" + name, [ast.Name(node.target.id, ast.Load()), node.value], node)
        return ast.copy_location(ast.Assign([ast.Name(node.target.id, ast.Store())], value), node)


class _Calls(ast.NodeTransformer):
    """``f(...)`` becomes ``_graph_callee(f)(...)``: the functions a graph calls are read too."""
    found = False

    def visit_Call(self, node):
        self.generic_visit(node)
        if isinstance(node.func, ast.Name) and node.func.id.startswith("__msjax_"):
            return node
        self.found = True
        node.func = ast.copy_location(ast.Call(ast.Name(_CALL, ast.Load()), [node.func], []), node.func)
        return node


def _graph_callee(fn):
    """A function (or method) a graph calls, as the graph compiler reads it when it is the user's
    code; third-party and msjax functions, builtins, Cells and classes are called as they are
    (MindSpore runs third-party Python through JIT Fallback); builtins MindSpore checks further (``range``) with
    its checks (``_graph_builtins``)."""
    func = fn.__func__ if inspect.ismethod(fn) else fn
    if not isinstance(func, types.FunctionType) or not _module_is_user(func.__module__ or ""):
        return CHECKED.get(id(fn), fn)
    return graph_function(fn)


class _Reading:
    """What the graph compiler makes of one code object: an error, a rewritten code, the
    ``self.name(...)`` calls (name, number of arguments) to check against classmethods."""

    def __init__(self, error=None, code=None, self_calls=()):
        self.error, self.code, self.self_calls = error, code, self_calls


def _function_node(fn):
    code = fn.__code__
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    except (OSError, TypeError, SyntaxError, IndentationError):
        return None
    node = tree.body[0] if tree.body else None
    if not isinstance(node, ast.FunctionDef) or node.name != code.co_name:
        return None
    ast.increment_lineno(tree, code.co_firstlineno - 1)
    return node


_STATEMENTS = ("Try", "TryStar", "Delete", "Import", "ImportFrom", "Match", "Nonlocal", "AsyncFor", "AsyncWith")
_EXPRESSIONS = ("NamedExpr", "Set", "SetComp", "Yield", "YieldFrom", "Await")
_SEE = "\nMore details please refer to syntax support at https://www.mindspore.cn"


def _refusal(node):
    """MindSpore's error for the first construct (in source order) its graph parser refuses."""
    for sub in sorted((s for s in ast.walk(node) if hasattr(s, "lineno") and s is not node),
                      key=lambda s: (s.lineno, s.col_offset)):
        kind = type(sub).__name__
        if kind in ("For", "While") and sub.orelse:
            return RuntimeError(f"The '{kind.lower()}...else...' statement is not supported now.")
        if kind in _STATEMENTS or kind in _EXPRESSIONS:
            what = "statement" if kind in _STATEMENTS else "expression"
            return RuntimeError(f"Unsupported {what} '{'Try' if kind == 'TryStar' else kind}'.{_SEE}")
        if isinstance(sub, (ast.ListComp, ast.GeneratorExp, ast.DictComp)) and len(sub.generators) > 1:
            return TypeError(f"The 'generators' supports 1 'comprehension' in "
                             f"{'DictComp' if kind == 'DictComp' else 'ListComp'}/GeneratorExp, "
                             f"but got {len(sub.generators)} comprehensions.")
    return None


_VALUE_FIRST = {"Assign": ("value", "targets"), "AnnAssign": ("value", "target"), "NamedExpr": ("value", "target"),
                "For": ("iter", "target", "body", "orelse"), "AsyncFor": ("iter", "target", "body", "orelse"),
                "ListComp": ("generators", "elt"), "SetComp": ("generators", "elt"),
                "GeneratorExp": ("generators", "elt"), "DictComp": ("generators", "key", "value"),
                "comprehension": ("iter", "target", "ifs")}


def _names_in_order(node):
    """The Name nodes under ``node`` in the order Python evaluates them (straight-line:
    an assignment's value before its targets, a loop's iterable before its variable)."""
    if isinstance(node, ast.Name):
        yield node
        return
    fields = _VALUE_FIRST.get(type(node).__name__)
    children = ast.iter_child_nodes(node) if fields is None else (
        c for f in fields for v in [getattr(node, f)] if v is not None for c in (v if isinstance(v, list) else [v]))
    for child in children:
        yield from _names_in_order(child)


def _globals_read_first(node, code, fn_globals):
    """Local names (not arguments) that the function reads before it assigns them and that
    name a global: MindSpore's graph starts them from the global's value."""
    n_args = code.co_argcount + code.co_kwonlyargcount + bool(code.co_flags & inspect.CO_VARARGS) + \
        bool(code.co_flags & inspect.CO_VARKEYWORDS)
    bound_in_comprehensions = {t.id for sub in ast.walk(node) if isinstance(sub, ast.comprehension)
                               for t in ast.walk(sub.target) if isinstance(t, ast.Name)}
    candidates = (set(code.co_varnames[n_args:]) & set(fn_globals)) - bound_in_comprehensions
    reads_first, seen = [], set()
    for sub in node.body:
        for name in _names_in_order(sub):
            if name.id in candidates and name.id not in seen:
                seen.add(name.id)
                if isinstance(name.ctx, ast.Load) or name in _aug_targets(sub):
                    reads_first.append(name.id)
    return sorted(reads_first)


def _aug_targets(node):
    return {sub.target for sub in ast.walk(node) if isinstance(sub, ast.AugAssign)}


_DICT_METHODS = {"has_key": 1, "keys": 0, "values": 0, "items": 0}   # name -> number of arguments


class _DictMethods(ast.NodeTransformer):
    found = False

    def visit_Call(self, node):
        self.generic_visit(node)
        f = node.func
        if isinstance(f, ast.Attribute) and _DICT_METHODS.get(f.attr) == len(node.args) and not node.keywords \
                and not any(isinstance(a, ast.Starred) for a in node.args):
            self.found = True
            return ast.copy_location(ast.Call(ast.Name(_DICT, ast.Load()), [f.value, ast.Constant(f.attr)] + node.args,
                                              []), node)
        return node


def _self_calls(node):
    args = node.args.posonlyargs + node.args.args
    if not args:
        return ()
    me = args[0].arg
    return tuple((sub.func.attr, len(sub.args)) for sub in ast.walk(node)
                 if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute)
                 and isinstance(sub.func.value, ast.Name) and sub.func.value.id == me
                 and not any(isinstance(a, ast.Starred) for a in sub.args))


_COND_COMMENT = re.compile(r"#\s*@jit.cond:\s*(True|False)\s*$")


class _CondComments(ast.NodeTransformer):
    """``if test:  # @jit.cond: True`` (or ``False``): MindSpore's parser takes the comment's value as the
    condition (the test is not evaluated)."""
    found = False

    def __init__(self, filename):
        self.filename = filename

    def visit_If(self, node):
        self.generic_visit(node)
        hit = _COND_COMMENT.search(linecache.getline(self.filename, node.lineno).rstrip("\n"))
        if hit:
            self.found = True
            node.test = ast.copy_location(ast.Constant(hit.group(1) == "True"), node.test)
        return node


def _rewritten(node, code, reads):
    """The function's code with its dict methods, scalar arithmetic, ``@jit.cond`` comments and the
    globals it reads first made explicit."""
    keys, scalars, calls, conds = _DictMethods(), _ScalarArithmetic(), _Calls(), _CondComments(code.co_filename)
    node = calls.visit(scalars.visit(keys.visit(conds.visit(node))))
    if not keys.found and not scalars.found and not calls.found and not conds.found and not reads:
        return None
    prologue = [ast.Assign([ast.Name(n, ast.Store())],
                           ast.Subscript(ast.Name(_GLOBALS, ast.Load()), ast.Constant(n), ast.Load()))
                for n in reads]
    for p in prologue:
        ast.copy_location(p, node.body[0])
        for sub in ast.walk(p):
            ast.copy_location(sub, node.body[0])
    node.body[:0] = prologue
    node.decorator_list = []
    params = [ast.arg(n) for n in code.co_freevars + (_GLOBALS, _DICT, _SCALAR, _CALL)]
    factory = ast.FunctionDef("__msjax_factory__", ast.arguments([], params, None, [], [], None, []),
                              [node, ast.Return(ast.Name(node.name, ast.Load()))], [])
    module = ast.fix_missing_locations(ast.Module([factory], []))
    outer = compile(module, code.co_filename, "exec")
    fac = next(c for c in outer.co_consts if isinstance(c, types.CodeType))
    return next(c for c in fac.co_consts if isinstance(c, types.CodeType) and c.co_name == code.co_name)


def _read(fn):
    code = fn.__code__
    node = _function_node(fn)
    if node is None:
        return _Reading()
    error = _refusal(node)
    if error is not None:
        return _Reading(error=error)
    calls = _self_calls(node)
    try:
        new = _rewritten(node, code, _globals_read_first(node, code, fn.__globals__))
    except (SyntaxError, ValueError, TypeError, StopIteration):   # a source this reading cannot rebuild
        new = None
    return _Reading(code=new, self_calls=calls)


def _check_classmethods(reading, args):
    if not args or not reading.self_calls:
        return
    cls = type(args[0])
    for name, n in reading.self_calls:
        member = inspect.getattr_static(cls, name, None)
        if isinstance(member, classmethod) and hasattr(member.__func__, "__code__"):
            n_params = member.__func__.__code__.co_argcount
            raise TypeError(f"The parameters number of the function is {n_params}, but the number of provided "
                            f"arguments is {n}.")


def graph_function(fn, args=()):
    """``fn`` as MindSpore's graph compiler reads it, called with ``args``: ``fn`` itself, a
    recompiled ``fn`` (graph-only extensions of Python), or MindSpore's error for what it refuses."""
    if inspect.ismethod(fn):     # ms.jit(net.construct): read the function, bind it again
        read = graph_function(fn.__func__, (fn.__self__,) + tuple(args))
        return fn if read is fn.__func__ else types.MethodType(read, fn.__self__)
    code = getattr(fn, "__code__", None)
    if not isinstance(fn, types.FunctionType) or (fn.__module__ or "").split(".")[0] == "msjax" or \
            inspect.unwrap(fn) is not fn:
        return fn
    reading = _CACHE.get(code)
    if reading is None:
        reading = _CACHE[code] = _read(fn)
    if reading.error is not None:
        raise type(reading.error)(*reading.error.args)
    _check_classmethods(reading, args)
    if reading.code is None:
        return fn
    cells = dict(zip(code.co_freevars, fn.__closure__ or ()))
    cells[_GLOBALS], cells[_DICT] = types.CellType(fn.__globals__), types.CellType(_dict_method)
    cells[_SCALAR], cells[_CALL] = types.CellType(_scalar_op), types.CellType(_graph_callee)
    new = types.FunctionType(reading.code, fn.__globals__, fn.__name__, fn.__defaults__,
                             tuple(cells[n] for n in reading.code.co_freevars))
    new.__kwdefaults__, new.__qualname__, new.__module__ = fn.__kwdefaults__, fn.__qualname__, fn.__module__
    new.__dict__.update(fn.__dict__)
    return new


provided.provide("graph_function", graph_function)
