"""Float16 products that MindSpore's CPU runtime hands on unrounded, in a loaded MindIR graph.

MindSpore 2.10's CPU runtime runs a float16 ``MatMul``, ``BatchMatMul``, ``BiasAdd``, ``Tanh`` or ``GeLU`` as a
float32 kernel between ``Cast`` nodes it inserts, and removes a ``Cast`` pair float32 -> float16 ->
float32 between two such kernels. So in ``adj @ (x @ w)`` (the zoo's GCN) the outer ``MatMul`` reads
the inner product in float32, and ``tanh(x @ w.T + b)`` (LPCNet's ``nn.Dense`` layers: ``MatMul``,
``BiasAdd``, ``Tanh``) rounds once. Every other op (``Add``, ``Mul``, ``ReLU``, ``Transpose``, ``ExpandDims``,
``Reshape``, a ``Conv2D`` feeding a ``MatMul``, an explicit ``Cast`` to float16) reads and writes
float16.
Measured with MindSpore 2.10 on small graphs (``tests/golden/record_float32_edges.py``; ``GeLU`` feeding
``MatMul`` in the census's float16 BERT: ``tests/golden/record_mindir_f32_chain.py``).

``float32_edges(order)`` gives each such node a float32 twin that the next such node reads; the
node itself (what every other op and the graph's outputs read) is the twin rounded to float16.
MindSpore's PyNative, and msjax's ops in both modes, round every float16 op's output: msjax's
MINDIR writer puts an ``Identity`` (a float16 kernel) between two such nodes so that MindSpore's
runtime keeps that rounding (``_mindir_ops.Emitter.op``).
"""
from __future__ import annotations

from ..._core.tensor import Tensor
from ...common import dtype as mstype

__all__ = []

WIDE = frozenset({"MatMul", "BatchMatMul", "BiasAdd", "Tanh", "GeLU"})
_TWIN = "/float32"
_FLOAT_TYPES = (mstype.float16, mstype.float32, mstype.float64, mstype.bfloat16)


class _Wide:
    """A float16 value held unrounded in float32 (a twin's output)."""
    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


def _floats(args):
    return [a for a in args if isinstance(a, _Wide) or (isinstance(a, Tensor) and a.dtype in _FLOAT_TYPES)]


def _widened(kernel):
    def run(args, attrs):
        floats = _floats(args)
        if not floats or any(isinstance(a, Tensor) and a.dtype != mstype.float16 for a in floats):
            return kernel([_narrowed([a], None) for a in args], attrs)     # not all float16: no twin
        ids = {id(a) for a in floats}
        args = [a.value if isinstance(a, _Wide) else a.astype(mstype.float32) if id(a) in ids else a
                for a in args]
        return _Wide(kernel(args, attrs))
    return run


def _narrowed(args, attrs):
    v = args[0]
    return v.value.astype(mstype.float16) if isinstance(v, _Wide) else v


def float32_edges(order):
    """``order`` (the reader's nodes) with a float32 twin for each ``WIDE`` node, read by the ``WIDE``
    nodes after it; the node keeps its name and rounds its twin."""
    twins, out = {}, []
    for n in order:
        if n.op in WIDE:
            twin = type(n)(n.name + _TWIN, n.op, _widened(n.kernel), [twins.get(i, i) for i in n.inputs], n.attrs)
            out += [twin, type(n)(n.name, n.op, _narrowed, [twin.name], {})]
            twins[n.name] = twin.name
        else:
            out.append(n)
    return out
