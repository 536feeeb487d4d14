"""``mindspore.numpy``: MindSpore's NumPy-compatible namespace on ``jax.numpy``.

Laid out as MindSpore's (``array_creations``, ``array_ops``, ``math_ops``, ``logic_ops``,
``dtypes``, ``fft``); all 273 public names of MindSpore 2.10 (recorded in
``tests/fixtures/numpy_names.json``). Functions take Tensors, Python numbers and (nested)
lists, and return Tensors; Python ints and floats are Int32 and Float32 (MindSpore's 32-bit
defaults, ``int_``/``float_``); numpy arrays are rejected as in MindSpore. They work inside
``ms.jit``/``ms.grad`` except where the result's shape depends on the values (``unique``,
``argwhere``, ``intersect1d``, ``setdiff1d``, ``bincount`` without ``length``).

Differences from MindSpore: ``empty``/``empty_like`` are zero-filled; ``rand``/``randn``/
``randint`` draw from msjax's key (shapes, dtypes, ranges match, values do not).
"""
from __future__ import absolute_import

from .array_ops import (transpose, expand_dims, squeeze, rollaxis, swapaxes, reshape,  # noqa: F401
                        ravel, concatenate, where, atleast_1d, atleast_2d, atleast_3d,
                        column_stack, hstack, dstack, vstack, stack, unique, moveaxis,
                        tile, broadcast_to, broadcast_arrays, roll, append, split, vsplit,
                        flip, flipud, fliplr, hsplit, dsplit, take_along_axis, take, repeat,
                        rot90, select, array_split, choose, size, array_str, apply_along_axis,
                        piecewise, unravel_index, apply_over_axes, argwhere, intersect1d)
from .array_creations import copy_ as copy  # noqa: F401
from .array_creations import (array, asarray, asfarray, ones, zeros, full, randn, rand, randint,  # noqa: F401
                              linspace, logspace, eye, identity, empty, empty_like, arange,
                              ones_like, zeros_like, full_like, diagonal, tril, triu,
                              tri, trace, meshgrid, mgrid, ogrid, diagflat,
                              diag, diag_indices, ix_, indices, geomspace, vander, hamming,
                              hanning, bartlett, blackman, triu_indices, tril_indices,
                              triu_indices_from, tril_indices_from, histogram_bin_edges, pad)
from .dtypes import (int_, int8, int16, int32, int64, uint, uint8, uint16,  # noqa: F401
                     uint32, uint64, float_, float16, float32, float64, bool_, inf, nan, pi,
                     numeric_types, PINF, NINF)
from .math_ops import (mean, inner, add, subtract, multiply, divide, true_divide, power,  # noqa: F401
                       dot, outer, tensordot, absolute, std, var, average, minimum,
                       matmul, square, sqrt, reciprocal, log, maximum, heaviside, amax, amin,
                       hypot, float_power, floor, ptp, deg2rad, rad2deg, count_nonzero,
                       positive, negative, clip, floor_divide, remainder, fix, fmod, trunc,
                       exp, expm1, exp2, kron, promote_types, divmod_, diff, cbrt,
                       cross, ceil, trapz, gcd, lcm, convolve, log1p, logaddexp, log2,
                       logaddexp2, log10, ediff1d, nansum, nanmean, nanvar, nanstd, cumsum, nancumsum,
                       sin, cos, tan, arcsin, arccos, arctan, sinh, cosh, tanh, arcsinh, arccosh,
                       arctanh, arctan2, cov, multi_dot, nanmax, nanmin, argmax, argmin, searchsorted,
                       interp, sum_, corrcoef, gradient, sign, copysign, digitize, bincount, histogram,
                       histogramdd, histogram2d, matrix_power, around, polyadd, polysub, polyval,
                       polyder, polymul, polyint, result_type, unwrap, cumprod, ravel_multi_index,
                       norm, bitwise_and, bitwise_or, bitwise_xor, invert, rint, correlate, radians)
from .logic_ops import (not_equal, less_equal, less, greater_equal, greater, equal, isfinite,  # noqa: F401
                        isnan, isinf, isposinf, isneginf, isscalar, logical_and, logical_not,
                        logical_or, logical_xor, in1d, isin, isclose, signbit, sometrue,
                        array_equal, array_equiv, setdiff1d)
from . import fft  # noqa: F401
from . import array_creations, array_ops, dtypes, logic_ops, math_ops  # noqa: F401,E402

mod = remainder
fabs = absolute
round = around  # noqa: A001
divmod = divmod_  # noqa: A001
del divmod_
abs = absolute  # noqa: A001
max = amax  # noqa: A001
min = amin  # noqa: A001
sum = sum_  # noqa: A001
del sum_
bitwise_not = invert

array_ops_module = ['transpose', 'expand_dims', 'squeeze', 'rollaxis', 'swapaxes', 'reshape',
                    'ravel', 'concatenate', 'where', 'atleast_1d', 'atleast_2d', 'atleast_3d',
                    'column_stack', 'hstack', 'dstack', 'vstack', 'stack', 'unique', 'moveaxis',
                    'tile', 'broadcast_to', 'broadcast_arrays', 'append', 'roll', 'split', 'vsplit',
                    'flip', 'flipud', 'fliplr', 'hsplit', 'dsplit', 'take_along_axis', 'take',
                    'repeat', 'rot90', 'select', 'array_split', 'choose', 'size', 'array_str',
                    'apply_along_axis', 'piecewise', 'unravel_index', 'apply_over_axes', 'argwhere', 'intersect1d']

array_creations_module = ['array', 'asarray', 'asfarray', 'ones', 'zeros', 'full', 'randn', 'rand',
                          'randint', 'arange', 'linspace', 'logspace', 'eye', 'identity', 'empty',
                          'empty_like', 'ones_like', 'zeros_like', 'full_like', 'diagonal', 'tril',
                          'triu', 'tri', 'trace', 'meshgrid', 'mgrid', 'ogrid', 'diagflat', 'diag',
                          'diag_indices', 'ix_', 'indices', 'geomspace', 'vander', 'hamming',
                          'hanning', 'bartlett', 'blackman', 'triu_indices', 'tril_indices',
                          'triu_indices_from', 'tril_indices_from', 'histogram_bin_edges', 'pad']

math_module = ['mean', 'inner', 'add', 'subtract', 'multiply', 'divide', 'true_divide', 'power',
               'dot', 'outer', 'tensordot', 'absolute', 'std', 'var', 'average', 'not_equal',
               'minimum', 'matmul', 'square', 'sqrt', 'reciprocal', 'log', 'maximum',
               'heaviside', 'amax', 'amin', 'hypot', 'float_power', 'floor', 'ptp', 'deg2rad',
               'rad2deg', 'count_nonzero', 'positive', 'negative', 'clip', 'floor_divide',
               'remainder', 'mod', 'fix', 'fmod', 'trunc', 'exp', 'expm1', 'fabs', 'exp2', 'kron',
               'promote_types', 'divmod', 'diff', 'cbrt', 'cross', 'ceil', 'trapz',
               'abs', 'max', 'min', 'gcd', 'lcm', 'log1p', 'logaddexp', 'log2', 'logaddexp2', 'log10',
               'convolve', 'ediff1d', 'nansum', 'nanmean', 'nanvar', 'nanstd', 'cumsum',
               'nancumsum', 'sin', 'cos', 'tan', 'arcsin', 'arccos', 'arctan', 'sinh', 'cosh', 'tanh',
               'arcsinh', 'arccosh', 'arctanh', 'arctan2', 'cov', 'multi_dot', 'nanmax', 'nanmin',
               'argmax', 'argmin', 'searchsorted', 'interp', 'sum', 'corrcoef', 'gradient', 'sign',
               'copysign', 'radians', 'digitize', 'bincount', 'histogram', 'histogramdd', 'histogram2d',
               'polyadd', 'polysub', 'polyval', 'polyder', 'polymul', 'polyint', 'result_type',
               'unwrap', 'cumprod', 'ravel_multi_index', 'norm', 'bitwise_and', 'bitwise_or',
               'bitwise_xor', 'invert', 'bitwise_not', 'rint', "correlate"]

logic_module = ['not_equal', 'less_equal', 'less', 'greater_equal', 'greater', 'equal', 'isfinite',
                'isnan', 'isinf', 'isposinf', 'isneginf', 'isscalar', 'logical_and', 'logical_not',
                'logical_or', 'logical_xor', 'in1d', 'isin', 'isclose', 'signbit', 'sometrue',
                'array_equal', 'array_equiv', 'setdiff1d']

__all__ = sorted(array_ops_module + array_creations_module + math_module + logic_module + numeric_types)
