"""Float16 nodes of a loaded MindIR that MindSpore 2.10's CPU runtime computes in float32 and hands on in
float32: its CPU build has no float16 ``GeLU``, ``MatMul`` or ``BiasAdd`` kernel, so it runs their float32 kernels
between inserted casts, and removes a ``Cast`` to float16 met by a ``Cast`` back to float32 between two
such kernels. A float16 ``GeLU`` feeding a ``MatMul`` thus gives the ``MatMul`` its float32 values,
unrounded, and a ``MatMul`` with several users gives a ``BiasAdd`` its float32 product (the census's float16 BERT: 42 % of its first feed-forward output 1 ulp apart without it;
``tests/test_mindir_f32_chain.py``, recorded from MindSpore 2.10 by ``tests/golden/record_mindir_f32_chain.py``).

:func:`chained` rewrites the node list: a producer in ``RAISED`` with a consumer in ``RAISED`` gets a
twin node computing its float32 value; the consumer reads the twin and computes in float32, rounding
its result to float16 once. Other users keep the producer's float16 output. Only the kinds measured
against MindSpore are listed (a ``MatMul`` or ``Conv2D`` whose one user is a ``BiasAdd`` is
``mindir_reader._fused_bias``'s ``MatMul+BiasAdd``/``Conv2D+BiasAdd`` node, the same arithmetic).
"""
from __future__ import annotations

from ..._core import dtype as mstype
from ..._core.tensor import Tensor

RAISED = ("GeLU", "MatMul", "BiasAdd", "MatMul+BiasAdd")
_TWIN = ":float32"


def _widened(args):
    low = any(isinstance(a, Tensor) and a.dtype == mstype.float16 for a in args)
    return low, [a.astype(mstype.float32) if isinstance(a, Tensor) and a.dtype == mstype.float16 else a
                 for a in args]


def _twin(kernel):
    def run(args, attrs):
        low, args = _widened(args)
        return kernel(args, attrs)          # float32 when the node was float16: not rounded
    return run


def _consumer(kernel, extra):
    def run(args, attrs):
        args, low_marks = list(args[:len(args) - extra]), args[len(args) - extra:]
        low, args = _widened(args)
        out = kernel(args, attrs)
        low = low or any(isinstance(a, Tensor) and a.dtype == mstype.float16 for a in low_marks)
        return out.astype(mstype.float16) if low and isinstance(out, Tensor) else out
    return run


def chained(order, node_type):
    """``order`` with MindSpore's float32 hand-over between ``RAISED`` nodes (``node_type``: the
    ``_Node`` class)."""
    by_name = {n.name: n for n in order}
    twins, raw, result = {}, {}, []     # raw: a consumer's own kernel and inputs, for its twin
    for n in order:
        if n.op in RAISED:
            feeds = [i for i in n.inputs if i in by_name and by_name[i].op in RAISED]
            if feeds:
                for i in feeds:
                    if i not in twins:
                        p = by_name[i]
                        kernel, inputs = raw.get(i, (p.kernel, p.inputs))
                        twins[i] = node_type(i + _TWIN, p.op, _twin(kernel), list(inputs), p.attrs)
                        result.insert(result.index(p) + 1, twins[i])
                inputs = [i + _TWIN if i in feeds else i for i in n.inputs]
                raw[n.name] = (n.kernel, inputs)
                n.kernel, n.inputs = _consumer(n.kernel, len(feeds)), inputs + feeds
        result.append(n)
    return result
