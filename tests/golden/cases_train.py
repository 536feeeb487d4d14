"""Golden cases for training (suite ``train``): optimizers, learning-rate schedules
and dynamic-lr lists, training cells, loss scaling, mixed precision, parallel
context.

Each optimizer case trains a tiny linear model (fixed weights and data) for a
few steps with ``value_and_grad`` + ``optimizer(grads)`` and returns the loss and
parameter trajectories (numpy arrays), so the recorded MindSpore 2.10 run checks
every step of the update rule. Rules: use only the module passed in; numpy is
fine; everything small and deterministic. Values are copied out of
MindSpore's Tensors (``asnumpy()`` can share memory with a Parameter that a
later step updates in place).

MindSpore's CPU build cannot run ``TrainOneStepWithLossScaleCell``'s stock
overflow check (``NPUGetFloatStatusV2``); the loss-scale cases therefore override
``get_overflow_status`` with an all-finite test (what msjax does on every
backend), which still records MindSpore's gating, sens seeding and scale updates.
"""
import numpy as np

_W = np.array([[0.5, -1.0, 0.25], [1.5, 0.2, -0.75]], np.float32)
_B = np.array([0.1, -0.3], np.float32)
_X = np.array([[1.0, 2.0, -1.0], [0.5, -1.5, 2.0], [-2.0, 0.3, 0.7], [1.2, 0.4, -0.6]], np.float32)
_Y = np.array([[1.0, 0.0], [0.0, 1.0], [0.5, -0.5], [2.0, 1.0]], np.float32)


def _params(ms, wname="w", bname="b"):
    w = ms.Parameter(ms.Tensor(_W.copy()), name=wname)
    b = ms.Parameter(ms.Tensor(_B.copy()), name=bname)
    return w, b


def _fit(ms, make_opt, steps=4, scale=1.0, wname="w", bname="b", x=_X, y=_Y, extra=None):
    """Train ``mean((x @ w.T + b - y)^2) * scale`` for ``steps`` steps; return the trajectories."""
    w, b = _params(ms, wname, bname)
    opt = make_opt([w, b])
    xt, yt = ms.Tensor(x), ms.Tensor(y)

    def loss_fn(xx, yy):
        d = ms.ops.matmul(xx, w.T) + b - yy
        return (d * d).mean() * scale

    grad_fn = ms.value_and_grad(loss_fn, None, opt.parameters)
    losses, ws, bs = [], [], []
    for _ in range(steps):
        loss, grads = grad_fn(xt, yt)
        opt(grads)
        losses.append(loss.asnumpy().copy())
        ws.append(w.asnumpy().copy())
        bs.append(b.asnumpy().copy())
    out = {"loss": np.stack(losses), "w": np.stack(ws), "b": np.stack(bs)}
    if extra:
        out.update(extra(opt))
    return out


def _state(*names):
    def get(opt):
        return {n: getattr(opt, n).asnumpy().copy() if hasattr(getattr(opt, n), "asnumpy")
                else np.stack([p.asnumpy().copy() for p in getattr(opt, n)]) if getattr(opt, n)[0].shape == ()
                else [p.asnumpy().copy() for p in getattr(opt, n)] for n in names}
    return get


# ===========================================================================
# optimizers
# ===========================================================================
def case_opt_sgd(ms):
    return _fit(ms, lambda p: ms.nn.SGD(p, 0.1), extra=_state("global_step"))


def case_opt_sgd_momentum_dampening_wd(ms):
    return _fit(ms, lambda p: ms.nn.SGD(p, 0.05, momentum=0.9, dampening=0.2, weight_decay=0.01),
                extra=_state("accum", "stat"))


def case_opt_sgd_nesterov(ms):
    return _fit(ms, lambda p: ms.nn.SGD(p, 0.05, momentum=0.8, nesterov=True))


def case_opt_momentum(ms):
    return _fit(ms, lambda p: ms.nn.Momentum(p, 0.05, 0.9), extra=_state("moments", "global_step"))


def case_opt_momentum_wd(ms):
    # (use_nesterov is not recorded: MindSpore 2.10's CPU ApplyMomentum ignores it; see tests/test_train_optim.py)
    return _fit(ms, lambda p: ms.nn.Momentum(p, 0.05, 0.9, weight_decay=0.1))


def case_opt_momentum_loss_scale(ms):
    # gradients of (loss * 8) with loss_scale=8: the optimizer divides them back
    return _fit(ms, lambda p: ms.nn.Momentum(p, 0.05, 0.9, weight_decay=0.01, loss_scale=8.0), scale=8.0)


def case_opt_momentum_no_decay_for_beta_gamma(ms):
    # weight decay skips Parameters whose name contains 'beta' or 'gamma'
    return _fit(ms, lambda p: ms.nn.Momentum(p, 0.05, 0.9, weight_decay=0.5), wname="gamma", bname="bias")


def case_opt_adam(ms):
    return _fit(ms, lambda p: ms.nn.Adam(p, 0.05), extra=_state("beta1_power", "beta2_power", "moment1", "moment2"))


def case_opt_adam_nesterov_wd(ms):
    return _fit(ms, lambda p: ms.nn.Adam(p, 0.05, beta1=0.8, beta2=0.95, eps=1e-6, use_nesterov=True,
                                         weight_decay=0.05))


def case_opt_adam_amsgrad(ms):
    return _fit(ms, lambda p: ms.nn.Adam(p, 0.05, use_amsgrad=True), steps=5, extra=_state("vhat"))


def case_opt_adam_loss_scale(ms):
    return _fit(ms, lambda p: ms.nn.Adam(p, 0.05, loss_scale=4.0), scale=4.0)


def case_opt_adam_offload(ms):
    return _fit(ms, lambda p: ms.nn.AdamOffload(p, 0.05))


def case_opt_lazyadam(ms):
    return _fit(ms, lambda p: ms.nn.LazyAdam(p, 0.05), extra=_state("beta1_power"))


def case_opt_adamweightdecay(ms):
    return _fit(ms, lambda p: ms.nn.AdamWeightDecay(p, 0.05, weight_decay=0.1), extra=_state("moments1"))


def case_opt_adamweightdecay_gamma_no_decay(ms):
    return _fit(ms, lambda p: ms.nn.AdamWeightDecay(p, 0.05, weight_decay=0.3), wname="gamma")


def case_opt_rmsprop(ms):
    return _fit(ms, lambda p: ms.nn.RMSProp(p, 0.01), extra=_state("ms", "moment"))


def case_opt_rmsprop_centered_momentum(ms):
    return _fit(ms, lambda p: ms.nn.RMSProp(p, 0.01, decay=0.8, momentum=0.5, epsilon=1e-6, centered=True),
                extra=_state("mg"))


def case_opt_adagrad(ms):
    return _fit(ms, lambda p: ms.nn.Adagrad(p, accum=0.2, learning_rate=0.1), extra=_state("accum"))


def case_opt_adagrad_wd(ms):
    return _fit(ms, lambda p: ms.nn.Adagrad(p, learning_rate=0.1, weight_decay=0.1))


def case_opt_adadelta(ms):
    return _fit(ms, lambda p: ms.nn.Adadelta(p, learning_rate=1.0, rho=0.8, epsilon=1e-4),
                extra=_state("accum", "accum_update"))


def case_opt_adamax(ms):
    return _fit(ms, lambda p: ms.nn.AdaMax(p, 0.05), extra=_state("beta1_power", "moment2"))


# (l1 > 0 is not recorded: MindSpore 2.10's CPU ApplyFtrl shrinks a negative 'linear' by +l1 instead of
# sign(linear) * l1; msjax follows the documented formula, see tests/test_train_optim.py)
def case_opt_ftrl(ms):
    return _fit(ms, lambda p: ms.nn.FTRL(p, learning_rate=0.1, l2=0.02), extra=_state("moments", "linear"))


def case_opt_ftrl_lr_power(ms):
    return _fit(ms, lambda p: ms.nn.FTRL(p, initial_accum=0.5, learning_rate=0.2, lr_power=-0.3, l2=0.1))


def case_opt_proximal_adagrad(ms):
    return _fit(ms, lambda p: ms.nn.ProximalAdagrad(p, learning_rate=0.1, l1=0.01, l2=0.05))


def case_opt_proximal_adagrad_l1_zeroes(ms):
    return _fit(ms, lambda p: ms.nn.ProximalAdagrad(p, learning_rate=0.5, l1=0.9))


def case_opt_asgd(ms):
    return _fit(ms, lambda p: ms.nn.ASGD(p, 0.05, lambd=0.1, alpha=0.5, t0=2.0), steps=5,
                extra=_state("eta", "mu", "ax"))


def case_opt_rprop(ms):
    return _fit(ms, lambda p: ms.nn.Rprop(p, 0.05, etas=(0.5, 1.2), step_sizes=(1e-3, 0.08)), steps=6,
                extra=_state("prev", "step_size"))


def case_opt_adafactor(ms):
    return _fit(ms, lambda p: ms.nn.AdaFactor(p), extra=_state("exp_avg_sq_row", "exp_avg_sq_col", "step"))


def case_opt_adafactor_fixed_lr_no_momentum(ms):
    return _fit(ms, lambda p: ms.nn.AdaFactor(p, learning_rate=0.05, relative_step=False, scale_parameter=False,
                                              beta1=0.0, weight_decay=0.1))


def case_opt_adafactor_warmup(ms):
    return _fit(ms, lambda p: ms.nn.AdaFactor(p, warmup_init=True, clip_threshold=0.5, decay_rate=0.5))


# ===========================================================================
# learning rates in optimizers
# ===========================================================================
def case_opt_lr_list(ms):
    return _fit(ms, lambda p: ms.nn.SGD(p, [0.1, 0.05, 0.02, 0.01]), extra=_state("global_step"))


def case_opt_lr_tensor(ms):
    return _fit(ms, lambda p: ms.nn.Momentum(p, ms.Tensor(np.array([0.1, 0.05, 0.2], np.float32)), 0.9), steps=3)


def case_opt_lr_schedule(ms):
    return _fit(ms, lambda p: ms.nn.Adam(p, ms.nn.ExponentialDecayLR(0.1, 0.5, 2)), steps=5)


def case_opt_lr_scalar_tensor(ms):
    return _fit(ms, lambda p: ms.nn.SGD(p, ms.Tensor(0.1, ms.float32)))


def case_opt_lr_set_data(ms):
    """Changing the learning-rate Parameter between steps changes the update."""
    w, b = _params(ms)
    opt = ms.nn.SGD([w, b], 0.1)
    x = ms.Tensor(_X)

    def loss_fn(xx):
        return (ms.ops.matmul(xx, w.T) + b).sum()

    grad_fn = ms.value_and_grad(loss_fn, None, opt.parameters)
    out = []
    for lr in (0.1, 0.01, 0.5):
        # ops.assign: MindSpore's compiled optimizer does not see set_data on the rate (msjax does)
        ms.ops.assign(opt.learning_rate, ms.Tensor(lr, ms.float32))
        _, g = grad_fn(x)
        opt(g)
        out.append(w.asnumpy().copy())
    return np.stack(out)


def case_opt_get_lr(ms):
    w, b = _params(ms)
    opts = {
        "float": ms.nn.SGD([w, b], 0.1),
        "list": ms.nn.SGD([w, b], [0.3, 0.2, 0.1]),
        "schedule": ms.nn.SGD([w, b], ms.nn.CosineDecayLR(0.0, 0.1, 4)),
    }
    out = {}
    for k, opt in opts.items():
        lr = opt.get_lr()
        out[k] = lr.asnumpy().copy() if hasattr(lr, "asnumpy") else lr
        out[k + "_dynamic"] = opt.dynamic_lr
    return out


def case_opt_group_params(ms):
    def make(p):
        w, b = p
        return ms.nn.Momentum([{"params": [w], "lr": 0.1, "weight_decay": 0.2},
                               {"params": [b]},
                               {"order_params": [w, b]}], learning_rate=0.02, momentum=0.9, weight_decay=0.0)
    return _fit(ms, make)


def case_opt_group_dynamic_lr(ms):
    def make(p):
        w, b = p
        return ms.nn.Adam([{"params": [w], "lr": ms.nn.PolynomialDecayLR(0.1, 0.01, 3, 2.0)},
                           {"params": [b]}], learning_rate=0.05)
    return _fit(ms, make)


def case_opt_get_lr_parameter(ms):
    w, b = _params(ms)
    opt = ms.nn.Momentum([{"params": [w], "lr": 0.05}, {"params": [b], "lr": 0.01}], 0.1, 0.9)
    lr_w = opt.get_lr_parameter(w)
    lrs = opt.get_lr_parameter([w, b])
    return lr_w.name, lr_w.asnumpy().copy(), [p.name for p in lrs]


def case_opt_parameter_names(ms):
    w, b = _params(ms)
    out = {}
    for name, make in (("momentum", lambda p: ms.nn.Momentum(p, 0.1, 0.9)),
                       ("adam", lambda p: ms.nn.Adam(p, use_amsgrad=True)),
                       ("sgd", lambda p: ms.nn.SGD(p)),
                       ("rmsprop", lambda p: ms.nn.RMSProp(p, centered=True)),
                       ("adamw", lambda p: ms.nn.AdamWeightDecay(p)),
                       ("ftrl", lambda p: ms.nn.FTRL(p)),
                       ("asgd", lambda p: ms.nn.ASGD(p)),
                       ("adamax", lambda p: ms.nn.AdaMax(p)),
                       ("lamb", lambda p: ms.nn.Lamb(p, 0.1)),
                       ("adafactor", lambda p: ms.nn.AdaFactor(p)),
                       ("lr_list", lambda p: ms.nn.SGD(p, [0.1, 0.2])),
                       ("groups", lambda p: ms.nn.SGD([{"params": [p[0]], "lr": 0.1}, {"params": [p[1]]}]))):
        opt = make([w, b])
        out[name] = [n for n, _ in opt.parameters_and_names()]
        out[name + "_shapes"] = [tuple(p.shape) for _, p in opt.parameters_and_names()]
    return out


def case_opt_state_dtypes(ms):
    w, b = _params(ms)
    opt = ms.nn.Adam([w, b])
    return {"global_step": str(opt.global_step.dtype), "lr": str(opt.learning_rate.dtype),
            "beta1_power": str(opt.beta1_power.dtype), "moment1": str(opt.moment1[0].dtype),
            "step_shape": tuple(opt.global_step.shape)}


# --- optimizer argument errors ---------------------------------------------------
def _err_opt(ms, make):
    w, b = _params(ms)
    make([w, b])
    return "no error"


def case_opterr_momentum_int(ms):
    return _err_opt(ms, lambda p: ms.nn.Momentum(p, 0.1, 1))


def case_opterr_momentum_negative(ms):
    return _err_opt(ms, lambda p: ms.nn.Momentum(p, 0.1, -0.5))


def case_opterr_lr_negative(ms):
    return _err_opt(ms, lambda p: ms.nn.SGD(p, -0.1))


def case_opterr_lr_string(ms):
    return _err_opt(ms, lambda p: ms.nn.SGD(p, "0.1"))


def case_opterr_lr_2d_tensor(ms):
    return _err_opt(ms, lambda p: ms.nn.SGD(p, ms.Tensor(np.ones((2, 2), np.float32))))


def case_opterr_empty_params(ms):
    return ms.nn.SGD([], 0.1)


def case_opterr_params_not_parameter(ms):
    return ms.nn.SGD([ms.Tensor(np.ones(2, np.float32))], 0.1)


def case_opterr_group_bad_key(ms):
    return _err_opt(ms, lambda p: ms.nn.SGD([{"params": [p[0]], "momentum": 0.1}], 0.1))


def case_opterr_adam_beta(ms):
    return _err_opt(ms, lambda p: ms.nn.Adam(p, beta1=1.0))


def case_opterr_adam_eps_int(ms):
    return _err_opt(ms, lambda p: ms.nn.Adam(p, eps=1))


def case_opterr_adam_bad_kwarg(ms):
    return _err_opt(ms, lambda p: ms.nn.Adam(p, use_foo=True))


def case_opterr_sgd_nesterov_dampening(ms):
    return _err_opt(ms, lambda p: ms.nn.SGD(p, momentum=0.9, dampening=0.1, nesterov=True))


def case_opterr_weight_decay_negative(ms):
    return _err_opt(ms, lambda p: ms.nn.Momentum(p, 0.1, 0.9, weight_decay=-1.0))


def case_opterr_loss_scale_zero(ms):
    return _err_opt(ms, lambda p: ms.nn.Momentum(p, 0.1, 0.9, loss_scale=0.0))


def case_opterr_ftrl_dynamic_lr(ms):
    return _err_opt(ms, lambda p: ms.nn.FTRL(p, learning_rate=ms.nn.WarmUpLR(0.1, 2)))


def case_opterr_rprop_etas(ms):
    return _err_opt(ms, lambda p: ms.nn.Rprop(p, etas=(0.5, 0.9)))


def case_opterr_adafactor_lr_and_relative(ms):
    return _err_opt(ms, lambda p: ms.nn.AdaFactor(p, learning_rate=0.1))


def case_opterr_duplicate_group_param(ms):
    return _err_opt(ms, lambda p: ms.nn.SGD([{"params": [p[0]]}, {"params": [p[0]]}], 0.1))


def case_opt_group_shared_default_lr(ms):
    a, b, c = (ms.Parameter(ms.Tensor(np.array([1.0, -2.0], np.float32)), name=n) for n in "abc")
    opt = ms.nn.SGD([{"params": [a], "lr": 0.1}, {"params": [b, c]}], 0.01, momentum=0.5)
    g = (ms.Tensor(np.array([1.0, 0.5], np.float32)),) * 3
    for _ in range(2):
        opt(g)
    return a.asnumpy().copy(), b.asnumpy().copy(), c.asnumpy().copy(), [p.name for p in opt.get_lr()]


# --- optimizer primitives -------------------------------------------------------
def _prim_params(ms, *arrays):
    return [ms.Parameter(ms.Tensor(np.array(a, np.float32)), name="p%d" % i) for i, a in enumerate(arrays)]


def case_prim_apply_momentum(ms):
    v, a = _prim_params(ms, [[0.6, 0.4], [0.1, 0.5]], [[0.6, 0.5], [0.2, 0.6]])
    op = ms.ops.ApplyMomentum()
    g = ms.Tensor(np.array([[0.3, 0.7], [0.1, 0.8]], np.float32))
    outs = [op(v, a, ms.Tensor(0.1, ms.float32), g, ms.Tensor(0.9, ms.float32)).asnumpy().copy() for _ in range(2)]
    return outs, v.asnumpy().copy(), a.asnumpy().copy()


def case_prim_apply_rms_prop(ms):
    v, s, m = _prim_params(ms, [[0.6, 0.4], [0.1, 0.5]], [[0.6, 0.5], [0.2, 0.6]], [[0.1, 0.0], [0.2, -0.1]])
    op = ms.ops.ApplyRMSProp()
    g = ms.Tensor(np.array([[0.3, 0.7], [0.1, 0.8]], np.float32))
    # (MindSpore's CPU kernel returns an unfilled zero Tensor; the documented output is the updated var)
    for _ in range(2):
        op(v, s, m, ms.Tensor(0.01, ms.float32), g, 0.9, 0.5, 1e-6)
    return v.asnumpy().copy(), s.asnumpy().copy(), m.asnumpy().copy()


def case_prim_apply_centered_rms_prop(ms):
    v, mg, s, m = _prim_params(ms, [[0.6, 0.4], [0.1, 0.5]], [[0.1, 0.2], [0.0, 0.1]], [[0.6, 0.5], [0.2, 0.6]],
                               [[0.1, 0.0], [0.2, -0.1]])
    op = ms.ops.ApplyCenteredRMSProp()
    g = ms.Tensor(np.array([[0.3, 0.7], [0.1, 0.8]], np.float32))
    for _ in range(2):
        op(v, mg, s, m, g, ms.Tensor(0.01, ms.float32), 0.9, 0.5, 1e-6)
    return v.asnumpy().copy(), mg.asnumpy().copy(), s.asnumpy().copy(), m.asnumpy().copy()


# ===========================================================================
# learning-rate schedules
# ===========================================================================
def _sched(ms, s, steps=8):
    return np.stack([s(ms.Tensor(i, ms.int32)).asnumpy().copy() for i in range(steps)])


def case_lrs_exponential(ms):
    return _sched(ms, ms.nn.ExponentialDecayLR(0.1, 0.9, 3)), _sched(ms, ms.nn.ExponentialDecayLR(0.1, 0.9, 3, True))


def case_lrs_natural_exp(ms):
    return _sched(ms, ms.nn.NaturalExpDecayLR(0.1, 0.5, 3)), _sched(ms, ms.nn.NaturalExpDecayLR(0.1, 0.5, 3, True))


def case_lrs_inverse(ms):
    return _sched(ms, ms.nn.InverseDecayLR(0.1, 0.5, 3)), _sched(ms, ms.nn.InverseDecayLR(0.1, 0.5, 3, True))


def case_lrs_cosine(ms):
    return _sched(ms, ms.nn.CosineDecayLR(0.01, 0.1, 5))


def case_lrs_polynomial(ms):
    return (_sched(ms, ms.nn.PolynomialDecayLR(0.1, 0.01, 4, 0.5)),
            _sched(ms, ms.nn.PolynomialDecayLR(0.1, 0.01, 3, 2.0, update_decay_steps=True)))


def case_lrs_warmup(ms):
    return _sched(ms, ms.nn.WarmUpLR(0.1, 4))


def case_lrs_dtype_shape(ms):
    s = ms.nn.ExponentialDecayLR(0.1, 0.9, 2)
    out = s(ms.Tensor(np.array([3], np.int32)))
    return out, s(ms.Tensor(3, ms.int32))


def case_lrserr_int_lr(ms):
    return ms.nn.ExponentialDecayLR(1, 0.9, 2)


def case_lrserr_decay_steps_zero(ms):
    return ms.nn.InverseDecayLR(0.1, 0.9, 0)


def case_lrserr_is_stair_int(ms):
    return ms.nn.NaturalExpDecayLR(0.1, 0.9, 2, is_stair=1)


def case_lrserr_cosine_min_ge_max(ms):
    return ms.nn.CosineDecayLR(0.2, 0.1, 2)


def case_lrserr_cosine_min_int(ms):
    return ms.nn.CosineDecayLR(0, 0.1, 2)


def case_lrserr_polynomial_power(ms):
    return ms.nn.PolynomialDecayLR(0.1, 0.01, 2, 0)


def case_lrserr_warmup_steps(ms):
    return ms.nn.WarmUpLR(0.1, -1)


# --- dynamic_lr lists ------------------------------------------------------------
def case_dlr_piecewise(ms):
    return ms.nn.piecewise_constant_lr([2, 5, 6], [0.1, 0.05, 0.01])


def case_dlr_exponential(ms):
    return (ms.nn.exponential_decay_lr(0.1, 0.9, 6, 2, 1),
            ms.nn.exponential_decay_lr(0.1, 0.9, 6, 1, 2, is_stair=True))


def case_dlr_natural_exp(ms):
    return (ms.nn.natural_exp_decay_lr(0.1, 0.5, 6, 2, 2),
            ms.nn.natural_exp_decay_lr(0.1, 0.5, 6, 2, 2, True))


def case_dlr_inverse(ms):
    return ms.nn.inverse_decay_lr(0.1, 0.5, 6, 1, 2), ms.nn.inverse_decay_lr(0.1, 0.5, 6, 1, 2, True)


def case_dlr_cosine(ms):
    return ms.nn.cosine_decay_lr(0.01, 0.1, 6, 1, 3)


def case_dlr_polynomial(ms):
    return (ms.nn.polynomial_decay_lr(0.1, 0.01, 6, 1, 2, 0.5),
            ms.nn.polynomial_decay_lr(0.1, 0.01, 6, 1, 2, 0.5, True))


def case_dlr_warmup(ms):
    return ms.nn.warmup_lr(0.1, 6, 2, 2)


def case_dlrerr_piecewise_len(ms):
    return ms.nn.piecewise_constant_lr([2, 5], [0.1])


def case_dlrerr_piecewise_order(ms):
    return ms.nn.piecewise_constant_lr([5, 2], [0.1, 0.2])


def case_dlrerr_piecewise_int_lr(ms):
    return ms.nn.piecewise_constant_lr([2], [1])


def case_dlrerr_cosine_min_ge_max(ms):
    return ms.nn.cosine_decay_lr(0.2, 0.1, 6, 1, 3)


def case_dlrerr_total_step(ms):
    return ms.nn.exponential_decay_lr(0.1, 0.9, 0, 1, 1)


def case_dlrerr_warmup_lr_int(ms):
    return ms.nn.warmup_lr(1, 6, 2, 2)


# ===========================================================================
# training cells
# ===========================================================================
def _dense_net(ms):
    net = ms.nn.Dense(3, 2)
    net.weight.set_data(ms.Tensor(_W.copy()))
    net.bias.set_data(ms.Tensor(_B.copy()))
    return net


def _train_cell_run(ms, cell, net, steps=3):
    x, y = ms.Tensor(_X), ms.Tensor(_Y)
    losses = [cell(x, y).asnumpy().copy() for _ in range(steps)]
    return {"loss": np.stack(losses), "w": net.weight.asnumpy().copy(), "b": net.bias.asnumpy().copy()}


def case_cell_train_one_step(ms):
    net = _dense_net(ms)
    opt = ms.nn.Momentum(net.trainable_params(), 0.05, 0.9)
    cell = ms.nn.TrainOneStepCell(ms.nn.WithLossCell(net, ms.nn.MSELoss()), opt)
    return _train_cell_run(ms, cell, net, 4)


def case_cell_train_one_step_sens(ms):
    net = _dense_net(ms)
    opt = ms.nn.SGD(net.trainable_params(), 0.05)
    cell = ms.nn.TrainOneStepCell(ms.nn.WithLossCell(net, ms.nn.MSELoss()), opt, sens=2.0)
    return _train_cell_run(ms, cell, net)


def case_cell_train_one_step_adam_schedule(ms):
    net = _dense_net(ms)
    opt = ms.nn.Adam(net.trainable_params(), ms.nn.WarmUpLR(0.1, 2))
    cell = ms.nn.TrainOneStepCell(ms.nn.WithLossCell(net, ms.nn.MSELoss()), opt)
    cell.set_train()
    return _train_cell_run(ms, cell, net, 4)


def case_cell_train_one_step_return_grad(ms):
    net = _dense_net(ms)
    opt = ms.nn.SGD(net.trainable_params(), 0.05)
    cell = ms.nn.TrainOneStepCell(ms.nn.WithLossCell(net, ms.nn.MSELoss()), opt, return_grad=True)
    loss, grads = cell(ms.Tensor(_X), ms.Tensor(_Y))
    return loss, grads, net.weight.asnumpy().copy()


def case_cell_train_one_step_sens_zero(ms):
    net = _dense_net(ms)
    opt = ms.nn.SGD(net.trainable_params(), 0.05)
    return ms.nn.TrainOneStepCell(ms.nn.WithLossCell(net, ms.nn.MSELoss()), opt, sens=0)


def case_cell_with_loss(ms):
    net = _dense_net(ms)
    cell = ms.nn.WithLossCell(net, ms.nn.MSELoss())
    return cell(ms.Tensor(_X), ms.Tensor(_Y)), cell.backbone_network is net


def case_cell_with_eval(ms):
    net = _dense_net(ms)
    cell = ms.nn.WithEvalCell(net, ms.nn.MSELoss())
    loss, out, label = cell(ms.Tensor(_X), ms.Tensor(_Y))
    cell16 = ms.nn.WithEvalCell(net, ms.nn.MSELoss(), add_cast_fp32=True)
    loss2, out2, label2 = cell16(ms.Tensor(_X), ms.Tensor(_Y.astype(np.float16)))
    return loss, out, label, loss2, out2.dtype == ms.float32, label2.dtype == ms.float32


def case_cell_with_grad(ms):
    net = _dense_net(ms)
    cell = ms.nn.WithGradCell(net, ms.nn.MSELoss())
    return cell(ms.Tensor(_X), ms.Tensor(_Y))


def case_cell_forward_value_and_grad(ms):
    net = _dense_net(ms)
    loss_net = ms.nn.WithLossCell(net, ms.nn.MSELoss())
    weights = ms.ParameterTuple(loss_net.trainable_params())
    cell = ms.nn.ForwardValueAndGrad(loss_net, weights=weights, get_by_list=True, sens_param=True)
    sens = ms.Tensor(3.0, ms.float32)
    return cell(ms.Tensor(_X), ms.Tensor(_Y), sens)


def case_cell_parameter_update(ms):
    p = ms.Parameter(ms.Tensor(np.zeros((2, 2), np.float32)), name="p")
    cell = ms.nn.ParameterUpdate(p)
    out = cell(ms.Tensor(np.ones((2, 2), np.float32) * 3))
    return out, p.asnumpy().copy()


def case_cell_grad_accumulation_cell(ms):
    net = _dense_net(ms)
    cell = ms.nn.GradAccumulationCell(ms.nn.WithLossCell(net, ms.nn.MSELoss()), 2)
    return cell(ms.Tensor(_X), ms.Tensor(_Y))


def case_cell_micro_batch_interleaved(ms):
    net = _dense_net(ms)
    return ms.nn.MicroBatchInterleaved(net, 2)(ms.Tensor(_X))


def case_cell_virtual_dataset_cell_triple(ms):
    class Net(ms.nn.Cell):
        def construct(self, a, b, c):
            return a + b * c

    return ms.nn.VirtualDatasetCellTriple(Net())(ms.Tensor(1.0), ms.Tensor(2.0), ms.Tensor(3.0))


def case_cell_pipeline_grad_reducer_stand_alone(ms):
    # stand-alone, nothing fills the accumulated gradients: MindSpore returns zeros
    w = ms.Parameter(ms.Tensor(np.ones((2,), np.float32)), name="w")
    red = ms.nn.PipelineGradReducer(ms.ParameterTuple([w]))
    return red((ms.Tensor(np.array([2.0, 4.0], np.float32)),))


def case_cell_clip_by_norm(ms):
    x = ms.Tensor(np.array([[3.0, 4.0], [1.0, 2.0]], np.float32))
    c = ms.nn.ClipByNorm()
    return (c(x, ms.Tensor(2.0, ms.float32)), c(x, ms.Tensor(100.0, ms.float32)),
            c(x, ms.Tensor(np.array([1.0, 2.0], np.float32))),
            c(ms.Tensor(np.array([1.0, 2.0], np.float16)), ms.Tensor(1.0, ms.float32)))


def case_clip_by_global_norm(ms):
    a = ms.Tensor(np.array([[3.0, 4.0]], np.float32))
    b = ms.Tensor(np.array([12.0], np.float32))
    return (ms.ops.clip_by_global_norm((a, b), 1.0), ms.ops.clip_by_global_norm([a, b], 100.0),
            ms.ops.clip_by_global_norm(a, 1), ms.ops.clip_by_global_norm((a.astype(ms.float16), b), 1.0))


def case_clip_by_global_norm_grads(ms):
    w, b = _params(ms)
    x = ms.Tensor(_X)
    grads = ms.grad(lambda xx: (ms.ops.matmul(xx, w.T) + b).sum() * 10, None, (w, b))(x)
    return ms.ops.clip_by_global_norm(grads, 2.5)


def case_clip_by_global_norm_bad_clip(ms):
    return ms.ops.clip_by_global_norm((ms.Tensor(_B),), -1.0)


def case_clip_by_global_norm_use_norm(ms):
    return ms.ops.clip_by_global_norm((ms.Tensor(_B),), 1.0, ms.Tensor(4.0, ms.float32))


# ===========================================================================
# loss scaling
# ===========================================================================
def _loss_scale_cell(ms, scale_sense, opt_factory=None):
    class AllFiniteLossScaleCell(ms.nn.TrainOneStepWithLossScaleCell):
        # MindSpore's CPU build cannot run its NPU float-status check: an
        # all-finite test instead (what msjax does on every backend)
        def get_overflow_status(self, status, compute_output):
            flags = [ms.ops.isfinite(g).all() for g in compute_output]
            ok = flags[0]
            for f in flags[1:]:
                ok = ms.ops.logical_and(ok, f)
            return ms.ops.logical_not(ok)

    net = _dense_net(ms)
    opt = (opt_factory or (lambda p: ms.nn.Momentum(p, 0.05, 0.9)))(net.trainable_params())
    cell = AllFiniteLossScaleCell(ms.nn.WithLossCell(net, ms.nn.MSELoss()), opt, scale_sense)
    return cell, net, opt


def _xs_with_overflow():
    bad = _X.copy()
    bad[1, 1] = np.inf
    return [_X, _X, bad, _X, _X, bad, _X]


def _run_loss_scale(ms, cell, net, opt, xs, extra=None):
    out = {"loss": [], "cond": [], "scale": [], "w": [], "moments": []}
    y = ms.Tensor(_Y)
    for x in xs:
        loss, cond, scale = cell(ms.Tensor(x), y)
        out["loss"].append(loss.asnumpy().copy())
        out["cond"].append(cond.asnumpy().copy())
        out["scale"].append(scale.asnumpy().copy())
        out["w"].append(net.weight.asnumpy().copy())
        if hasattr(opt, "moments"):
            out["moments"].append(opt.moments[0].asnumpy().copy())
    res = {k: np.stack(v) for k, v in out.items() if v}
    res["global_step"] = opt.global_step.asnumpy().copy()
    if extra:
        res.update(extra)
    return res


def case_ls_dynamic_update_cell(ms):
    upd = ms.nn.DynamicLossScaleUpdateCell(loss_scale_value=2.0 ** 10, scale_factor=2, scale_window=2)
    cell, net, opt = _loss_scale_cell(ms, upd)
    res = _run_loss_scale(ms, cell, net, opt, _xs_with_overflow())
    res["cur_iter"] = upd.cur_iter.asnumpy().copy()
    res["last_overflow_iter"] = upd.last_overflow_iter.asnumpy().copy()
    return res


def case_ls_fixed_update_cell(ms):
    cell, net, opt = _loss_scale_cell(ms, ms.nn.FixedLossScaleUpdateCell(128.0))
    return _run_loss_scale(ms, cell, net, opt, _xs_with_overflow()[:4])


def case_ls_tensor_scale(ms):
    cell, net, opt = _loss_scale_cell(ms, ms.Tensor(np.array([64.0], np.float32)))
    return _run_loss_scale(ms, cell, net, opt, _xs_with_overflow()[:4])


def case_ls_adam_skip_keeps_state(ms):
    cell, net, opt = _loss_scale_cell(ms, ms.nn.DynamicLossScaleUpdateCell(2.0 ** 12, 2, 100),
                                      lambda p: ms.nn.Adam(p, 0.05))
    res = _run_loss_scale(ms, cell, net, opt, _xs_with_overflow()[:4])
    res["moment1"] = opt.moment1[0].asnumpy().copy()
    res["beta1_power"] = opt.beta1_power.asnumpy().copy()
    return res


def case_ls_set_sense_scale(ms):
    cell, net, opt = _loss_scale_cell(ms, ms.Tensor(np.array([4.0], np.float32)))
    cell.set_sense_scale(ms.Tensor(np.array([16.0], np.float32)))
    return _run_loss_scale(ms, cell, net, opt, [_X, _X])


def case_ls_scale_sense_bad_shape(ms):
    return _loss_scale_cell(ms, ms.Tensor(np.ones((2,), np.float32)))


def case_ls_scale_sense_bad_type(ms):
    return _loss_scale_cell(ms, 2.0)


def case_ls_dynamic_update_cell_direct(ms):
    upd = ms.nn.DynamicLossScaleUpdateCell(loss_scale_value=8.0, scale_factor=2, scale_window=3)
    scale = ms.Parameter(ms.Tensor(8.0, ms.float32), name="scale")
    flags = [False, False, False, True, False, True, True, True, True, False, False, False, False]
    out = []
    for f in flags:
        upd(scale, ms.Tensor(f, ms.bool_))
        out.append(np.array([scale.asnumpy().copy(), upd.cur_iter.asnumpy().copy(), upd.last_overflow_iter.asnumpy().copy()],
                            np.float32))
    return np.stack(out), upd.get_loss_scale()


def case_amp_dynamic_loss_scaler(ms):
    s = ms.amp.DynamicLossScaler(scale_value=2.0 ** 4, scale_factor=2, scale_window=3)
    x = ms.Tensor(np.array([1.5, -2.0], np.float32))
    scaled = s.scale(x)
    unscaled = s.unscale((scaled, scaled * 2))
    out = []
    for f in [True, True, True, False, True, True, False, False, False, False, False, True, True, True]:
        s.adjust(ms.Tensor(f, ms.bool_))
        out.append([float(s.scale_value.asnumpy().copy()), float(s.counter.asnumpy().copy())])
    return scaled, unscaled, np.array(out, np.float32)


def case_amp_dynamic_loss_scaler_inf_guard(ms):
    s = ms.amp.DynamicLossScaler(scale_value=2.0 ** 127, scale_factor=4, scale_window=1)
    s.adjust(ms.Tensor(True, ms.bool_))
    return s.scale_value.asnumpy().copy(), s.counter.asnumpy().copy()


def case_amp_static_loss_scaler(ms):
    s = ms.amp.StaticLossScaler(3.0)
    x = ms.Tensor(np.array([1.0, 2.5, -7.0], np.float32))
    return s.scale(x), s.unscale(x), s.unscale((x, x)), s.adjust(ms.Tensor(True)), s.scale_value.asnumpy().copy()


def case_amp_all_finite(ms):
    a = ms.Tensor(np.array([1.0, 2.0], np.float32))
    b = ms.Tensor(np.array([1.0, np.inf], np.float32))
    c = ms.Tensor(np.array([np.nan], np.float16))
    return ms.amp.all_finite((a, a)), ms.amp.all_finite((a, b)), ms.amp.all_finite([c, a])


def case_amperr_dynamic_scaler_value(ms):
    return ms.amp.DynamicLossScaler(scale_value=0.5, scale_factor=2, scale_window=2)


def case_amperr_dynamic_scaler_window(ms):
    return ms.amp.DynamicLossScaler(scale_value=4.0, scale_factor=2, scale_window=0)


def case_amperr_static_scaler_str(ms):
    return ms.amp.StaticLossScaler("2")


def case_amp_loss_scale_managers(ms):
    fixed = ms.amp.FixedLossScaleManager(64.0, drop_overflow_update=False)
    dyn = ms.amp.DynamicLossScaleManager(init_loss_scale=16, scale_factor=2, scale_window=2)
    trace = []
    for ov in [False, False, True, False, False, False, True]:
        dyn.update_loss_scale(ov)
        trace.append(float(dyn.get_loss_scale()))
    cell = dyn.get_update_cell()
    fcell = ms.amp.FixedLossScaleManager(32.0).get_update_cell()
    return {"fixed": fixed.get_loss_scale(), "drop": fixed.get_drop_overflow_update(),
            "fixed_cell_none": fixed.get_update_cell() is None, "trace": trace,
            "dyn_drop": dyn.get_drop_overflow_update(), "cell": type(cell).__name__,
            "cell_scale": float(cell.get_loss_scale()), "fcell": type(fcell).__name__,
            "fcell_scale": fcell.get_loss_scale(), "top_level": ms.FixedLossScaleManager is ms.amp.FixedLossScaleManager}


def case_amperr_fixed_manager(ms):
    return ms.amp.FixedLossScaleManager(0.5)


def case_amperr_dynamic_manager_window(ms):
    return ms.amp.DynamicLossScaleManager(scale_window=0)


# ===========================================================================
# mixed precision
# ===========================================================================
_W16 = np.array([[0.5, -1.0, 0.25], [1.5, 0.25, -0.75]], np.float32)
_X16 = np.array([[1.0, 2.0, -1.0], [0.5, -1.5, 2.0]], np.float32)


def _dense16(ms):
    net = ms.nn.Dense(3, 2)
    net.weight.set_data(ms.Tensor(_W16.copy()))
    net.bias.set_data(ms.Tensor(np.array([0.125, -0.25], np.float32)))
    return net


def case_mp_to_float_dense(ms):
    net = _dense16(ms)
    ret = net.to_float(ms.float16)
    x = ms.Tensor(_X16)
    y = net(x)
    grads = ms.grad(lambda xx: net(xx).sum(), None, net.trainable_params())(x)
    return y, grads, net.weight.dtype == ms.float32, ret is net


def case_mp_to_float_sub_cell_fp32(ms):
    seq = ms.nn.SequentialCell([_dense16(ms), ms.nn.ReLU()])
    seq.to_float(ms.float16)
    seq[1].to_float(ms.float32)
    return seq(ms.Tensor(_X16))


def case_mp_to_float_bad_type(ms):
    return _dense16(ms).to_float(ms.int32)


def case_mp_auto_mixed_precision_levels(ms):
    out = {}
    for level in ("O0", "O1", "O2", "O3"):
        net = ms.amp.auto_mixed_precision(ms.nn.SequentialCell([_dense16(ms), ms.nn.ReLU()]), level)
        y = net(ms.Tensor(_X16))
        out[level] = (str(y.dtype), y.astype(ms.float32))
    return out


def case_mp_auto_mixed_precision_errors(ms):
    errs = []
    for args in ((_dense16(ms), "O4"), (_dense16(ms), "O2", ms.float32)):
        try:
            ms.amp.auto_mixed_precision(*args)
            errs.append("none")
        except (ValueError, TypeError) as e:
            errs.append(type(e).__name__)
    return errs


def case_mp_build_train_network_o0(ms):
    net = _dense16(ms)
    opt = ms.nn.Momentum(net.trainable_params(), 0.0625, 0.5)
    cell = ms.amp.build_train_network(net, opt, ms.nn.MSELoss(), level="O0")
    x, y = ms.Tensor(_X16), ms.Tensor(np.array([[1.0, 0.0], [0.0, 1.0]], np.float32))
    losses = [cell(x, y).asnumpy().copy() for _ in range(3)]
    return type(cell).__name__, np.stack(losses), net.weight.asnumpy().copy()


def case_mp_build_train_network_o3(ms):
    net = _dense16(ms)
    opt = ms.nn.SGD(net.trainable_params(), 0.0625)
    cell = ms.amp.build_train_network(net, opt, ms.nn.MSELoss(), level="O3")
    x, y = ms.Tensor(_X16), ms.Tensor(np.array([[1.0, 0.0], [0.0, 1.0]], np.float32))
    loss = cell(x, y)
    return type(cell).__name__, str(loss.dtype), loss, net.weight.asnumpy().copy(), str(net.weight.dtype)


def case_mp_build_train_network_fixed_manager_no_drop(ms):
    net = _dense16(ms)
    opt = ms.nn.Momentum(net.trainable_params(), 0.0625, 0.5, loss_scale=16.0)
    mgr = ms.amp.FixedLossScaleManager(16.0, drop_overflow_update=False)
    cell = ms.amp.build_train_network(net, opt, ms.nn.MSELoss(), level="O0", loss_scale_manager=mgr)
    x, y = ms.Tensor(_X16), ms.Tensor(np.array([[1.0, 0.0], [0.0, 1.0]], np.float32))
    losses = [cell(x, y).asnumpy().copy() for _ in range(2)]
    return type(cell).__name__, np.stack(losses), net.weight.asnumpy().copy()


def case_mp_build_train_network_errors(ms):
    net = _dense16(ms)
    opt = ms.nn.SGD(net.trainable_params(), 0.1)
    errs = []
    for kw in ({"level": "O5"}, {"level": "O0", "foo": 1}):
        try:
            ms.amp.build_train_network(net, opt, ms.nn.MSELoss(), **kw)
            errs.append("none")
        except (ValueError, TypeError) as e:
            errs.append(type(e).__name__)
    try:
        ms.amp.build_train_network(net, "opt", ms.nn.MSELoss())
        errs.append("none")
    except (ValueError, TypeError) as e:
        errs.append(type(e).__name__)
    return errs


# ===========================================================================
# parallel context (one device)
# ===========================================================================
def case_parallel_context(ms):
    keys = ["device_num", "global_rank", "gradients_mean", "parallel_mode", "full_batch",
            "enable_parallel_optimizer", "pipeline_stages", "grad_accumulation_step"]
    before = {k: ms.get_auto_parallel_context(k) for k in keys}
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True, device_num=1)
    during = {k: ms.get_auto_parallel_context(k) for k in ("parallel_mode", "gradients_mean", "device_num")}
    ms.reset_auto_parallel_context()
    after = ms.get_auto_parallel_context("parallel_mode")
    modes = [ms.ParallelMode.STAND_ALONE, ms.ParallelMode.DATA_PARALLEL, ms.ParallelMode.HYBRID_PARALLEL,
             ms.ParallelMode.SEMI_AUTO_PARALLEL, ms.ParallelMode.AUTO_PARALLEL]
    return before, during, after, modes


def case_parallel_context_errors(ms):
    errs = []
    for fn in (lambda: ms.get_auto_parallel_context("foo"), lambda: ms.set_auto_parallel_context(foo=1),
               lambda: ms.set_auto_parallel_context(parallel_mode="bad")):
        try:
            fn()
            errs.append("none")
        except (ValueError, TypeError) as e:
            errs.append(type(e).__name__)
    ms.reset_auto_parallel_context()
    return errs



# --- boost.GradientAccumulation: the training-step pattern of MindSpore's tutorial ------------------
def _grad_accumulation_cell(ms, net, opt, steps_to_accumulate):
    from importlib import import_module
    boost = import_module(ms.__name__ + ".boost")

    class TrainGradAccumulationStepsCell(ms.nn.TrainOneStepCell):
        def __init__(self, network, optimizer, max_accumulation_step):
            super().__init__(network, optimizer)
            self.grad_accumulation = boost.GradientAccumulation(max_accumulation_step, self.optimizer)

        def construct(self, *inputs):
            loss = self.network(*inputs)
            sens = ms.ops.fill(loss.dtype, loss.shape, self.sens)
            grads = self.grad(self.network, self.weights)(*inputs, sens)
            grads = self.grad_reducer(grads)
            return self.grad_accumulation(loss, grads)

    return TrainGradAccumulationStepsCell(ms.nn.WithLossCell(net, ms.nn.MSELoss()), opt, steps_to_accumulate)


def _grad_accumulation_run(ms, cell, net, steps):
    rng = np.random.RandomState(0)
    ga = cell.grad_accumulation
    out = {k: [] for k in ("loss", "w", "b", "count", "acc_w", "acc_b")}
    for _ in range(steps):
        x = ms.Tensor(rng.randn(4, 3).astype(np.float32))
        y = ms.Tensor(rng.randn(4, 2).astype(np.float32))
        out["loss"].append(cell(x, y).asnumpy().copy())
        out["w"].append(net.weight.asnumpy().copy())
        out["b"].append(net.bias.asnumpy().copy())
        out["count"].append(ga._accumulation_step.asnumpy().copy())
        out["acc_w"].append(ga._grad_accumulation[0].asnumpy().copy())
        out["acc_b"].append(ga._grad_accumulation[1].asnumpy().copy())
    return {k: np.stack(v) for k, v in out.items()}


def case_boost_grad_accumulation_momentum(ms):
    net = _dense_net(ms)
    cell = _grad_accumulation_cell(ms, net, ms.nn.Momentum(net.trainable_params(), 0.1, 0.9), 3)
    cell.set_train()
    return _grad_accumulation_run(ms, cell, net, 7)


def case_boost_grad_accumulation_adam_every_step(ms):
    net = _dense_net(ms)
    cell = _grad_accumulation_cell(ms, net, ms.nn.Adam(net.trainable_params(), 0.01), 1)
    return _grad_accumulation_run(ms, cell, net, 3)


def case_boost_grad_accumulation_parameters(ms):
    net = _dense_net(ms)
    opt = ms.nn.SGD(net.trainable_params(), 0.1)
    cell = _grad_accumulation_cell(ms, net, opt, 2)
    ga = cell.grad_accumulation
    return [[n for n, _ in ga.parameters_and_names()][:5], [p.name for p in ga._grad_accumulation],
            [str(p.dtype) for p in ga._grad_accumulation], ga._accumulation_step.name,
            ga._accumulation_step.asnumpy(), ga.weights[0] is net.weight]


def case_boost_grad_accumulation_direct_calls(ms):
    """Called by hand after ``value_and_grad`` (no training cell): SGD runs on the 2nd, 4th call."""
    from importlib import import_module
    boost = import_module(ms.__name__ + ".boost")
    w, b = _params(ms)
    opt = ms.nn.SGD([w, b], 0.5)
    ga = boost.GradientAccumulation(2, opt)

    def loss_fn(xx, yy):
        d = ms.ops.matmul(xx, w.T) + b - yy
        return (d * d).mean()

    grad_fn = ms.value_and_grad(loss_fn, None, opt.parameters)
    out = []
    for i in range(4):
        loss, grads = grad_fn(ms.Tensor(_X * (i + 1)), ms.Tensor(_Y))
        out.append([ga(loss, grads), w.asnumpy().copy(), ga._accumulation_step.asnumpy().copy(),
                    ga._grad_accumulation[1].asnumpy().copy()])
    return out


def all_cases():
    return {k[len("case_"):]: v for k, v in sorted(globals().items()) if k.startswith("case_") and callable(v)}
