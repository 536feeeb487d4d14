"""``mindspore.parallel.nn``: ``Pipeline``, ``PipelineCell``, ``GradAccumulation``,
``MicroBatchInterleaved``, ``PipelineGradReducer``.

MindSpore 2.10 keeps these as classes of their own beside ``nn``'s (its
``parallel/nn/parallel_cell_wrapper.py`` and ``parallel_grad_reducer.py``); they compute
the same as ``nn.PipelineCell``, ``nn.GradAccumulationCell``, ``nn.MicroBatchInterleaved``
and ``nn.PipelineGradReducer`` (``pipeline.py``, ``grad_reducer.py``). Differences there:
an unknown ``stage_config`` name is reported through ``mindspore.log`` (``nn``'s prints
it), ``PipelineCell`` has ``Cell.shard``, ``GradAccumulation`` names itself in its errors,
and ``PipelineGradReducer`` is called as ``reducer(grads)``. (MindSpore 2.10's own
``parallel.nn.PipelineGradReducer`` without ``opt_shard`` raises ``NameError: The name
'grads' is not defined`` when called: its ``construct(*args)`` reads ``grads``; msjax
runs it as ``nn.PipelineGradReducer``.) msjax lives in the nn layer, so the module
tree takes these names from here (``_tree._FALLBACK_MODULES``).
"""
from __future__ import annotations

from ..cell import Cell
from . import grad_reducer, pipeline

__all__ = ["PipelineGradReducer", "PipelineCell", "Pipeline", "MicroBatchInterleaved", "GradAccumulation"]


class PipelineCell(pipeline.PipelineCell):
    """``mindspore.parallel.nn.PipelineCell(network, micro_size, stage_config=None, segment_config=None)``."""

    _report = staticmethod(pipeline._report_log)
    shard = Cell.shard


class Pipeline(PipelineCell):
    """``mindspore.parallel.nn.Pipeline``: ``PipelineCell`` under its newer name."""


class GradAccumulation(pipeline._MicroBatchSum):
    """``mindspore.parallel.nn.GradAccumulation(network, micro_size)``: the sum of the
    network over ``micro_size`` micro-batches."""

    _what = "GradAccumulation"


class MicroBatchInterleaved(pipeline.MicroBatchInterleaved):
    """``mindspore.parallel.nn.MicroBatchInterleaved(network, interleave_num=2)``."""


class PipelineGradReducer(grad_reducer.PipelineGradReducer):
    """``mindspore.parallel.nn.PipelineGradReducer(parameters, scale_sense=1.0, opt_shard=None)``."""

    def construct(self, *args, **kwargs):
        return super().construct(*args, **kwargs)
