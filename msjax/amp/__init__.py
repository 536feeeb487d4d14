"""``mindspore.amp``: loss scalers and ``all_finite`` (mixed-precision training is its own issue)."""
from .loss_scaler import LossScaler, StaticLossScaler, all_finite

__all__ = ["LossScaler", "StaticLossScaler", "all_finite"]
