"""``mindspore.parallel.checkpoint_transform``: merging sliced checkpoints.

``merge_sliced_parameter`` without a strategy (slices of one Parameter joined
along axis 0) works as in MindSpore.  Everything that needs an auto-parallel
sharding strategy (strategy files, ``load_distributed_checkpoint``) raises
``RuntimeError``: msjax does not run MindSpore's auto-parallel, so it has no
strategy files to read.
"""
from __future__ import annotations

import numpy as np

from .._core import dtype as mstype
from .._core.parameter import Parameter
from .._core.tensor import Tensor

__all__ = ["merge_sliced_parameter", "build_searched_strategy", "load_distributed_checkpoint"]


def _no_strategies(feature):
    raise RuntimeError(f"{feature} needs the sharding strategies of MindSpore's auto-parallel training, which msjax "
                       "does not run; merge slices with merge_sliced_parameter(slices) (along axis 0) instead.")


def merge_sliced_parameter(sliced_parameters, strategy=None):
    """``mindspore.merge_sliced_parameter``: one Parameter from its slices (joined along axis 0)."""
    if not isinstance(sliced_parameters, list):
        raise TypeError("For 'merge_sliced_parameter', the argument 'sliced_parameters' should be list, "
                        f"but got {type(sliced_parameters)}.")
    if not sliced_parameters:
        raise ValueError("For 'merge_sliced_parameter', the argument 'sliced_parameters' should not be empty.")
    if strategy and not isinstance(strategy, dict):
        raise TypeError(f"For 'merge_sliced_parameter', the argument 'strategy' should be dict, but got {type(strategy)}.")
    first = sliced_parameters[0]
    if not isinstance(first, Parameter):
        raise TypeError("For 'merge_sliced_parameter', the element in 'sliced_parameters' should be 'Parameter', "
                        f"but got {type(first)} at index 0.")
    name, shape = first.name, tuple(first.shape)
    for i, p in enumerate(sliced_parameters):
        if not isinstance(p, Parameter):
            raise TypeError("For 'merge_sliced_parameter', the element in 'sliced_parameters' should be 'Parameter', "
                            f"but got {type(p)} at index {i}.")
        if p.name != name or len(p.shape) != len(shape) or tuple(p.shape[1:]) != shape[1:]:
            raise ValueError("For 'merge_sliced_parameter', please make sure that the elements in 'slice_parameters'"
                             " have the same name, dimension length and shape except 0 axis. The name, dimension "
                             f"length, shape except 0 axis should be {name}, {len(shape)}, {shape[1:]}, but got name: "
                             f"{p.name}, dimension length: {len(p.shape)}, shape except 0 axis: {tuple(p.shape[1:])} "
                             f"at index {i}.")
    if strategy:
        _no_strategies("merge_sliced_parameter with a strategy")
    data = [p.astype(mstype.float32).asnumpy() if p.dtype == mstype.bfloat16 else p.asnumpy()
            for p in sliced_parameters]
    return Parameter(Tensor(np.concatenate(data)), name, first.requires_grad, first.layerwise_parallel)


def build_searched_strategy(strategy_filename):
    """``mindspore.build_searched_strategy``: raises (no auto-parallel strategy files in msjax)."""
    _no_strategies("build_searched_strategy (reading an auto-parallel strategy file)")


def load_distributed_checkpoint(network, checkpoint_filenames=None, predict_strategy=None,
                                train_strategy_filename=None, strict_load=False, dec_key=None, dec_mode="AES-GCM",
                                **kwargs):
    """``mindspore.load_distributed_checkpoint``: raises (no auto-parallel strategies in msjax)."""
    _no_strategies("load_distributed_checkpoint")
