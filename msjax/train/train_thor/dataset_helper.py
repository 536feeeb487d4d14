"""``mindspore.train.train_thor.dataset_helper``: the ``DatasetHelper`` of THOR's
``ModelThor`` (it adds ``iter_first_order``, the steps THOR's first-order graph
runs per loop).

In MindSpore 2.10 this helper only has sink modes (the Ascend loop sink and
GPU's ``GetNext`` queue); on CPU sink mode raises. msjax has no device data
queue: sink mode raises ``RuntimeError`` on every target (MindSpore's CPU
message on CPU). Without sink mode it iterates the dataset from the host as
``mindspore.train.DatasetHelper`` does (``epoch_num`` epochs of tuples of
Tensors); MindSpore's own THOR helper never sets up an iterator then (iterating
it raises ``AttributeError``), so this is where msjax does more than MindSpore.
"""
from __future__ import annotations

from ..._core import context
from ... import _checkparam as Validator
from ..dataset_helper import DatasetHelper as _HostDatasetHelper

__all__ = ["DatasetHelper"]


class DatasetHelper(_HostDatasetHelper):
    """``DatasetHelper(dataset, dataset_sink_mode=True, sink_size=-1, epoch_num=1, iter_first_order=1)``."""

    def __init__(self, dataset, dataset_sink_mode=True, sink_size=-1, epoch_num=1, iter_first_order=1):
        dataset_sink_mode = Validator.check_bool(dataset_sink_mode)
        Validator.check_is_int(sink_size)
        if sink_size < -1 or sink_size == 0:
            raise ValueError(f"The sink_size must be -1 or positive, but got sink_size {sink_size}.")
        if dataset_sink_mode:
            target = context.get_context("device_target")
            if target == "CPU":
                raise RuntimeError("Currently dataset sink mode is not supported when the device target is CPU.")
            raise RuntimeError(f"THOR's DatasetHelper in dataset sink mode (device target {target}) feeds MindSpore's "
                               "device data queue, which msjax does not have; use dataset_sink_mode=False.")
        self.iter_first_order = iter_first_order
        super().__init__(dataset, dataset_sink_mode, sink_size, epoch_num)
