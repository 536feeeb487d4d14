"""``nn.thor``: MindSpore's THOR second-order optimizer needs its own layer types
(``DenseThor``, ``Conv2dThor``...) and Ascend/GPU kernels; msjax does not provide it."""
from __future__ import annotations

__all__ = ["thor"]


def thor(net, learning_rate, damping, momentum, weight_decay=0.0, loss_scale=1.0, batch_size=32,
         use_nesterov=False, decay_filter=lambda x: x.name not in [], split_indices=None, enable_clip_grad=False,
         frequency=100):
    """Not supported: raises NotImplementedError (use ``nn.Momentum``/``nn.Adam``, or optax directly)."""
    raise NotImplementedError(
        "msjax does not implement 'nn.thor' (the THOR second-order optimizer needs MindSpore's Thor layers and "
        "Ascend/GPU kernels). Use nn.Momentum, nn.Adam or an optax optimizer instead.")


thor.__ms_unsupported__ = True
