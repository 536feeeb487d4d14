"""Golden cases for what MindSpore's own system tests of ``nn`` (``tests/st/nn``) exercise and msjax
lacked or got wrong: recorded from MindSpore 2.10 with
``record_mindspore.py --suite st_nn --mode pynative --only NAME --merge``.

Every ``case_<name>(ms)`` uses only the module passed in.
"""
import numpy as np

try:  # a package module under pytest, a top-level one when record_mindspore.py records it
    from .cases_st_ops import _f32, _raised  # noqa: F401
except ImportError:
    from cases_st_ops import _f32, _raised  # noqa: F401


def all_cases():
    return {k[len("case_"):]: v for k, v in sorted(globals().items()) if k.startswith("case_") and callable(v)}


def case_ctc_loss_targets_outside_classes(ms):
    """``nn.CTCLoss``/``ops.ctc_loss`` with target labels outside [0, C) (tests/st/nn/test_ctc_loss.py:
    the second sample's labels 5, 6, 7 with C = 4): MindSpore reads the flat (T, N, C) buffer at
    ``(t * N + n) * C + label``, a neighbouring row (msjax gave NaN); a label of the blank in the targets;
    the three reductions; a negative label. (Past the buffer's end MindSpore reads whatever memory follows
    it, 0 in the st test's case, other values elsewhere; no case here reads there.)"""
    T = ms.Tensor
    t, c, n = 10, 4, 2
    x = T(np.arange(t * n * c).reshape(t, n, c), ms.float32)
    il, tl = T(np.full(n, t), ms.int32), T(np.full(n, 3), ms.int32)
    tg = T(np.arange(n * 5).reshape(n, 5), ms.int32)
    out = [ms.nn.CTCLoss(blank=0, reduction=r)(x, tg, il, tl) for r in ("none", "mean", "sum")]
    lp = ms.ops.log_softmax(T(_f32(6, 3, 5, seed=1)), -1)
    for labels in ([[1, 2, 3], [3, 7, 1], [2, 2, 1]], [[1, -2, 3], [3, 4, 1], [2, 2, 1]],
                   [[1, 2, 3], [3, 9, 1], [2, 2, 1]]):
        out.append(ms.ops.ctc_loss(lp, T(np.array(labels), ms.int32), T([6, 5, 6], ms.int32), T([3, 3, 2], ms.int32),
                                   reduction="none"))
    return out
