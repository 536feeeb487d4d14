"""``mindspore.mint``: every name MindSpore 2.10 has is present (tests/fixtures/mint_names.json,
recorded by tests/fixtures/record_mint_names.py), ``mint.distributed`` raises a clear error, and
the names MindSpore's CPU build cannot run (no CPU kernel, so no golden output) are checked
against NumPy / hand-written references. Everything else is in the golden suites
``cases_mint.py`` and ``cases_mint_nn.py``."""
import importlib
import json
import math
import os

import numpy as np
import pytest

import msjax as ms
from msjax import mint

_FIXTURE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "mint_names.json")


def _modules():
    with open(_FIXTURE) as f:
        return json.load(f)["modules"]


@pytest.mark.parametrize("module", sorted(_modules()))
def test_every_mint_name_is_present(module):
    names = _modules()[module]
    mod = importlib.import_module("msjax" + module[len("mindspore"):])
    missing = [n for n in names if not hasattr(mod, n)]
    assert not missing, f"{module} lacks {missing}"
    assert set(names) == set(mod.__all__) - {"Cell"}


def test_mint_resolves_through_the_mindspore_alias():
    from msjax import _compat
    _compat.install()
    m = importlib.import_module("mindspore.mint.nn.functional")
    assert m.relu is mint.nn.functional.relu
    assert importlib.import_module("mindspore.mint.optim").AdamW is mint.optim.AdamW


def test_distributed_on_one_process_and_unsupported_names():
    d = mint.distributed
    assert d.is_available() is True
    assert d.is_initialized() is False and d.get_rank() == 0 and d.get_world_size() == 1   # as MindSpore 2.10
    d.init_process_group()
    try:
        assert d.is_initialized() and (d.get_rank(), d.get_world_size(), d.get_backend()) == (0, 1, "mccl")
        t = ms.Tensor([1.0, 2.0])
        assert d.all_reduce(t, op="avg") is None and t.asnumpy().tolist() == [1.0, 2.0]
        out = [ms.Tensor([0.0, 0.0])]
        d.all_gather(out, ms.Tensor([3.0, 4.0]))
        assert out[0].asnumpy().tolist() == [3.0, 4.0]
        o = ms.Tensor([0.0, 0.0])
        assert d.all_gather_into_tensor(o, ms.Tensor([5.0, 6.0]), async_op=True).wait()
        assert o.asnumpy().tolist() == [5.0, 6.0]
        d.broadcast(t, 0)
        d.barrier()
        with pytest.raises(TypeError, match="op value must be one of"):
            d.all_reduce(t, op="mean")
        with pytest.raises(TypeError, match="input tensor must be tensor"):
            d.all_reduce([1.0])
        for name in ("send", "recv", "all_to_all", "scatter", "gather_object"):
            with pytest.raises(RuntimeError, match=rf"mint\.distributed\.{name}: msjax's collective"):
                getattr(d, name)(t)
        with pytest.raises(RuntimeError, match="P2POp"):
            d.P2POp("isend", None, 0)
    finally:
        d.destroy_process_group()
    assert d.is_initialized() is False
    assert not hasattr(mint, "all_reduce")   # in mint.__all__ of MindSpore 2.10 but not in mint


def test_optimizer_group_lr_is_a_parameter_a_compiled_step_reads():
    net = mint.nn.Linear(3, 1)
    opt = mint.optim.SGD(net.trainable_params(), lr=0.1)
    lr = opt.param_groups[0]["lr"]
    assert isinstance(lr, ms.Parameter) and lr.name == "learning_rate_group_0"
    grad_fn = ms.value_and_grad(lambda x: (net(x) ** 2).sum(), None, opt.parameters)

    @ms.jit
    def step(x):
        loss, grads = grad_fn(x)
        opt(grads)
        return loss

    x = ms.Tensor(np.ones((2, 3), np.float32))
    w0 = net.weight.asnumpy().copy()
    step(x)
    w1 = net.weight.asnumpy().copy()
    ms.ops.assign(lr, ms.Tensor(0.0, ms.float32))   # as an LR scheduler does
    step(x)
    assert np.abs(w1 - w0).max() > 0 and np.array_equal(net.weight.asnumpy(), w1)


def _t(a, dt=None):
    return ms.Tensor(np.array(a), dt)


_A = np.array([[0.5, -1.25, 2.0], [3.5, -0.75, 1.0]], np.float32)


# ---------------------------------------------------------------------------
# names MindSpore 2.10's CPU build cannot run: each golden case of cases_mint.py whose
# recorded MindSpore result is a missing-kernel error, checked here against NumPy
# ---------------------------------------------------------------------------
import sys  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from golden import cases_mint  # noqa: E402

_Bm = np.array([[1.0, 2.0, -1.0], [0.5, -2.0, 3.0]], np.float32)
_P = np.array([[0.25, 1.5, 2.0], [3.0, 0.5, 4.0]], np.float32)
_U = np.array([[0.1, -0.5, 0.9], [-0.3, 0.7, 0.0]], np.float32)
_G = np.array([[1.5, 2.5, 3.0], [4.0, 1.25, 6.0]], np.float32)
_M = np.array([[2.0, 1.0, 0.5], [1.0, 3.0, 0.25], [0.5, 0.25, 4.0]], np.float32)
_V = np.array([1.0, -2.0, 0.5], np.float32)
_I = np.array([[3, -1, 4], [1, 5, -9]], np.int64)
_SEL = np.array([[1, 2, 3], [4, 5, 6]])


def _np_median_lower(a, axis):
    s = np.sort(a, axis=axis)
    k = (a.shape[axis] - 1) // 2
    return np.take(s, k, axis=axis)


def _np_norm(a, p, axis=None, keepdims=False):
    if p == np.inf:
        return np.max(np.abs(a), axis=axis, keepdims=keepdims)
    return np.sum(np.abs(a) ** p, axis=axis, keepdims=keepdims) ** (1.0 / p)


# case name -> expected NumPy value(s); integer and Bool results must have the reference's exact dtype
def _bn_gather_ref():
    m = np.array([[1.0, 2.0, 3.0], [3.0, 0.0, 1.0]])
    inv = np.array([[1.0, 0.5, 2.0], [0.25, 1.0, 4.0]])
    c = np.array([[4.0], [12.0]])
    g_mean = (m * c).sum(0) / 16
    g_var = ((1 / inv ** 2 - 1e-5 + (m - g_mean) ** 2) * c).sum(0) / 16
    return [(g_mean, 1 / np.sqrt(g_var + 1e-5)), 0.1 * g_mean, 0.9 + 0.1 * g_var * 16 / 15]


def _bn_stats_ref():
    x = np.arange(24.0).reshape(2, 3, 4) % 5
    mean, var = x.mean((0, 2)), x.var((0, 2))
    inv = 1 / np.sqrt(var + 1e-5)
    y = (x - mean[:, None]) * inv[:, None] * _V[:, None] + np.array([0.1, 0.2, 0.3])[:, None]
    return [mean, inv, y]


def _conv_tbc_ref():
    x = np.pad(np.arange(30.0).reshape(5, 2, 3) / 10, [(1, 1), (0, 0), (0, 0)])
    k = _M[:2, :, None].repeat(4, 2)
    out = sum(np.einsum("tbc,co->tbo", x[i:i + 6], k[i]) for i in range(2))
    return out + np.array([0.5, -0.5, 1.0, 0.0])


NUMPY_REFERENCE = {
    "call_addr_": lambda: 0.5 * _A + 2 * np.outer([1.0, -2.0], _V),
    "call_batch_norm_stats_elemt": _bn_stats_ref,
    "call_batch_norm_gather_stats": _bn_gather_ref,
    "call_conv_tbc": _conv_tbc_ref,
    "call_einsum": lambda: [_A @ _M, np.float32(np.trace(_M))],
    "call_npu_gelu": lambda: 0.5 * _A * (1 + np.vectorize(math.erf)(_A / np.sqrt(2))),
    "unary_acos": lambda: np.arccos(_U), "unary_arccos": lambda: np.arccos(_U),
    "unary_acosh": lambda: np.arccosh(_G), "unary_arccosh": lambda: np.arccosh(_G),
    "unary_arcsin": lambda: np.arcsin(_U), "unary_asin": lambda: np.arcsin(_U),
    "unary_arcsinh": lambda: np.arcsinh(_A), "unary_asinh": lambda: np.arcsinh(_A),
    "unary_arctan": lambda: np.arctan(_A), "unary_atan": lambda: np.arctan(_A),
    "unary_argmax": lambda: np.int64(np.argmax(_A)), "unary_argmin": lambda: np.int64(np.argmin(_A)),
    "unary_argsort": lambda: np.argsort(_A, -1, kind="stable").astype(np.int64),
    "unary_bitwise_not": lambda: ~_I, "unary_clone": lambda: _A,
    "unary_count_nonzero": lambda: np.int64(3), "unary_diag": lambda: np.diag(_V),
    "unary_exp2": lambda: np.exp2(_A), "unary_special_exp2": lambda: np.exp2(_A),
    "unary_frac": lambda: _A - np.trunc(_A),
    "unary_inverse": lambda: np.linalg.inv(_M), "unary_linalg_inv": lambda: np.linalg.inv(_M),
    "unary_isneginf": lambda: np.array([False, False, True, False]),
    "unary_log10": lambda: np.log10(_P), "unary_log2": lambda: np.log2(_P),
    "unary_median": lambda: np.float32(_np_median_lower(_A.reshape(-1), 0)),
    "unary_norm": lambda: np.float32(np.sqrt((_A ** 2).sum())),
    "unary_linalg_norm": lambda: np.float32(np.sqrt((_A ** 2).sum())),
    "unary_linalg_vector_norm": lambda: np.float32(np.sqrt((_A ** 2).sum())),
    "unary_linalg_matrix_norm": lambda: np.float32(np.sqrt((_A ** 2).sum())),
    "unary_ones_like": lambda: np.ones_like(_A), "unary_zeros_like": lambda: np.zeros_like(_A),
    "unary_sort": lambda: (np.sort(_A, -1), np.argsort(_A, -1, kind="stable").astype(np.int64)),
    "unary_special_log_softmax": lambda: _A - np.log(np.exp(_A).sum(1, keepdims=True)),
    "unary_std": lambda: np.float32(_A.std(ddof=1)), "unary_var": lambda: np.float32(_A.var(ddof=1)),
    "unary_std_mean": lambda: (np.float32(_A.std(ddof=1)), np.float32(_A.mean())),
    "unary_var_mean": lambda: (np.float32(_A.var(ddof=1)), np.float32(_A.mean())),
    "unary_trace": lambda: np.float32(np.trace(_M)), "unary_tril": lambda: np.tril(_M), 
    "unary_unique": lambda: np.array([1, 2, 3]), 
    "unary_bernoulli": lambda: np.array([[0.0, 1.0], [1.0, 0.0]], np.float32),
    "call_addcdiv": lambda: _A + 0.5 * _Bm / _P, "call_addcmul": lambda: _A + 2 * _Bm * _P,
    "call_addmm": lambda: 0.5 * _M + 2.0 * _M @ _M, "call_addmv": lambda: 2 * _V + 0.5 * _M @ _V,
    "call_baddbmm": lambda: (0.5 * _M + 1.5 * _M @ _M)[None],
    "call_addbmm": lambda: _M + 0.5 * 2 * (_M @ _M),
    "call_mm": lambda: _A @ _M, 
    "call_mv": lambda: _M @ _V, "call_dot": lambda: np.float32(_V @ _V), "call_outer": lambda: np.outer(_V, _V),
    "call_vdot": lambda: np.float32(_V @ (_V * 2)),
    "call_atan2": lambda: [np.arctan2(_A, _Bm)] * 2,
    "call_bitwise_or": lambda: _I | _SEL, "call_bitwise_xor": lambda: _I ^ _SEL,
    "call_equal": lambda: _A == _Bm,
    "call_arange": lambda: [np.arange(5), np.arange(1, 4, 0.5, dtype=np.float32), np.arange(0, 6, 2, dtype=np.int32)],
    "call_linspace": lambda: [np.linspace(0, 1, 5, dtype=np.float32), np.linspace(-1, 1, 3)],
    "call_argmax_dim": lambda: [np.argmax(_A, 1), np.argmax(_A, 0)[None], np.argmin(_A, 1)[:, None]],
    "call_stack": lambda: np.stack([_A, _Bm], 2),
    "call_count_nonzero_dim": lambda: np.array([2, 1], np.int64),
    "call_full": lambda: [np.full((2, 2), 1.5, np.float32), np.full_like(_A, 7)],
    "call_like": lambda: [np.zeros((2, 3), np.int32), np.ones_like(_I)],
    "call_cummin": lambda: (np.minimum.accumulate(_A, 0), np.array([[0, 0, 0], [0, 0, 1]])),
    "call_cumsum": lambda: [np.cumsum(_A, 1), np.cumsum(_I, 0).astype(np.float32)],
    "call_index_select": lambda: _A[:, [2, 0]], 
    "call_take": lambda: _A.reshape(-1)[np.array([[0, 5], [3, 1]])],
    "call_histc": lambda: np.histogram(_A, 4, (-2.0, 4.0))[0].astype(np.float32),
    "call_kthvalue": lambda: (np.sort(_A, 1)[:, 1], np.argsort(_A, 1)[:, 1]),
    "call_linalg_vector_norm": lambda: [_np_norm(_A, 1, 1), np.float32(_np_norm(_A, 3))],
    "call_linalg_matrix_norm": lambda: [np.float32(np.linalg.norm(_M, "nuc")), np.linalg.norm(_M, 1, keepdims=True)],
    "call_linalg_norm": lambda: _np_norm(_A, 2, 1),
    "call_linalg_qr": lambda: [np.abs(x) for x in np.linalg.qr(_M)],
    "call_logaddexp": lambda: [np.logaddexp(_A, _Bm), np.logaddexp2(_A, _Bm)],
    "call_logsumexp": lambda: [np.log(np.exp(_A).sum(1)), np.log(np.exp(_A).sum(0, keepdims=True))],
    "call_median_dim": lambda: (_np_median_lower(_A, 1), np.argsort(_A, 1, kind="stable")[:, 1]),
    "call_norm_p": lambda: [np.float32(_np_norm(_A, 1)), _np_norm(_A, 2, 1), np.float32(np.linalg.norm(_A)),
                            _np_norm(_A, np.inf, 1, True)],
    "call_randperm": lambda: [(6,), "Int64"],
    "call_repeat_interleave": lambda: [np.repeat(_A, 2, 1), np.repeat(_A.reshape(-1), 2)],
    "call_roll": lambda: np.roll(_A, 1, 1),
    "call_sort_dim": lambda: (-np.sort(-_A, 0), np.argsort(-_A, 0, kind="stable")),
    "call_argsort_dim": lambda: np.argsort(-_A, 0, kind="stable"),
    "call_special_log_softmax": lambda: _A - np.log(np.exp(_A).sum(1, keepdims=True)),
    "call_std_dim": lambda: _A.std(1, ddof=1), "call_var_dim": lambda: _A.var(0, keepdims=True),
    "call_std_mean_dim": lambda: (_A.std(1), _A.mean(1)), "call_var_mean_dim": lambda: (np.float32(_A.var(ddof=1)),
                                                                                       np.float32(_A.mean())),
    "call_topk": lambda: [(-np.sort(-_A, 1)[:, :2], np.argsort(-_A, 1)[:, :2]),
                          (np.sort(_A, 0)[:1], np.argsort(_A, 0)[:1])],
    "call_triangular_solve": lambda: (np.linalg.solve(np.triu(_M), _M[:, :2]), np.triu(_M)),
    "call_tril": lambda: np.tril(_M, -1), 
    "call_diag_offsets": lambda: [np.diag(_M, 1), np.diag(_V, -1)],
    "call_unique_full": lambda: (np.array([1, 2, 3]), np.array([2, 0, 2, 1, 0]), np.array([2, 1, 2])),
    "call_where_one_arg": lambda: (np.array([0, 1]), np.array([2, 0])),
    "call_bincount": lambda: np.array([1, 2, 0, 1], np.int64),
    "call_multinomial": lambda: np.array([1, 1], np.int64),
    "call_normal_shapes": lambda: [((3,), "Float32"), ((2, 3), "Float32"), ((2, 3), "Float32")],
    "call_rand_range": lambda: [True, True], "call_randint_range": lambda: True,
    "call_scatter_add": lambda: _A + np.array([[3.0, 0, 0], [0, 7.0, 0]], np.float32),
}


def _as_list(v):
    return list(v) if isinstance(v, (list, tuple)) else [v]


def _check(actual, expected, path="result"):
    if isinstance(expected, (list, tuple)) and not isinstance(expected, np.ndarray):
        act = _as_list(actual)
        assert len(act) == len(expected), f"{path}: {len(act)} items, expected {len(expected)}"
        for i, (a, e) in enumerate(zip(act, expected)):
            _check(a, e, f"{path}[{i}]")
        return
    if isinstance(expected, str):
        assert str(actual) == expected, path
        return
    if isinstance(expected, tuple) or (isinstance(actual, tuple) and not isinstance(expected, np.ndarray)):
        assert tuple(actual) == tuple(expected), path
        return
    a = actual.asnumpy() if hasattr(actual, "asnumpy") else np.asarray(actual)
    e = np.asarray(expected)
    assert a.shape == e.shape, f"{path}: shape {a.shape}, expected {e.shape}"
    if e.dtype.kind in "iub" or a.dtype.kind in "iub":   # integer/bool results: the exact dtype
        assert a.dtype == e.dtype, f"{path}: dtype {a.dtype}, expected {e.dtype}"
    if e.dtype.kind in "fc":
        np.testing.assert_allclose(a, e, rtol=1e-5, atol=1e-5, err_msg=path)
    else:
        np.testing.assert_array_equal(a, e, err_msg=path)


@pytest.mark.parametrize("name", sorted(cases_mint.NO_CPU_KERNEL))
def test_no_cpu_kernel_names_against_numpy(name):
    assert name in NUMPY_REFERENCE, f"{name} has no CPU kernel in MindSpore 2.10 and needs a NumPy reference here"
    ms.set_context(mode=ms.PYNATIVE_MODE)
    actual = cases_mint.reference_cases()[name](ms)
    _check(actual, NUMPY_REFERENCE[name]())


@pytest.mark.parametrize("mode", ["pynative", "graph"])
def test_var_gradient_differentiates_the_formula(mode):
    """``mint.var``/``var_mean`` are MindSpore's Var/VarMean kernels (no CPU kernel in PyNative;
    GRAPH_MODE gives the formula's gradient, 0 where all values are equal), unlike ``ops.var``,
    whose ReduceStd backward is NaN there (golden grad_corners:degenerate_var_std)."""
    ms.set_context(mode=ms.GRAPH_MODE if mode == "graph" else ms.PYNATIVE_MODE)
    try:
        x = np.array([[2.0, 2.0, 2.0], [1.0, 2.0, 4.0]], np.float32)
        ref = 2 * (x - x.mean(1, keepdims=True)) / (x.shape[1] - 1)   # d/dx of var(x, correction=1)
        g = ms.grad(lambda v: mint.var(v, dim=1))(ms.Tensor(x)).asnumpy()
        np.testing.assert_allclose(g, ref, rtol=1e-5, atol=1e-6)
        g = ms.grad(lambda v: mint.var_mean(v, dim=1)[0] + mint.var_mean(v, dim=1)[1])(ms.Tensor(x)).asnumpy()
        np.testing.assert_allclose(g, ref + 1 / 3, rtol=1e-5, atol=1e-6)
        assert np.isnan(ms.grad(lambda v: ms.ops.var(v, axis=1))(ms.Tensor(x)).asnumpy()[0]).all()
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
