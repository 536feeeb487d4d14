"""Hand tests for ``vjp``/``jvp``/``jacfwd``/``jacrev``/``ops.linearize``/``ops.derivative``: one
trace per signature, agreement with finite differences and with each other,
closures over Parameters, printing inside, both modes (the golden suite
``cases_autodiff`` checks MindSpore's nesting and errors)."""
import numpy as np
import pytest

import msjax as ms
from msjax import nn, ops
from msjax._core import transforms

RNG = np.random.default_rng(0)


def _t(*shape):
    return ms.Tensor(RNG.standard_normal(shape).astype(np.float32))


def _fd_jacobian(f, args, pos, eps=1e-3):
    """Central differences of f's (single) output with respect to args[pos]."""
    base = [a.asnumpy().astype(np.float64) for a in args]
    out_shape = f(*args).shape
    jac = np.zeros(tuple(out_shape) + base[pos].shape)
    for idx in np.ndindex(base[pos].shape):
        hi, lo = [b.copy() for b in base], [b.copy() for b in base]
        hi[pos][idx] += eps
        lo[pos][idx] -= eps
        fh = f(*[ms.Tensor(h.astype(np.float32)) for h in hi]).asnumpy()
        fl = f(*[ms.Tensor(h.astype(np.float32)) for h in lo]).asnumpy()
        jac[(Ellipsis,) + idx] = (fh - fl) / (2 * eps)
    return jac


def _f(x, y):
    return ops.sin(x) * y.sum() + ops.tanh(x * 2) ** 2


def test_jacobians_agree_with_finite_differences(mode):
    x, y = _t(2, 3), _t(4)
    fd_x, fd_y = _fd_jacobian(_f, [x, y], 0), _fd_jacobian(_f, [x, y], 1)
    for jac in (ms.jacfwd, ms.jacrev):
        jx, jy = jac(_f, grad_position=(0, 1))(x, y)
        np.testing.assert_allclose(jx.asnumpy(), fd_x, rtol=2e-2, atol=2e-3)
        np.testing.assert_allclose(jy.asnumpy(), fd_y, rtol=2e-2, atol=2e-3)


def test_vjp_and_jvp_match_the_jacobian(mode):
    x, y = _t(2, 3), _t(4)
    jx = ms.jacrev(_f)(x, y).asnumpy()          # (2, 3, 2, 3)
    u, v = _t(2, 3), _t(2, 3)
    out, vjp_fn = ms.vjp(_f, x, y)
    gx, _ = vjp_fn(u)
    np.testing.assert_allclose(gx.asnumpy(), np.einsum("ab,abcd->cd", u.asnumpy(), jx), rtol=1e-4, atol=1e-5)
    out2, tangent = ms.jvp(_f, (x, y), (v, ops.zeros_like(y)))
    np.testing.assert_allclose(tangent.asnumpy(), np.einsum("abcd,cd->ab", jx, v.asnumpy()), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(out.asnumpy(), out2.asnumpy(), rtol=1e-5, atol=1e-6)
    _, lin = ops.linearize(_f, (x, y))
    np.testing.assert_allclose(lin((v, ops.zeros_like(y))).asnumpy(), tangent.asnumpy(), rtol=1e-6)


def test_one_trace_per_signature(mode):
    w = ms.Parameter(ms.Tensor(np.array([1.0, 2.0], np.float32)), name="w")

    def f(x):
        return ops.exp(x * w)

    x = ms.Tensor(np.array([0.5, 1.0], np.float32))
    jf, jr = ms.jacfwd(f), ms.jacrev(f)
    for call in (lambda a: jf(a), lambda a: jr(a), lambda a: ms.jvp(f, a, a),
                 lambda a: ms.vjp(f, a)[1](a), lambda a: ops.derivative(f, a, 2)):
        call(x)
        before = transforms.TRACES[0]
        call(x * 2)
        call(x + 1)
        assert transforms.TRACES[0] == before, "a second call with the same signature traced again"


def test_closed_over_parameters_are_read_at_call_time(mode):
    w = ms.Parameter(ms.Tensor(np.array([1.0, 2.0], np.float32)), name="w")

    def f(x):
        return x * w

    x = ms.Tensor(np.array([3.0, 4.0], np.float32))
    jac = ms.jacrev(f)
    np.testing.assert_allclose(jac(x).asnumpy(), np.diag([1.0, 2.0]))
    w.set_data(ms.Tensor(np.array([5.0, -1.0], np.float32)))
    np.testing.assert_allclose(jac(x).asnumpy(), np.diag([5.0, -1.0]))
    _, vjp_fn = ms.vjp(f, x, weights=w)
    (gx,), gw = vjp_fn(ms.Tensor(np.ones(2, np.float32)))
    np.testing.assert_allclose(gx.asnumpy(), [5.0, -1.0])
    np.testing.assert_allclose(gw.asnumpy(), [3.0, 4.0])


def test_cell_jacobian_matches_its_weight(mode):
    net = nn.Dense(3, 2)
    x = _t(1, 3)
    expected = net.weight.asnumpy()[None, :, None, :]
    for jac in (ms.jacfwd, ms.jacrev):
        np.testing.assert_allclose(jac(net)(x).asnumpy(), expected, rtol=1e-6)


def test_print_inside(mode, capsys):
    def f(x):
        print("in f")
        return x * x

    x = ms.Tensor(np.array([1.0, 2.0], np.float32))
    ms.jacrev(f)(x)
    ms.jvp(f, x, x)
    assert capsys.readouterr().out.count("in f") >= 2


def test_vjp_fn_called_twice_warns_in_pynative():
    ms.set_context(mode=ms.PYNATIVE_MODE)
    x = ms.Tensor(np.array([1.0, 2.0], np.float32))
    _, fn = ms.vjp(ops.sin, x)
    fn(x)
    with pytest.warns(RuntimeWarning, match="called multiple times"):
        fn(x)


def test_derivative_matches_closed_form(mode):
    x = ms.Tensor(np.array([0.3, 1.7], np.float32))
    out, d3 = ops.derivative(lambda a: ops.sin(a) * a, x, 3)
    xn = x.asnumpy().astype(np.float64)
    np.testing.assert_allclose(out.asnumpy(), np.sin(xn) * xn, rtol=1e-6)
    np.testing.assert_allclose(d3.asnumpy(), -3 * np.sin(xn) - xn * np.cos(xn), rtol=1e-5)
