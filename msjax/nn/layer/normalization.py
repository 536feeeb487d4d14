"""Normalisation layers: ``BatchNorm1d/2d/3d``, ``SyncBatchNorm``, ``LayerNorm``, ``GroupNorm``,
``InstanceNorm1d/2d/3d`` and ``LRN``.

BatchNorm keeps ``moving_mean``/``moving_variance`` as Parameters with
``requires_grad=False`` (checkpoint names ``<cell>.moving_mean``...). In training mode
(``set_train()``, or ``use_batch_statistics=True``) it normalises with the batch statistics
and updates the moving ones with MindSpore's convention ``moving = momentum * moving +
(1 - momentum) * batch`` (``momentum=0.9``; the unbiased batch variance), written with
``set_data`` so the update also happens under ``ms.grad``/``ms.jit``/GRAPH_MODE; in eval
mode it uses the moving statistics.

Differences from MindSpore: ``InstanceNorm*`` is not available on MindSpore's CPU backend
(it raises RuntimeError there); msjax implements the documented GPU behaviour (instance
statistics, moving statistics averaged over the batch with ``momentum=0.1``).
``SyncBatchNorm`` is ``BatchNorm`` on one device.
"""
from __future__ import annotations

import numbers

import jax.numpy as jnp

from ..._core import dtype as mstype
from ..._core.parameter import Parameter
from ..._core.tensor import Tensor, wrap
from ...common.initializer import Initializer, initializer
from ...ops._impl import normalization as F
from ...ops._impl import conv as _conv
from ..cell import Cell

__all__ = ["BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "SyncBatchNorm", "LayerNorm", "GroupNorm", "InstanceNorm1d",
           "InstanceNorm2d", "InstanceNorm3d", "LRN", "LayerNormExt"]


def _check_dim(val, target, cls_name):
    if val != target:
        raise ValueError(f"For '{cls_name}', the in_shape must have {target} dims, but got {val}.")


class _BatchNorm(Cell):
    def __init__(self, num_features, eps=1e-5, momentum=0.9, affine=True, gamma_init="ones", beta_init="zeros",
                 moving_mean_init="zeros", moving_var_init="ones", use_batch_statistics=None, data_format="NCHW",
                 dtype=mstype.float32):
        super().__init__()
        cls_name = type(self).__name__
        if not isinstance(num_features, int) or isinstance(num_features, bool):
            raise TypeError(f"For '{cls_name}', the type of 'num_features' must be int, "
                            f"but got {type(num_features).__name__}.")
        if num_features < 1:
            raise ValueError(f"For '{cls_name}', the 'num_features' must be at least 1, but got {num_features}.")
        if momentum < 0 or momentum > 1:
            raise ValueError(f"For '{cls_name}', the 'momentum' must be a number in range [0, 1], "
                             f"but got {momentum}.")
        if data_format not in ("NCHW", "NHWC"):
            raise ValueError(f"For '{cls_name}', the 'format' must be str and the value of 'format' should be in "
                             f"['NCHW', 'NHWC'], but got {data_format}.")
        if data_format == "NHWC":
            raise ValueError(f"For '{cls_name}', the 'NHWC' format only support in GPU target, but got device "
                             f"target CPU.")
        self.format = data_format
        if use_batch_statistics is not None and not isinstance(use_batch_statistics, bool):
            raise ValueError(f"For '{cls_name}', the 'use_batch_statistics' must be a boolean value or None, "
                             f"but got {use_batch_statistics}.")
        self.use_batch_statistics = use_batch_statistics
        self.num_features = num_features
        self.eps = eps
        self.beta_init = beta_init
        self.gamma_init = gamma_init
        self.moving_mean_init = moving_mean_init
        self.moving_var_init = moving_var_init
        self.moving_mean = Parameter(initializer(moving_mean_init, num_features, dtype=dtype), name="mean",
                                     requires_grad=False)
        self.moving_variance = Parameter(initializer(moving_var_init, num_features, dtype=dtype), name="variance",
                                         requires_grad=False)
        self.gamma = Parameter(initializer(gamma_init, num_features, dtype=dtype), name="gamma", requires_grad=affine)
        self.beta = Parameter(initializer(beta_init, num_features, dtype=dtype), name="beta", requires_grad=affine)
        self.momentum = 1.0 - momentum      # the weight of the batch statistics (ops.BatchNorm's momentum)

    @staticmethod
    def _check_input_dim(shape, cls_name):
        raise NotImplementedError

    def _train(self, x):
        xa = _conv._float_arg("input_x", x, "BatchNorm")
        y, mean, _, var_u = F.batch_norm_train(xa, self.gamma._data, self.beta._data, self.eps)
        F._update_running(self.moving_mean, mean, self.momentum)
        F._update_running(self.moving_variance, var_u, self.momentum)
        return wrap(y)

    def _infer(self, x):
        xa = _conv._float_arg("input_x", x, "BatchNorm")
        return wrap(F.batch_norm_infer(xa, self.gamma._data, self.beta._data, self.moving_mean._data,
                                       self.moving_variance._data, self.eps))

    def construct(self, x):
        self._check_input_dim(x.shape, type(self).__name__)
        if self.use_batch_statistics is None:
            return self._train(x) if self.training else self._infer(x)
        if self.use_batch_statistics:
            return self._train(x)
        return self._infer(x)

    def extend_repr(self):
        return "num_features={}, eps={}, momentum={}, gamma={}, beta={}, moving_mean={}, moving_variance={}".format(
            self.num_features, self.eps, 1.0 - self.momentum, self.gamma, self.beta, self.moving_mean,
            self.moving_variance)


class BatchNorm1d(_BatchNorm):
    """``nn.BatchNorm1d(num_features, eps=1e-5, momentum=0.9, affine=True, gamma_init='ones',
    beta_init='zeros', moving_mean_init='zeros', moving_var_init='ones', use_batch_statistics=None,
    data_format='NCHW', dtype=mstype.float32)`` on (N, C) or (N, C, L)."""

    @staticmethod
    def _check_input_dim(shape, cls_name):
        dim = len(shape)
        if dim not in (2, 3):
            raise ValueError(f"For '{cls_name}', the must have 2 dims or 3 dims, but got {dim}.")


class BatchNorm2d(_BatchNorm):
    """``nn.BatchNorm2d(num_features, eps=1e-5, momentum=0.9, affine=True, gamma_init='ones',
    beta_init='zeros', moving_mean_init='zeros', moving_var_init='ones', use_batch_statistics=None,
    data_format='NCHW', dtype=mstype.float32)`` on (N, C, H, W)."""

    @staticmethod
    def _check_input_dim(shape, cls_name):
        _check_dim(len(shape), 4, cls_name)


class BatchNorm3d(Cell):
    """``nn.BatchNorm3d(num_features, ...)`` on (N, C, D, H, W): a ``BatchNorm2d`` child named ``bn2d``
    (parameter names ``bn2d.moving_mean``...) applied to (N, C, D * H, W)."""

    def __init__(self, num_features, eps=1e-5, momentum=0.9, affine=True, gamma_init="ones", beta_init="zeros",
                 moving_mean_init="zeros", moving_var_init="ones", use_batch_statistics=None, dtype=mstype.float32):
        super().__init__()
        self.bn2d = BatchNorm2d(num_features=num_features, eps=eps, momentum=momentum, affine=affine,
                                gamma_init=gamma_init, beta_init=beta_init, moving_mean_init=moving_mean_init,
                                moving_var_init=moving_var_init, use_batch_statistics=use_batch_statistics,
                                data_format="NCHW", dtype=dtype)

    def construct(self, x):
        shape = x.shape
        _check_dim(len(shape), 5, type(self).__name__)
        y = self.bn2d(wrap(jnp.reshape(x._data, (shape[0], shape[1], shape[2] * shape[3], shape[4]))))
        return wrap(jnp.reshape(y._data, shape))


class SyncBatchNorm(_BatchNorm):
    """``nn.SyncBatchNorm(num_features, eps=1e-5, momentum=0.9, affine=True, gamma_init='ones',
    beta_init='zeros', moving_mean_init='zeros', moving_var_init='ones', use_batch_statistics=None,
    process_groups=None, dtype=mstype.float32)``: batch statistics over one device (msjax runs on one
    process), i.e. ``BatchNorm`` on (N, C) or (N, C, H, W)."""

    def __init__(self, num_features, eps=1e-5, momentum=0.9, affine=True, gamma_init="ones", beta_init="zeros",
                 moving_mean_init="zeros", moving_var_init="ones", use_batch_statistics=None, process_groups=None,
                 dtype=mstype.float32):
        super().__init__(num_features, eps, momentum, affine, gamma_init, beta_init, moving_mean_init,
                         moving_var_init, use_batch_statistics, dtype=dtype)
        if process_groups is not None and process_groups != 0 and not isinstance(process_groups, list):
            raise TypeError(f"For '{type(self).__name__}', the 'process_groups' must be a list, "
                            f"but got {type(process_groups).__name__}.")
        self.process_groups = process_groups
        self.is_global = False
        self.group_name = None

    @staticmethod
    def _check_input_dim(shape, cls_name):
        dim = len(shape)
        if dim not in (2, 4):
            raise ValueError(f"For '{cls_name}', the must have 2 dims or 4 dims, but got {dim}.")


class LayerNorm(Cell):
    """``nn.LayerNorm(normalized_shape, begin_norm_axis=-1, begin_params_axis=-1, gamma_init='ones',
    beta_init='zeros', epsilon=1e-7, dtype=mstype.float32)``: normalises the axes from
    ``begin_norm_axis`` on; ``gamma``/``beta`` have ``normalized_shape`` and apply from
    ``begin_params_axis`` on."""

    def __init__(self, normalized_shape, begin_norm_axis=-1, begin_params_axis=-1, gamma_init="ones",
                 beta_init="zeros", epsilon=1e-7, dtype=mstype.float32):
        super().__init__()
        cls_name = type(self).__name__
        if not isinstance(normalized_shape, (tuple, list)):
            raise TypeError(f"For '{cls_name}', the type of 'normalized_shape' must be tuple[int] or list[int], "
                            f"but got {normalized_shape} and the type is {type(normalized_shape)}.")
        if not normalized_shape:
            raise ValueError(f"Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one "
                             f"element, but got normalized_shape = {normalized_shape}")
        self.normalized_shape = normalized_shape
        self.begin_norm_axis = begin_norm_axis
        self.begin_params_axis = begin_params_axis
        self.epsilon = epsilon
        self.gamma = Parameter(initializer(gamma_init, normalized_shape, dtype=dtype), name="gamma")
        self.beta = Parameter(initializer(beta_init, normalized_shape, dtype=dtype), name="beta")

    def construct(self, input_x):
        x = _conv._float_arg("input_x", input_x, "LayerNorm")
        bpa = self.begin_params_axis % x.ndim
        g = self.gamma._data.astype(x.dtype)
        b = self.beta._data.astype(x.dtype)
        if tuple(g.shape) != tuple(x.shape[bpa:]):
            raise ValueError(f"For 'LayerNorm', the shape of 'gamma' and 'beta' must be {tuple(x.shape[bpa:])}, "
                             f"but got {tuple(g.shape)} and {tuple(b.shape)}.")
        y, _, _ = F.layer_norm_array(x, g, b, self.begin_norm_axis, self.begin_params_axis, self.epsilon)
        return wrap(y)

    def extend_repr(self):
        return "normalized_shape={}, begin_norm_axis={}, begin_params_axis={}, gamma{}, beta={}".format(
            self.normalized_shape, self.begin_norm_axis, self.begin_params_axis, self.gamma, self.beta)


class GroupNorm(Cell):
    """``nn.GroupNorm(num_groups, num_channels, eps=1e-05, affine=True, gamma_init='ones', beta_init='zeros',
    dtype=mstype.float32)`` on (N, C, *)."""

    def __init__(self, num_groups, num_channels, eps=1e-05, affine=True, gamma_init="ones", beta_init="zeros",
                 dtype=mstype.float32):
        super().__init__()
        cls_name = type(self).__name__
        for n, v in (("num_groups", num_groups), ("num_channels", num_channels)):
            if not isinstance(v, int) or isinstance(v, bool):
                raise TypeError(f"For '{cls_name}', the type of '{n}' must be int, but got {type(v).__name__}.")
            if v <= 0:
                raise ValueError(f"For '{cls_name}', the '{n}' must be a positive int, but got {v}.")
        if num_channels % num_groups != 0:
            raise ValueError(f"For '{cls_name}', the 'num_channels' must be divided by 'num_groups', but got "
                             f"'num_channels': {num_channels}, 'num_groups': {num_groups}.")
        if not isinstance(eps, float):
            raise TypeError(f"For '{cls_name}', the type of 'eps' must be float, but got {type(eps).__name__}.")
        if not isinstance(affine, bool):
            raise TypeError(f"For '{cls_name}', the type of 'affine' must be bool, but got {type(affine).__name__}.")
        self.num_groups = num_groups
        self.num_channels = num_channels
        self.eps = eps
        self.affine = affine
        self.gamma = Parameter(initializer(gamma_init, num_channels, dtype=dtype), name="gamma", requires_grad=affine)
        self.beta = Parameter(initializer(beta_init, num_channels, dtype=dtype), name="beta", requires_grad=affine)

    def construct(self, x):
        xa = _conv._float_arg("input", x, "GroupNorm")
        if xa.ndim < 2 or xa.shape[1] != self.num_channels:
            raise ValueError(f"For 'GroupNorm', the channel of 'x' must be {self.num_channels}, "
                             f"but got shape {tuple(xa.shape)}.")
        return F.group_norm(x, self.num_groups, wrap(self.gamma._data.astype(xa.dtype)),
                            wrap(self.beta._data.astype(xa.dtype)), self.eps)

    def extend_repr(self):
        return f"num_groups={self.num_groups}, num_channels={self.num_channels}"


class _InstanceNorm(Cell):
    _dim = 4

    def __init__(self, num_features, eps=1e-5, momentum=0.1, affine=True, gamma_init="ones", beta_init="zeros",
                 dtype=mstype.float32):
        super().__init__()
        cls_name = type(self).__name__
        for n, v, t in (("num_features", num_features, int), ("eps", eps, float), ("momentum", momentum, float),
                        ("affine", affine, bool)):
            if not isinstance(v, t) or (t is not bool and isinstance(v, bool)):
                raise TypeError(f"For '{cls_name}', the type of '{n}' must be {t.__name__}, "
                                f"but got {type(v).__name__}.")
        for key, val in (("gamma_init", gamma_init), ("beta_init", beta_init)):
            if not isinstance(val, (Tensor, numbers.Number, str, Initializer)):
                raise TypeError(f"For '{cls_name}', the type of '{key}' must be in [Tensor, numbers.Number, str, "
                                f"Initializer], but got type {type(val).__name__}.")
            if isinstance(val, Tensor) and val.dtype != mstype.float32:
                raise TypeError(f"For '{cls_name}', the type of '{key}' must be float32, but got {val.dtype}.")
        if num_features < 1:
            raise ValueError(f"For '{cls_name}', the 'num_features' must be at least 1, but got {num_features}.")
        if momentum < 0 or momentum > 1:
            raise ValueError(f"For '{cls_name}', the 'momentum' must be a number in range [0, 1], "
                             f"but got {momentum}.")
        self.num_features = num_features
        self.eps = eps
        self.moving_mean = Parameter(initializer("zeros", num_features, dtype=dtype), name="mean", requires_grad=False)
        self.moving_variance = Parameter(initializer("ones", num_features, dtype=dtype), name="variance",
                                         requires_grad=False)
        self.gamma = Parameter(initializer(gamma_init, num_features, dtype=dtype), name="gamma", requires_grad=affine)
        self.beta = Parameter(initializer(beta_init, num_features, dtype=dtype), name="beta", requires_grad=affine)
        self.momentum = momentum

    def construct(self, x):
        _check_dim(len(x.shape), self._dim, type(self).__name__)
        xa = _conv._float_arg("input_x", x, "InstanceNorm")
        y, mean, var_u = F.instance_norm_array(xa, self.gamma._data, self.beta._data, self.eps)
        F._update_running(self.moving_mean, jnp.mean(mean, axis=0), self.momentum)
        F._update_running(self.moving_variance, jnp.mean(var_u, axis=0), self.momentum)
        return wrap(y)

    def extend_repr(self):
        return "num_features={}, eps={}, momentum={}, gamma={}, beta={}, moving_mean={}, moving_variance={}".format(
            self.num_features, self.eps, self.momentum, self.gamma, self.beta, self.moving_mean,
            self.moving_variance)


class InstanceNorm1d(_InstanceNorm):
    """``nn.InstanceNorm1d(num_features, eps=1e-5, momentum=0.1, affine=True, gamma_init='ones',
    beta_init='zeros', dtype=mstype.float32)`` on (N, C, L)."""
    _dim = 3


class InstanceNorm2d(_InstanceNorm):
    """``nn.InstanceNorm2d(...)`` on (N, C, H, W)."""
    _dim = 4


class InstanceNorm3d(_InstanceNorm):
    """``nn.InstanceNorm3d(...)`` on (N, C, D, H, W)."""
    _dim = 5


class LRN(Cell):
    """``nn.LRN(depth_radius=5, bias=1.0, alpha=1.0, beta=0.5, norm_region='ACROSS_CHANNELS')``."""

    def __init__(self, depth_radius=5, bias=1.0, alpha=1.0, beta=0.5, norm_region="ACROSS_CHANNELS"):
        super().__init__()
        self.depth_radius = depth_radius
        self.bias = bias
        self.alpha = alpha
        self.beta = beta
        self.norm_region = norm_region

    def construct(self, input_x):
        return F.lrn(input_x, self.depth_radius, self.bias, self.alpha, self.beta, self.norm_region)


class LayerNormExt(Cell):
    """``nn.LayerNormExt(normalized_shape, eps=1e-5, elementwise_affine=True, bias=True, dtype=None)``:
    ``ops.layer_norm`` over the trailing ``normalized_shape`` axes with Parameters ``weight``/``bias``."""

    def __init__(self, normalized_shape, eps=1e-5, elementwise_affine=True, bias=True, dtype=None):
        super().__init__()
        if isinstance(normalized_shape, int) and not isinstance(normalized_shape, bool):
            normalized_shape = (normalized_shape,)
        if not isinstance(normalized_shape, (tuple, list)):
            raise TypeError(f"For 'LayerNormExt', the type of 'normalized_shape' must be tuple[int] or list[int], "
                            f"but got {normalized_shape} and the type is {type(normalized_shape)}.")
        if not normalized_shape:
            raise ValueError(f"Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one "
                             f"element, but got normalized_shape = {normalized_shape}")
        self.normalized_shape = tuple(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        dt = mstype.float32 if dtype is None else dtype
        if elementwise_affine:
            self.weight = Parameter(initializer("ones", self.normalized_shape, dt), name="weight")
            self.bias = Parameter(initializer("zeros", self.normalized_shape, dt), name="bias") if bias else None
        else:
            self.weight = None
            self.bias = None

    def construct(self, input):
        return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, self.eps)

    def extend_repr(self):
        return f"normalized_shape={self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}"
