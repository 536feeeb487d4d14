"""Pipeline stages: the stage count in effect, MindSpore's compile-time stage check and
``sync_pipeline_shared_parameters``.

MindSpore 2.10 splits a graph into stages (its ``PipelineSplit`` pass) only when the
parallel mode is ``semi_auto_parallel``/``auto_parallel`` and ``pipeline_stages > 1``;
the split counts the distinct ``Cell.pipeline_stage`` values and raises
``RuntimeError('Stage num is 2 is not equal to stage used: 3')`` when they are not
``pipeline_stages`` many (``PipelineTransformer::Coloring``). The nn wrappers call
:func:`check_stages` the first time they run, before any step; each stage then runs on
its own group of devices (``_stages.py``, ``communication/_pipeline_step.py``). Cells are duck-typed here (``cells_and_names``, ``_ms_is_cell``): this layer
sits below ``nn``.
"""
from __future__ import annotations

from .. import log as logger
from ._context import ParallelMode, get_auto_parallel_context, get_parallel_mode

__all__ = ["sync_pipeline_shared_parameters"]


def pipeline_stages():
    """The stage count in effect: ``pipeline_stages`` under semi-auto/auto parallel, else 1."""
    if get_parallel_mode() not in (ParallelMode.SEMI_AUTO_PARALLEL, ParallelMode.AUTO_PARALLEL):
        return 1
    return get_auto_parallel_context("pipeline_stages")


def check_stages(network):
    """The stages given to the Cells of ``network`` must be exactly ``pipeline_stages`` many
    (MindSpore's check); msjax also requires each to be below ``pipeline_stages``."""
    stages = pipeline_stages()
    if stages <= 1:
        return
    used = {}
    for name, cell in network.cells_and_names():
        stage = cell.__dict__.get("_pipeline_stage")
        if stage is not None:
            used.setdefault(stage, name or type(cell).__name__)
    if len(used) != stages:
        raise RuntimeError(f"Stage num is {stages} is not equal to stage used: {len(used)}")
    for stage, name in sorted(used.items()):
        if stage >= stages:
            raise RuntimeError(f"The pipeline_stage of cell '{name}' is {stage}, but it must be less than "
                               f"pipeline_stages ({stages}).")


def sync_pipeline_shared_parameters(net):
    """``mindspore.sync_pipeline_shared_parameters(net)``: after a pipeline-parallel compile,
    MindSpore copies each Parameter that Cells on different stages share (an embedding
    table used by the first and the last stage) from one stage's devices to the other's.
    On msjax a shared Parameter lives on the devices of the first stage that uses it and
    the pipeline step copies it to the other stages' devices where they read it: nothing
    to do here. ``net`` must be a Cell; with pipeline stages on, its stages are checked."""
    if not getattr(type(net), "_ms_is_cell", False):
        logger.critical("Failed to synchronize pipeline shared parameters.")
        raise TypeError(f"For 'sync_pipeline_shared_parameters', the argument 'net' should be a Cell, "
                        f"but got {type(net)}.")
    check_stages(net)
