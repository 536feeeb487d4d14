"""Misuse inputs to the gradient API, transforms, Tensors, Parameters, Cells and
optimizers (``MISUSES``, 110+): each case runs a group of them and records, per
input, the exception type MindSpore 2.10 raises (or "ok"). ``tests/test_misuse.py``
also checks that msjax's exceptions are never JAX's own and carry a clear message."""
import numpy as np


def _T(ms, a, dt=None):
    return ms.Tensor(np.array(a, np.float32), dt or ms.float32)


def _x(ms):
    return _T(ms, [1.0, 2.0])


def _f(x):
    return (x * x).sum()


def _two(x, y):
    return (x * y).sum()


def _net(ms):
    return ms.nn.Dense(2, 1, weight_init="ones", bias_init="zeros")


def _w_net(ms):
    class W(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(_T(ms, [1.0, 2.0]), name="w")

        def construct(self, x):
            return (x * self.w).sum()
    return W()


def _raise_inside(x):
    raise ValueError("raised inside the function")


def _bad_shapes(x):
    return x + x.reshape(2, 1)[:, :1].reshape(1, 2, 1)


def _bad_matmul(ms):
    return lambda x: ms.ops.matmul(x.reshape(1, 2), x.reshape(1, 2)).sum()


def _has_construct(ms):
    class NoConstruct(ms.nn.Cell):
        pass
    return NoConstruct()


MISUSES = [
    # --- gradient API: argument checks ---------------------------------------------------
    ("grad_position_negative", lambda ms: ms.grad(_f, grad_position=-1)),
    ("grad_position_str", lambda ms: ms.grad(_f, grad_position="a")),
    ("grad_position_duplicate", lambda ms: ms.grad(_two, grad_position=(0, 0))),
    ("grad_position_tuple_str", lambda ms: ms.grad(_two, grad_position=(0, "a"))),
    ("grad_position_float", lambda ms: ms.value_and_grad(_f, grad_position=1.5)),
    ("grad_nothing_to_differentiate", lambda ms: ms.grad(_f, grad_position=None, weights=None)),
    ("grad_has_aux_str", lambda ms: ms.grad(_f, has_aux="yes")),
    ("grad_return_ids_int", lambda ms: ms.grad(_f, return_ids=1)),
    ("grad_sens_param_int", lambda ms: ms.grad(_f, sens_param=1)),
    ("grad_weights_int", lambda ms: ms.grad(_f, weights=3)),
    ("grad_weights_list_of_int", lambda ms: ms.grad(_f, weights=[1, 2])(_x(ms))),
    ("grad_not_callable", lambda ms: ms.grad(3)(_x(ms))),
    ("grad_position_out_of_range", lambda ms: ms.grad(_f, grad_position=2)(_x(ms))),
    ("grad_has_aux_one_output", lambda ms: ms.grad(_f, has_aux=True)(_x(ms))),
    ("grad_returns_str", lambda ms: ms.grad(lambda x: "s")(_x(ms))),
    ("grad_returns_none", lambda ms: ms.grad(lambda x: None)(_x(ms))),
    ("grad_missing_argument", lambda ms: ms.grad(_two)(_x(ms))),
    ("grad_extra_argument", lambda ms: ms.grad(_f)(_x(ms), _x(ms))),
    ("grad_raise_inside", lambda ms: ms.grad(_raise_inside)(_x(ms))),
    ("grad_bad_broadcast_inside", lambda ms: ms.grad(lambda x: (x + _T(ms, [1.0, 2.0, 3.0])).sum())(_x(ms))),
    ("grad_bad_matmul_inside", lambda ms: ms.grad(_bad_matmul(ms))(_x(ms))),
    ("value_and_grad_weights_dict", lambda ms: ms.value_and_grad(_f, weights={"a": 1})),
    # --- GradOperation ------------------------------------------------------------------
    ("gradop_get_all_int", lambda ms: ms.ops.GradOperation(get_all=1)),
    ("gradop_get_by_list_str", lambda ms: ms.ops.GradOperation(get_by_list="x")),
    ("gradop_sens_param_none", lambda ms: ms.ops.GradOperation(sens_param=None)),
    ("gradop_sens_missing", lambda ms: ms.ops.GradOperation(sens_param=True)(_f)()),
    ("gradop_sens_wrong_shape", lambda ms: ms.ops.GradOperation(sens_param=True)(
        lambda x: x * 2)(_x(ms), _T(ms, [1.0, 2.0, 3.0]))),
    ("gradop_by_list_weights_int", lambda ms: ms.ops.GradOperation(get_by_list=True)(_w_net(ms), 5)(_x(ms))),
    ("gradop_missing_argument", lambda ms: ms.ops.GradOperation()(_two)(_x(ms))),
    ("gradop_not_callable", lambda ms: ms.ops.GradOperation()(None)(_x(ms))),
    ("get_grad_without_ids", lambda ms: ms.get_grad(ms.grad(_two, grad_position=(0, 1))(_x(ms), _x(ms)), 0)),
    ("get_grad_unknown_position", lambda ms: ms.get_grad(
        ms.grad(_two, grad_position=(0, 1), return_ids=True)(_x(ms), _x(ms)), 5)),
    # --- vjp / jvp / jacobians --------------------------------------------------------------
    ("vjp_cotangent_wrong_shape", lambda ms: ms.vjp(lambda x: x * 2, _x(ms))[1](_T(ms, [1.0, 2.0, 3.0]))),
    ("vjp_input_str", lambda ms: ms.vjp(lambda x: x * 2, "abc")),
    ("vjp_fn_not_callable", lambda ms: ms.vjp(3, _x(ms))),
    ("jvp_tangent_count", lambda ms: ms.jvp(_two, (_x(ms), _x(ms)), (_x(ms),))),
    ("jvp_tangent_not_tensor", lambda ms: ms.jvp(lambda x: x * 2, _x(ms), 1.0)),
    ("jacfwd_position_negative", lambda ms: ms.jacfwd(lambda x: x * 2, grad_position=-1)),
    ("jacrev_position_str", lambda ms: ms.jacrev(lambda x: x * 2, grad_position="0")),
    # --- jit / vmap ---------------------------------------------------------------------------
    ("jit_not_callable", lambda ms: ms.jit(3)),
    ("jit_raise_inside", lambda ms: ms.jit(_raise_inside)(_x(ms))),
    ("jit_missing_argument", lambda ms: ms.jit(_two)(_x(ms))),
    ("vmap_in_axes_str", lambda ms: ms.vmap(lambda x: x * 2, in_axes="a")(_x(ms))),
    ("vmap_axis_sizes_differ", lambda ms: ms.vmap(_two, in_axes=0)(_x(ms), _T(ms, [1.0, 2.0, 3.0]))),
    # --- Tensors -----------------------------------------------------------------------------
    ("tensor_mixed_list", lambda ms: ms.Tensor([1, "a"])),
    ("tensor_none", lambda ms: ms.Tensor(None)),
    ("tensor_ragged", lambda ms: ms.Tensor([[1, 2], [3]])),
    ("tensor_dtype_str", lambda ms: ms.Tensor(1, dtype="float32")),
    ("tensor_add_str", lambda ms: _x(ms) + "a"),
    ("tensor_index_out_of_range", lambda ms: _x(ms)[5]),
    ("tensor_astype_bad", lambda ms: _x(ms).astype("int9")),
    ("tensor_register_hook_not_callable", lambda ms: _x(ms).register_hook(1)),
    # --- Parameters ---------------------------------------------------------------------------
    ("parameter_bool", lambda ms: ms.Parameter(True)),
    ("parameter_complex", lambda ms: ms.Parameter(1 + 2j)),
    ("parameter_tuple", lambda ms: ms.Parameter((1, 2))),
    ("parameter_none", lambda ms: ms.Parameter(None)),
    ("parameter_str", lambda ms: ms.Parameter("abc")),
    ("parameter_name_int", lambda ms: ms.Parameter(_x(ms), name=1)),
    ("parameter_name_too_long", lambda ms: ms.Parameter(_x(ms), name="x" * 2000)),
    ("parameter_layerwise_parallel_str", lambda ms: ms.Parameter(_x(ms), name="a", layerwise_parallel="x")),
    ("parameter_parallel_optimizer_int", lambda ms: ms.Parameter(_x(ms), name="a", parallel_optimizer=1)),
    ("parameter_requires_grad_int", lambda ms: ms.Parameter(_x(ms), name="a", requires_grad=1)),
    ("parameter_set_data_shape", lambda ms: ms.Parameter(_x(ms), name="a").set_data(_T(ms, [[1.0, 2.0, 3.0]]))),
    ("parameter_set_data_str", lambda ms: ms.Parameter(_x(ms), name="a").set_data("abc")),
    ("parameter_set_data_float_into_int", lambda ms: ms.Parameter(ms.Tensor([1, 2], ms.int32), name="a").set_data(
        _T(ms, [1.5, 2.5]))),
    ("parameter_requires_grad_setter_str", lambda ms: setattr(ms.Parameter(_x(ms), name="a"), "requires_grad", "x")),
    ("parameter_name_setter_int", lambda ms: setattr(ms.Parameter(_x(ms), name="a"), "name", 3)),
    ("parameter_tuple_of_ints", lambda ms: ms.ParameterTuple([1, 2])),
    # --- Cells ---------------------------------------------------------------------------------
    ("cell_without_construct", lambda ms: _has_construct(ms)(_x(ms))),
    ("cell_too_many_arguments", lambda ms: _net(ms)(_x(ms), _x(ms))),
    ("cell_insert_param_name_int", lambda ms: _net(ms).insert_param_to_cell(1, ms.Parameter(_x(ms), name="p"))),
    ("cell_insert_param_name_dot", lambda ms: _net(ms).insert_param_to_cell("a.b", ms.Parameter(_x(ms), name="p"))),
    ("cell_insert_param_not_param", lambda ms: _net(ms).insert_param_to_cell("a", 3)),
    ("cell_insert_child_empty_name", lambda ms: _net(ms).insert_child_to_cell("", _net(ms))),
    ("cell_insert_child_not_cell", lambda ms: _net(ms).insert_child_to_cell("a", 3)),
    ("cell_forward_hook_not_callable", lambda ms: _net(ms).register_forward_hook(1)),
    ("cell_backward_hook_not_callable", lambda ms: _net(ms).register_backward_hook(None)),
    ("dense_wrong_input_shape", lambda ms: _net(ms)(_T(ms, [[1.0, 2.0, 3.0]]))),
    ("dense_in_channels_str", lambda ms: ms.nn.Dense("a", 2)),
    ("dense_bad_activation", lambda ms: ms.nn.Dense(3, 2, activation="nope")),
    ("conv2d_wrong_rank", lambda ms: ms.nn.Conv2d(1, 2, 3)(_T(ms, np.ones((1, 4, 4))))),
    ("sequential_of_int", lambda ms: ms.nn.SequentialCell([1])),
    ("celllist_of_int", lambda ms: ms.nn.CellList([1])),
    ("dropout_p_out_of_range", lambda ms: ms.nn.Dropout(p=2.0)),
    ("batchnorm_zero_features", lambda ms: ms.nn.BatchNorm2d(0)),
    ("relu_on_list", lambda ms: ms.nn.ReLU()([1.0, 2.0])),
    ("grad_of_cell_wrong_input", lambda ms: ms.grad(_net(ms))(_T(ms, [[1.0, 2.0, 3.0]]))),
    ("grad_of_cell_with_weights_wrong_type", lambda ms: ms.grad(_net(ms), weights="weights")),
    # --- optimizers and training cells -------------------------------------------------------
    ("optimizer_no_gradients", lambda ms: ms.nn.SGD(_net(ms).trainable_params(), learning_rate=0.1)()),
    ("optimizer_gradient_count", lambda ms: ms.nn.SGD(_net(ms).trainable_params(), learning_rate=0.1)(
        (_T(ms, [1.0]),))),
    ("optimizer_gradients_none", lambda ms: ms.nn.SGD(_net(ms).trainable_params(), learning_rate=0.1)(None)),
    ("optimizer_gradients_tensor", lambda ms: ms.nn.SGD(_net(ms).trainable_params(), learning_rate=0.1)(_x(ms))),
    ("optimizer_gradient_shape", lambda ms: ms.nn.Adam(_net(ms).trainable_params())(
        tuple(ms.ops.zeros((3, 3)) for _ in range(2)))),
    ("optimizer_empty_params", lambda ms: ms.nn.SGD([], learning_rate=0.1)),
    ("optimizer_params_not_parameters", lambda ms: ms.nn.SGD([_x(ms)], learning_rate=0.1)),
    ("optimizer_lr_negative", lambda ms: ms.nn.SGD(_net(ms).trainable_params(), learning_rate=-0.1)),
    ("optimizer_lr_str", lambda ms: ms.nn.SGD(_net(ms).trainable_params(), learning_rate="a")),
    ("momentum_negative", lambda ms: ms.nn.Momentum(_net(ms).trainable_params(), 0.1, -1.0)),
    ("momentum_missing", lambda ms: ms.nn.Momentum(_net(ms).trainable_params(), 0.1)),
    ("adam_beta1_out_of_range", lambda ms: ms.nn.Adam(_net(ms).trainable_params(), beta1=2.0)),
    ("adam_eps_negative", lambda ms: ms.nn.Adam(_net(ms).trainable_params(), eps=-1.0)),
    ("sgd_weight_decay_negative", lambda ms: ms.nn.SGD(_net(ms).trainable_params(), weight_decay=-1.0)),
    ("momentum_nesterov_str", lambda ms: ms.nn.Momentum(_net(ms).trainable_params(), 0.1, 0.9, use_nesterov="x")),
    ("train_one_step_optimizer_str", lambda ms: ms.nn.TrainOneStepCell(_net(ms), "opt")),
    ("with_loss_cell_backbone_str", lambda ms: ms.nn.WithLossCell("x", ms.nn.MSELoss())(_x(ms), _x(ms))),
    ("train_one_step_wrong_inputs", lambda ms: ms.nn.TrainOneStepCell(
        ms.nn.WithLossCell(_net(ms), ms.nn.MSELoss()),
        ms.nn.SGD(_net(ms).trainable_params(), learning_rate=0.1))(_T(ms, [[1.0, 2.0, 3.0]]), _T(ms, [[1.0]]))),
    ("dynamic_loss_scale_negative", lambda ms: ms.nn.DynamicLossScaleUpdateCell(
        loss_scale_value=-1.0, scale_factor=2, scale_window=10)),
    ("fixed_loss_scale_str", lambda ms: ms.nn.FixedLossScaleUpdateCell("a")),
    ("loss_reduction_bad", lambda ms: ms.nn.MSELoss(reduction="avg")),
    ("grad_position_tuple_negative", lambda ms: ms.grad(_two, grad_position=(0, -1))),
    ("jacfwd_has_aux_int", lambda ms: ms.jacfwd(lambda x: x * 2, has_aux=1)),
    ("vjp_has_aux_str", lambda ms: ms.vjp(lambda x: x * 2, _x(ms), has_aux="x")),
    ("grad_weights_tuple_with_str", lambda ms: ms.grad(_f, weights=("a",))(_x(ms))),
    ("sgd_momentum_negative", lambda ms: ms.nn.SGD(_net(ms).trainable_params(), momentum=-1.0)),
    ("adam_weight_decay_negative", lambda ms: ms.nn.Adam(_net(ms).trainable_params(), weight_decay=-1.0)),
    ("loss_shape_mismatch", lambda ms: ms.nn.L1Loss()(_x(ms), _T(ms, [1.0, 2.0, 3.0]))),
]

# Left out, MindSpore 2.10 being inconsistent (README, differences): in PyNative
# ops.add / Tensor.reshape accept shapes that do not fit (no error, garbage or a
# view); inside ms.jit a broadcast error or an out-of-range grad_position is a
# TypeError where PyNative raises ValueError/RuntimeError (msjax: PyNative's);
# a complex Python scalar operand, a jvp tangent of the wrong shape, jacrev's
# has_aux with one output and a vmap in_axes out of range are TypeError or
# ValueError/RuntimeError depending on the shapes (cases_autodiff/ops_array keep
# MindSpore's other answer).
GROUP = 10


def _outcome(ms, fn):
    try:
        fn(ms)
        return "ok"
    except Exception as e:  # noqa: BLE001
        return {"error": type(e).__name__}


def _group_case(k):
    part = MISUSES[k * GROUP:(k + 1) * GROUP]

    def case(ms):
        return {name: _outcome(ms, fn) for name, fn in part}
    return case


for _k in range((len(MISUSES) + GROUP - 1) // GROUP):
    globals()[f"case_misuse_{_k:02d}"] = _group_case(_k)


def all_cases():
    return {k[len("case_"):]: v for k, v in sorted(globals().items()) if k.startswith("case_") and callable(v)}
