"""``math_func.diff_ext`` (MindSpore's private ``ops.function`` name of ``mint.diff``): kept apart from
``_function_ext`` because it calls only ``ops`` (``mint.diff`` imports it; ``_function_ext`` imports
``mint``)."""
from __future__ import annotations

from .._core.tensor import Tensor


def _diff_scalar(value):
    return (isinstance(value, int) and not isinstance(value, bool)) or (isinstance(value, Tensor)
                                                                        and value.shape == ())


def diff_ext(input, n=1, dim=-1, prepend=None, append=None):
    """``math_func.diff_ext`` (``mint.diff``): the ``n``-th forward difference along ``dim``, after
    ``prepend``/``append`` are joined on (``ops.diff`` takes ``n=1`` only). ``n <= 0`` returns
    ``input`` itself; bool inputs difference with ``logical_xor``. As MindSpore, float64,
    int16 and complex inputs raise ``TypeError``."""
    from .. import ops
    from .._core import dtype as mstype
    if not isinstance(input, Tensor):
        raise TypeError("For 'diff', 'input' must be a tensor")
    if not _diff_scalar(n):
        raise TypeError("For 'diff', 'n' must be a int scalar or int scalar tensor")
    if not _diff_scalar(dim):
        raise TypeError("For 'diff', 'dim' must be a scalar or scalar tensor")
    if input.dtype in (mstype.complex64, mstype.complex128, mstype.float64, mstype.int16):
        raise TypeError("For 'diff', 'input' do not support complex64/complex128/float64/int16")
    n, dim = int(n), int(dim)
    if n != 0 and (prepend is not None or append is not None):
        input = ops.cat(tuple(t for t in (prepend, input, append) if t is not None), dim)
    out_len = input.shape[dim] - 1
    result = input
    for _ in range(n):
        hi, lo = ops.narrow(result, dim, 1, out_len), ops.narrow(result, dim, 0, out_len)
        result = ops.logical_xor(hi, lo) if input.dtype == mstype.bool_ else ops.sub(hi, lo)
        if out_len == 0:
            break
        out_len -= 1
    return result
