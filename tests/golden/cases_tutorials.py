"""Golden cases from running MindSpore's English tutorials (docs repo, ``tutorials/source_en``)
through msjax: the behaviours where msjax differed from MindSpore 2.10, each reduced to a few
lines (the tutorials themselves stay outside the repository)."""
import numpy as np


def case_tensor_one_element_to_scalar(ms):
    """static_graph: ``int(mindspore.tensor([10]))``; one-element Tensors of any rank convert
    to Python numbers and index lists, larger ones raise ValueError."""
    T = ms.Tensor
    out = []
    for f in (int, float, bool, complex):
        for t in (T([10]), T([[2.5]]), T(3), T([1, 2])):
            try:
                out.append(repr(f(t)))
            except ValueError as e:
                out.append(f"ValueError: {e}".splitlines()[0])
    for t in (T([1]), T(1), T([[1]]), T([1.0])):
        try:
            out.append(repr(([5, 6][t], [5, 6, 7][t:])))
        except ValueError as e:
            out.append(f"ValueError: {e}".splitlines()[0])
    return out


def all_cases():
    return {k[len("case_"):]: v for k, v in sorted(globals().items()) if k.startswith("case_") and callable(v)}
