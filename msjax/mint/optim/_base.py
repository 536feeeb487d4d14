"""The torch-style base of ``mint.optim``: an ``nn.Optimizer`` over the flat parameter list with
torch's ``param_groups``, and the hyperparameter checks the optimizers share."""
from __future__ import annotations

import jax.numpy as jnp

from ..._core import dtype as mstype
from ..._core.parameter import Parameter, ParameterTuple
from ..._core.tensor import Tensor
from ...nn.optim.optimizer import Optimizer, _arr


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
        # each group's lr is a Float32 Parameter ("learning_rate_group_<i>", as MindSpore's): a change
        # (an LR scheduler's assign, or a new value in param_groups) reaches a compiled step too
        lrs = []
        for gid, group in enumerate(param_groups):
            lr = group["lr"]
            if not isinstance(lr, Parameter):
                lr = Parameter(Tensor(float(lr.asnumpy() if isinstance(lr, Tensor) else lr), mstype.float32),
                               name=f"learning_rate_group_{gid}", requires_grad=False)
            group["lr"] = lr
            lrs.append(lr)
        self.lrs = ParameterTuple(lrs)
        object.__setattr__(self, "param_groups", param_groups)
        object.__setattr__(self, "group_start_id", starts)
        object.__setattr__(self, "defaults", dict(defaults))

    def _slices(self):
        for gid, group in enumerate(self.param_groups):
            yield group, self.group_start_id[gid], self.group_start_id[gid + 1]

    @staticmethod
    def _lr(group):
        """The group's learning rate: its Parameter's value (traced in a compiled step), or a number
        put into ``param_groups`` by hand."""
        lr = group["lr"]
        return lr._data.reshape(()) if isinstance(lr, Tensor) else jnp.float32(lr)

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
