"""Make ``import mindspore`` (and ``mindspore.x.y``) resolve to msjax.

``install()`` puts a meta-path finder in front that maps every ``mindspore``
module name to the ``msjax`` module of the same dotted path and registers the
alias in ``sys.modules``, so ``from mindspore import nn``,
``from mindspore.ops.functional import stop_gradient`` and
``from mindspore import dtype as mstype`` all work.
"""
from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys

# MindSpore module paths whose msjax home differs.
_RENAMES = {
    "mindspore.common.tensor": "msjax._core.tensor",
    "mindspore.common.parameter": "msjax._core.parameter",
    "mindspore.context": "msjax._core.context",
    "mindspore.ops.function": "msjax.ops.functional",
    "mindspore.ops.function.grad": "msjax.ops.functional",
    "mindspore.nn.layer": "msjax.nn",
    "mindspore.nn.loss": "msjax.nn",
}


class _Loader(importlib.abc.Loader):
    def __init__(self, target):
        self.target = target

    def create_module(self, spec):
        return importlib.import_module(self.target)

    def exec_module(self, module):
        return None


class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path=None, target=None):
        if fullname != "mindspore" and not fullname.startswith("mindspore."):
            return None
        real = _RENAMES.get(fullname, "msjax" + fullname[len("mindspore"):])
        if importlib.util.find_spec(real) is None:
            return None
        spec = importlib.util.spec_from_loader(fullname, _Loader(real))
        return spec


def install():
    if not any(isinstance(f, _Finder) for f in sys.meta_path):
        sys.meta_path.insert(0, _Finder())
