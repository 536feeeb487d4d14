"""``nn.AdaFactor``: factored second moments (Shazeer & Stern), MindSpore's formulas.

Per step ``t`` (``afactor_step``): ``beta2t = 1 - t ** -decay_rate``; with
``relative_step`` the rate is ``min(0.01 or 1e-6 t, 1/sqrt(t))``, scaled by
``max(eps[1], rms(param))`` with ``scale_parameter``. For a parameter of rank >= 2::

    row = beta2t * row + (1 - beta2t) * mean(g^2 + eps[0], -1)
    col = beta2t * col + (1 - beta2t) * mean(g^2 + eps[0], -2)
    u = g / sqrt(row / mean(row)) / sqrt(col)      (rank 1: g / sqrt(exp_avg_sq))
    u = u / max(rms(u) / clip_threshold, 1) * lr
    exp_avg = beta1 * exp_avg + (1 - beta1) * u;  u = exp_avg      (beta1 > 0)
    param = param - weight_decay * lr * param - u
"""
from __future__ import annotations

from typing import NamedTuple

import jax.numpy as jnp

from ..._core import dtype as mstype
from ..._core.parameter import Parameter, ParameterTuple
from ..._core.tensor import Tensor
from .. import _validator as validator
from .optimizer import Optimizer, compiled, f32, opt_init_args_register, transformation

__all__ = ["AdaFactor", "adafactor_transform"]


class AdaFactorState(NamedTuple):
    step: object
    exp_avg_sq_row: tuple
    exp_avg_sq_col: tuple
    exp_avg_sq: tuple


class AdaFactorMomentState(NamedTuple):
    step: object
    exp_avg: tuple
    exp_avg_sq_row: tuple
    exp_avg_sq_col: tuple
    exp_avg_sq: tuple


def _rms(x):
    return jnp.sqrt(jnp.mean(jnp.square(x)))


def adafactor_transform(eps, clip_threshold, decay_rate, beta1, weight_decay, scale_parameter, relative_step,
                        warmup_init, scale_lr, use_first_moment, compression=False):
    eps0, eps1, clip, b1, wd = f32(eps[0]), f32(eps[1]), f32(clip_threshold), f32(beta1), f32(weight_decay)
    neg_decay = f32(-decay_rate)

    def shapes(p):
        if p.ndim > 1:
            return p.shape[:-1], p.shape[:-2] + p.shape[-1:], (1,)
        return (1,), (1,), p.shape

    def init(params):
        row = tuple(jnp.zeros(shapes(p)[0], p.dtype) for p in params)
        col = tuple(jnp.zeros(shapes(p)[1], p.dtype) for p in params)
        sq = tuple(jnp.zeros(shapes(p)[2], jnp.float16 if compression and p.ndim <= 1 else p.dtype) for p in params)
        step = jnp.zeros((1,), jnp.float32)
        if use_first_moment:
            return AdaFactorMomentState(step, tuple(jnp.zeros_like(p) for p in params), row, col, sq)
        return AdaFactorState(step, row, col, sq)

    def update(grads, state, params, *, lr, **extra):
        step = state.step + 1
        if scale_lr and relative_step:
            min_step = 1e-6 * step if warmup_init else f32(0.01)
            lr = tuple(jnp.minimum(min_step, 1.0 / jnp.sqrt(step * 1.0)).reshape(()) for _ in lr)
        beta2t = (1.0 - jnp.power(step, neg_decay)).reshape(())
        avgs = state.exp_avg if use_first_moment else (None,) * len(grads)
        ups, out_avg, out_row, out_col, out_sq = [], [], [], [], []
        for g, p, avg, row, col, sq, l in zip(grads, params, avgs, state.exp_avg_sq_row, state.exp_avg_sq_col,
                                              state.exp_avg_sq, lr):
            gdt = g.dtype
            if gdt == jnp.float16:
                g = g.astype(jnp.float32)
            p32 = p.astype(jnp.float32) if p.dtype == jnp.float16 else p
            if scale_parameter:
                lr_u = l * jnp.maximum(eps1, _rms(p32))
            else:
                lr_u = l
            u = jnp.square(g) + eps0
            if g.ndim >= 2:
                r = row.astype(gdt) * beta2t + jnp.mean(u, -1) * (1.0 - beta2t)
                c = col.astype(gdt) * beta2t + jnp.mean(u, -2) * (1.0 - beta2t)
                row, col = r.astype(row.dtype), c.astype(col.dtype)
                r_factor = jnp.expand_dims(1.0 / jnp.sqrt(row / jnp.mean(row, -1, keepdims=True)), -1)
                c_factor = 1.0 / jnp.sqrt(jnp.expand_dims(col, -2))
                u = r_factor * c_factor * g
            else:
                s = sq.astype(gdt) * beta2t + u * (1.0 - beta2t)
                sq = s.astype(sq.dtype)
                u = (1.0 / jnp.sqrt(sq)) * g
            coff = jnp.maximum(_rms(u) / clip, f32(1.0))
            u = u / coff * lr_u
            if use_first_moment:
                a = avg.astype(gdt) if compression else avg
                a = a * b1 + u * (1 - b1)
                avg = a.astype(avg.dtype)
                u = avg
                out_avg.append(avg)
            new_p = p32
            if weight_decay:
                new_p = new_p + new_p * (-wd) * lr_u
            new_p = new_p - u
            ups.append(new_p.astype(p.dtype) - p)
            out_row.append(row)
            out_col.append(col)
            out_sq.append(sq)
        if use_first_moment:
            return tuple(ups), AdaFactorMomentState(step, tuple(out_avg), tuple(out_row), tuple(out_col),
                                                    tuple(out_sq))
        return tuple(ups), AdaFactorState(step, tuple(out_row), tuple(out_col), tuple(out_sq))

    return transformation(init, update)


class AdaFactor(Optimizer):
    """``nn.AdaFactor(params, learning_rate=None, eps=(1e-30, 1e-3), clip_threshold=1.0, decay_rate=0.8,
    beta1=0.9, weight_decay=0.0, scale_parameter=True, relative_step=True, warmup_init=False,
    compression=False, loss_scale=1.0)``."""

    _support_parallel_optimizer = True

    @opt_init_args_register
    def __init__(self, params, learning_rate=None, eps=(1e-30, 1e-3), clip_threshold=1.0, decay_rate=0.8,
                 beta1=0.9, weight_decay=0.0, scale_parameter=True, relative_step=True, warmup_init=False,
                 compression=False, loss_scale=1.0):
        if learning_rate is not None and relative_step:
            raise ValueError("Cannot combine manual lr and relative_step options", learning_rate)
        if warmup_init and not relative_step:
            raise ValueError("warmup_init requires relative_step=True")
        if learning_rate is None and not relative_step:
            raise ValueError("Cannot learning_rate is None and relative_step=False")
        if learning_rate is None:
            learning_rate = 0.0
        if beta1 is None:
            beta1 = 0.0
        self_scale_lr = isinstance(learning_rate, (float, int)) or learning_rate is None
        super().__init__(learning_rate, params, weight_decay, loss_scale)
        name = self.cls_name
        validator.check_value_type("eps", eps, [list, tuple], name)
        if len(eps) != 2:
            raise ValueError("eps must have 2 value: (eps1, eps2).")
        for i, ele in enumerate(eps):
            validator.check_value_type(f"eps{i}", ele, [float], name)
            validator.check_non_negative_float(ele, f"eps{i}", name)
        validator.check_value_type("clip_threshold", clip_threshold, [float], name)
        validator.check_non_negative_float(clip_threshold, "clip_threshold", name)
        validator.check_value_type("decay_rate", decay_rate, [float], name)
        validator.check_float_range(decay_rate, 0, 1, "decay_rate", name)
        validator.check_float_range(float(weight_decay), 0, 1, "weight_decay", name, inc_left=True)
        validator.check_value_type("scale_parameter", scale_parameter, [bool], name)
        validator.check_value_type("relative_step", relative_step, [bool], name)
        validator.check_value_type("compression", compression, [bool], name)
        validator.check_value_type("beta1", beta1, [int, float], name)
        validator.check_non_negative_float(float(beta1), "beta1", name)
        self.scale_lr = self_scale_lr
        self.eps = tuple(Tensor(e, mstype.float32) for e in eps)
        self.clip_threshold = Tensor(clip_threshold, mstype.float32)
        self.decay_rate = Tensor(-decay_rate, mstype.float32)
        self.beta1 = Tensor(beta1, mstype.float32)
        self.weight_decay = Tensor(weight_decay, mstype.float32)
        self.weight_decay_flag = bool(weight_decay)
        self.scale_parameter = scale_parameter if self.scale_lr else False
        self.relative_step = relative_step
        self.warmup_init = warmup_init
        self.compression = compression
        self.use_first_moment = beta1 > 0
        if self.use_first_moment:
            self.exp_avg = self._parameters.clone(prefix="exp_avg", init="zeros")
        rows, cols, sqs = [], [], []
        for p in self._parameters:
            shape, dt = tuple(p.shape), p.dtype
            if len(shape) > 1:
                rows.append(Parameter(Tensor(jnp.zeros(shape[:-1], p._data.dtype)), name=f"exp_avg_sq_row_{p.name}"))
                cols.append(Parameter(Tensor(jnp.zeros(shape[:-2] + shape[-1:], p._data.dtype)),
                                      name=f"exp_avg_sq_col_{p.name}"))
                sqs.append(Parameter(Tensor(jnp.zeros((1,), p._data.dtype)), name=f"exp_avg_sq_{p.name}"))
            else:
                rows.append(Parameter(Tensor(jnp.zeros((1,), p._data.dtype)), name=f"exp_avg_sq_row_{p.name}"))
                cols.append(Parameter(Tensor(jnp.zeros((1,), p._data.dtype)), name=f"exp_avg_sq_col_{p.name}"))
                sq_dt = jnp.float16 if compression else p._data.dtype
                sqs.append(Parameter(Tensor(jnp.zeros(shape, sq_dt)), name=f"exp_avg_sq_{p.name}"))
            del dt
        self.exp_avg_sq_row = ParameterTuple(rows)
        self.exp_avg_sq_col = ParameterTuple(cols)
        self.exp_avg_sq = ParameterTuple(sqs)
        self.step = Parameter(Tensor(jnp.zeros((1,), jnp.float32)), name="afactor_step")
        self._hp = (tuple(eps), clip_threshold, decay_rate, float(beta1), float(weight_decay))
        self._bind_state(self._transform())

    def _transform(self):
        eps, clip, decay, beta1, wd = self._hp
        return adafactor_transform(eps, clip, decay, beta1, wd, self.scale_parameter, self.relative_step,
                                   self.warmup_init, self.scale_lr, self.use_first_moment, self.compression)

    @property
    def supports_memory_efficient_fp16(self):
        return True

    @property
    def supports_flat_params(self):
        return False

    @compiled
    def construct(self, gradients):
        lr = self.get_lr()
        self._step()
        return self._apply_transform(self._transform(), gradients, lr=self._lr_tuple(lr))
