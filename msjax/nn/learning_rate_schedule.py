"""Learning-rate schedules (``mindspore.nn.learning_rate_schedule``).

A schedule is a Cell called with the optimizer's ``global_step`` (an Int32
Tensor) that returns the Float32 learning rate of that step, with MindSpore's
formulas. Inside an optimizer the step lives in a Parameter, so a compiled
training step computes the rate on the device and changing step never
recompiles.
"""
from __future__ import annotations

import math

import jax.numpy as jnp

from .._core.tensor import Tensor, to_array, wrap
from .cell import Cell
from . import _validator as validator

__all__ = ["LearningRateSchedule", "ExponentialDecayLR", "NaturalExpDecayLR", "InverseDecayLR", "CosineDecayLR",
           "PolynomialDecayLR", "WarmUpLR"]

_F32 = jnp.float32


def _step(global_step):
    return global_step._data if isinstance(global_step, Tensor) else to_array(global_step)


def _f32(x):
    return jnp.asarray(x).astype(_F32)


class LearningRateSchedule(Cell):
    """Base class of learning-rate schedules: ``construct(global_step)``."""

    def __init__(self):
        super().__init__()

    def construct(self, global_step):
        raise NotImplementedError


def _check_inputs(learning_rate, decay_rate, decay_steps, is_stair, cls_name):
    validator.check_positive_int(decay_steps, "decay_steps", cls_name)
    validator.check_positive_float(learning_rate, "learning_rate", cls_name)
    validator.check_is_float(learning_rate, "learning_rate", cls_name)
    validator.check_positive_float(decay_rate, "decay_rate", cls_name)
    validator.check_is_float(decay_rate, "decay_rate", cls_name)
    validator.check_value_type("is_stair", is_stair, [bool], cls_name)


class _DecayLR(LearningRateSchedule):
    """The arguments and checks the exponential, natural-exponential and inverse
    decays share (MindSpore spells them out in each class)."""

    def __init__(self, learning_rate, decay_rate, decay_steps, is_stair=False):
        super().__init__()
        _check_inputs(learning_rate, decay_rate, decay_steps, is_stair, type(self).__name__)
        self.learning_rate = learning_rate
        self.decay_rate = decay_rate
        self.decay_steps = decay_steps
        self.is_stair = is_stair


class ExponentialDecayLR(_DecayLR):
    """``lr * decay_rate ** (step / decay_steps)`` (floored when ``is_stair``)."""

    def construct(self, global_step):
        p = _f32(_step(global_step)) / _F32(self.decay_steps)
        if self.is_stair:
            p = jnp.floor(p)
        return wrap(_F32(self.learning_rate) * jnp.power(_F32(self.decay_rate), p))


class NaturalExpDecayLR(_DecayLR):
    """``lr * e ** (-decay_rate * step)`` (step floored to multiples of ``decay_steps`` when ``is_stair``)."""

    math_e = math.e

    def construct(self, global_step):
        p = _f32(_step(global_step))
        if self.is_stair:
            p = jnp.floor_divide(p, _F32(self.decay_steps)) * _F32(self.decay_steps)
        return wrap(_F32(self.learning_rate) * jnp.power(_F32(self.math_e), _F32(-self.decay_rate) * p))


class InverseDecayLR(_DecayLR):
    """``lr / (1 + decay_rate * step / decay_steps)`` (floored when ``is_stair``)."""

    def construct(self, global_step):
        p = _f32(_step(global_step)) / _F32(self.decay_steps)
        if self.is_stair:
            p = jnp.floor(p)
        return wrap(_F32(self.learning_rate) / (_F32(1) + _F32(self.decay_rate) * p))


class CosineDecayLR(LearningRateSchedule):
    """``min_lr + 0.5 (max_lr - min_lr)(1 + cos(pi * min(step, decay_steps) / decay_steps))``."""

    def __init__(self, min_lr, max_lr, decay_steps):
        super().__init__()
        name = type(self).__name__
        if not isinstance(min_lr, float):
            raise TypeError("For 'CosineDecayLR', the argument 'min_lr' must be type of float, "
                            f"but got 'min_lr' type: {type(min_lr)}.")
        validator.check_non_negative_float(min_lr, "min_lr", name)
        validator.check_positive_float(max_lr, "max_lr", name)
        validator.check_is_float(max_lr, "max_lr", name)
        validator.check_positive_int(decay_steps, "decay_steps", name)
        if min_lr >= max_lr:
            raise ValueError("For 'CosineDecayLR', the 'max_lr' must be greater than the 'min_lr', "
                             f"but got 'max_lr' value: {max_lr}, 'min_lr' value: {min_lr}.")
        self.min_lr = min_lr
        self.max_lr = max_lr
        self.decay_steps = decay_steps
        self.math_pi = math.pi
        self.delta = 0.5 * (max_lr - min_lr)

    def construct(self, global_step):
        s = _step(global_step)
        p = _f32(jnp.minimum(s, jnp.asarray(self.decay_steps, s.dtype)))
        # MindSpore writes cos(x) as sin(x + pi/2)
        return wrap(_F32(self.min_lr) + _F32(self.delta) *
                    (_F32(1.0) + jnp.sin(_F32(self.math_pi) * (p / _F32(self.decay_steps) + _F32(0.5)))))


class PolynomialDecayLR(LearningRateSchedule):
    """``(lr - end_lr) * (1 - step / decay_steps) ** power + end_lr``."""

    def __init__(self, learning_rate, end_learning_rate, decay_steps, power, update_decay_steps=False):
        super().__init__()
        name = type(self).__name__
        validator.check_positive_float(learning_rate, "learning_rate")
        validator.check_is_float(learning_rate, "learning_rate")
        if not isinstance(end_learning_rate, float):
            raise TypeError("For 'PolynomialDecayLR', the argument 'end_learning_rate' must be type of float, "
                            f"but got 'end_learning_rate' type: {type(end_learning_rate)}.")
        validator.check_non_negative_float(end_learning_rate, "end_learning_rate", name)
        validator.check_positive_int(decay_steps, "decay_steps", name)
        validator.check_value_type("update_decay_steps", update_decay_steps, [bool], name)
        validator.check_positive_float(power, "power", name)
        validator.check_is_float(power, "power", name)
        self.decay_steps = decay_steps
        self.start_learning_rate = learning_rate
        self.end_learning_rate = end_learning_rate
        self.diff_learning_rate = learning_rate - end_learning_rate
        self.power = power
        self.update_decay_steps = update_decay_steps

    def construct(self, global_step):
        step = _f32(_step(global_step))
        decay = _F32(self.decay_steps)
        if self.update_decay_steps:
            decay = decay * jnp.maximum(jnp.ceil(step / decay), _F32(1))
        else:
            step = jnp.minimum(step, decay)
        p = step / decay
        return wrap(_F32(self.diff_learning_rate) * jnp.power(_F32(1.0) - p, _F32(self.power)) +
                    _F32(self.end_learning_rate))


class WarmUpLR(LearningRateSchedule):
    """``lr * min(step, warmup_steps) / warmup_steps``."""

    def __init__(self, learning_rate, warmup_steps):
        super().__init__()
        name = type(self).__name__
        if not isinstance(learning_rate, float):
            raise TypeError("For 'WarmUpLR', the argument 'learning_rate' must be type of float, "
                            f"but got 'learning_rate' type: {type(learning_rate)}.")
        validator.check_non_negative_float(learning_rate, "learning_rate", name)
        validator.check_positive_int(warmup_steps, "warmup_steps", name)
        self.warmup_steps = warmup_steps
        self.learning_rate = learning_rate

    def construct(self, global_step):
        s = _step(global_step)
        pct = _f32(jnp.minimum(s, jnp.asarray(self.warmup_steps, s.dtype))) / _F32(self.warmup_steps)
        return wrap(_F32(self.learning_rate) * pct)
