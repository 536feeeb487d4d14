"""``mindspore.mint.nn.layer.padding``: constant, zero, reflection and replication padding of the last
1, 2 or 3 dimensions (``mint.nn.functional.pad``)."""
from __future__ import annotations

from ....nn.cell import Cell
from .. import functional as F


class _PadNd(Cell):
    _nd = 1
    _mode = "constant"

    def __init__(self, padding, value=None):
        super().__init__()
        n = 2 * self._nd
        if isinstance(padding, int) and not isinstance(padding, bool):
            padding = (padding,) * n
        if not isinstance(padding, (tuple, list)) or len(padding) != n:
            raise ValueError(f"For '{type(self).__name__}', 'padding' must be an int or a tuple of {n} ints, but got "
                             f"{padding}.")
        self.padding = tuple(padding)
        self.value = value

    def construct(self, input):
        return F.pad(input, self.padding, self._mode, self.value if self._mode == "constant" else None)


def _pad_cls(name, nd, mode):
    doc = f"``mint.nn.{name}(padding{', value' if name.startswith('Constant') else ''})``: ``{mode}`` padding " \
          f"of the last {nd} dimension(s)."
    return type(name, (_PadNd,), {"_nd": nd, "_mode": mode, "__module__": __name__, "__doc__": doc})


ConstantPad1d, ConstantPad2d, ConstantPad3d = (_pad_cls(f"ConstantPad{n}d", n, "constant") for n in (1, 2, 3))
ReflectionPad1d, ReflectionPad2d, ReflectionPad3d = (_pad_cls(f"ReflectionPad{n}d", n, "reflect") for n in (1, 2, 3))
ReplicationPad1d, ReplicationPad2d, ReplicationPad3d = (_pad_cls(f"ReplicationPad{n}d", n, "replicate")
                                                        for n in (1, 2, 3))


class _ZeroPadNd(_PadNd):
    def __init__(self, padding):
        super().__init__(padding, 0)


ZeroPad1d, ZeroPad2d, ZeroPad3d = (type(f"ZeroPad{n}d", (_ZeroPadNd,), {
    "_nd": n, "__module__": __name__, "__doc__": f"``mint.nn.ZeroPad{n}d(padding)``: zeros around the last {n} "
                                                 f"dimension(s)."}) for n in (1, 2, 3))


__all__ = ["ConstantPad1d", "ConstantPad2d", "ConstantPad3d", "ZeroPad1d", "ZeroPad2d", "ZeroPad3d", "ReflectionPad1d",
           "ReflectionPad2d", "ReflectionPad3d", "ReplicationPad1d", "ReplicationPad2d", "ReplicationPad3d"]
