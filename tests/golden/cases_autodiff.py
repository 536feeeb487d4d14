"""Golden cases for MindSpore's functional autodiff beyond grad: ``vjp``,
``jvp``, ``jacfwd``, ``jacrev`` (top level and ``ops.``) and ``ops.linearize``:
output nesting, several inputs/outputs, tuple grad_position, has_aux, Cells,
closures over Parameters, weights for vjp, and the errors."""
import numpy as np


def _t(ms, *values, dtype=np.float32):
    return ms.Tensor(np.array(values, dtype))


def _x(ms):
    return ms.Tensor(np.array([[1.0, 2.0], [3.0, 4.0]], np.float32))


def _y(ms):
    return ms.Tensor(np.array([5.0, 6.0], np.float32))


def _dense(ms):
    w = ms.Tensor(np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -0.5]], np.float32))
    b = ms.Tensor(np.array([0.1, -0.2], np.float32))
    return ms.nn.Dense(3, 2, weight_init=w, bias_init=b)


def _cube(x):
    return x ** 3


def _mul(x, y):
    return x * y


def _two_out(x, y):
    return x * y, x + y


def _three_out(x, y):
    return x * y, x + y, x - y


def _row_sum_scale(x, y):
    return (x ** 2).sum(axis=1) * y


def _pair(x, y):
    return x * 2, y ** 2


def _pair_extra(x, y):
    return x * 2, y ** 2, y + 1


def _sum_sq(a):
    return (a * a).sum()


# --------------------------------------------------------------------------- vjp
def case_vjp_single_input(ms):
    x = _x(ms)
    out, fn = ms.vjp(_cube, x)
    return [out, fn(ms.ops.ones_like(x)), fn(x)]


def case_vjp_two_inputs(ms):
    x, y = _x(ms), _x(ms) * 2
    out, fn = ms.vjp(_mul, x, y)
    return [out, fn(ms.ops.ones_like(x))]


def case_vjp_multi_output(ms):
    x, y = _x(ms), _x(ms) + 1
    out, fn = ms.vjp(_two_out, x, y)
    v1, v2 = ms.ops.ones_like(x), ms.ops.ones_like(x) * 2
    return {"out": out, "separate": fn(v1, v2), "tuple": fn((v1, v2))}


def case_vjp_has_aux(ms):
    x, y = _x(ms), _x(ms) + 1
    out, fn, aux = ms.ops.vjp(_two_out, x, y, has_aux=True)
    return [out, aux, fn(ms.ops.ones_like(x) * 3)]


def case_vjp_has_aux_three_outputs(ms):
    x, y = _x(ms), _x(ms) + 1
    out, fn, aux = ms.vjp(_three_out, x, y, has_aux=True)
    return [out, aux, fn(ms.ops.ones_like(x))]


def case_vjp_has_aux_one_output(ms):
    return ms.vjp(_cube, _x(ms), has_aux=True)


def case_vjp_has_aux_not_bool(ms):
    return ms.vjp(_cube, _x(ms), has_aux=1)


def case_vjp_non_tensor_input(ms):
    return ms.vjp(_cube, 3.0)


def case_vjp_weights_parameter(ms):
    w = ms.Parameter(_t(ms, 1.0, 2.0), name="w")

    def f(x):
        return x * w * w
    out, fn = ms.vjp(f, _t(ms, 3.0, 4.0), weights=w)
    return [out, fn(_t(ms, 1.0, 0.5))]


def case_vjp_weights_list(ms):
    w = ms.Parameter(_t(ms, 1.0, 2.0), name="w")
    b = ms.Parameter(_t(ms, -1.0), name="b")

    def f(x):
        return x * w + b
    out, fn = ms.vjp(f, _t(ms, 3.0, 4.0), weights=[w, b])
    return [out, fn(_t(ms, 1.0, 2.0))]


def case_vjp_closure_without_weights(ms):
    w = ms.Parameter(_t(ms, 1.0, 2.0), name="w")

    def f(x):
        return ms.ops.sin(x) * w
    out, fn = ms.vjp(f, _t(ms, 0.5, 1.5))
    return [out, fn(_t(ms, 1.0, 1.0))]


def case_vjp_cell_trainable_params(ms):
    net = _dense(ms)
    x = ms.Tensor(np.array([[1.0, 2.0, 3.0], [0.5, -1.0, 2.0]], np.float32))
    out, fn = ms.vjp(net, x, weights=net.trainable_params())
    return [out, fn(ms.Tensor(np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)))]


def case_vjp_weights_only_no_inputs(ms):
    w = ms.Parameter(_t(ms, 1.0, 2.0), name="w")

    def f():
        return w * 2
    out, fn = ms.vjp(f, weights=w)
    return [out, fn(_t(ms, 1.0, 3.0))]


def case_vjp_scalar_output(ms):
    out, fn = ms.vjp(_sum_sq, _x(ms))
    return [out, fn(ms.Tensor(2.0, ms.float32))]


def case_vjp_called_twice(ms):
    x = _x(ms)
    out, fn = ms.vjp(_cube, x)
    return [fn(ms.ops.ones_like(x)), fn(ms.ops.ones_like(x) * 2)]


def case_vjp_int_input(ms):
    out, fn = ms.vjp(_cube, _t(ms, 1, 2, dtype=np.int32))
    return [out, fn(_t(ms, 1, 1, dtype=np.int32))]


def case_vjp_bad_v_shape(ms):
    _, fn = ms.vjp(_cube, _x(ms))
    return fn(ms.Tensor(np.ones((2, 3), np.float32)))


def case_vjp_v_not_broadcast(ms):
    _, fn = ms.vjp(_cube, _x(ms))
    return fn(ms.Tensor(np.ones((2,), np.float32)))


def case_vjp_scalar_v_for_matrix(ms):
    _, fn = ms.vjp(_cube, _x(ms))
    return fn(ms.Tensor(2.0, ms.float32))


def case_vjp_bad_v_dtype(ms):
    _, fn = ms.vjp(_cube, _x(ms))
    return fn(ms.Tensor(np.ones((2, 2), np.float64)))


def case_vjp_v_count(ms):
    _, fn = ms.vjp(_cube, _x(ms))
    return fn(ms.ops.ones_like(_x(ms)), ms.ops.ones_like(_x(ms)))


def case_vjp_v_numpy(ms):
    _, fn = ms.vjp(_cube, _x(ms))
    return fn(np.ones((2, 2), np.float32))


# --------------------------------------------------------------------------- jvp
def case_jvp_single_input(ms):
    x = _x(ms)
    return ms.jvp(_cube, x, ms.ops.ones_like(x) * 0.5)


def case_jvp_two_inputs_list(ms):
    x = _x(ms)
    return ms.ops.jvp(_mul, [x, x + 1], [ms.ops.ones_like(x), x * 2])


def case_jvp_multi_output(ms):
    x, y = _x(ms), _x(ms) - 1
    return ms.jvp(_two_out, (x, y), (ms.ops.ones_like(x), y))


def case_jvp_has_aux(ms):
    x, y = _x(ms), _x(ms) - 1
    return ms.jvp(_two_out, (x, y), (ms.ops.ones_like(x), y), has_aux=True)


def case_jvp_has_aux_three_outputs(ms):
    x, y = _x(ms), _x(ms) - 1
    return ms.jvp(_three_out, (x, y), (ms.ops.ones_like(x), y), has_aux=True)


def case_jvp_has_aux_one_output(ms):
    return ms.jvp(_cube, _x(ms), _x(ms), has_aux=True)


def case_jvp_has_aux_not_bool(ms):
    return ms.jvp(_cube, _x(ms), _x(ms), has_aux="yes")


def case_jvp_bad_length(ms):
    x = _x(ms)
    return ms.jvp(_mul, (x, x), (x,))


def case_jvp_broadcast_v(ms):
    return ms.jvp(_cube, _x(ms), _y(ms))


def case_jvp_v_not_broadcastable(ms):
    return ms.jvp(_cube, _x(ms), _t(ms, 1.0, 2.0, 3.0))


def case_jvp_bad_v_dtype(ms):
    return ms.jvp(_cube, _x(ms), ms.Tensor(np.ones((2, 2), np.float64)))


def case_jvp_non_tensor_input(ms):
    return ms.jvp(_cube, 3.0, _x(ms))


def case_jvp_structure_mismatch(ms):
    x = _x(ms)
    return ms.jvp(_cube, x, [x])


def case_jvp_closure_parameter(ms):
    w = ms.Parameter(_t(ms, 1.0, 2.0), name="w")

    def f(a):
        return ms.ops.exp(a * w)
    return ms.jvp(f, _t(ms, 0.5, -0.5), _t(ms, 1.0, 2.0))


def case_jvp_cell(ms):
    net = _dense(ms)
    x = ms.Tensor(np.array([[1.0, 2.0, 3.0]], np.float32))
    return ms.jvp(net, x, ms.Tensor(np.array([[0.5, 1.0, -1.0]], np.float32)))


def case_jvp_scalar_output(ms):
    y = _y(ms)
    return ms.jvp(_sum_sq, y, ms.ops.ones_like(y))


def case_jvp_int_input(ms):
    return ms.jvp(_cube, _t(ms, 1, 2, dtype=np.int32), _t(ms, 1, 3, dtype=np.int32))


# ----------------------------------------------------------------- jacfwd / jacrev
def _both(ms, fn, *args, **kwargs):
    return {"fwd": ms.jacfwd(fn, **kwargs)(*args), "rev": ms.jacrev(fn, **kwargs)(*args),
            "ops_fwd": ms.ops.jacfwd(fn, **kwargs)(*args), "ops_rev": ms.ops.jacrev(fn, **kwargs)(*args)}


def case_jac_default_position(ms):
    return _both(ms, _row_sum_scale, _x(ms), _y(ms))


def case_jac_two_positions(ms):
    return _both(ms, _row_sum_scale, _x(ms), _y(ms), grad_position=(0, 1))


def case_jac_position_one_tuple(ms):
    return _both(ms, _row_sum_scale, _x(ms), _y(ms), grad_position=(1,))


def case_jac_multi_output(ms):
    return _both(ms, _pair, _x(ms), _y(ms))


def case_jac_multi_output_two_positions(ms):
    return _both(ms, _pair, _x(ms), _y(ms), grad_position=(0, 1))


def case_jac_has_aux(ms):
    return _both(ms, _pair, _x(ms), _y(ms), has_aux=True)


def case_jac_has_aux_three_outputs(ms):
    return _both(ms, _pair_extra, _x(ms), _y(ms), grad_position=1, has_aux=True)


def case_jac_scalar_output(ms):
    return _both(ms, _sum_sq, _y(ms))


def case_jac_closure_parameter(ms):
    w = ms.Parameter(_t(ms, 1.0, 2.0), name="w")

    def f(a):
        return ms.ops.tanh(a * w)
    return _both(ms, f, _t(ms, 0.5, -0.25))


def case_jac_cell(ms):
    net = _dense(ms)
    return _both(ms, net, ms.Tensor(np.array([[1.0, 2.0, 3.0]], np.float32)))


def case_jac_called_twice(ms):
    f = ms.jacrev(_row_sum_scale, grad_position=(0, 1))
    g = ms.jacfwd(_row_sum_scale, grad_position=(0, 1))
    x, y = _x(ms), _y(ms)
    return [f(x, y), f(x * 2, y), g(x, y), g(x, y * 3)]


def case_jacfwd_bad_position(ms):
    return ms.jacfwd(_row_sum_scale, 2)(_x(ms), _y(ms))


def case_jacrev_bad_position(ms):
    return ms.jacrev(_row_sum_scale, (0, 2))(_x(ms), _y(ms))


def case_jacfwd_negative_position(ms):
    return ms.jacfwd(_row_sum_scale, -1)(_x(ms), _y(ms))


def case_jacrev_string_position(ms):
    return ms.jacrev(_row_sum_scale, "a")(_x(ms), _y(ms))


def case_jacrev_duplicate_position(ms):
    return ms.jacrev(_row_sum_scale, (0, 0))(_x(ms), _y(ms))


def case_jacfwd_has_aux_one_output(ms):
    return ms.jacfwd(_row_sum_scale, has_aux=True)(_x(ms), _y(ms))


def case_jacrev_has_aux_one_output(ms):
    return ms.jacrev(_row_sum_scale, has_aux=True)(_x(ms), _y(ms))


def case_jacfwd_has_aux_not_bool(ms):
    return ms.jacfwd(_row_sum_scale, has_aux=1)


def case_jacrev_has_aux_not_bool(ms):
    return ms.jacrev(_row_sum_scale, has_aux=None)


def case_jacfwd_float64(ms):
    return ms.jacfwd(_cube)(ms.Tensor(np.array([1.0, 2.0])))


def case_jacrev_float64(ms):
    return ms.jacrev(_cube)(ms.Tensor(np.array([1.0, 2.0])))


def case_jacrev_int(ms):
    return ms.jacrev(_cube)(_t(ms, 1, 2, dtype=np.int32))


# --------------------------------------------------------------------- linearize
def case_linearize_one_input(ms):
    x = _x(ms)
    out, fn = ms.ops.linearize(_cube, x)
    return [out, fn(ms.ops.ones_like(x)), fn(x)]


def case_linearize_two_inputs(ms):
    x, y = _x(ms), _x(ms) + 1
    out, fn = ms.ops.linearize(_two_out, (x, y))
    return [out, fn((ms.ops.ones_like(x), y))]


def case_linearize_non_tensor(ms):
    return ms.ops.linearize(_cube, 2.0)


# -------------------------------------------------------------------- derivative
def case_derivative_orders(ms):
    x = _t(ms, 1.0, 2.0)

    def f(a):
        return ms.ops.sin(a) * a
    return [ms.ops.derivative(f, x, 1), ms.ops.derivative(f, x, 2), ms.ops.derivative(f, x, 3)]


def case_derivative_tuple_primals(ms):
    def f(a, b):
        return ms.ops.sin(a) * b
    return ms.ops.derivative(f, (_t(ms, 1.0, 2.0), _t(ms, 0.5, 3.0)), 2)


def case_derivative_int_primal(ms):
    def f(a):
        return a * a * a
    return ms.ops.derivative(f, _t(ms, 1, 2, dtype=np.int32), 2)


def case_derivative_two_outputs(ms):
    def f(a):
        return ms.ops.exp(a), a * a
    return ms.ops.derivative(f, _t(ms, 0.5, 1.0), 1)


def case_derivative_order_zero(ms):
    return ms.ops.derivative(_cube, _t(ms, 1.0), 0)


def case_derivative_order_float(ms):
    return ms.ops.derivative(_cube, _t(ms, 1.0), 1.5)


def case_derivative_float16(ms):
    return ms.ops.derivative(_cube, _t(ms, 1.0, dtype=np.float16), 1)


def all_cases():
    return {k[len("case_"):]: v for k, v in sorted(globals().items()) if k.startswith("case_") and callable(v)}
