"""``mindspore._extends.parse.standard_method``: MindSpore's Tensor methods as functions of the Tensor
(``standard_method.take(x, indices)`` is ``x.take(indices)``), the names its graph compiler resolves
``x.take(...)`` to; here each calls msjax's Tensor method of that name. ``tensor_bool(x)``: a Python
bool for a constant one-element Tensor, a Bool Tensor for a traced one (MindSpore's condition value).
``list_append``/``list_insert``: the graph values of ``list.append``/``list.insert`` (new lists).
Names MindSpore defines that msjax's Tensor lacks are absent."""
from __future__ import annotations

import inspect

import jax

from ..._core.tensor import Tensor
from ...ops._impl.sequence_ops import ListAppend, ListInsert

# MindSpore 2.10's standard_method functions that are Tensor methods of the same name.
_NAMES = """
    index_add_ mean ndimension prod addcdiv addcmul angle atan2 bincount H histc geqrf slogdet cauchy
    log_normal chunk tril astype minimum multinomial tile short transpose T reshape reshape_as reverse
    reverse_sequence ravel flatten scatter slice_scatter select_scatter swapaxes swapdims squeeze unbind
    argmax argmin argmax_with_value argmin_with_value median msort mm mT nan_to_num cumsum cummin cummax
    index_fill index_select copy copy_ max min pow put_ log log10 log2 logaddexp logaddexp2 logcumsumexp
    logsumexp roll rot90 rad2deg deg2rad dot copysign numel permute positive remainder unique_consecutive
    unique_with_pad resize det diagonal diagonal_scatter digamma lgamma i0 isclose isneginf isposinf isreal
    flip fliplr flipud float_power fmax fmin fmod is_floating_point is_signed is_complex inv inverse invert
    trace take type_as choose searchsorted fill fills fill_diagonal ptp clamp clamp_ clip var std
    gather_elements sum sum_to_size nansum nanmean nanmedian repeat repeat_interleave hardshrink heaviside
    hypot softmax soft_shrink matrix_determinant log_matrix_determinant item itemset floor floor_divide
    broadcast_to expand_dims unsqueeze masked_fill col2im narrow to_csr to_coo tolist select view view_as
    bitwise_and bitwise_or bitwise_xor bitwise_left_shift bitwise_right_shift exp real rsqrt reciprocal sqrt
    square sub t tan tanh tanh_ cosh ger gt ge unsorted_segment_min unsorted_segment_max unsorted_segment_prod
    negative nonzero new_zeros new_ones diag diagflat masked_select inplace_update random_categorical matmul
    inner xdivy matrix_power log1p logit logdet lerp norm normal_ renorm ceil top_k topk subtract true_divide
    triu bernoulli bernoulli_ gather_nd gather split tensor_split vsplit hsplit dsplit xlogy eigvals erf erfc
    isfinite sin sinc cos count_nonzero cov acos asin acosh add addr addbmm addmm addmm_ addmv adjoint asinh
    atan atanh baddbmm bmm to to_ delete_ data cholesky cholesky_inverse cholesky_solve conj cross erfinv
    erfinv_ less_equal lcm ldexp fold unfold expand cumprod multiply div eq equal expm1 index_add greater
    greater_equal igamma igammac isinf isnan le less logical_and logical_not logical_or logical_xor lstsq
    mvlgamma maximum mul neg ne not_equal sign sign_ signbit sgn sinh sort argsort trunc where imag diff frac
    argwhere moveaxis movedim nextafter qr ormqr amax uniform uniform_ exponential_ amin lu_solve
    masked_scatter index_put move_to index_put_ aminmax quantile nanquantile orgqr outer sigmoid register_hook
    zero_
""".split()


def _method(name):
    def function(x, *args, **kwargs):
        return getattr(x, name)(*args, **kwargs)
    function.__name__ = function.__qualname__ = name
    function.__doc__ = f"``standard_method.{name}(x, *args, **kwargs)``: ``x.{name}(*args, **kwargs)``."
    return function


def _property(name):
    def function(x):
        return getattr(x, name)
    function.__name__ = function.__qualname__ = name
    function.__doc__ = f"``standard_method.{name}(x)``: ``x.{name}``."
    return function


def tensor_bool(x):
    """``tensor_bool(x)``: ``bool(x)`` for a constant Tensor (one element), ``x`` cast to Bool when traced."""
    if isinstance(x, Tensor) and isinstance(x._data, jax.core.Tracer):
        return x.astype("bool")
    return bool(x)


def list_append(self_, list_item):
    """``list_append(lst, item)``: a new list, ``lst`` followed by ``item`` (MindSpore's graph value of
    ``lst.append(item)``; ``lst`` is not changed)."""
    return ListAppend()(self_, list_item)


def list_insert(self_, index, obj):
    """``list_insert(lst, index, obj)``: a new list, ``lst`` with ``obj`` inserted at ``index``
    (MindSpore's graph value of ``lst.insert(index, obj)``; ``lst`` is not changed)."""
    return ListInsert()(self_, index, obj)


for _name in _NAMES:
    if hasattr(Tensor, _name):
        _kind = _property if isinstance(inspect.getattr_static(Tensor, _name), property) else _method
        globals()[_name] = _kind(_name)
__all__ = [n for n in _NAMES if n in globals()] + ["tensor_bool", "list_append", "list_insert"]
