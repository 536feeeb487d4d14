"""``mindspore.parallel.algo_parameter_config``: the auto-parallel strategy
search settings (``set_algo_parameters``).

msjax runs data-parallel or single-device and does not search sharding
strategies: the settings are validated like MindSpore's and recorded, so
scripts that set them (and read them back) run unchanged.
"""
from __future__ import annotations

import numpy as np

from .._core.argcheck import check_arg_types

__all__ = ["get_algo_parameters", "reset_algo_parameters", "set_algo_parameters"]

_TYPES = {"tensor_slice_align_enable": bool, "tensor_slice_align_size": int, "fully_use_devices": bool,
          "elementwise_op_strategy_follow": bool, "enable_algo_approxi": bool, "algo_approxi_epsilon": float}
_DEFAULTS = {"fully_use_devices": False, "elementwise_op_strategy_follow": False, "tensor_slice_align_enable": False,
             "tensor_slice_align_size": 16, "enable_algo_approxi": False,
             "algo_approxi_epsilon": float(np.float32(0.1))}   # MindSpore keeps it as a C++ float
_params = dict(_DEFAULTS)


def set_algo_parameters(**kwargs):
    """``mindspore.set_algo_parameters``: record the strategy-search settings."""
    check_arg_types(kwargs, _TYPES)
    for key, value in kwargs.items():
        if key not in _DEFAULTS:
            raise ValueError(f"Set context keyword {key} is not recognized!")
        if key == "tensor_slice_align_size" and not 1 <= value <= 1024:
            raise ValueError(f"Align_size must be in [1, 1024], but got {value}")
        if key == "algo_approxi_epsilon":
            if not 0 < value <= 1:
                raise RuntimeError("'epsilon' must be in (0, 1]")
            value = float(np.float32(value))
        if key == "tensor_slice_align_size":
            value = int(value)
        _params[key] = value


def get_algo_parameters(attr_key):
    """``mindspore.get_algo_parameters``."""
    if attr_key not in _DEFAULTS:
        raise ValueError(f"Get context keyword {attr_key} is not recognized!")
    return _params[attr_key]


def reset_algo_parameters():
    """``mindspore.reset_algo_parameters``: back to the defaults."""
    _params.clear()
    _params.update(_DEFAULTS)
