"""Golden cases for ``mindspore.mint`` (tensor functions), ``mint.linalg`` and ``mint.special``.

One case per name (or per small group of names), so that a name MindSpore 2.10's CPU build
cannot run (no CPU kernel) shows as its own error case; those names are not kept here but
reference-checked in tests/test_mint.py (``NO_CPU_KERNEL`` lists them with the reason).
Cases are built from tables: ``_UNARY`` (one float input), ``_CALLS`` (any call on fixed
inputs) and ``_GRADS`` (``ms.grad`` through the name).
"""
import numpy as np

_A = np.array([[0.5, -1.25, 2.0], [3.5, -0.75, 1.0]], np.float32)
_POS = np.array([[0.25, 1.5, 2.0], [3.0, 0.5, 4.0]], np.float32)
_UNIT = np.array([[0.1, -0.5, 0.9], [-0.3, 0.7, 0.0]], np.float32)
_BIG = np.array([[1.5, 2.5, 3.0], [4.0, 1.25, 6.0]], np.float32)
_B = np.array([[1.0, 2.0, -1.0], [0.5, -2.0, 3.0]], np.float32)
_I = np.array([[3, -1, 4], [1, 5, -9]], np.int64)
_M = np.array([[2.0, 1.0, 0.5], [1.0, 3.0, 0.25], [0.5, 0.25, 4.0]], np.float32)
_V = np.array([1.0, -2.0, 0.5], np.float32)


def _t(ms, a, dt=None):
    return ms.Tensor(np.array(a), dt)


def _a(ms):
    return _t(ms, _A)


def _p(ms):
    return _t(ms, _POS)


# name -> input builder: mint.<name>(x)
_UNARY = {
    "abs": _a, "acos": lambda ms: _t(ms, _UNIT), "acosh": lambda ms: _t(ms, _BIG), "arccos": lambda ms: _t(ms, _UNIT),
    "arccosh": lambda ms: _t(ms, _BIG), "arcsin": lambda ms: _t(ms, _UNIT), "arcsinh": _a, "arctan": _a,
    "arctanh": lambda ms: _t(ms, _UNIT), "asin": lambda ms: _t(ms, _UNIT), "asinh": _a, "atan": _a,
    "atanh": lambda ms: _t(ms, _UNIT), "ceil": _a, "cos": _a, "cosh": _a, "erf": _a, "erfc": _a,
    "erfinv": lambda ms: _t(ms, _UNIT), "exp": _a, "exp2": _a, "expm1": _a, "fix": _a, "floor": _a, "frac": _a,
    "isfinite": lambda ms: _t(ms, [1.0, np.inf, -np.inf, np.nan], ms.float32),
    "isinf": lambda ms: _t(ms, [1.0, np.inf, -np.inf, np.nan], ms.float32),
    "isnan": lambda ms: _t(ms, [1.0, np.inf, -np.inf, np.nan], ms.float32),
    "isneginf": lambda ms: _t(ms, [1.0, np.inf, -np.inf, np.nan], ms.float32),
    "log": _p, "log10": _p, "log1p": _p, "log2": _p, "logical_not": lambda ms: _t(ms, [0.0, 1.5, -2.0], ms.float32),
    "neg": _a, "negative": _a, "ravel": _a, "reciprocal": _p, "round": lambda ms: _t(ms, [0.5, 1.5, 2.5, -0.5, 2.4]),
    "rsqrt": _p, "sigmoid": _a, "sign": lambda ms: _t(ms, [-2.0, 0.0, 3.0], ms.float32), "sin": _a, "sinc": _a,
    "sinh": _a, "sqrt": _p, "square": _a, "t": _a, "tan": _a, "tanh": _a, "trunc": _a, "clone": _a,
    "bitwise_not": lambda ms: _t(ms, _I), "count_nonzero": lambda ms: _t(ms, [[0, 1, 2], [0, 0, 3]]),
    "nonzero": lambda ms: _t(ms, [[0, 1, 2], [0, 0, 3]]), "argmax": _a, "argmin": _a, "all": _a, "any": _a,
    "amax": _a, "amin": _a, "max": _a, "min": _a, "mean": _a, "median": _a, "prod": _a, "sum": _a, "std": _a,
    "var": _a, "std_mean": _a, "var_mean": _a, "norm": _a, "nansum": lambda ms: _t(ms, [1.0, np.nan, 2.0], ms.float32),
    "logsumexp": None, "real": _a, "imag": None, "flatten": _a, "trace": lambda ms: _t(ms, _M),
    "inverse": lambda ms: _t(ms, _M), "unique": lambda ms: _t(ms, [3, 1, 3, 2, 1]),
    "unique_consecutive": lambda ms: _t(ms, [1, 1, 2, 2, 3, 1, 1]),
    "argsort": _a, "sort": _a, "cummax": None, "nan_to_num": lambda ms: _t(ms, [np.nan, np.inf, -np.inf, 1.0],
                                                                            ms.float32),
    "item": lambda ms: _t(ms, [2.5], ms.float32), 
    "diag": lambda ms: _t(ms, _V), "tril": lambda ms: _t(ms, _M), "triu": lambda ms: _t(ms, _M),
    "empty_like": _a, "ones_like": _a, "zeros_like": _a,
    "bernoulli": lambda ms: _t(ms, [[0.0, 1.0], [1.0, 0.0]], ms.float32),
    "linalg.inv": lambda ms: _t(ms, _M), "linalg.vector_norm": _a, "linalg.matrix_norm": _a, "linalg.norm": _a,
    "special.erfc": _a, "special.exp2": _a, "special.expm1": _a, "special.log1p": _p, "special.sinc": _a,
    "special.round": lambda ms: _t(ms, [0.5, 1.5, 2.5, -0.5], ms.float32), "special.log_softmax": _a,
}
_UNARY = {k: v for k, v in _UNARY.items() if v is not None}


def _mint(ms, dotted):
    obj = ms.mint
    for part in dotted.split("."):
        obj = getattr(obj, part)
    return obj


def _unary(name, build):
    def case(ms):
        return _mint(ms, name)(build(ms))
    return case


# name -> ms -> result: calls with several arguments or keywords
_CALLS = {
    "add_alpha": lambda ms: ms.mint.add(_a(ms), _t(ms, _B), alpha=2),
    "add_scalar": lambda ms: ms.mint.add(_a(ms), 2),
    "sub_alpha": lambda ms: ms.mint.sub(_a(ms), _t(ms, _B), alpha=0.5),
    "mul_div": lambda ms: [ms.mint.mul(_a(ms), _t(ms, _B)), ms.mint.div(_a(ms), _t(ms, _B)),
                           ms.mint.divide(_a(ms), 2.0)],
    "div_rounding": lambda ms: [ms.mint.div(_t(ms, [7.0, -7.0, 5.5]), _t(ms, [2.0, 2.0, -2.0]), rounding_mode=m)
                                for m in ("floor", "trunc")],
    "div_int": lambda ms: ms.mint.div(_t(ms, [7, -7, 5]), _t(ms, [2, 2, -2])),
    "pow": lambda ms: [ms.mint.pow(_p(ms), 2.0), ms.mint.pow(_p(ms), _t(ms, _POS)), ms.mint.pow(2.0, _p(ms))],
    "float_power": lambda ms: ms.mint.float_power(_p(ms), 2),
    "floor_divide": lambda ms: ms.mint.floor_divide(_t(ms, [7.0, -7.0, 5.5]), _t(ms, [2.0, 2.0, -2.0])),
    "fmod_remainder": lambda ms: [ms.mint.fmod(_t(ms, [7.0, -7.0, 5.5]), 2.0),
                                  ms.mint.remainder(_t(ms, [7.0, -7.0, 5.5]), 2.0)],
    "atan2": lambda ms: [ms.mint.atan2(_a(ms), _t(ms, _B)), ms.mint.arctan2(_a(ms), _t(ms, _B))],
    "addcdiv": lambda ms: ms.mint.addcdiv(_a(ms), _t(ms, _B), _p(ms), value=0.5),
    "addcmul": lambda ms: ms.mint.addcmul(_a(ms), _t(ms, _B), _p(ms), value=2),
    "addmm": lambda ms: ms.mint.addmm(_t(ms, _M), _t(ms, _M), _t(ms, _M), beta=0.5, alpha=2.0),
    "addmv": lambda ms: ms.mint.addmv(_t(ms, _V), _t(ms, _M), _t(ms, _V), beta=2, alpha=0.5),
    "baddbmm": lambda ms: ms.mint.baddbmm(_t(ms, _M[None]), _t(ms, _M[None]), _t(ms, _M[None]), beta=0.5, alpha=1.5),
    "addbmm": lambda ms: ms.mint.addbmm(_t(ms, _M), _t(ms, np.stack([_M, _M])), _t(ms, np.stack([_M, _M])), beta=1,
                                        alpha=0.5),
    "matmul": lambda ms: ms.mint.matmul(_a(ms), _t(ms, _M)),
    "mm": lambda ms: ms.mint.mm(_a(ms), _t(ms, _M)),
    "bmm": lambda ms: ms.mint.bmm(_t(ms, _M[None]), _t(ms, _M[None])),
    "mv": lambda ms: ms.mint.mv(_t(ms, _M), _t(ms, _V)),
    "dot": lambda ms: ms.mint.dot(_t(ms, _V), _t(ms, _V)),
    "outer": lambda ms: ms.mint.outer(_t(ms, _V), _t(ms, _V)),
    "vdot": lambda ms: ms.mint.vdot(_t(ms, _V), _t(ms, _V * 2)),
    "bitwise_and": lambda ms: ms.mint.bitwise_and(_t(ms, _I), _t(ms, [[1, 2, 3], [4, 5, 6]])),
    "bitwise_or": lambda ms: ms.mint.bitwise_or(_t(ms, _I), _t(ms, [[1, 2, 3], [4, 5, 6]])),
    "bitwise_xor": lambda ms: ms.mint.bitwise_xor(_t(ms, _I), _t(ms, [[1, 2, 3], [4, 5, 6]])),
    "gcd": lambda ms: ms.mint.gcd(_t(ms, [12, 18, -8]), _t(ms, [8, 12, 6])),
    "compare": lambda ms: [f(_a(ms), _t(ms, _B)) for f in (
        ms.mint.eq, ms.mint.ne, ms.mint.gt, ms.mint.ge, ms.mint.lt, ms.mint.le, ms.mint.greater,
        ms.mint.greater_equal, ms.mint.less, ms.mint.less_equal, ms.mint.not_equal)],
    "equal": lambda ms: ms.mint.equal(_a(ms), _t(ms, _B)),
    "compare_scalar": lambda ms: [ms.mint.eq(_a(ms), 2.0), ms.mint.gt(_a(ms), 0), ms.mint.le(_t(ms, _I), 1.5)],
    "maximum_minimum": lambda ms: [ms.mint.maximum(_a(ms), _t(ms, _B)), ms.mint.minimum(_a(ms), _t(ms, _B))],
    "logical": lambda ms: [f(_a(ms), _t(ms, _B)) for f in (
        ms.mint.logical_and, ms.mint.logical_or, ms.mint.logical_xor)],
    "isclose_allclose": lambda ms: [ms.mint.isclose(_a(ms), _a(ms) + 1e-6),
                                    ms.mint.allclose(_a(ms), _a(ms) + 1e-6),
                                    ms.mint.allclose(_a(ms), _t(ms, _B))],
    "lerp": lambda ms: [ms.mint.lerp(_a(ms), _t(ms, _B), 0.25), ms.mint.lerp(_a(ms), _t(ms, _B), _p(ms))],
    "logaddexp": lambda ms: [ms.mint.logaddexp(_a(ms), _t(ms, _B)), ms.mint.logaddexp2(_a(ms), _t(ms, _B))],
    "xlogy": lambda ms: ms.mint.xlogy(_t(ms, [0.0, 1.0, 2.0]), _t(ms, [0.0, 2.0, 3.0])),
    "clamp": lambda ms: [ms.mint.clamp(_a(ms), -1.0, 1.0), ms.mint.clamp(_a(ms), min=0.0),
                         ms.mint.clip(_a(ms), _t(ms, _B), _t(ms, _POS)), ms.mint.clamp(_t(ms, _I), -2, 3)],
    "where": lambda ms: ms.mint.where(_a(ms) > 0, _a(ms), _t(ms, _B)),
    "where_one_arg": lambda ms: ms.mint.where(_a(ms) > 1),
    "sum_dim": lambda ms: [ms.mint.sum(_a(ms), 1), ms.mint.sum(_a(ms), (0, 1), True),
                           ms.mint.sum(_t(ms, _I), dim=0, dtype=ms.float32), ms.mint.sum(_t(ms, [True, True]))],
    "mean_dim": lambda ms: [ms.mint.mean(_a(ms), 1, True), ms.mint.mean(_a(ms), dim=0),
                            ms.mint.mean(_a(ms), dtype=ms.float64)],
    "prod_dim": lambda ms: [ms.mint.prod(_a(ms), 1), ms.mint.prod(_t(ms, _I), 0, True)],
    "max_dim": lambda ms: [ms.mint.max(_a(ms), 1), ms.mint.max(_a(ms), 0, True), ms.mint.max(_a(ms), _t(ms, _B)),
                           ms.mint.min(_a(ms), 1), ms.mint.min(_a(ms), _t(ms, _B))],
    "argmax_dim": lambda ms: [ms.mint.argmax(_a(ms), 1), ms.mint.argmax(_a(ms), 0, True),
                              ms.mint.argmin(_a(ms), 1, keepdim=True)],
    "amax_dim": lambda ms: [ms.mint.amax(_a(ms), 1), ms.mint.amin(_a(ms), (0,), True)],
    "all_any_dim": lambda ms: [ms.mint.all(_a(ms) > 0, 1), ms.mint.any(_a(ms) > 3, 0, True)],
    "median_dim": lambda ms: ms.mint.median(_a(ms), 1),
    "std_dim": lambda ms: ms.mint.std(_a(ms), 1),
    "var_dim": lambda ms: ms.mint.var(_a(ms), 0, correction=0, keepdim=True),
    "std_mean_dim": lambda ms: ms.mint.std_mean(_a(ms), 1, correction=0),
    "var_mean_dim": lambda ms: ms.mint.var_mean(_a(ms), (0, 1)),
    "norm_p": lambda ms: [ms.mint.norm(_a(ms), 1), ms.mint.norm(_a(ms), 2, 1), ms.mint.norm(_a(ms), "fro", (0, 1)),
                          ms.mint.norm(_a(ms), float("inf"), 1, True)],
    "logsumexp": lambda ms: [ms.mint.logsumexp(_a(ms), 1), ms.mint.logsumexp(_a(ms), 0, True)],
    "count_nonzero_dim": lambda ms: ms.mint.count_nonzero(_t(ms, [[0, 1, 2], [0, 0, 3]]), 1),
    "cumsum": lambda ms: [ms.mint.cumsum(_a(ms), 1), ms.mint.cumsum(_t(ms, _I), 0, dtype=ms.float32)],
    "cumprod": lambda ms: ms.mint.cumprod(_a(ms), 0),
    "cummax": lambda ms: ms.mint.cummax(_a(ms), 1),
    "cummin": lambda ms: ms.mint.cummin(_a(ms), 0),
    "diff": lambda ms: [ms.mint.diff(_a(ms)), ms.mint.diff(_a(ms), 1, 0)],
    "sort_dim": lambda ms: ms.mint.sort(_a(ms), dim=0, descending=True),
    "argsort_dim": lambda ms: ms.mint.argsort(_a(ms), 0, True),
    "topk": lambda ms: [ms.mint.topk(_a(ms), 2), ms.mint.topk(_a(ms), 1, 0, largest=False)],
    "kthvalue": lambda ms: ms.mint.kthvalue(_a(ms), 2, 1),
    "unique_full": lambda ms: ms.mint.unique(_t(ms, [3, 1, 3, 2, 1]), True, True, True),
    "searchsorted": lambda ms: [ms.mint.searchsorted(_t(ms, [1.0, 2.0, 3.0, 4.0]), _t(ms, [2.0, 3.5])),
                                ms.mint.searchsorted(_t(ms, [1.0, 2.0, 3.0, 4.0]), _t(ms, [2.0, 3.5]), right=True)],
    "histc": lambda ms: ms.mint.histc(_a(ms), 4, -2.0, 4.0),
    "bincount": lambda ms: ms.mint.bincount(_t(ms, [0, 1, 1, 3])),
    "cat": lambda ms: [ms.mint.cat([_a(ms), _t(ms, _B)], 1), ms.mint.concat((_a(ms), _t(ms, _B)))],
    "stack": lambda ms: ms.mint.stack([_a(ms), _t(ms, _B)], 2),
    "hstack": lambda ms: ms.mint.hstack([_a(ms), _t(ms, _B)]),
    "dstack": lambda ms: ms.mint.dstack([_a(ms), _t(ms, _B)]),
    "split_chunk": lambda ms: [ms.mint.split(_t(ms, np.arange(10.0)), 3), ms.mint.split(_a(ms), [1, 2], 1),
                               ms.mint.chunk(_t(ms, np.arange(10.0)), 3), ms.mint.unbind(_a(ms), 1)],
    "reshape": lambda ms: ms.mint.reshape(_a(ms), (3, 2)),
    "flatten_dims": lambda ms: ms.mint.flatten(_t(ms, np.ones((2, 3, 4))), 1),
    "permute": lambda ms: ms.mint.permute(_t(ms, np.ones((2, 3, 4))), (2, 0, 1)),
    "transpose": lambda ms: [ms.mint.transpose(_a(ms), 0, 1), ms.mint.swapaxes(_a(ms), 0, 1)],
    "unsqueeze_squeeze": lambda ms: [ms.mint.unsqueeze(_a(ms), 1), ms.mint.squeeze(_t(ms, np.ones((2, 1, 3))), 1)],
    "broadcast_to": lambda ms: ms.mint.broadcast_to(_t(ms, _V), (2, 3)),
    "narrow": lambda ms: ms.mint.narrow(_a(ms), 1, 1, 2),
    "flip": lambda ms: ms.mint.flip(_a(ms), (0, 1)),
    "roll": lambda ms: ms.mint.roll(_a(ms), 1, 1),
    "tile": lambda ms: ms.mint.tile(_a(ms), (2, 1)),
    "select": lambda ms: ms.mint.select(_a(ms), 1, 2),
    "repeat_interleave": lambda ms: [ms.mint.repeat_interleave(_a(ms), 2, 1), ms.mint.repeat_interleave(_a(ms), 2)],
    "gather": lambda ms: ms.mint.gather(_a(ms), 1, _t(ms, [[0, 2], [1, 0]])),
    "index_select": lambda ms: ms.mint.index_select(_a(ms), 1, _t(ms, [2, 0])),
    "take": lambda ms: ms.mint.take(_a(ms), _t(ms, [[0, 5], [3, 1]])),
    "masked_select": lambda ms: ms.mint.masked_select(_a(ms), _a(ms) > 0.5),
    "scatter": lambda ms: ms.mint.scatter(_t(ms, np.zeros((2, 3), np.float32)), 1, _t(ms, [[0, 2], [1, 0]]),
                                          _t(ms, [[1.0, 2.0], [3.0, 4.0]], ms.float32)),
    "scatter_scalar": lambda ms: ms.mint.scatter(_t(ms, np.zeros((2, 3), np.float32)), 0, _t(ms, [[1, 0, 1]]), 5.0),
    "scatter_add": lambda ms: ms.mint.scatter_add(_a(ms), 1, _t(ms, [[0, 0], [1, 1]]),
                                                  _t(ms, [[1.0, 2.0], [3.0, 4.0]], ms.float32)),
    "index_add": lambda ms: ms.mint.index_add(_a(ms), 1, _t(ms, [0, 2], ms.int32),
                                              _t(ms, [[1.0, 2.0], [3.0, 4.0]], ms.float32), alpha=2),
    "tril": lambda ms: ms.mint.tril(_t(ms, _M), -1),
    "triu": lambda ms: ms.mint.triu(_t(ms, _M), 1),
    "diag_offsets": lambda ms: [ms.mint.diag(_t(ms, _M), 1), ms.mint.diag(_t(ms, _V), -1)],
    "cross": lambda ms: ms.mint.cross(_a(ms), _t(ms, _B), 1),
    "cdist": lambda ms: [ms.mint.cdist(_a(ms), _t(ms, _B)), ms.mint.cdist(_a(ms), _t(ms, _B), 1.0)],
    "meshgrid": lambda ms: [ms.mint.meshgrid(_t(ms, [1, 2]), _t(ms, [3, 4, 5])),
                            ms.mint.meshgrid(_t(ms, [1, 2]), _t(ms, [3, 4, 5]), indexing="xy")],
    "polar": lambda ms: ms.mint.polar(_p(ms), _a(ms)),
    "triangular_solve": lambda ms: ms.mint.triangular_solve(_t(ms, _M[:, :2]), _t(ms, np.triu(_M))),
    "arange": lambda ms: [ms.mint.arange(5), ms.mint.arange(1, 4, 0.5), ms.mint.arange(0, 6, 2, dtype=ms.int32)],
    "linspace": lambda ms: [ms.mint.linspace(0, 1, 5), ms.mint.linspace(-1, 1, 3, dtype=ms.float64)],
    "zeros_ones": lambda ms: [ms.mint.zeros((2, 3)), ms.mint.ones((2,), dtype=ms.int32)],
    "full": lambda ms: [ms.mint.full((2, 2), 1.5), ms.mint.full_like(_a(ms), 7)],
    "like": lambda ms: [ms.mint.zeros_like(_a(ms), dtype=ms.int32), ms.mint.ones_like(_t(ms, _I))],
    "eye": lambda ms: [ms.mint.eye(3), ms.mint.eye(2, 3, ms.int32)],
    "empty_shapes": lambda ms: [ms.mint.empty(2, 3).shape, str(ms.mint.empty((4,), dtype=ms.int32).dtype),
                                ms.mint.empty_like(_t(ms, _I)).shape],
    "rand_shapes": lambda ms: [(t.shape, str(t.dtype)) for t in (
        ms.mint.rand(2, 3), ms.mint.randn((3,)), ms.mint.rand_like(_a(ms)), ms.mint.randn_like(_a(ms)))],
    "randint_shapes": lambda ms: [(t.shape, str(t.dtype)) for t in (
        ms.mint.randint(0, 5, (4,)), ms.mint.randint(3, (2, 2)), ms.mint.randint_like(_a(ms), 10))],
    "randperm": lambda ms: [ms.mint.randperm(6).shape, str(ms.mint.randperm(6).dtype)],
    "normal_shapes": lambda ms: [(t.shape, str(t.dtype)) for t in (
        ms.mint.normal(0.0, 1.0, (3,)), ms.mint.normal(_a(ms), 1.0), ms.mint.normal(_a(ms), _p(ms)))],
    "multinomial": lambda ms: ms.mint.multinomial(_t(ms, [0.0, 1.0, 0.0], ms.float32), 2, True),
    "rand_range": lambda ms: [bool((ms.mint.rand(200) < 1).all()), bool((ms.mint.rand(200) >= 0).all())],
    "randint_range": lambda ms: bool((ms.mint.randint(2, 5, (200,)) >= 2).all()),
    "nan_to_num_values": lambda ms: ms.mint.nan_to_num(_t(ms, [np.nan, np.inf, -np.inf], ms.float32), 1.0, 2.0, -2.0),
    "linalg_vector_norm": lambda ms: [ms.mint.linalg.vector_norm(_a(ms), 1, 1),
                                      ms.mint.linalg.vector_norm(_a(ms), 3, (0, 1))],
    "linalg_matrix_norm": lambda ms: [ms.mint.linalg.matrix_norm(_t(ms, _M), "nuc"),
                                      ms.mint.linalg.matrix_norm(_t(ms, _M), 1, keepdim=True)],
    "linalg_norm": lambda ms: ms.mint.linalg.norm(_a(ms), 2, 1),
    "linalg_qr": lambda ms: [abs(x) for x in ms.mint.linalg.qr(_t(ms, _M))],
    "special_log_softmax": lambda ms: ms.mint.special.log_softmax(_a(ms), 1),
    "softmax": lambda ms: [ms.mint.softmax(_a(ms), 1), ms.mint.softmax(_a(ms), 0, dtype=ms.float64)],
    "addr_": lambda ms: ms.mint.addr_(_t(ms, _A), _t(ms, [1.0, -2.0], ms.float32), _t(ms, _V), beta=0.5, alpha=2),
    "batch_norm_stats_elemt": lambda ms: _bn_stats(ms),
    "batch_norm_gather_stats": lambda ms: _bn_gather(ms),
    "conv_tbc": lambda ms: ms.mint.conv_tbc(_t(ms, np.arange(30.0, dtype=np.float32).reshape(5, 2, 3) / 10),
                                            _t(ms, _M[:2, :, None].repeat(4, 2)), _t(ms, [0.5, -0.5, 1.0, 0.0],
                                                                                     ms.float32), 1),
    "einsum": lambda ms: [ms.mint.einsum("ij,jk->ik", _a(ms), _t(ms, _M)), ms.mint.einsum("ii", _t(ms, _M))],
    "npu_gelu": lambda ms: ms.mint.npu_gelu(_a(ms)),
    "dtype_sum_int32": lambda ms: [ms.mint.sum(_t(ms, _I, ms.int32)), ms.mint.sum(_t(ms, _I, ms.int32), 1),
                                   ms.mint.sum(_t(ms, [True, False, True]))],
    "dtype_prod_int32": lambda ms: ms.mint.prod(_t(ms, _I, ms.int32), 1),
    "dtype_mean_int": lambda ms: ms.mint.mean(_t(ms, _I)),
    "dtype_div_int": lambda ms: [ms.mint.div(_t(ms, _I), 2), ms.mint.div(_t(ms, _I), _t(ms, _I + 10))],
    "dtype_mixed_scalar": lambda ms: [ms.mint.add(_t(ms, _I, ms.int32), 2.5), ms.mint.mul(_t(ms, _I, ms.int32), 2),
                                      ms.mint.sub(_t(ms, _I, ms.int32), True), ms.mint.pow(_t(ms, _I, ms.int32), 2)],
    "dtype_mixed_tensors": lambda ms: [ms.mint.add(_t(ms, _I, ms.int32), _a(ms)),
                                       ms.mint.mul(_a(ms).astype(ms.float16), _a(ms)),
                                       ms.mint.maximum(_t(ms, _I, ms.int32), _t(ms, _I))],
    "dtype_float16": lambda ms: [f(_a(ms).astype(ms.float16)) for f in (ms.mint.exp, ms.mint.sigmoid, ms.mint.sqrt,
                                                                       ms.mint.sum, ms.mint.mean)],
    "dtype_bool_ops": lambda ms: [ms.mint.logical_and(_t(ms, _I), _a(ms)), ms.mint.eq(_t(ms, _I), _t(ms, _I, ms.int32)),
                                  ms.mint.where(_a(ms) > 0, _t(ms, _I, ms.int32), 1.5)],
    "err_clamp_mixed": lambda ms: ms.mint.clamp(_a(ms), _t(ms, _B), 2.5),
    "err_abs_list": lambda ms: ms.mint.abs([1.0, -2.0]),
    "err_add_str": lambda ms: ms.mint.add(_a(ms), "x"),
    "err_reshape_size": lambda ms: ms.mint.reshape(_a(ms), (4, 2)),
    "err_transpose_dim": lambda ms: ms.mint.transpose(_a(ms), 0, 3),
    "err_gather_index_dtype": lambda ms: ms.mint.gather(_a(ms), 1, _t(ms, [[0.0, 1.0], [1.0, 0.0]])),
    "err_stack_shapes": lambda ms: ms.mint.stack([_a(ms), _t(ms, _M)]),
    "err_topk_k": lambda ms: ms.mint.topk(_a(ms), 5),
    "err_linspace_steps": lambda ms: ms.mint.linspace(0, 1, -2),
    "err_cat_rank": lambda ms: ms.mint.cat([_a(ms), _t(ms, _V)]),
    "err_sum_dim": lambda ms: ms.mint.sum(_a(ms), 5),
    "err_matmul_shape": lambda ms: ms.mint.matmul(_a(ms), _a(ms)),
}

def _bn_stats(ms):
    x = _t(ms, np.arange(24.0, dtype=np.float32).reshape(2, 3, 4) % 5)
    mean, invstd = ms.mint.batch_norm_stats(x, 1e-5)
    return [mean, invstd, ms.mint.batch_norm_elemt(x, _t(ms, _V), _t(ms, [0.1, 0.2, 0.3], ms.float32), mean, invstd)]


def _bn_gather(ms):
    rm = ms.Parameter(_t(ms, np.zeros(3, np.float32)), name="rm")
    rv = ms.Parameter(_t(ms, np.ones(3, np.float32)), name="rv")
    out = ms.mint.batch_norm_gather_stats_with_counts(
        _t(ms, np.zeros((2, 3), np.float32)),
        _t(ms, [[1.0, 2.0, 3.0], [3.0, 0.0, 1.0]], ms.float32),
        _t(ms, [[1.0, 0.5, 2.0], [0.25, 1.0, 4.0]], ms.float32), rm, rv, 0.1, 1e-5, _t(ms, [4.0, 12.0], ms.float32))
    return [out, rm, rv]


# name -> ms -> gradient through the name
_GRADS = {
    "grad_elementwise": lambda ms: ms.grad(lambda x: (ms.mint.sin(x) * ms.mint.exp(x) + ms.mint.sqrt(ms.mint.abs(x)))
                                           .sum())(_a(ms)),
    "grad_reductions": lambda ms: ms.grad(lambda x: ms.mint.max(x, 1)[0].sum() + ms.mint.mean(x, 0).sum()
                                          + ms.mint.sum(x * x, 1).sum() + ms.mint.amax(x, 0).sum())(_a(ms)),
    "grad_matmul": lambda ms: ms.grad(lambda x, w: ms.mint.matmul(x, w).sum() + ms.mint.bmm(w[None], w[None]).sum(),
                                      (0, 1))(_a(ms), _t(ms, _M)),
    "grad_shape": lambda ms: ms.grad(lambda x: (ms.mint.cat([x, x * 2], 1) * _t(ms, np.arange(6.0), ms.float32)).sum()
                                     + ms.mint.gather(x, 1, _t(ms, [[0, 0], [2, 1]])).sum())(_a(ms)),
    "grad_where_clamp": lambda ms: ms.grad(lambda x: ms.mint.where(x > 0, x * x, -x).sum()
                                           + ms.mint.clamp(x, -1.0, 1.0).sum())(_a(ms)),
}


# Cases whose MindSpore 2.10 (CPU) result is a missing-kernel error ("The kernel AcosExt
# unregistered", "conv1d only supports Ascend"...): not replayed as goldens, but reference-checked
# against NumPy by tests/test_mint.py::test_no_cpu_kernel_names_against_numpy.
NO_CPU_KERNEL = {
    'call_addr_', 'call_batch_norm_gather_stats', 'call_batch_norm_stats_elemt', 'call_conv_tbc', 'call_einsum',
    'call_npu_gelu',
    'call_addbmm', 'call_addcdiv', 'call_addcmul', 'call_addmm', 'call_addmv', 'call_arange', 'call_argmax_dim',
    'call_argsort_dim', 'call_atan2', 'call_baddbmm', 'call_bincount', 'call_bitwise_or', 'call_bitwise_xor',
    'call_count_nonzero_dim', 'call_cummin', 'call_cumsum', 'call_diag_offsets', 'call_dot', 'call_equal',
    'call_full', 'call_histc', 'call_index_select', 'call_kthvalue', 'call_like', 'call_linalg_matrix_norm',
    'call_linalg_norm', 'call_linalg_qr', 'call_linalg_vector_norm', 'call_linspace', 'call_logaddexp',
    'call_logsumexp', 'call_median_dim', 'call_mm', 'call_multinomial', 'call_mv', 'call_norm_p',
    'call_normal_shapes', 'call_outer', 'call_rand_range', 'call_randint_range', 'call_randperm',
    'call_repeat_interleave', 'call_roll', 'call_scatter_add', 'call_sort_dim', 'call_special_log_softmax',
    'call_stack', 'call_std_dim', 'call_std_mean_dim', 'call_take', 'call_topk', 'call_triangular_solve',
    'call_tril', 'call_unique_full', 'call_var_dim', 'call_var_mean_dim', 'call_vdot', 'call_where_one_arg',
    'unary_acos', 'unary_acosh', 'unary_arccos', 'unary_arccosh', 'unary_arcsin', 'unary_arcsinh', 'unary_arctan',
    'unary_argmax', 'unary_argmin', 'unary_argsort', 'unary_asin', 'unary_asinh', 'unary_atan', 'unary_bernoulli',
    'unary_bitwise_not', 'unary_clone', 'unary_count_nonzero', 'unary_diag', 'unary_exp2', 'unary_frac',
    'unary_inverse', 'unary_isneginf', 'unary_linalg_inv', 'unary_linalg_matrix_norm', 'unary_linalg_norm',
    'unary_linalg_vector_norm', 'unary_log10', 'unary_log2', 'unary_median', 'unary_norm', 'unary_ones_like',
    'unary_sort', 'unary_special_exp2', 'unary_special_log_softmax', 'unary_std', 'unary_std_mean', 'unary_trace',
    'unary_tril', 'unary_unique', 'unary_var', 'unary_var_mean', 'unary_zeros_like'
}


def _all_cases():
    out = {}
    for name, build in _UNARY.items():
        out["unary_" + name.replace(".", "_")] = _unary(name, build)
    out.update({"call_" + k: v for k, v in _CALLS.items()})
    out.update(_GRADS)
    return dict(sorted(out.items()))


def all_cases():
    return {k: v for k, v in _all_cases().items() if k not in NO_CPU_KERNEL}


def reference_cases():
    return {k: v for k, v in _all_cases().items() if k in NO_CPU_KERNEL}
