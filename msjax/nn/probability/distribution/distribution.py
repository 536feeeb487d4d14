"""``mindspore.nn.probability.distribution.Distribution``: the base of MindSpore's
probability distributions, as a Cell.

A distribution is built with default parameters (``low``/``high`` for Uniform),
or without them; every method also takes the parameters per call
(``dist_spec_args``), which then win for that call only. Parameters are Tensors
of ``parameter_type`` (the common float type of the defaults), checked and
broadcast against each other as MindSpore does: a per-call parameter must be a
Tensor, all must share one dtype, and a parameter that is neither given nor set
at construction raises ``TypeError``.

A subclass defines some of ``_prob``/``_log_prob``, ``_cdf``/``_log_cdf``/
``_survival_function``/``_log_survival``, ``_mean``, ``_mode``, ``_sd``/``_var``,
``_entropy``, ``_kl_loss``, ``_cross_entropy``, ``_sample``; the public method of
one of a group is derived from another when only that one is defined (``prob``
is ``exp(_log_prob)``, ``survival_function`` is ``1 - cdf``, ``sd`` is
``sqrt(_var)``...), and what cannot be derived raises ``NotImplementedError``.
Calling the Cell, ``dist('prob', value, ...)``, runs the method named first
(compiled in GRAPH_MODE). Everything is written on ``jax.numpy`` over the
Tensors' arrays, so gradients flow to Tensor arguments and Parameters.
"""
from __future__ import annotations

import jax.numpy as jnp
import numpy as np

from ...._core import context
from ...._core import dtype as mstype
from ...._core.parameter import Parameter
from ...._core.tensor import Tensor, to_array, wrap
from .... import _checkparam as validator
from ...cell import Cell

__all__ = ["Distribution"]


# --- helpers (MindSpore's names) -------------------------------------------------------------------
def cast_to_tensor(t, hint_type=mstype.float32):
    """``t`` (number, list, numpy array, Tensor) as a Tensor of ``hint_type``; a
    Parameter is returned as it is."""
    if t is None:
        raise ValueError("Input cannot be None in cast_to_tensor")
    if isinstance(t, Parameter):
        return t
    if isinstance(t, bool):
        raise TypeError("Input cannot be Type Bool")
    if isinstance(t, (Tensor, np.ndarray, list, int, float)):
        return Tensor(t, dtype=hint_type)
    raise TypeError(f"Unable to convert input of type {type(t)} to a Tensor of type {hint_type}")


def cast_type_for_device(dtype):
    """The dtype samples take on the device target (GPU has no uint/int8/int64/float64 kernels)."""
    if context.get_context("device_target") == "GPU":
        if dtype in mstype.uint_type or dtype == mstype.int8:
            return mstype.int16
        if dtype == mstype.int64:
            return mstype.int32
        if dtype == mstype.float64:
            return mstype.float32
    return dtype


def set_param_type(args, hint_type):
    """The dtype the parameters are kept in: the dtype the given arrays share (integer
    and float64 arrays give float32), else ``hint_type`` (float32 for an integer hint)."""
    ints = mstype.int_type + mstype.uint_type
    if hint_type is None or hint_type in ints:
        hint_type = mstype.float32
    common = None
    for name, arg in args.items():
        if not hasattr(arg, "dtype"):
            continue
        cur = mstype.from_np(arg.dtype) if isinstance(arg, np.ndarray) else arg.dtype
        if common is None:
            common = cur
        elif cur != common:
            raise TypeError(f"{name} should have the same dtype as other arguments.")
    if common in ints or common == mstype.float64:
        return mstype.float32
    return hint_type if common is None else common


def check_tensor(x, name):
    """``x`` itself when it is a Tensor (or Parameter) or None; else TypeError."""
    if x is None or isinstance(x, Tensor):
        return x
    raise TypeError(f"For {name}, input type must be a Tensor or Parameter.")


def check_tuple(x, name):
    if isinstance(x, tuple):
        return x
    raise TypeError(f"For {name}, input type must be a tuple.")


def check_greater(a, b, name_a, name_b):
    """``a < b`` everywhere (skipped for Parameters, whose values may change)."""
    if a is None or b is None:
        raise ValueError("input value cannot be None in check_greater")
    if isinstance(a, Parameter) or isinstance(b, Parameter):
        return
    if not np.all(np.less(a.asnumpy(), b.asnumpy())):
        raise ValueError(f"{name_a} must be less than {name_b}")


def check_distribution_name(name, expected_name):
    if name is None:
        raise ValueError("Input dist must be a constant which is not None.")
    if name != expected_name:
        raise ValueError(f"Expected dist input is {expected_name}, but got {name}.")


def raise_none_error(name):
    raise TypeError(f"the type {name} must be subclass of Tensor. It can not be None since it is not specified "
                    "during initialization.")


def raise_not_implemented_util(func_name, obj, *args, **kwargs):
    raise NotImplementedError(f"{func_name} is not implemented for {obj} distribution.")


def _float(x):
    """``x``'s array, integers cast to float32 (MindSpore's exp/log helpers)."""
    x = to_array(x)
    return x if jnp.issubdtype(x.dtype, jnp.floating) else x.astype(jnp.float32)


def exp_generic(x):
    """exp, integer inputs taken as float32."""
    return wrap(jnp.exp(_float(x)))


def log_generic(x):
    """log, integer inputs taken as float32: ``-inf`` at 0, NaN below (selected, as MindSpore)."""
    x = _float(x)
    out = jnp.where(x <= 0, jnp.asarray(-jnp.inf, x.dtype), jnp.log(x))
    return wrap(jnp.where(x < 0, jnp.asarray(jnp.nan, x.dtype), out))


def _np_dtype(dtype):
    return mstype.to_np(dtype)


# The public methods of a group fall back on each other: (method, [(hook, how), ...]) in
# order of preference; ``how`` turns the hook's result into the method's.
_LOG, _EXP = "log", "exp"


class Distribution(Cell):
    """``Distribution(seed, dtype, name, param)``: ``param`` is the subclass's
    ``locals()`` with ``param['param_dict']`` its distribution parameters."""

    def __init__(self, seed, dtype, name, param):
        super().__init__()
        seed = 0 if seed is None else seed
        validator.check_value_type("name", name, [str], type(self).__name__)
        validator.check_non_negative_int(seed, "seed", name)
        self._name = name
        self._seed = seed
        self._dtype = cast_type_for_device(dtype)
        self._parameters = {k: v for k, v in param.items() if k != "self" and not k.startswith("_")}
        self.default_parameters = []
        self.parameter_names = []
        if "distribution" not in self._parameters:     # not a transformed distribution
            self.parameter_type = set_param_type(self._parameters.get("param_dict", {}), dtype)
            self._batch_shape = self._calc_batch_shape()
            self._is_scalar_batch = self._check_is_scalar_batch()
            self._broadcast_shape = self._batch_shape

    # --- properties --------------------------------------------------------------------------
    @property
    def name(self):
        return self._name

    @property
    def dtype(self):
        return self._dtype

    @property
    def seed(self):
        return self._seed

    @property
    def parameters(self):
        return self._parameters

    @property
    def is_scalar_batch(self):
        return self._is_scalar_batch

    @property
    def batch_shape(self):
        return self._batch_shape

    @property
    def broadcast_shape(self):
        return self._broadcast_shape

    # --- parameters ------------------------------------------------------------------------------
    def _reset_parameters(self):
        self.default_parameters = []
        self.parameter_names = []

    def _add_parameter(self, value, name):
        """Keep ``value`` (cast to ``parameter_type``; None stays None) as the default
        of the distribution parameter ``name``; returns it."""
        value_t = None if value is None else cast_to_tensor(value, self.parameter_type)
        self.default_parameters.append(value_t)
        self.parameter_names.append(name)
        return value_t

    def _check_param_type(self, *args):
        """The distribution parameters for a call: each given one (a Tensor) or its
        default, all of one dtype, broadcast to a common shape and cast to
        ``parameter_type``. One parameter comes back alone, several as a tuple."""
        shape = None
        first_dtype = None
        out = []
        for arg, name, default in zip(args, self.parameter_names, self.default_parameters):
            if arg is not None:
                check_tensor(arg, name)
            elif default is not None:
                arg = default
            else:
                raise_none_error(name)
            a = to_array(arg)
            if shape is None:
                shape, first_dtype = a.shape, a.dtype
            else:
                shape = jnp.broadcast_shapes(shape, a.shape)
                if a.dtype != first_dtype:
                    raise TypeError(f"For 'SameTypeShape', the x dtype should be = y dtype: {mstype.from_np(first_dtype)}, "
                                    f"but got {mstype.from_np(a.dtype)}.")
            out.append(a.astype(_np_dtype(self.parameter_type)))
        out = [wrap(jnp.broadcast_to(a, shape)) for a in out] if len(out) > 1 else [wrap(out[0])]
        return out[0] if len(out) == 1 else tuple(out)

    def _check_value(self, value, name):
        return check_tensor(value, name)

    def _check_is_scalar_batch(self):
        return all(v is None or isinstance(v, (int, float)) for v in self._parameters.get("param_dict").values())

    def _calc_batch_shape(self):
        total = None
        for value in self._parameters.get("param_dict").values():
            if value is None:
                return None
            t = to_array(cast_to_tensor(value))
            total = t if total is None else total + t
        return total.shape

    def _raise_not_implemented_error(self, func_name):
        def raise_error(*args, **kwargs):
            return raise_not_implemented_util(func_name, self.name, *args, **kwargs)
        return raise_error

    # --- dispatch: a method from the hook the subclass defines --------------------------------
    def _has(self, hook):
        return hasattr(self, hook)

    def _call_prob(self, value, *args, **kwargs):
        if self._has("_prob"):
            return self._prob(value, *args, **kwargs)
        if self._has("_log_prob"):
            return wrap(jnp.exp(to_array(self._log_prob(value, *args, **kwargs))))
        return raise_not_implemented_util("prob", self.name)

    def _call_log_prob(self, value, *args, **kwargs):
        if self._has("_log_prob"):
            return self._log_prob(value, *args, **kwargs)
        if self._has("_prob"):
            return wrap(jnp.log(to_array(self._prob(value, *args, **kwargs))))
        return raise_not_implemented_util("log_prob", self.name)

    def _call_cdf(self, value, *args, **kwargs):
        if self._has("_cdf"):
            return self._cdf(value, *args, **kwargs)
        if self._has("_log_cdf"):
            return wrap(jnp.exp(to_array(self._log_cdf(value, *args, **kwargs))))
        if self._has("_survival_function"):
            return wrap(1.0 - to_array(self._survival_function(value, *args, **kwargs)))
        if self._has("_log_survival"):
            return wrap(1.0 - jnp.exp(to_array(self._log_survival(value, *args, **kwargs))))
        return raise_not_implemented_util("cdf", self.name)

    def _any_cdf_hook(self):
        return any(self._has(h) for h in ("_cdf", "_log_cdf", "_survival_function", "_log_survival"))

    def _call_survival(self, value, *args, **kwargs):
        if self._has("_survival_function"):
            return self._survival_function(value, *args, **kwargs)
        if self._has("_log_survival"):
            return wrap(jnp.exp(to_array(self._log_survival(value, *args, **kwargs))))
        if self._any_cdf_hook():
            return wrap(1.0 - to_array(self._call_cdf(value, *args, **kwargs)))
        return raise_not_implemented_util("survival_function", self.name)

    def _call_log_cdf(self, value, *args, **kwargs):
        if self._has("_log_cdf"):
            return self._log_cdf(value, *args, **kwargs)
        if self._any_cdf_hook():
            return wrap(jnp.log(to_array(self._call_cdf(value, *args, **kwargs))))
        return raise_not_implemented_util("log_cdf", self.name)

    def _call_log_survival(self, value, *args, **kwargs):
        if self._has("_log_survival"):
            return self._log_survival(value, *args, **kwargs)
        if self._any_cdf_hook():
            return wrap(jnp.log(to_array(self._call_survival(value, *args, **kwargs))))
        return raise_not_implemented_util("log_cdf", self.name)   # MindSpore's name for it

    def _call_sd(self, *args, **kwargs):
        if self._has("_sd"):
            return self._sd(*args, **kwargs)
        if self._has("_var"):
            return wrap(jnp.sqrt(to_array(self._var(*args, **kwargs))))
        return raise_not_implemented_util("sd", self.name)

    def _call_var(self, *args, **kwargs):
        if self._has("_var"):
            return self._var(*args, **kwargs)
        if self._has("_sd"):
            return wrap(jnp.square(to_array(self._sd(*args, **kwargs))))
        return raise_not_implemented_util("var", self.name)

    def _call_cross_entropy(self, dist, *args, **kwargs):
        if self._has("_cross_entropy"):
            return self._cross_entropy(dist, *args, **kwargs)
        return raise_not_implemented_util("cross_entropy", self.name)

    # hooks without a fallback: a subclass overrides them
    def _get_dist_args(self, *args, **kwargs):
        return raise_not_implemented_util("get_dist_args", self.name)

    def _get_dist_type(self):
        return raise_not_implemented_util("get_dist_type", self.name)

    def _kl_loss(self, *args, **kwargs):
        return raise_not_implemented_util("kl_loss", self.name)

    def _mean(self, *args, **kwargs):
        return raise_not_implemented_util("mean", self.name)

    def _mode(self, *args, **kwargs):
        return raise_not_implemented_util("mode", self.name)

    def _entropy(self, *args, **kwargs):
        return raise_not_implemented_util("entropy", self.name)

    def _sample(self, *args, **kwargs):
        return raise_not_implemented_util("sample", self.name)

    # --- public API ------------------------------------------------------------------------------
    def get_dist_args(self, *args, **kwargs):
        """The distribution parameters: the given ones, or the defaults."""
        return self._get_dist_args(*args, **kwargs)

    def get_dist_type(self):
        """The distribution's type name ("Uniform"...)."""
        return self._get_dist_type()

    def prob(self, value, *args, **kwargs):
        """Probability density (mass) at ``value``."""
        return self._call_prob(value, *args, **kwargs)

    def log_prob(self, value, *args, **kwargs):
        """Log of the probability density (mass) at ``value``."""
        return self._call_log_prob(value, *args, **kwargs)

    def cdf(self, value, *args, **kwargs):
        """Cumulative distribution function at ``value``."""
        return self._call_cdf(value, *args, **kwargs)

    def log_cdf(self, value, *args, **kwargs):
        """Log of the cumulative distribution function at ``value``."""
        return self._call_log_cdf(value, *args, **kwargs)

    def survival_function(self, value, *args, **kwargs):
        """``1 - cdf(value)``."""
        return self._call_survival(value, *args, **kwargs)

    def log_survival(self, value, *args, **kwargs):
        """Log of the survival function at ``value``."""
        return self._call_log_survival(value, *args, **kwargs)

    def kl_loss(self, dist, *args, **kwargs):
        """KL(self || other), ``other`` of type ``dist`` given by its parameters."""
        return self._kl_loss(dist, *args, **kwargs)

    def mean(self, *args, **kwargs):
        return self._mean(*args, **kwargs)

    def mode(self, *args, **kwargs):
        return self._mode(*args, **kwargs)

    def sd(self, *args, **kwargs):
        return self._call_sd(*args, **kwargs)

    def var(self, *args, **kwargs):
        return self._call_var(*args, **kwargs)

    def entropy(self, *args, **kwargs):
        return self._entropy(*args, **kwargs)

    def cross_entropy(self, dist, *args, **kwargs):
        """Cross entropy H(self, other), ``other`` of type ``dist`` given by its parameters."""
        return self._call_cross_entropy(dist, *args, **kwargs)

    def sample(self, *args, **kwargs):
        """Samples of shape ``shape + batch shape``."""
        return self._sample(*args, **kwargs)

    _METHODS = {"log_prob": "_call_log_prob", "prob": "_call_prob", "cdf": "_call_cdf", "log_cdf": "_call_log_cdf",
                "survival_function": "_call_survival", "log_survival": "_call_log_survival", "kl_loss": "_kl_loss",
                "mean": "_mean", "mode": "_mode", "sd": "_call_sd", "var": "_call_var", "entropy": "_entropy",
                "cross_entropy": "_call_cross_entropy", "sample": "_sample", "get_dist_args": "_get_dist_args"}

    def construct(self, name, *args, **kwargs):
        """``dist(name, *args, **kwargs)`` runs the method ``name`` ('prob', 'log_prob',
        'cdf', 'log_cdf', 'survival_function', 'log_survival', 'mean', 'mode', 'sd',
        'var', 'entropy', 'kl_loss', 'cross_entropy', 'sample', 'get_dist_args',
        'get_dist_type')."""
        if name == "get_dist_type":
            return self._get_dist_type()
        hook = self._METHODS.get(name)
        if hook is None:
            return raise_not_implemented_util(name, self.name)
        return getattr(self, hook)(*args, **kwargs)
