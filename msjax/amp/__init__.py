"""``mindspore.amp``: loss scalers, ``all_finite``, loss-scale managers and mixed precision."""
from .loss_scaler import DynamicLossScaler, LossScaler, StaticLossScaler, all_finite
from .loss_scale_manager import DynamicLossScaleManager, FixedLossScaleManager, LossScaleManager
from .mixed_precision import (auto_mixed_precision, build_train_network, custom_mixed_precision, get_black_list,
                              get_white_list)

__all__ = ["DynamicLossScaleManager", "LossScaleManager", "FixedLossScaleManager", "build_train_network",
           "DynamicLossScaler", "StaticLossScaler", "LossScaler", "auto_mixed_precision", "all_finite",
           "custom_mixed_precision", "get_white_list", "get_black_list"]
