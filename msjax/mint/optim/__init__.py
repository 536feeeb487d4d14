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
from .adam import Adam
from .adamw import AdamW
from .fused_adamw import FusedAdamW
from .sgd import SGD


__all__ = ["Adam", "AdamW", "FusedAdamW", "SGD"]
