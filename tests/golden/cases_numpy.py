"""Golden cases for ``mindspore.numpy`` (``ms.numpy``): a sample across every family
(creation, element-wise math, logic, shape/indexing, reductions, linear algebra,
random-free statistics, dtypes, FFT, errors) and the namespace inside ``ms.jit`` and
``ms.grad``. Each ``case_*`` takes the framework module ``ms`` and returns a value or raises;
only numpy is imported. Recorded by
``/tmp/ms/bin/python tests/golden/record_mindspore.py --suite numpy --mode pynative``.
"""
import numpy as np

_A = np.array([[0.5, -1.25, 2.0], [3.5, -0.75, 1.0]], np.float32)
_P = np.array([[0.25, 1.5, 2.0], [3.0, 0.5, 4.0]], np.float32)
_U = np.array([[0.1, -0.5, 0.9], [-0.3, 0.7, 0.0]], np.float32)
_B = np.array([[1.0, 2.0, -1.0], [0.5, -2.0, 3.0]], np.float32)
_I = np.array([[3, -1, 4], [1, 5, -9]], np.int32)
_M = np.array([[2.0, 1.0, 0.5], [1.0, 3.0, 0.25], [0.5, 0.25, 4.0]], np.float32)
_V = np.array([1.0, -2.0, 0.5], np.float32)
_NAN = np.array([1.0, np.nan, 3.0, -2.0], np.float32)


def _t(ms, a, dt=None):
    return ms.Tensor(np.array(a), dt)


def _np(ms):
    return ms.numpy


# (name, fn) tables keep each case one line
_CASES = {
    # ---------------- creation ----------------
    "array_int_list": lambda ms: _np(ms).array([1, 2, 3]),
    "array_float_nested": lambda ms: _np(ms).array([[1.0, 2], [3, 4]]),
    "array_bool": lambda ms: _np(ms).array([True, False]),
    "array_ndmin_dtype": lambda ms: _np(ms).array([1, 2], dtype=ms.float64, ndmin=3),
    "asarray_tensor_dtype": lambda ms: _np(ms).asarray(_t(ms, _I), ms.float32),
    "asarray_list_of_tensors": lambda ms: _np(ms).asarray([_t(ms, _V), _t(ms, _V)]),
    "asfarray_int": lambda ms: _np(ms).asfarray([1, 2, 3]),
    "ones_zeros": lambda ms: [_np(ms).ones((2, 3)), _np(ms).zeros(3, ms.int32), _np(ms).ones([2], ms.bool_)],
    "full_int_float": lambda ms: [_np(ms).full((2, 2), 7), _np(ms).full(3, 1.5), _np(ms).full((2,), True),
                                  _np(ms).full((2, 2), _t(ms, [1.0, 2.0]))],
    "like_family": lambda ms: [_np(ms).ones_like(_t(ms, _I)), _np(ms).zeros_like(_t(ms, _A), ms.int32),
                               _np(ms).full_like(_t(ms, _A), 3), _np(ms).ones_like(_t(ms, _A), shape=(3,))],
    "arange_int": lambda ms: [_np(ms).arange(5), _np(ms).arange(2, 9, 3), _np(ms).arange(5, 0, -2)],
    "arange_float": lambda ms: [_np(ms).arange(0, 1, 0.25), _np(ms).arange(3, dtype=ms.float32)],
    "linspace": lambda ms: [_np(ms).linspace(0, 1, 5), _np(ms).linspace(2, 3, 4, endpoint=False)],
    "linspace_retstep": lambda ms: _np(ms).linspace(0, 10, 5, retstep=True),
    # the step keeps the bounds' float dtype whatever ``dtype`` casts the samples to
    "linspace_retstep_int_dtype": lambda ms: _np(ms).linspace(_t(ms, [[0.5], [2.0]], ms.float32), _t(ms, [3.0, 9.5]), 4,
                                                              retstep=True, endpoint=False, dtype=ms.int16),
    # Float64 bounds: Float32 samples by default, a Float64 step
    "linspace_float64_bounds": lambda ms: _np(ms).linspace(_t(ms, [1.0, 2.0], ms.float64), _t(ms, [3.0, 5.0], ms.float64),
                                                           3, retstep=True),
    "logspace_geomspace_float64": lambda ms: [_np(ms).logspace(_t(ms, [0.0, 1.0], ms.float64), 2.0, 3),
                                              _np(ms).geomspace(_t(ms, [1.0, 2.0], ms.float64), 8.0, 3)],
    "err_linspace_num0": lambda ms: _np(ms).linspace(1, 3, 0),
    # inputs of any rank are flattened first
    "meshgrid_any_rank": lambda ms: _np(ms).meshgrid(_t(ms, [1.0, 2.0]), _t(ms, [[3, 4], [5, 6]], ms.int32), indexing="ij"),
    # Python floats: ceil(n) rows, ceil(m) columns, Int32
    "tri_indices_floats": lambda ms: [_np(ms).triu_indices(3.0, 1.0, 4.0), _np(ms).tril_indices(2.5, -0.5, 3.2),
                                      _np(ms).triu_indices(3, 0), _np(ms).tril_indices(4, 1, 2)],
    "piecewise_bool_condition": lambda ms: [_np(ms).piecewise(2, True, [lambda x: x - 1]),
                                            _np(ms).piecewise(2, False, [lambda x: x - 1, lambda x: x * 5])],
    # one bound given after the other in one process: jax.numpy.interp's cache swapped them
    "interp_left_after_right": lambda ms: [_np(ms).interp(_t(ms, [-12.0, -3.5, 9.5, 12.0]), _t(ms, np.arange(-10.0, 10.0)),
                                                          _t(ms, np.linspace(-5, 5, 20)), **kw)
                                           for kw in ({"right": 0.7}, {"left": 0.3}, {}, {"left": 0.1, "right": 0.9})],
    # a scalar is a degree-0 polynomial
    "poly_scalar_operands": lambda ms: [_np(ms).polyadd(_t(ms, 3.0), _t(ms, [1.0, 2.0])), _np(ms).polysub(2, _t(ms, [1.0, 5.0])),
                                        _np(ms).polymul(_t(ms, 2.0), _t(ms, [1.0, -1.0, 4.0])), _np(ms).polyval(_t(ms, 2.0), 3.0),
                                        _np(ms).polyder(_t(ms, 5.0))],
    "err_poly_2d": lambda ms: _np(ms).polyadd(_t(ms, [[1.0, 2.0]]), _t(ms, [1.0])),
    "err_randn_int_dtype": lambda ms: _np(ms).randn(2, dtype=ms.int32),
    "err_rand_str_dtype": lambda ms: _np(ms).rand(2, dtype="int32"),
    "err_randint_float_dtype": lambda ms: _np(ms).randint(1, 5, (2,), dtype=ms.float32),
    "err_tri_indices_str": lambda ms: _np(ms).triu_indices("3"),
    "logspace_geomspace": lambda ms: [_np(ms).logspace(0, 2, 3), _np(ms).geomspace(1, 8, 4)],
    "eye_identity_tri": lambda ms: [_np(ms).eye(3, 4, 1), _np(ms).identity(2, ms.int32), _np(ms).tri(3, 2, 0)],
    "tril_triu": lambda ms: [_np(ms).tril(_t(ms, _M)), _np(ms).triu(_t(ms, _M), 1), _np(ms).tril(_t(ms, _M), -1)],
    "diag_family": lambda ms: [_np(ms).diag(_t(ms, _V)), _np(ms).diag(_t(ms, _M), 1), _np(ms).diagflat(_t(ms, _V), -1),
                               _np(ms).diagonal(_t(ms, _M))],
    "meshgrid": lambda ms: _np(ms).meshgrid(_t(ms, [1, 2, 3]), _t(ms, [4.0, 5.0])),
    "meshgrid_ij": lambda ms: _np(ms).meshgrid(_t(ms, [1, 2, 3]), _t(ms, [4, 5]), indexing="ij"),
    "mgrid_ogrid": lambda ms: [_np(ms).mgrid[0:3, 0:2], _np(ms).ogrid[0:2, 0:3]],
    "indices": lambda ms: _np(ms).indices((2, 3)),
    "vander": lambda ms: [_np(ms).vander(_t(ms, [1, 2, 3])), _np(ms).vander(_t(ms, [1.0, 2.0]), 3, True)],
    "windows": lambda ms: [_np(ms).hamming(5), _np(ms).hanning(5), _np(ms).bartlett(5), _np(ms).blackman(5)],
    "tri_indices": lambda ms: [_np(ms).tril_indices(3), _np(ms).triu_indices(3, 1),
                               _np(ms).triu_indices_from(_t(ms, _M))],
    "pad_modes": lambda ms: [_np(ms).pad(_t(ms, _V), (1, 2)), _np(ms).pad(_t(ms, _I), ((1, 0), (0, 1)), "edge"),
                             _np(ms).pad(_t(ms, _V), 2, "reflect"), _np(ms).pad(_t(ms, _V), (1, 1), "constant",
                                                                             constant_values=9)],
    "histogram_bin_edges": lambda ms: _np(ms).histogram_bin_edges(_t(ms, [0.0, 1.0, 2.0, 7.0]), 4),
    "copy": lambda ms: _np(ms).copy(_t(ms, _I)),
    # ---------------- element-wise math and dtype rules ----------------
    "add_lists": lambda ms: _np(ms).add([1, 2], [3, 4]),
    "add_tensor_scalar": lambda ms: [_np(ms).add(_t(ms, [1, 2], ms.int32), 2.5), _np(ms).add(_t(ms, [1, 2]), 1),
                                     _np(ms).add(_t(ms, [1, 2], ms.int8), 3)],
    "add_mixed_dtypes": lambda ms: [_np(ms).add(_t(ms, [1, 2], ms.int32), _t(ms, [1.0, 2.0], ms.float16)),
                                    _np(ms).add(_t(ms, [1, 2], ms.uint8), _t(ms, [1, 2], ms.int8)),
                                    _np(ms).add(_t(ms, [1.0], ms.float32), _t(ms, [2.0], ms.float64))],
    "add_dtype_arg": lambda ms: _np(ms).add(_t(ms, _A), _t(ms, _B), dtype=ms.int32),
    "subtract_multiply": lambda ms: [_np(ms).subtract(_t(ms, _A), _t(ms, _B)), _np(ms).subtract(_t(ms, _I), 2),
                                     _np(ms).multiply(_t(ms, _I), _t(ms, [2, 3, 4], ms.int32))],
    "divide_int": lambda ms: [_np(ms).divide(_t(ms, [1, 4], ms.int32), _t(ms, [2, 3], ms.int32)),
                              _np(ms).true_divide(_t(ms, _A), 2)],
    "power": lambda ms: [_np(ms).power(_t(ms, _P), 2), _np(ms).power(_t(ms, _I), 2),
                         _np(ms).float_power(_t(ms, [2, 3], ms.int32), _t(ms, [2, 2], ms.int32))],
    "sqrt_int": lambda ms: _np(ms).sqrt(_t(ms, [1, 4, 9], ms.int32)),
    "exp_log_family": lambda ms: [f(_t(ms, _P)) for f in (_np(ms).exp, _np(ms).expm1, _np(ms).exp2, _np(ms).log,
                                                         _np(ms).log1p, _np(ms).log2, _np(ms).log10)],
    "trig_family": lambda ms: [f(_t(ms, _U)) for f in (_np(ms).sin, _np(ms).cos, _np(ms).tan, _np(ms).arcsin,
                                                      _np(ms).arccos, _np(ms).arctan, _np(ms).sinh, _np(ms).cosh,
                                                      _np(ms).tanh, _np(ms).arcsinh, _np(ms).arctanh)],
    "sin_int": lambda ms: _np(ms).sin(_t(ms, [1, 4], ms.int32)),
    "arccosh_deg_rad": lambda ms: [_np(ms).arccosh(_t(ms, [1.0, 2.5])), _np(ms).deg2rad(_t(ms, [90.0, 180.0])),
                                   _np(ms).rad2deg(_t(ms, [1.0, 3.0])), _np(ms).radians(_t(ms, [45.0]))],
    "arctan2_hypot": lambda ms: [_np(ms).arctan2(_t(ms, _A), _t(ms, _B)), _np(ms).hypot(_t(ms, _A), _t(ms, _B))],
    "rounding": lambda ms: [f(_t(ms, [-1.5, -0.5, 0.5, 1.5, 2.7])) for f in (
        _np(ms).floor, _np(ms).ceil, _np(ms).trunc, _np(ms).fix, _np(ms).rint, _np(ms).around, _np(ms).round)],
    "around_decimals": lambda ms: _np(ms).around(_t(ms, [1.2345, -2.3456]), 2),
    "remainder_fmod": lambda ms: [_np(ms).remainder(_t(ms, [7.0, -7.0, 5.5]), 2), _np(ms).fmod(_t(ms, [7.0, -7.0, 5.5]), 2),
                                  _np(ms).mod(_t(ms, [7, -7, 5], ms.int32), 3)],
    "floor_divide_divmod": lambda ms: [_np(ms).floor_divide(_t(ms, [7, -7, 5], ms.int32), 2),
                                       _np(ms).divmod(_t(ms, [7.0, -7.0, 5.5]), 2.0)],
    "gcd_lcm": lambda ms: [_np(ms).gcd(_t(ms, [12, 18, 8], ms.int32), _t(ms, [8, 12, 6], ms.int32)),
                           _np(ms).lcm(_t(ms, [4, 6, 5], ms.int32), _t(ms, [6, 4, 3], ms.int32))],
    "clip": lambda ms: [_np(ms).clip(_t(ms, _A), -1, 1), _np(ms).clip(_t(ms, _I), 0, 3), _np(ms).clip(_t(ms, _A), None, 0.5)],
    "abs_sign": lambda ms: [_np(ms).absolute(_t(ms, _A)), _np(ms).abs(_t(ms, _I)), _np(ms).fabs(_t(ms, _A)),
                            _np(ms).sign(_t(ms, [-2.0, 0.0, 3.0])), _np(ms).negative(_t(ms, _I)),
                            _np(ms).positive(_t(ms, _A))],
    "copysign_heaviside": lambda ms: [_np(ms).copysign(_t(ms, [1.0, -2.0, 3.0]), _t(ms, [-1.0, 1.0, -0.0])),
                                      _np(ms).heaviside(_t(ms, [-1.0, 0.0, 2.0]), _t(ms, [0.5, 0.5, 0.5]))],
    "logaddexp": lambda ms: [_np(ms).logaddexp(_t(ms, _A), _t(ms, _B)), _np(ms).logaddexp2(_t(ms, _A), _t(ms, _B))],
    "cbrt_square_reciprocal": lambda ms: [_np(ms).cbrt(_t(ms, [8.0, -27.0])), _np(ms).square(_t(ms, _I)),
                                          _np(ms).reciprocal(_t(ms, _P))],
    "minimum_maximum_nan": lambda ms: [_np(ms).minimum(_t(ms, _NAN), 0.0), _np(ms).maximum(_t(ms, _NAN), 0.0),
                                       _np(ms).maximum(_t(ms, _I), 0)],
    "bitwise": lambda ms: [_np(ms).bitwise_and(_t(ms, _I), 6), _np(ms).bitwise_or(_t(ms, _I), 6),
                           _np(ms).bitwise_xor(_t(ms, _I), 6), _np(ms).invert(_t(ms, _I)),
                           _np(ms).bitwise_not(_t(ms, [1, 0], ms.uint8))],
    "trig_small_ints": lambda ms: [_np(ms).sin(_t(ms, [1, 2], ms.int8)), _np(ms).cos(_t(ms, [1, 2], ms.uint8)),
                                   _np(ms).tanh(_t(ms, [1, 2], ms.int16)), _np(ms).sqrt(_t(ms, [True, False]))],
    "rounding_float16": lambda ms: [_np(ms).ceil(_t(ms, [1.5, -1.5], ms.float16)),
                                    _np(ms).fix(_t(ms, [1.5, -1.5], ms.float16)),
                                    _np(ms).floor(_t(ms, [1.5, -1.5], ms.float16))],
    # ---------------- logic ----------------
    "compare": lambda ms: [f(_t(ms, _A), _t(ms, _B)) for f in (
        _np(ms).equal, _np(ms).not_equal, _np(ms).less, _np(ms).less_equal, _np(ms).greater, _np(ms).greater_equal)],
    "compare_scalar": lambda ms: [_np(ms).greater(_t(ms, _I), 1), _np(ms).equal(_t(ms, _A), 2.0)],
    "isfinite_family": lambda ms: [f(_t(ms, [1.0, np.inf, -np.inf, np.nan])) for f in (
        _np(ms).isfinite, _np(ms).isnan, _np(ms).isinf, _np(ms).isposinf, _np(ms).isneginf, _np(ms).signbit)],
    "logical": lambda ms: [_np(ms).logical_and(_t(ms, [True, False, True]), _t(ms, [True, True, False])),
                           _np(ms).logical_or(_t(ms, [True, False, False]), _t(ms, [False, False, True])),
                           _np(ms).logical_xor(_t(ms, [True, False]), _t(ms, [True, True])),
                           _np(ms).logical_not(_t(ms, [True, False]))],
    "isclose": lambda ms: _np(ms).isclose(_t(ms, [1.0, 2.0, np.nan]), _t(ms, [1.0 + 1e-9, 2.1, np.nan]), equal_nan=True),
    "in1d_isin": lambda ms: [_np(ms).in1d(_t(ms, [1, 2, 3, 4], ms.int32), _t(ms, [2, 4], ms.int32)),
                             _np(ms).isin(_t(ms, [[1, 2], [3, 4]], ms.int32), _t(ms, [2, 3], ms.int32), invert=True)],
    "array_equal_equiv": lambda ms: [_np(ms).array_equal(_t(ms, _A), _t(ms, _A)), _np(ms).array_equal(_t(ms, _A), _t(ms, _B)),
                                     _np(ms).array_equiv(_t(ms, [1, 2]), _t(ms, [[1, 2], [1, 2]]))],
    "sometrue_isscalar": lambda ms: [_np(ms).sometrue(_t(ms, [[0, 0], [0, 1]]), 1), _np(ms).isscalar(3),
                                     _np(ms).isscalar(_t(ms, 3.0)), _np(ms).isscalar([1])],
    "setdiff1d": lambda ms: _np(ms).setdiff1d(_t(ms, [5, 1, 3, 2, 1], ms.int32), _t(ms, [2, 6], ms.int32)),
    # ---------------- shape / indexing ----------------
    "transpose": lambda ms: [_np(ms).transpose(_t(ms, _A)), _np(ms).transpose(_t(ms, np.ones((2, 3, 4), np.float32)), (1, 2, 0)).shape],
    "expand_squeeze": lambda ms: [_np(ms).expand_dims(_t(ms, _V), 0), _np(ms).expand_dims(_t(ms, _V), (0, 2)),
                                  _np(ms).squeeze(_t(ms, [[[1.0], [2.0]]])), _np(ms).squeeze(_t(ms, [[[1.0], [2.0]]]), 2)],
    "axes_moves": lambda ms: [t.shape for t in (
        _np(ms).rollaxis(_t(ms, np.ones((2, 3, 4), np.float32)), 2), _np(ms).swapaxes(_t(ms, np.ones((2, 3, 4), np.float32)), 0, 2),
        _np(ms).moveaxis(_t(ms, np.ones((2, 3, 4), np.float32)), 0, -1))],
    "reshape_ravel": lambda ms: [_np(ms).reshape(_t(ms, _A), (3, -1)), _np(ms).ravel(_t(ms, _A))],
    "concatenate_stack": lambda ms: [_np(ms).concatenate((_t(ms, _A), _t(ms, _B))), _np(ms).concatenate((_t(ms, _A), _t(ms, _B)), 1),
                                     _np(ms).concatenate((_t(ms, _A), _t(ms, _B)), None), _np(ms).stack((_t(ms, _V), _t(ms, _V)), 1)],
    "hvd_stack": lambda ms: [_np(ms).hstack((_t(ms, _V), _t(ms, _V))), _np(ms).vstack((_t(ms, _V), _t(ms, _V))),
                             _np(ms).dstack((_t(ms, _V), _t(ms, _V))), _np(ms).column_stack((_t(ms, _V), _t(ms, _V)))],
    "atleast": lambda ms: [_np(ms).atleast_1d(_t(ms, 1.0)), _np(ms).atleast_2d(_t(ms, _V)), _np(ms).atleast_3d(_t(ms, _A)).shape,
                           _np(ms).atleast_2d(_t(ms, 1.0), _t(ms, _V))],
    "where": lambda ms: [_np(ms).where(_t(ms, [True, False, True]), _t(ms, _V), 0.0),
                         _np(ms).where(_t(ms, _A) > 0, _t(ms, _I), _t(ms, _A))],
    "unique": lambda ms: [_np(ms).unique(_t(ms, [3, 1, 3, 2, 1], ms.int32)), _np(ms).unique(_t(ms, [[2.0, 1.0], [2.0, 5.0]]), True)],
    "tile_broadcast": lambda ms: [_np(ms).tile(_t(ms, _V), 2), _np(ms).tile(_t(ms, _V), (2, 1)),
                                  _np(ms).broadcast_to(_t(ms, _V), (2, 3)),
                                  _np(ms).broadcast_arrays(_t(ms, _V), _t(ms, [[1.0], [2.0]]))],
    "roll_append": lambda ms: [_np(ms).roll(_t(ms, _A), 1), _np(ms).roll(_t(ms, _A), -1, 1),
                               _np(ms).append(_t(ms, _V), _t(ms, _V)), _np(ms).append(_t(ms, _A), _t(ms, _B), 0)],
    "split_family": lambda ms: [_np(ms).split(_t(ms, np.arange(6.0, dtype=np.float32)), 3),
                                _np(ms).split(_t(ms, np.arange(6.0, dtype=np.float32)), [1, 4]),
                                _np(ms).array_split(_t(ms, np.arange(7.0, dtype=np.float32)), 3),
                                _np(ms).hsplit(_t(ms, np.ones((2, 4), np.float32)), 2)],
    "flip_family": lambda ms: [_np(ms).flip(_t(ms, _A)), _np(ms).flip(_t(ms, _A), 1), _np(ms).flipud(_t(ms, _A)),
                               _np(ms).fliplr(_t(ms, _A))],
    "rot90": lambda ms: [_np(ms).rot90(_t(ms, _A)), _np(ms).rot90(_t(ms, _A), 2), _np(ms).rot90(_t(ms, _A), -1, (1, 0))],
    "take_family": lambda ms: [_np(ms).take(_t(ms, _A), _t(ms, [0, 4], ms.int32)),
                               _np(ms).take(_t(ms, _A), _t(ms, [2, 0], ms.int32), axis=1),
                               _np(ms).take_along_axis(_t(ms, _A), _t(ms, [[0, 2], [1, 0]], ms.int32), 1)],
    "repeat": lambda ms: [_np(ms).repeat(_t(ms, _V), 2), _np(ms).repeat(_t(ms, _A), [1, 2], 0)],
    "select_choose": lambda ms: [_np(ms).select([_t(ms, _A) > 1, _t(ms, _A) < 0], [_t(ms, _A), _t(ms, _B)], 9.0),
                                 _np(ms).choose(_t(ms, [0, 1, 1], ms.int32), [_t(ms, _V), _t(ms, -_V)])],
    "size_array_str": lambda ms: [_np(ms).size(_t(ms, _A)), _np(ms).size(_t(ms, _A), 1), _np(ms).array_str(_t(ms, _V))],
    "index_helpers": lambda ms: [_np(ms).unravel_index(_t(ms, [5, 1], ms.int32), (2, 3)),
                                 _np(ms).ravel_multi_index((_t(ms, [1, 0], ms.int32), _t(ms, [2, 1], ms.int32)), (2, 3)),
                                 _np(ms).diag_indices(3)],
    "argwhere_intersect": lambda ms: [_np(ms).argwhere(_t(ms, _I) > 2),
                                      _np(ms).intersect1d(_t(ms, [1, 3, 4, 3], ms.int32), _t(ms, [3, 1, 2, 1], ms.int32))],
    "piecewise": lambda ms: _np(ms).piecewise(_t(ms, [-2.0, -0.5, 0.5, 2.0]), [_t(ms, [-2.0, -0.5, 0.5, 2.0]) < 0,
                                                                            _t(ms, [-2.0, -0.5, 0.5, 2.0]) >= 0], [-1, 1]),
    "apply_along_axis": lambda ms: _np(ms).apply_along_axis(lambda v: v.sum(), 1, _t(ms, _A)),
    # ---------------- reductions ----------------
    "sum": lambda ms: [_np(ms).sum(_t(ms, _A)), _np(ms).sum(_t(ms, _A), 0), _np(ms).sum(_t(ms, _A), 1, keepdims=True),
                       _np(ms).sum([0.5, 1.5]), _np(ms).sum(_t(ms, _A), initial=10.0)],
    "sum_int_bool": lambda ms: [_np(ms).sum(_t(ms, [1, 4], ms.int32)), _np(ms).sum(_t(ms, [True, False, True])),
                                _np(ms).sum(_t(ms, _I), dtype=ms.float32)],
    "mean": lambda ms: [_np(ms).mean(_t(ms, _A)), _np(ms).mean(_t(ms, _A), 1), _np(ms).mean(_t(ms, _A), (0, 1), True),
                        _np(ms).mean(_t(ms, [1, 4], ms.int32))],
    "amax_amin": lambda ms: [_np(ms).amax(_t(ms, _A)), _np(ms).amax(_t(ms, _A), 0), _np(ms).amin(_t(ms, _A), 1, True),
                             _np(ms).max(_t(ms, _A), initial=3.0), _np(ms).min(_t(ms, _I))],
    "std_var": lambda ms: [_np(ms).std(_t(ms, _A)), _np(ms).std(_t(ms, _A), 0, 1), _np(ms).var(_t(ms, _A), 1),
                           _np(ms).var(_t(ms, _A), keepdims=True)],
    "ptp_average": lambda ms: [_np(ms).ptp(_t(ms, _A)), _np(ms).ptp(_t(ms, _A), 1),
                               _np(ms).average(_t(ms, _A)), _np(ms).average(_t(ms, _A), 1, _t(ms, [1.0, 2.0, 3.0]))],
    "average_returned": lambda ms: _np(ms).average(_t(ms, _A), 0, _t(ms, _P), True),
    "count_nonzero": lambda ms: [_np(ms).count_nonzero(_t(ms, [1.0, 0.0, 3.0])), _np(ms).count_nonzero(_t(ms, _I), 1)],
    "argmax_argmin": lambda ms: [_np(ms).argmax(_t(ms, _A)), _np(ms).argmax(_t(ms, _A), 1), _np(ms).argmin(_t(ms, _A), 0),
                                 _np(ms).argmax(_t(ms, [False, True]))],
    "nan_reductions": lambda ms: [f(_t(ms, _NAN)) for f in (_np(ms).nansum, _np(ms).nanmean, _np(ms).nanvar,
                                                           _np(ms).nanstd, _np(ms).nanmax, _np(ms).nanmin)],
    "cumulative": lambda ms: [_np(ms).cumsum(_t(ms, _A)), _np(ms).cumsum(_t(ms, _A), 1), _np(ms).cumprod(_t(ms, _A), 0),
                              _np(ms).nancumsum(_t(ms, _NAN)), _np(ms).cumsum(_t(ms, _I), 0)],
    "diff_ediff1d": lambda ms: [_np(ms).diff(_t(ms, [1.0, 4.0, 9.0, 16.0])), _np(ms).diff(_t(ms, _A), 2, 1),
                                _np(ms).ediff1d(_t(ms, [1.0, 4.0, 9.0]), to_begin=_t(ms, [0.0]))],
    # ---------------- linear algebra ----------------
    "dot": lambda ms: [_np(ms).dot(_t(ms, _V), _t(ms, _V)), _np(ms).dot(_t(ms, _A), _t(ms, _M)),
                       _np(ms).dot(_t(ms, [1, 2], ms.int32), _t(ms, [3, 4], ms.int32))],
    "matmul": lambda ms: [_np(ms).matmul(_t(ms, _A), _t(ms, _M)), _np(ms).matmul(_t(ms, _M), _t(ms, _V)),
                          _np(ms).matmul(_t(ms, np.stack([_M, _M])), _t(ms, _M))],
    "inner_outer": lambda ms: [_np(ms).inner(_t(ms, _A), _t(ms, _B)), _np(ms).outer(_t(ms, _V), _t(ms, [1.0, 2.0], ms.float32))],
    "tensordot": lambda ms: [_np(ms).tensordot(_t(ms, _A), _t(ms, _B), ((0, 1), (0, 1))),
                             _np(ms).tensordot(_t(ms, _A), _t(ms, _M), 1)],
    "kron_cross": lambda ms: [_np(ms).kron(_t(ms, [[1.0, 2.0]]), _t(ms, [[1.0], [3.0]])),
                              _np(ms).cross(_t(ms, _A), _t(ms, _B))],
    "multi_dot_matrix_power": lambda ms: [_np(ms).multi_dot([_t(ms, _A), _t(ms, _M), _t(ms, _V)]),
                                          _np(ms).matrix_power(_t(ms, _M), 3), _np(ms).matrix_power(_t(ms, _M), 0)],
    "norm": lambda ms: [_np(ms).norm(_t(ms, _A)), _np(ms).norm(_t(ms, _V), 1), _np(ms).norm(_t(ms, _A), axis=1),
                        _np(ms).norm(_t(ms, _M), "fro"), _np(ms).norm(_t(ms, _M), np.inf),
                        _np(ms).norm(_t(ms, _A), 2, 0, True)],
    "trace": lambda ms: [_np(ms).trace(_t(ms, _M)), _np(ms).trace(_t(ms, _M), 1)],
    # ---------------- statistics ----------------
    "cov_corrcoef": lambda ms: [_np(ms).cov(_t(ms, _A)), _np(ms).cov(_t(ms, _A), bias=True), _np(ms).corrcoef(_t(ms, _A))],
    "histogram": lambda ms: _np(ms).histogram(_t(ms, [0.5, 1.0, 1.5, 3.0, 4.5]), 3),
    "bincount_digitize": lambda ms: [_np(ms).bincount(_t(ms, [0, 1, 1, 3], ms.int32)),
                                     _np(ms).bincount(_t(ms, [0, 1, 1], ms.int32), _t(ms, [0.5, 1.0, 2.0]), 4),
                                     _np(ms).digitize(_t(ms, [0.2, 6.4, 3.0, 1.6]), _t(ms, [0.0, 1.0, 2.5, 4.0, 10.0]))],
    "searchsorted_interp": lambda ms: [_np(ms).searchsorted(_t(ms, [1.0, 2.0, 3.0, 4.0]), _t(ms, [2.5, 3.0])),
                                       _np(ms).searchsorted(_t(ms, [1.0, 2.0, 3.0, 4.0]), _t(ms, [2.5, 3.0]), "right"),
                                       _np(ms).interp(_t(ms, [0.5, 1.5, 5.0]), _t(ms, [0.0, 1.0, 2.0]), _t(ms, [0.0, 10.0, 0.0]))],
    "convolve_correlate": lambda ms: [_np(ms).convolve(_t(ms, [1.0, 2.0, 3.0]), _t(ms, [0.0, 1.0, 0.5])),
                                      _np(ms).convolve(_t(ms, [1.0, 2.0, 3.0]), _t(ms, [0.0, 1.0, 0.5]), "same"),
                                      _np(ms).correlate(_t(ms, [1.0, 2.0, 3.0]), _t(ms, [0.0, 1.0, 0.5]))],
    "gradient_trapz": lambda ms: [_np(ms).gradient(_t(ms, [1.0, 2.0, 4.0, 7.0, 11.0])),
                                  _np(ms).trapz(_t(ms, [1.0, 2.0, 3.0])), _np(ms).trapz(_t(ms, _A), dx=0.5)],
    "polynomials": lambda ms: [_np(ms).polyval(_t(ms, [3.0, 0.0, 1.0]), _t(ms, [5.0, 1.0])),
                               _np(ms).polyadd(_t(ms, [1.0, 2.0]), _t(ms, [9.0, 5.0, 4.0])),
                               _np(ms).polysub(_t(ms, [1.0, 2.0]), _t(ms, [9.0, 5.0, 4.0])),
                               _np(ms).polymul(_t(ms, [1.0, 2.0]), _t(ms, [9.0, 5.0, 4.0])),
                               _np(ms).polyder(_t(ms, [1.0, 1.0, 1.0, 1.0]), 2),
                               _np(ms).polyint(_t(ms, [1.0, 1.0, 1.0]))],
    "unwrap": lambda ms: _np(ms).unwrap(_t(ms, [0.0, 0.78, 5.49, 6.28])),
    # ---------------- dtypes and constants ----------------
    "dtype_names": lambda ms: [str(_np(ms).int_), str(_np(ms).float_), str(_np(ms).uint), str(_np(ms).bool_),
                               _np(ms).pi, _np(ms).inf, _np(ms).NINF, _np(ms).numeric_types],
    "promote_result_type": lambda ms: [str(_np(ms).promote_types(_np(ms).int32, _np(ms).float16)),
                                       str(_np(ms).promote_types(_np(ms).uint8, _np(ms).int8)),
                                       str(_np(ms).result_type(_np(ms).int32, 1.0)),
                                       str(_np(ms).result_type(_t(ms, [1], ms.int8), _t(ms, [1], ms.int16)))],
    # ---------------- FFT ----------------
    "fftshift_fftfreq": lambda ms: [_np(ms).fft.fftshift(_np(ms).array([0, 1, 2, 3, 4, -5, -4, -3, -2, -1])),
                                    _np(ms).fft.ifftshift(_t(ms, _A))],
    "fft_rfft": lambda ms: [_np(ms).fft.rfft(_t(ms, [1.0, 2.0, 3.0, 4.0])).shape, _np(ms).fft.irfft(_t(ms, [10.0, -2.0, -2.0]))],
    # ---------------- errors ----------------
    "err_numpy_input": lambda ms: _np(ms).add(np.array([1.0, 2.0]), 1),
    "err_asarray_numpy": lambda ms: _np(ms).asarray(np.array([1.0, 2.0])),
    "err_string_input": lambda ms: _np(ms).add("a", _t(ms, [1.0])),
    "err_reshape": lambda ms: _np(ms).reshape(_t(ms, _V), (2, 2)),
    "err_broadcast": lambda ms: _np(ms).add(_t(ms, _V), _t(ms, [1.0, 2.0])),
    "err_axis_out_of_range": lambda ms: _np(ms).sum(_t(ms, _A), 5),
    "err_matmul_shapes": lambda ms: _np(ms).matmul(_t(ms, _A), _t(ms, _A)),
    # one Tensor is the tuple of its rows: ``axis`` counts the rows' dimensions
    "concatenate_one_tensor": lambda ms: [_np(ms).concatenate(_t(ms, np.arange(24.0).reshape(2, 3, 2, 2), ms.float32), ax)
                                          for ax in (None, 0, 1, 2)],
    "err_concatenate_shapes": lambda ms: _np(ms).concatenate((_t(ms, _A), _t(ms, _V))),
    "err_split_unequal": lambda ms: _np(ms).split(_t(ms, _V), 2),
    "err_norm_ord": lambda ms: _np(ms).norm(_t(ms, _A), "bad"),
    "err_ones_shape": lambda ms: _np(ms).ones((2, 1.5)),
    "err_invert_bool": lambda ms: _np(ms).invert(_t(ms, [True, False])),
    "err_dot_scalar": lambda ms: _np(ms).dot(_t(ms, _A), 2.0),
    "err_matmul_mixed_dtypes": lambda ms: _np(ms).matmul(_t(ms, _M), _t(ms, _M.astype(np.float64))),
    "err_outer_mixed_dtypes": lambda ms: _np(ms).outer(_t(ms, _V), _t(ms, [1.0, 2.0])),
    "err_take_indices_type": lambda ms: _np(ms).take(_t(ms, _A), [0, 1]),
}


def _jit_elementwise(ms):
    mnp = ms.numpy

    @ms.jit
    def f(x, y):
        return mnp.sum(mnp.sin(x) * mnp.exp(y) + mnp.square(mnp.clip(x, -1, 1)), axis=1)
    return f(_t(ms, _A), _t(ms, _B))


def _jit_shapes(ms):
    mnp = ms.numpy

    @ms.jit
    def f(x):
        y = mnp.concatenate((mnp.transpose(x), mnp.flip(x, 0).T), axis=1)
        return mnp.where(y > 0, y, mnp.zeros_like(y)), mnp.mean(y, 0), mnp.argmax(y, 1)
    return f(_t(ms, _A))


def _jit_linalg(ms):
    mnp = ms.numpy

    @ms.jit
    def f(m, v):
        return mnp.dot(m, v), mnp.matmul(mnp.matrix_power(m, 2), m), mnp.norm(m), mnp.outer(v, v)
    return f(_t(ms, _M), _t(ms, _V))


def _jit_creation(ms):
    mnp = ms.numpy

    @ms.jit
    def f(x):
        return x + mnp.arange(3) + mnp.ones((2, 3)) * mnp.linspace(0, 1, 3) + mnp.eye(2, 3)
    return f(_t(ms, _A))


def _grad_elementwise(ms):
    mnp = ms.numpy

    def f(x):
        return mnp.sum(mnp.sin(x) * mnp.log1p(mnp.square(x)))
    return ms.grad(f)(_t(ms, _A))


def _grad_linalg(ms):
    mnp = ms.numpy

    def f(m, v):
        return mnp.sum(mnp.matmul(m, v) ** 2) + mnp.trace(m)
    return ms.grad(f, grad_position=(0, 1))(_t(ms, _M), _t(ms, _V))


def _grad_reductions(ms):
    mnp = ms.numpy

    def f(x):
        return mnp.mean(x) + mnp.std(x) + mnp.amax(x) + mnp.var(x, 1).sum()
    return ms.grad(f)(_t(ms, _A))


def _vag_shapes(ms):
    mnp = ms.numpy

    def f(x):
        y = mnp.stack((x, mnp.multiply(x, x)), 0)
        return mnp.sum(mnp.tile(mnp.reshape(y, (3, 4)), (2, 1)) * mnp.arange(4.0))
    return ms.value_and_grad(f)(_t(ms, _A))


def _jit_grad(ms):
    mnp = ms.numpy

    @ms.jit
    def g(x):
        return ms.grad(lambda t: mnp.sum(mnp.cumsum(mnp.sqrt(mnp.abs(t) + 1.0), 1)))(x)
    return g(_t(ms, _A))


def _cell_graph(ms):
    mnp = ms.numpy

    class Net(ms.nn.Cell):
        def construct(self, x):
            return mnp.sum(mnp.expand_dims(x, 0) * mnp.full((2, 1, 1), 2.0), axis=0) - mnp.mean(x)
    return Net()(_t(ms, _A))


_X4 = np.array([[1.0, 2.0, -1.0, 0.5], [0.0, 3.0, 2.0, -2.0], [1.5, -0.5, 0.25, 1.0]], np.float32)


def _complex(r):
    a = r.asnumpy()
    return [str(r.dtype), list(r.shape), np.real(a).astype(np.float32), np.imag(a).astype(np.float32)]


def _fft_case(name, build):
    def case(ms):
        res = getattr(ms.numpy.fft, name)(build(ms))
        return _complex(res) if "Complex" in str(res.dtype) else res
    return case


# ihfftn is left out: MindSpore 2.10 returns a real (3, 6) Tensor for it (tests/test_numpy.py checks scipy's)
for _name in ("fft", "ifft", "fft2", "ifft2", "fftn", "ifftn", "rfft", "rfft2", "rfftn", "ihfft", "ihfft2"):
    _CASES["fftfam_" + _name] = _fft_case(_name, lambda ms: _t(ms, _X4))
for _name in ("irfft", "irfft2", "irfftn", "hfft", "hfft2", "hfftn"):
    _CASES["fftfam_" + _name] = _fft_case(_name, lambda ms: ms.numpy.fft.rfft2(_t(ms, _X4)))

_CASES.update({
    "fft_norm_n": lambda ms: [_complex(ms.numpy.fft.fft(_t(ms, _X4), 6, 0, "ortho")),
                              _complex(ms.numpy.fft.ifft(_t(ms, _X4), 3, -1, "forward"))],
    "fftfreq": lambda ms: [ms.numpy.fft.fftfreq(5, 0.5), ms.numpy.fft.rfftfreq(6)],
    "empty_shapes": lambda ms: [(t.shape, str(t.dtype)) for t in (
        _np(ms).empty((2, 3)), _np(ms).empty(2, ms.int32), _np(ms).empty_like(_t(ms, _I)),
        _np(ms).empty_like(_t(ms, _A), ms.float16, (4,)))],
    "vsplit_dsplit": lambda ms: [_np(ms).vsplit(_t(ms, np.ones((4, 2), np.float32)), 2),
                                 _np(ms).dsplit(_t(ms, np.arange(8.0, dtype=np.float32).reshape(1, 2, 4)), [1, 3])],
    "ix_tril_from": lambda ms: [_np(ms).ix_(_t(ms, [0, 1], ms.int32), _t(ms, [2, 0, 1], ms.int32)),
                                _np(ms).tril_indices_from(_t(ms, _M), -1)],
    "apply_over_axes": lambda ms: _np(ms).apply_over_axes(_np(ms).sum, _t(ms, np.arange(24.0, dtype=np.float32)
                                                                            .reshape(2, 3, 4)), [0, 2]),
    "histogram2d_dd": lambda ms: [_np(ms).histogram2d(_t(ms, [0.5, 1.0, 1.5, 3.0]), _t(ms, [0.0, 2.0, 1.0, 4.0]), 2),
                                  _np(ms).histogramdd(_t(ms, [[0.5, 0.0], [1.0, 2.0], [3.0, 4.0]]), 2)],
})


_CASES.update({
    "int_results": lambda ms: [
        _np(ms).exp2(_t(ms, _I)), _np(ms).reciprocal(_t(ms, [3, 1, -1, 4], ms.int32)), _np(ms).sign(_t(ms, _I)),
        _np(ms).heaviside(_t(ms, _I), _t(ms, [0, 1, 2], ms.int32)), _np(ms).nansum(_t(ms, _I)),
        _np(ms).nansum(_t(ms, [3, 1, 4], ms.uint8)), _np(ms).around(_t(ms, _I)), _np(ms).average(_t(ms, [1, 2], ms.int32))],
    "int_accumulations": lambda ms: [
        _np(ms).nancumsum(_t(ms, [3, 1, 4], ms.uint8)), _np(ms).cumprod(_t(ms, [True, False, True])),
        _np(ms).cumprod(_t(ms, [3, 1, 4], ms.uint8)), _np(ms).polyder(_t(ms, [3, 1, 4], ms.int64)),
        _np(ms).polymul([1, 2, 3], [1, 2, 3]), _np(ms).convolve(_t(ms, [3, 1, 4], ms.uint8), _t(ms, [True, False, True])),
        _np(ms).correlate([1, 2, 3], [1, 2, 3])],
    "gcd_floats_tril_1d": lambda ms: [
        _np(ms).gcd(_t(ms, [0.5, 6.0, 4.5], ms.float32), _t(ms, [3.0, 4.0, 1.5], ms.float32)),
        _np(ms).lcm(_t(ms, [4.0, 6.0], ms.float32), _t(ms, [6.0, 4.0], ms.float32)),
        _np(ms).gcd(_t(ms, [3, 1, 4], ms.uint8), _t(ms, [True, False, True])),
        _np(ms).tril(_t(ms, [1, 2, 3], ms.int32)), _np(ms).triu([1.0, 2.0], 1), _np(ms).signbit(_t(ms, [True, False]))],
    "take_modes_ix_bool": lambda ms: [
        _np(ms).take(_t(ms, _I), _t(ms, [5, -1, -7, 13], ms.int32), 1, mode="clip"),
        _np(ms).take(_t(ms, _I), _t(ms, [5, -1, 13], ms.int32), mode="wrap"),
        _np(ms).ix_(_t(ms, [True, False, True]), _t(ms, [2, 0], ms.int32)),
        _np(ms).arange(_t(ms, 3, ms.int32)), _np(ms).histogram_bin_edges(_t(ms, _A), [0, 1, 5]),
        _np(ms).pad(_t(ms, np.arange(12, dtype=np.int32).reshape(3, 4) - 5), 1, "mean")],
    "float16_in_float32_out": lambda ms: [
        f(_t(ms, [0.5, 1.5, 2.0], ms.float16)) for f in (_np(ms).cbrt, _np(ms).cov, _np(ms).gradient, _np(ms).unwrap,
                                                          _np(ms).norm)] + [
        _np(ms).polyval(_t(ms, [0.5, 1.5, 2.0], ms.float16), _t(ms, [3, 1, 4], ms.int64))],
})


def _jit_fft_stats(ms):
    mnp = ms.numpy

    @ms.jit
    def f(x):
        return mnp.fft.irfft(mnp.fft.rfft(x)), mnp.cov(x), mnp.histogram(x, 3)[0]
    return f(_t(ms, _X4))


_CASES["jit_fft_stats"] = _jit_fft_stats


_CASES.update({"jit_elementwise": _jit_elementwise, "jit_shapes": _jit_shapes, "jit_linalg": _jit_linalg,
               "jit_creation": _jit_creation, "grad_elementwise": _grad_elementwise, "grad_linalg": _grad_linalg,
               "grad_reductions": _grad_reductions, "vag_shapes": _vag_shapes, "jit_grad": _jit_grad,
               "cell_forward": _cell_graph})


def all_cases():
    return dict(_CASES)
