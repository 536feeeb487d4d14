"""Make ``import mindspore`` (and every ``mindspore.x.y``) resolve to msjax.

``install()`` puts :class:`msjax._tree.MindsporeFinder` in front of
``sys.meta_path``: ``mindspore.x.y`` is the module ``msjax.x.y`` (msjax's own, or
a re-export module built from the recorded MindSpore 2.10 module tree, see
``msjax/_tree.py``), so every spelling works: ``from mindspore import context``,
``import mindspore.common.dtype as mstype``,
``from mindspore.ops import operations as P``,
``from mindspore.nn.optim.optimizer import Optimizer``.
"""
from __future__ import annotations

from . import _tree


def install():
    _tree.install_mindspore_finder()
