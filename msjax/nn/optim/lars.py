"""``nn.LARS``: layer-wise adaptive rate scaling around another optimizer.

Each gradient (of the parameters ``lars_filter`` selects) is replaced by
``coefficient * ||w|| / (||g|| + wd * ||w|| + epsilon) * (g + wd * w)`` (``LARSUpdate``;
the ratio is 1 when a norm is 0; with ``use_clip`` it becomes
``min(ratio / lr, 1)``), then the wrapped optimizer runs with its own weight
decay and loss scale switched off, as in MindSpore. The scaling is a stateless
optax transformation.
"""
from __future__ import annotations

import jax.numpy as jnp

from ..._core import dtype as mstype
from ..._core.parameter import Parameter
from ..._core.tensor import Tensor, wrap
from .. import _validator as validator
from .optimizer import Optimizer, _arr, compiled, f32, opt_init_args_register, transformation

__all__ = ["LARS", "lars_transform"]


def lars_transform(epsilon, coefficient, use_clip=False):
    def init(params):
        return ()

    def update(grads, state, params, *, lr, weight_decay, flags, **extra):
        out = []
        for g, w, l, wd, flag in zip(grads, params, lr, weight_decay, flags):
            if not flag:
                out.append(g)
                continue
            w_norm = jnp.sqrt(jnp.sum(jnp.square(w.astype(jnp.float32))))
            g_norm = jnp.sqrt(jnp.sum(jnp.square(g.astype(jnp.float32))))
            ratio = f32(coefficient) * w_norm / (g_norm + wd * w_norm + f32(epsilon))
            ratio = jnp.where((w_norm > 0) & (g_norm > 0), ratio, f32(1.0))
            if use_clip:
                ratio = jnp.minimum(ratio / l, f32(1.0))
            out.append((ratio * (g + wd.astype(g.dtype) * w)).astype(g.dtype))
        return tuple(out), state

    return transformation(init, update)


class LARS(Optimizer):
    """``nn.LARS(optimizer, epsilon=1e-5, coefficient=0.001, use_clip=False,
    lars_filter=lambda x: 'LayerNorm' not in x.name and 'bias' not in x.name)``."""

    @opt_init_args_register
    def __init__(self, optimizer, epsilon=1e-05, coefficient=0.001, use_clip=False,
                 lars_filter=lambda x: "LayerNorm" not in x.name and "bias" not in x.name):
        super().__init__(0.0, [Parameter(Tensor(0.0), name="fake_param")])
        name = self.cls_name
        validator.check_value_type("optimizer", optimizer, Optimizer, name)
        validator.check_value_type("epsilon", epsilon, [float], name)
        validator.check_value_type("coefficient", coefficient, [float], name)
        validator.check_value_type("use_clip", use_clip, [bool], name)
        self.opt = optimizer
        self.dynamic_decay_flags = optimizer.dynamic_decay_flags
        self.dynamic_weight_decay = optimizer.dynamic_weight_decay
        self.weight_decay = optimizer.weight_decay
        self.global_step = optimizer.global_step
        self.parameters = optimizer.parameters
        self._parameters = optimizer.parameters
        self.param_length = len(self.parameters)
        self.use_clip = use_clip
        self.lars_flag = tuple(bool(lars_filter(x)) for x in self.parameters)
        self.is_group = optimizer.is_group
        self.learning_rate = Parameter(Tensor(0.0, mstype.float32), name="fake_lr")
        self.decay_flags = optimizer.decay_flags
        self.reciprocal_scale = optimizer.reciprocal_scale
        self.need_scale = optimizer.need_scale
        self.loss_scale = optimizer.loss_scale
        self.epsilon = epsilon
        self.coefficient = coefficient
        self.is_group_lr = optimizer.is_group_lr
        self.dynamic_lr = optimizer.dynamic_lr
        if use_clip:
            self.origin_learning_rate = optimizer.learning_rate
            if self.is_group_lr and self.dynamic_lr:
                raise ValueError("For 'LARS', if the argument 'use_clip' is set to True, then the dynamic "
                                 "learning rate and group learning rate cannot both be true.")
        if self.is_group:
            optimizer.dynamic_decay_flags = tuple(False for _ in self.dynamic_decay_flags)
        else:
            optimizer.dynamic_decay_flags = False
        optimizer.decay_flags = tuple(False for _ in self.decay_flags)
        optimizer.dynamic_weight_decay = False
        optimizer.need_scale = False
        optimizer.exec_weight_decay = False

    def _get_lr(self):
        lr = self.origin_learning_rate
        if self.dynamic_lr:
            if self.is_group_lr:
                return tuple(l(self.global_step) for l in self.origin_learning_rate)
            return self.origin_learning_rate(self.global_step)
        return lr

    @compiled
    def construct(self, gradients):
        params = self.parameters
        n = len(params)
        lr = self._get_lr() if self.use_clip else self.learning_rate
        lrs = tuple(f32(_arr(l)).reshape(()) for l in lr) if isinstance(lr, tuple) else (f32(_arr(lr)).reshape(()),) * n
        weight_decay = self.get_weight_decay()
        wds = weight_decay if self.is_group else (weight_decay,) * n
        wds = tuple((f32(_arr(w)).reshape(()) / f32(self.loss_scale)) if flag else f32(0.0)
                    for w, flag in zip(wds, self.decay_flags))
        if self.need_scale:
            r = self.reciprocal_scale._data
            gradients = tuple(wrap(_arr(g) * r.astype(_arr(g).dtype)) for g in gradients)
        tx = lars_transform(self.epsilon, self.coefficient, self.use_clip)
        g_arr, _ = tx.update(tuple(_arr(g) for g in gradients), (), tuple(p._data for p in params),
                             lr=lrs, weight_decay=wds, flags=self.lars_flag)
        success = self.opt(tuple(wrap(g) for g in g_arr))
        if self._is_dynamic_lr_or_weight_decay() and not self.opt.dynamic_lr and \
                not self.opt.dynamic_weight_decay:
            self._step()
        return success
