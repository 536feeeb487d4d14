"""Cells whose ``construct`` is one ``mint.nn.functional`` call with stored keywords (the
activations, adaptive pools, ``Flatten``, ``Unfold``...), made by ``_act``; and the int-or-tuple
argument check the conv layers share."""
from __future__ import annotations

import sys

from ....nn.cell import Cell


def _tuple(name, value, n, cls_name):
    if isinstance(value, int) and not isinstance(value, bool):
        return (value,) * n
    if isinstance(value, (tuple, list)) and len(value) == n and all(isinstance(v, int) for v in value):
        return tuple(value)
    raise TypeError(f"For '{cls_name}', '{name}' must be an int or a tuple of {n} ints, but got {value}.")


class _Elementwise(Cell):
    """A Cell whose ``construct`` is one ``mint.nn.functional`` call with the stored keywords."""

    _fn = None
    _keys = ()
    _shown = ()

    def __init__(self, *args, **kwargs):
        super().__init__()
        names = type(self)._keys
        if len(args) > len(names):
            raise TypeError(f"{type(self).__name__}() takes at most {len(names)} arguments.")
        vals = dict(zip((k for k, _ in names), args))
        for k, v in kwargs.items():
            if k not in dict(names):
                raise TypeError(f"{type(self).__name__}() got an unexpected keyword argument '{k}'")
            vals[k] = v
        self._kw = {k: vals.get(k, d) for k, d in names}
        for k, v in self._kw.items():
            setattr(self, k, v)

    def construct(self, input):
        return type(self)._fn(input, **self._kw)

    def extend_repr(self):
        return ", ".join(f"{k}={self._kw[k]}" for k in self._shown)


def _act(name, fn, keys=(), doc="", shown=()):
    """A ``_Elementwise`` class calling ``fn`` with the keywords ``keys`` ((name, default) pairs); its
    repr shows the keywords in ``shown`` (``AdaptiveAvgPool2d(output_size=2)``), as MindSpore's."""
    module = sys._getframe(1).f_globals["__name__"]   # the layer module that defines the class
    return type(name, (_Elementwise,), {"_fn": staticmethod(fn), "_keys": keys, "__module__": module,
                                        "_shown": tuple(shown),
                                        "__doc__": doc or f"``mint.nn.{name}``: ``mint.nn.functional.{fn.__name__}``."})
