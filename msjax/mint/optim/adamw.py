"""``mint.optim.AdamW``: Adam with decoupled weight decay."""
from .adam import Adam


class AdamW(Adam):
    """``mint.optim.AdamW(params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2, amsgrad=False, *,
    maximize=False)``: decoupled weight decay (``p -= lr * weight_decay * p`` with the Adam step)."""

    _decoupled = True

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2, amsgrad=False, *,
                 maximize=False):
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, maximize=maximize)
