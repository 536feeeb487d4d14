"""Golden cases for ``nn.probability.distribution`` (suite ``distribution``): the
``Uniform`` distribution's methods with default and per-call parameters,
broadcasting, dtypes, the Cell call ``dist('prob', ...)``, a Cell using a
distribution in ``construct``, gradients through ``log_prob``/``cdf``/``entropy``
with respect to ``low``/``high`` (Tensor arguments and Parameters), and the
errors. Samples come from different random streams in MindSpore and msjax: only
their shape, dtype and range are recorded (``tests/test_distribution.py`` tests
their distribution)."""
from importlib import import_module

import numpy as np

_X = np.array([-0.5, 0.0, 0.25, 1.0, 1.999, 2.0, 2.5, 3.0, 3.5], np.float32)


def _d(ms):
    return import_module(ms.__name__ + ".nn.probability.distribution")


def _t(ms, a, dtype=None):
    return ms.Tensor(np.asarray(a, dtype or np.float32))


def _methods(ms, u, value, *params):
    return [u.prob(value, *params), u.log_prob(value, *params), u.cdf(value, *params), u.log_cdf(value, *params),
            u.survival_function(value, *params), u.log_survival(value, *params), u.mean(*params), u.sd(*params),
            u.var(*params), u.entropy(*params)]


def case_scalar_defaults_all_methods(ms):
    u = _d(ms).Uniform(0.0, 2.0)
    return _methods(ms, u, _t(ms, _X))


def case_batch_defaults_all_methods(ms):
    u = _d(ms).Uniform([0.0, 1.0, -2.0], [2.0, 3.0, 0.5])
    return _methods(ms, u, _t(ms, [[0.5, 2.5, -2.0], [2.0, 1.0, 0.6]]))


def case_per_call_parameters(ms):
    u = _d(ms).Uniform()
    low, high = _t(ms, [[0.0], [1.0]]), _t(ms, [2.0, 3.0, 4.0])
    return _methods(ms, u, _t(ms, [1.5, 2.5, 3.5]), low, high)


def case_per_call_overrides_defaults(ms):
    u = _d(ms).Uniform(0.0, 1.0)
    return [u.prob(_t(ms, [0.5, 1.5]), _t(ms, 1.0), _t(ms, 2.0)), u.mean(high=_t(ms, 3.0)), u.mean(),
            u.var(_t(ms, -1.0)), u.get_dist_args(), u.get_dist_args(_t(ms, 0.5)), u.get_dist_type()]


def case_integer_tensors_as_parameters(ms):
    u = _d(ms).Uniform()
    lo, hi = _t(ms, [0, 1], np.int32), _t(ms, [4, 3], np.int32)
    return [u.mean(lo, hi), u.prob(_t(ms, [1.0, 1.0]), lo, hi), u.entropy(lo, hi)]


def case_kl_loss_and_cross_entropy(ms):
    u = _d(ms).Uniform([0.0, 1.0], [2.0, 3.0])
    lb, hb = _t(ms, [-1.0, 1.5]), _t(ms, [3.0, 4.0])
    return [u.kl_loss("Uniform", lb, hb), u.cross_entropy("Uniform", lb, hb),
            u.kl_loss("Uniform", _t(ms, [0.0, 1.0]), _t(ms, [2.0, 3.0])),
            u.kl_loss("Uniform", lb, hb, _t(ms, 0.0), _t(ms, 1.0)),
            u.cross_entropy("Uniform", _t(ms, -2.0), _t(ms, 2.0), _t(ms, -1.0), _t(ms, 1.0))]


def case_cell_call_by_name(ms):
    u = _d(ms).Uniform([0.0, 1.0], [2.0, 3.0])
    x = _t(ms, [1.0, 3.5])
    return [u("prob", x), u("log_prob", x), u("cdf", x), u("log_cdf", x), u("survival_function", x),
            u("log_survival", x), u("mean"), u("sd"), u("var"), u("entropy"),
            u("kl_loss", "Uniform", _t(ms, [-1.0, 0.0]), _t(ms, [3.0, 3.0])),
            u("cross_entropy", "Uniform", _t(ms, [-1.0, 0.0]), _t(ms, [3.0, 3.0])),
            u("get_dist_type"), u("prob", x, _t(ms, 0.5), _t(ms, 4.0))]


def case_network_using_distribution(ms):
    d = _d(ms)

    class Net(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.u = d.Uniform(-1.0, 3.0)

        def construct(self, x, low, high):
            return (self.u.log_prob(x) + self.u.cdf(x, low, high) * 2.0, self.u.entropy(low, high),
                    self.u.kl_loss("Uniform", low - 1.0, high + 1.0))

    net = Net()
    x = _t(ms, [-2.0, 0.0, 1.5, 2.5])
    return [net(x, _t(ms, 0.0), _t(ms, 2.0)), net(x, _t(ms, [-1.0, 0.0, 1.0, 2.0]), _t(ms, 4.0))]


def case_dtype_float16_and_float64(ms):
    d = _d(ms)
    u16 = d.Uniform(0.0, 2.0, dtype=ms.float16)
    u64 = d.Uniform(np.array([0.0, 1.0]), np.array([2.0, 5.0]), dtype=ms.float64)
    x = _t(ms, [0.5, 1.5])
    return [u16.prob(x), u16.cdf(x), u16.mean(), str(u16.parameter_type), str(u16.dtype),
            u64.prob(x), u64.cdf(x), str(u64.parameter_type), str(u64.dtype), u64.low, u64.high]


def case_attributes_and_repr(ms):
    d = _d(ms)
    a = d.Uniform(0.0, 1.0, seed=3, name="U")
    b = d.Uniform([0.0, 1.0], [[2.0], [3.0]])
    c = d.Uniform()
    return [str(a), a.name, a.seed, str(a.dtype), a.is_scalar_batch, a.batch_shape, a.low, a.high,
            sorted(a.parameters), str(b), b.is_scalar_batch, b.batch_shape, b.broadcast_shape,
            c.batch_shape, c.is_scalar_batch, c.low, c.high, d.Uniform(0, 1).low, d.Uniform(seed=None).seed]


def _grad(ms, fn, *args):
    return ms.grad(fn, grad_position=tuple(range(len(args))))(*args)


def case_grad_log_prob_low_high(ms):
    u = _d(ms).Uniform()
    x = _t(ms, [0.5, 1.0, 1.5])
    return _grad(ms, lambda lo, hi: u.log_prob(x, lo, hi), _t(ms, [0.0, 0.5, -1.0]), _t(ms, [2.0, 3.0, 1.75]))


def case_grad_log_prob_scalar_bounds_broadcast(ms):
    u = _d(ms).Uniform()
    x = _t(ms, [[0.5, 1.0], [1.5, 0.25]])
    return _grad(ms, lambda lo, hi: u.log_prob(x, lo, hi), _t(ms, 0.0), _t(ms, 2.0))


def case_grad_prob_cdf_entropy(ms):
    u = _d(ms).Uniform()
    x = _t(ms, [0.5, 1.0, 1.5])
    lo, hi = _t(ms, [0.0, 0.5, -1.0]), _t(ms, [2.0, 3.0, 1.75])
    return [_grad(ms, lambda a, b: u.prob(x, a, b), lo, hi), _grad(ms, lambda v, a, b: u.cdf(v, a, b), x, lo, hi),
            _grad(ms, lambda a, b: u.entropy(a, b), lo, hi), _grad(ms, lambda a, b: u.mean(a, b) * u.sd(a, b), lo, hi),
            _grad(ms, lambda a, b: u.kl_loss("Uniform", a - 1.0, b + 2.0, a, b), lo, hi),
            _grad(ms, lambda a, b: u.log_survival(x, a, b), lo, hi)]


def case_grad_log_prob_parameters(ms):
    low = ms.Parameter(_t(ms, [0.0, 1.0]), name="low")
    high = ms.Parameter(_t(ms, [2.0, 4.0]), name="high")
    u = _d(ms).Uniform(low, high)
    x = _t(ms, [1.0, 2.0])

    def loss(v):
        return -u.log_prob(v).sum() + u.entropy().sum()

    value, grads = ms.value_and_grad(loss, None, [low, high])(x)
    return [value, grads]


def case_grad_network_parameters(ms):
    d = _d(ms)

    class Net(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.low = ms.Parameter(_t(ms, [-1.0, 0.0, 0.5]), name="low")
            self.high = ms.Parameter(_t(ms, [1.0, 2.0, 3.0]), name="high")
            self.u = d.Uniform()

        def construct(self, x):
            return -self.u.log_prob(x, self.low, self.high).mean() + self.u.cdf(x, self.low, self.high).sum()

    net = Net()
    x = _t(ms, [0.0, 1.0, 2.0])
    return ms.value_and_grad(net, None, net.trainable_params())(x)


def case_sample_shapes_dtypes_range(ms):
    d = _d(ms)
    u = d.Uniform([0.0, 1.0], [2.0, 3.0])
    out = []
    for s in [u.sample(), u.sample((3,)), u.sample((2, 4)), d.Uniform(0.0, 1.0).sample(),
              d.Uniform(0.0, 1.0).sample((5,)), d.Uniform(0.0, 1.0, dtype=ms.float16).sample((2,)),
              d.Uniform().sample((4,), _t(ms, [[0.0], [5.0]]), _t(ms, [1.0, 6.0, 10.0])), u("sample", (3,))]:
        out.append([tuple(s.shape), str(s.dtype)])
    many = u.sample((2000,)).asnumpy()
    out.append([bool((many >= np.array([0.0, 1.0])).all()), bool((many < np.array([2.0, 3.0])).all())])
    return out


def case_err_low_not_less_than_high(ms):
    _d(ms).Uniform([0.0, 2.0], [1.0, 2.0])


def case_err_dtype_int(ms):
    _d(ms).Uniform(0.0, 1.0, dtype=ms.int32)


def case_err_name_type(ms):
    _d(ms).Uniform(0.0, 1.0, name=3)


def case_err_seed_negative(ms):
    _d(ms).Uniform(0.0, 1.0, seed=-1)


def case_err_bool_parameter(ms):
    _d(ms).Uniform(True, 2.0)


def case_err_parameter_type(ms):
    _d(ms).Uniform("0", 2.0)


def case_err_mixed_init_dtypes(ms):
    _d(ms).Uniform(np.array([0.0], np.float32), np.array([1.0], np.float64))


def case_err_value_not_tensor(ms):
    _d(ms).Uniform(0.0, 1.0).prob(0.5)


def case_err_per_call_not_tensor(ms):
    _d(ms).Uniform(0.0, 1.0).sample((3,), 0.0, 1.0)


def case_err_missing_parameters(ms):
    _d(ms).Uniform().mean()


def case_err_missing_high(ms):
    _d(ms).Uniform().cdf(_t(ms, [0.5]), _t(ms, 0.0))


def case_err_per_call_dtype_mismatch(ms):
    _d(ms).Uniform().mean(_t(ms, [1], np.int64), _t(ms, 3.0))


def case_err_per_call_shapes(ms):
    _d(ms).Uniform().mean(_t(ms, [0.0, 1.0]), _t(ms, [2.0, 3.0, 4.0]))


def case_err_kl_wrong_dist(ms):
    _d(ms).Uniform(0.0, 1.0).kl_loss("Normal", _t(ms, 0.0), _t(ms, 1.0))


def case_err_kl_not_tensor(ms):
    _d(ms).Uniform(0.0, 1.0).kl_loss("Uniform", 0.0, _t(ms, 1.0))


def case_err_mode_not_defined(ms):
    _d(ms).Uniform(0.0, 1.0).mode()


def case_err_sample_shape_not_tuple(ms):
    _d(ms).Uniform(0.0, 1.0).sample([3])


def case_err_cell_call_unknown_name(ms):
    _d(ms).Uniform(0.0, 1.0)("median")


def case_err_base_distribution_not_implemented(ms):
    d = _d(ms)

    class Flat(d.Distribution):
        def __init__(self):
            super().__init__(None, ms.float32, "Flat", {"param_dict": {"a": 1.0}})

    Flat().prob(_t(ms, 1.0))


def all_cases():
    return {k[len("case_"):]: v for k, v in sorted(globals().items()) if k.startswith("case_") and callable(v)}


# ---------------- Normal ----------------
_XN = np.array([-3.0, -0.5, 0.0, 0.3, 1.0, 2.5, 40.0], np.float32)


def case_normal_scalar_all_methods(ms):
    n = _d(ms).Normal(0.5, 1.5)
    return _methods(ms, n, _t(ms, _XN)) + [n.mode()]


def case_normal_batch_and_per_call(ms):
    d = _d(ms)
    nb = d.Normal([0.0, 1.0, -2.0], [1.0, 0.5, 3.0])
    n = d.Normal()
    m, s = _t(ms, [[0.0], [1.0]]), _t(ms, [0.5, 2.0, 4.0])
    return [_methods(ms, nb, _t(ms, [[0.5, 2.5, -2.0], [2.0, 1.0, 0.6]])),
            _methods(ms, n, _t(ms, [1.5, -2.5, 3.5]), m, s),
            nb.get_dist_args(), nb.get_dist_type(), n("log_prob", _t(ms, [0.25]), _t(ms, 0.0), _t(ms, 2.0))]


def case_normal_kl_cross_entropy_dtypes(ms):
    d = _d(ms)
    n = d.Normal([0.0, 1.0], [2.0, 0.5])
    mb, sb = _t(ms, [-1.0, 1.5]), _t(ms, [3.0, 1.0])
    n64 = d.Normal(np.array([0.0, 1.0]), np.array([2.0, 0.5]), dtype=ms.float64)
    return [n.kl_loss("Normal", mb, sb), n.cross_entropy("Normal", mb, sb),
            n.kl_loss("Normal", mb, sb, _t(ms, 0.5), _t(ms, 1.0)),
            n64.log_prob(_t(ms, [0.5, 0.5])), n64.entropy(), d.Normal(0.0, 1.0, dtype=ms.float16).cdf(_t(ms, [0.5]))]


def case_normal_grads(ms):
    n = _d(ms).Normal()
    x = _t(ms, [0.5, -1.0, 1.5])
    return [_grad(ms, lambda m, s: n.log_prob(x, m, s), _t(ms, [0.0, 0.5, -1.0]), _t(ms, [2.0, 3.0, 1.75])),
            _grad(ms, lambda m, s: n.cdf(x, m, s), _t(ms, [0.0, 0.5, -1.0]), _t(ms, [2.0, 3.0, 1.75])),
            _grad(ms, lambda m, s: n.kl_loss("Normal", _t(ms, 1.0), _t(ms, 2.0), m, s), _t(ms, [0.0, 0.5]),
                  _t(ms, [2.0, 3.0]))]


def case_normal_sample_shapes(ms):
    d = _d(ms)
    n = d.Normal([0.0, 10.0], [1.0, 2.0], seed=3)
    out = [[tuple(s.shape), str(s.dtype)] for s in (n.sample(), n.sample((3,)), d.Normal(0.0, 1.0).sample(),
                                                     d.Normal(0.0, 1.0, dtype=ms.float16).sample((2,)),
                                                     d.Normal().sample((4,), _t(ms, [[0.0], [5.0]]), _t(ms, [1.0, 2.0, 3.0])))]
    many = n.sample((4000,)).asnumpy()
    out.append([bool(abs(many[:, 0].mean()) < 0.15), bool(abs(many[:, 1].mean() - 10.0) < 0.3)])
    return out


def case_err_normal_sd_not_positive(ms):
    _d(ms).Normal([0.0, 1.0], [1.0, 0.0])


def case_err_normal_dtype_int(ms):
    _d(ms).Normal(0.0, 1.0, dtype=ms.int32)
