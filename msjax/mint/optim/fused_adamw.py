"""``mint.optim.FusedAdamW``: ``AdamW`` (XLA fuses the update either way)."""
from .adamw import AdamW


class FusedAdamW(AdamW):
    """``mint.optim.FusedAdamW``: ``AdamW`` (XLA fuses the update either way)."""
