"""``mint.optim.SGD``: torch's SGD (momentum, dampening, Nesterov, L2 weight decay) on msjax's SGD
transform."""
import jax.numpy as jnp
import optax

from ..._core import dtype as mstype
from ..._core.parameter import Parameter
from ..._core.tensor import Tensor, wrap
from ...nn.optim.sgd import SGDState, sgd_transform
from ._base import _TorchOptimizer, _check_type


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
            lr = (self._lr(group),) * (e - s)
            updates, new = tx.update(grads, state, params, lr=lr)
            self._store(self.momentum_buf[s:e], new.accum)
            self._write(s, e, updates)
        self.step_t._data = self.step_t._data + 1
        return wrap(jnp.asarray(True))
