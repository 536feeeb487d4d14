"""``mint.optim.Adam``: torch's Adam (L2 weight decay, optional amsgrad) as an optax chain."""
import jax.numpy as jnp
import numpy as np
import optax

from ..._core.parameter import Parameter
from ..._core.tensor import Tensor, wrap
from ...nn.optim.adam import AdamAmsgradState, adam_transform
from ._base import _TorchOptimizer, _adam_checks


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
                tx, state = optax.chain(adam, wd, optax.scale(-self._lr(group))), (adam_state, empty, empty)
            else:
                tx, state = optax.chain(wd, adam, optax.scale(-self._lr(group))), (empty, adam_state, empty)
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
