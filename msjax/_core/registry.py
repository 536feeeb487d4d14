"""The one op registry.

Every op is written once, as a function on Tensors (``@op('matmul', ...)``), and
exposed from here three ways: in the functional namespace (``ops.matmul``), as a
Primitive class (``ops.MatMul()``, whose constructor arguments become keyword
arguments of the function) and as a Tensor method. The coverage report reads the
same table.
"""
from __future__ import annotations

import dataclasses
import inspect
from typing import Callable

from . import profiling, provided

__all__ = ["OpDef", "OPS", "op", "Primitive", "primitive_class", "functional_names", "method_table"]


@dataclasses.dataclass
class OpDef:
    name: str
    fn: Callable
    methods: tuple = ()           # Tensor method names bound to fn
    primitive: str | None = None  # Primitive class name, e.g. 'MatMul'
    prim_args: tuple = ()         # constructor arguments of the Primitive, in order
    family: str = ""
    prim_check: Callable | None = None  # validates the constructor arguments (MindSpore checks them there)


OPS: dict[str, OpDef] = {}
_PROFILING = profiling._STATE   # read on every Primitive call: a Profiler is recording when "active" > 0
_PRIMITIVES: dict[str, type] = {}


def op(name=None, *, methods=(), primitive=None, prim_args=(), family="", prim_check=None):
    """Register ``fn`` as the implementation of MindSpore op ``name``; ``prim_check(**attrs)``, if
    given, runs when the Primitive is constructed (so its argument errors come where MindSpore's do)."""
    methods = (methods,) if isinstance(methods, str) else methods

    def deco(fn):
        opname = name or fn.__name__
        if opname in OPS:
            raise ValueError(f"op {opname!r} is registered twice")
        OPS[opname] = OpDef(opname, fn, tuple(methods), primitive, tuple(prim_args), family, prim_check)
        fn.__ms_op__ = opname
        return fn

    return deco


class Primitive:
    """Base of MindSpore's Primitive classes (``ops.MatMul()``...).

    Unlike MindSpore, a Primitive here is a thin callable over the functional op:
    constructor arguments are stored (``self.transpose_a``...) and passed on.
    """

    _fn: Callable = None
    _arg_names: tuple = ()
    _check: Callable = None
    _in_strategy = _out_strategy = None

    def __init__(self, *args, **kwargs):
        if type(self)._fn is None and not self._arg_names:   # a user's Primitive: MindSpore's __init__(self, name)
            args, kwargs = (), {k: v for k, v in kwargs.items() if k != "name"}
        if len(args) > len(self._arg_names):
            raise TypeError(f"{type(self).__name__}() takes at most {len(self._arg_names)} arguments")
        attrs = dict(zip(self._arg_names, args))
        for k, v in kwargs.items():
            if k not in self._arg_names:
                raise TypeError(f"{type(self).__name__}() got an unexpected keyword argument '{k}'")
            attrs[k] = v
        if type(self)._check is not None:
            type(self)._check(**attrs)
        self._attrs, self.name = attrs, type(self).__name__
        for k, v in attrs.items():
            setattr(self, k, v)

    def __call__(self, *args, **kwargs):
        attrs = self._attrs
        if kwargs:      # inputs by name (``ops.ReduceSum(True)(x, axis=2)``), as MindSpore's __call__
            ps = inspect.signature(type(self)._fn).parameters
            bad = [k for k in kwargs if k in attrs or ps.get(k) is None or ps[k].kind == ps[k].VAR_POSITIONAL]
            if bad and not any(p.kind == p.VAR_KEYWORD for p in ps.values()):   # else the op checks them
                raise TypeError(f"{self.name}.__call__() got an unexpected keyword argument '{bad[0]}'")
            attrs = dict(attrs, **kwargs)
        if self._in_strategy is not None and (apply := provided.lent("apply_shard")) is not None:
            return apply(self.name, self._in_strategy, self._out_strategy, type(self)._fn, args, attrs)
        if _PROFILING["active"]:
            with profiling.scope(self.name):
                return type(self)._fn(*args, **attrs)
        return type(self)._fn(*args, **attrs) if attrs else type(self)._fn(*args)

    def shard(self, in_strategy=None, out_strategy=None):
        """Strategies (tuples or Layouts) that take effect in a semi-auto/auto-parallel step."""
        provided.need("check_shard")(self.name, in_strategy, out_strategy)
        self._in_strategy, self._out_strategy = in_strategy, out_strategy
        return self

    def add_prim_attr(self, name, value):
        setattr(self, name, value)
        return self

    def set_device(self, device_target):     # recorded only: XLA places every op of a step
        return self.add_prim_attr("primitive_target", device_target)

    def __repr__(self):
        return f"Prim[{self.name}]"


def primitive_class(d: OpDef) -> type:
    if d.primitive not in _PRIMITIVES:
        _PRIMITIVES[d.primitive] = type(d.primitive, (Primitive,), {
            "_fn": staticmethod(d.fn), "_arg_names": d.prim_args,
            "_check": staticmethod(d.prim_check) if d.prim_check else None,
            "__doc__": f"Primitive form of ``ops.{d.name}``.", "__module__": "msjax.ops"})
    return _PRIMITIVES[d.primitive]


def functional_names():
    return {n: d.fn for n, d in OPS.items()}


def method_table():
    return {m: d.fn for d in OPS.values() for m in d.methods}
