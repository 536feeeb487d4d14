"""``mindspore.mint.optim``: torch-style optimizers (``Adam``, ``AdamW``, ``FusedAdamW``, ``SGD``).

Each is an ``nn.Optimizer`` (so ``Model``, ``TrainOneStepCell`` and checkpoints treat it as
one) with torch's constructor: ``params`` is a list of Parameters or of group dicts, kept in
``param_groups`` (a group's ``lr``, ``betas``, ``weight_decay``... can be changed between
steps). A step is an optax chain per group: ``optax.scale_by_adam``/``scale_by_amsgrad``
(torch's bias correction and ``eps`` placement, as MindSpore's mint), ``add_decayed_weights``
(L2 before Adam, decoupled after it for AdamW) and ``sgd_transform`` (msjax's SGD, whose
first-step momentum buffer is torch's); the state lives in MindSpore's Parameters
(``exp_avg``, ``exp_avg_sq``, ``max_exp_avg_sq``, ``state_step``, ``momentum_buf``, ``step_t``).

Differences from MindSpore 2.10: ``construct`` is not compiled on its own (its
hyperparameters are read from ``param_groups`` at each call); it is compiled inside the
user's ``ms.jit`` / GRAPH_MODE training step as usual. ``FusedAdamW`` is ``AdamW``.
"""
from __future__ import annotations

import jax.numpy as jnp
import numpy as np
import optax

from .._core import dtype as mstype
from .._core.parameter import Parameter
from .._core.tensor import Tensor, wrap
from ..nn.optim.optimizer import Optimizer, _arr
from ..nn.optim.adam import AdamAmsgradState, adam_transform
from ..nn.optim.sgd import SGDState, sgd_transform

__all__ = ["Adam", "AdamW", "FusedAdamW", "SGD"]


def _check_type(cls_name, name, value, types):
    if isinstance(value, bool) and bool not in types or not isinstance(value, types):
        raise TypeError(f"For '{cls_name}', the type of '{name}' should be one of "
                        f"{[t.__name__ for t in types]}, but got type '{type(value).__name__}'.")


class _TorchOptimizer(Optimizer):
    """An ``nn.Optimizer`` over the flat list of ``params``, with torch's ``param_groups``."""

    def __init__(self, params, defaults):
        params = list(params) if params is not None else []
        if not params:
            raise ValueError("optimizer got an empty parameter list")
        groups = params if isinstance(params[0], dict) else [{"params": params}]
        param_groups, flat, starts = [], [], [0]
        for g in groups:
            ps = g["params"]
            ps = [ps] if isinstance(ps, Parameter) else list(ps)
            group = dict(defaults)
            group.update({k: v for k, v in g.items() if k != "params"})
            group["params"] = ps
            param_groups.append(group)
            flat += ps
            starts.append(len(flat))
        super().__init__(float(defaults["lr"]), flat, 0.0)
        object.__setattr__(self, "param_groups", param_groups)
        object.__setattr__(self, "group_start_id", starts)
        object.__setattr__(self, "defaults", dict(defaults))

    def _slices(self):
        for gid, group in enumerate(self.param_groups):
            yield group, self.group_start_id[gid], self.group_start_id[gid + 1]

    @staticmethod
    def _grads(group, gradients, start, end):
        g = tuple(_arr(x) for x in gradients[start:end])
        return tuple(-x for x in g) if group.get("maximize") else g

    def _write(self, start, end, updates):
        for p, u in zip(self._parameters[start:end], updates):
            p._data = (p._data + u.astype(p._data.dtype))

    @staticmethod
    def _store(holders, values):
        for p, v in zip(holders, values):
            p._data = jnp.asarray(v).astype(p._data.dtype)

    def _check_len(self, gradients):
        if len(gradients) != len(self._parameters):
            raise ValueError(f"For '{self.cls_name}', the number of gradients ({len(gradients)}) must equal the "
                             f"number of parameters ({len(self._parameters)}).")


def _adam_checks(cls_name, lr, betas, eps, weight_decay, amsgrad, maximize):
    _check_type(cls_name, "betas", betas, (tuple,))
    if len(betas) != 2:
        raise ValueError(f"For '{cls_name}', 'betas' must have 2 elements, but got {len(betas)}.")
    for i, b in enumerate(betas):
        _check_type(cls_name, f"betas[{i}]", b, (float,))
    _check_type(cls_name, "eps", eps, (float,))
    _check_type(cls_name, "weight_decay", weight_decay, (float,))
    _check_type(cls_name, "lr", lr, (float,))
    _check_type(cls_name, "amsgrad", amsgrad, (bool,))
    _check_type(cls_name, "maximize", maximize, (bool,))
    if lr < 0.0:
        raise ValueError(f"Invalid learning rate: {lr}")
    if eps < 0.0:
        raise ValueError(f"Invalid epsilon value: {eps}")
    for i, b in enumerate(betas):
        if not 0.0 <= b < 1.0:
            raise ValueError(f"Invalid beta parameter at index {i}: {b}")
    if weight_decay < 0.0:
        raise ValueError(f"Invalid weight_decay value: {weight_decay}")


class Adam(_TorchOptimizer):
    """``mint.optim.Adam(params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0, amsgrad=False, *,
    maximize=False)``: ``weight_decay`` is added to the gradients (L2)."""

    _decoupled = False

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0.0, amsgrad=False, *,
                 maximize=False):
        _adam_checks(type(self).__name__, lr, betas, eps, weight_decay, amsgrad, maximize)
        super().__init__(params, {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay,
                                  "amsgrad": amsgrad, "maximize": maximize})
        self.exp_avg = self._parameters.clone(prefix="exp_avg", init="zeros")
        self.exp_avg_sq = self._parameters.clone(prefix="exp_avg_sq", init="zeros")
        self.max_exp_avg_sq = self._parameters.clone(prefix="max_exp_avg_sq", init="zeros")
        self.state_step = Parameter(Tensor(np.zeros(1, np.float32)), name="state_step")

    def _adam(self, group, step, s, e):
        """The Adam part of the chain and its state. Without amsgrad: ``optax.scale_by_adam``
        (torch's formula). With amsgrad, torch takes the maximum of the raw second moments (optax's
        ``scale_by_amsgrad`` of the bias-corrected ones): msjax's ``adam_transform`` (MindSpore's
        amsgrad) with ``eps * sqrt(1 - beta2^t)``, which is torch's ``eps`` placement."""
        b1, b2 = group["betas"]
        mu = tuple(p._data for p in self.exp_avg[s:e])
        nu = tuple(p._data for p in self.exp_avg_sq[s:e])
        if not group["amsgrad"]:
            return optax.scale_by_adam(b1, b2, group["eps"]), optax.ScaleByAdamState(step, mu, nu)
        t = (step + 1).astype(jnp.float32)
        eps_t = group["eps"] * jnp.sqrt(1 - jnp.float32(b2) ** t)
        vhat = tuple(p._data for p in self.max_exp_avg_sq[s:e])
        ones = (jnp.ones((), jnp.float32),) * (e - s)
        tx = adam_transform(b1, b2, eps_t, use_amsgrad=True)
        state = AdamAmsgradState(jnp.float32(b1) ** (t - 1), jnp.float32(b2) ** (t - 1), mu, nu, vhat)

        def update(updates, st, params=None):
            ups, new = tx.update(updates, st, params, lr=ones)   # adam_transform's updates are -lr * step
            return tuple(-u for u in ups), new
        return optax.GradientTransformation(tx.init, update), state

    def construct(self, gradients):
        self._check_len(gradients)
        step = self.state_step._data.reshape(()).astype(jnp.int32)
        for group, s, e in self._slices():
            grads = self._grads(group, gradients, s, e)
            params = tuple(p._data for p in self._parameters[s:e])
            adam, adam_state = self._adam(group, step, s, e)
            wd = optax.add_decayed_weights(group["weight_decay"])
            empty = optax.EmptyState()
            if self._decoupled:
                tx, state = optax.chain(adam, wd, optax.scale(-group["lr"])), (adam_state, empty, empty)
            else:
                tx, state = optax.chain(wd, adam, optax.scale(-group["lr"])), (empty, adam_state, empty)
            updates, new = tx.update(grads, state, params)
            new_adam = new[0] if self._decoupled else new[1]
            if group["amsgrad"]:
                self._store(self.exp_avg[s:e], new_adam.moment1)
                self._store(self.exp_avg_sq[s:e], new_adam.moment2)
                self._store(self.max_exp_avg_sq[s:e], new_adam.vhat)
            else:
                self._store(self.exp_avg[s:e], new_adam.mu)
                self._store(self.exp_avg_sq[s:e], new_adam.nu)
            self._write(s, e, updates)
        self.state_step._data = self.state_step._data + 1
        return wrap(jnp.asarray(True))


class AdamW(Adam):
    """``mint.optim.AdamW(params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2, amsgrad=False, *,
    maximize=False)``: decoupled weight decay (``p -= lr * weight_decay * p`` with the Adam step)."""

    _decoupled = True

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2, amsgrad=False, *,
                 maximize=False):
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, maximize=maximize)


class FusedAdamW(AdamW):
    """``mint.optim.FusedAdamW``: ``AdamW`` (XLA fuses the update either way)."""


class SGD(_TorchOptimizer):
    """``mint.optim.SGD(params, lr, momentum=0, dampening=0, weight_decay=0, nesterov=False, *,
    maximize=False)``: the first step's momentum buffer is the gradient itself (torch's rule)."""

    def __init__(self, params, lr, momentum=0, dampening=0, weight_decay=0, nesterov=False, *, maximize=False):
        name = type(self).__name__
        _check_type(name, "lr", lr, (float, int, bool, Tensor))
        for arg, v in (("momentum", momentum), ("weight_decay", weight_decay), ("dampening", dampening)):
            _check_type(name, arg, v, (float, int, bool))
        _check_type(name, "nesterov", nesterov, (bool,))
        _check_type(name, "maximize", maximize, (bool,))
        lr = float(lr.asnumpy()) if isinstance(lr, Tensor) else float(lr)
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, {"lr": lr, "momentum": float(momentum), "dampening": float(dampening),
                                  "weight_decay": float(weight_decay), "nesterov": nesterov, "maximize": maximize})
        self.momentum_buf = self._parameters.clone(prefix="momentum_buf", init="zeros")
        self.step_t = Parameter(Tensor(0, mstype.int32), name="step_t")

    def construct(self, gradients):
        self._check_len(gradients)
        first = self.step_t._data == 0
        for group, s, e in self._slices():
            grads = self._grads(group, gradients, s, e)
            params = tuple(p._data for p in self._parameters[s:e])
            grads, _ = optax.add_decayed_weights(group["weight_decay"]).update(grads, optax.EmptyState(), params)
            bufs = tuple(p._data for p in self.momentum_buf[s:e])
            state = SGDState(bufs, tuple(jnp.where(first, jnp.ones_like(b), jnp.zeros_like(b)) for b in bufs))
            tx = sgd_transform(group["momentum"], group["dampening"], group["nesterov"])
            lr = (jnp.asarray(group["lr"], jnp.float32),) * (e - s)
            updates, new = tx.update(grads, state, params, lr=lr)
            self._store(self.momentum_buf[s:e], new.accum)
            self._write(s, e, updates)
        self.step_t._data = self.step_t._data + 1
        return wrap(jnp.asarray(True))
