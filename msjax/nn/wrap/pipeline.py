"""Micro-batch wrappers and pipeline stages (``nn.PipelineCell``, ``nn.GradAccumulationCell``,
``nn.MicroBatchInterleaved``).

MindSpore 2.10 (``mindspore/nn/wrap/cell_wrapper.py``): each wrapper cuts every input
into ``micro_size`` equal slices along axis 0 and adds up the network's outputs over
them, so a ``PipelineCell`` around a loss cell returns the *sum* of the micro-batch
losses. ``Cell.pipeline_stage`` (an int >= 0, checked when set) marks which stage a
Cell runs on.

Pipeline parallelism is on when the parallel mode is ``SEMI_AUTO_PARALLEL`` or
``AUTO_PARALLEL`` and ``pipeline_stages > 1`` (MindSpore's ``PipelineSplit`` pass runs
only then). MindSpore then splits the graph across devices, runs the micro-batches
through the stages and adds each one's gradient into the ``accu_grads`` Parameters that
``PipelineGradReducer`` reads. msjax differentiates the summed loss, whose gradient *is*
that micro-batch sum (see ``grad_reducer.py``); on several devices each stage's operations
and Parameters run on that stage's devices and the micro-batches are scheduled through
the stages (``communication/_pipeline_step.py``; ``micro_scope`` marks each micro-batch). The
stage count is checked as MindSpore's compile checks it, the first time the wrapper
runs, before any step (``parallel/_pipeline.py``).
"""
from __future__ import annotations

from ... import log as logger
from ..._core.tensor import Tensor, to_array, wrap
from ...ops import operations as P
from ...parallel._context import ParallelMode, get_parallel_mode
from ...parallel._pipeline import check_stages, pipeline_stages
from ...parallel._stages import micro_scope
from ..cell import Cell

__all__ = ["GradAccumulationCell", "PipelineCell", "MicroBatchInterleaved"]


def _arr(x):
    return x._data if isinstance(x, Tensor) else to_array(x)


def _micro_slices(inputs, micro_size, i):
    out = []
    for x in inputs:
        a = _arr(x)
        if a.shape[0] % micro_size != 0:
            raise ValueError(f"For micro batch initialization, the 0th dimension shape of input({a.shape[0]}) "
                             f"must be divided by micro size({micro_size})")
        n = a.shape[0] // micro_size
        out.append(wrap(a[n * i:n * (i + 1)]))
    return tuple(out)


def _keep_amp_level(dst, src):
    """MindSpore's ``Cell._get_attr_from_cell``: keep the wrapped network's AMP level."""
    if hasattr(src, "_amp_level"):
        object.__setattr__(dst, "_amp_level", src._amp_level)


def _check_micro(what, network, micro_size):
    if not isinstance(network, Cell):
        raise TypeError(f"For '{what}', the argument 'network' must cell type, but got the type : "
                        f"{type(network)}.")
    if not isinstance(micro_size, int):     # MindSpore lets a bool through (True is one micro-batch)
        raise TypeError(f"For '{what}', the argument 'micro_size' must be integer, but got the type : "
                        f"{type(micro_size)}.")
    if micro_size <= 0:
        raise ValueError(f"For '{what}', the argument 'micro_size' must be large than 0, but got "
                         f"{micro_size}.")


class _MicroBatchSum(Cell):
    _what = "GradAccumulationCell"

    def __init__(self, network, micro_size):
        super().__init__(auto_prefix=False)
        _check_micro(self._what, network, micro_size)
        self.network = network
        self.micro_size = micro_size
        _keep_amp_level(self, network)

    def construct(self, *inputs):
        outputs = []
        for i in range(self.micro_size):
            with micro_scope(i):       # a pipeline step: the micro-batch's operations are marked
                outputs.append(self.network(*_micro_slices(inputs, self.micro_size, i)))
        ret = outputs[0]       # summed after the micro-batches (the same order): one program adds them
        for output in outputs[1:]:
            ret = wrap(_arr(ret) + _arr(output))
        return ret


class GradAccumulationCell(_MicroBatchSum):
    """``nn.GradAccumulationCell(network, micro_size)``: splits the batch into
    ``micro_size`` micro-batches and sums the network's outputs over them."""

    _what = "GradAccumulationCell"


def _report_print(kind, left, network):
    """How ``nn.PipelineCell`` reports a ``stage_config`` name it did not find (``print``)."""
    for name, num in left.items():
        print(f"pipeline_cell {kind}_config set pipeline_{kind} fail!")
        print(f"config cell name:{name} config {kind} num:{num}")
    print("network:" + str(network))
    print("cell name available:")
    for name, _ in network.cells_and_names():
        print(name)


def _report_log(kind, left, network):
    """The same report through ``mindspore.log`` (``segment_config``; ``parallel.nn.Pipeline``)."""
    for name, num in left.items():
        logger.error(f"pipeline_cell {kind}_config set pipeline_{kind} fail!")
        logger.warning(f"config cell name:{name} config {kind} num:{num}")
    logger.warning("network:" + str(network))
    logger.warning("cell name available:")
    for name, _ in network.cells_and_names():
        logger.warning(name)


def _apply_config(network, config, kind, report):
    """Give each Cell of ``network`` named in ``config`` (its ``cells_and_names`` name, or
    ``str(network)`` for the network itself) its ``pipeline_<kind>``; a name left over
    is reported and raises ``KeyError``, as MindSpore's ``PipelineCell`` does."""
    left = dict(config)
    for name, cell in network.cells_and_names():
        if name and name in left:
            setattr(cell, f"pipeline_{kind}", left.pop(name))
    if str(network) in left:
        setattr(network, f"pipeline_{kind}", left.pop(str(network)))
    if left:
        report(kind, left, network)
        raise KeyError(f"For 'PipelineCell', the argument '{kind}_config' : {left} is not found in 'network' : "
                       f"{network}")


class PipelineCell(_MicroBatchSum):
    """``nn.PipelineCell(network, micro_size, stage_config=None, segment_config=None)``: the
    sum of ``network`` over ``micro_size`` micro-batches; ``stage_config``/``segment_config``
    (``{cell name: number}``) set the named Cells' ``pipeline_stage``/``pipeline_segment``.
    With pipeline stages on, the first call checks the stages (see the module docstring)."""

    _what = "PipelineCell"
    _report = staticmethod(_report_print)

    def __init__(self, network, micro_size, stage_config=None, segment_config=None):
        super().__init__(network, micro_size)
        if stage_config is not None:
            _apply_config(self.network, stage_config, "stage", self._report)
        if segment_config is not None:
            _apply_config(self.network, segment_config, "segment", _report_log)

    def shard(self, in_strategy, out_strategy=None, parameter_plan=None, device="Ascend", level=0):
        raise ValueError("For 'PipelineCell', no 'shard' on 'PipelineCell' is allowed.")

    def construct(self, *inputs):
        check_stages(self.network)
        return super().construct(*inputs)


class MicroBatchInterleaved(Cell):
    """``nn.MicroBatchInterleaved(network, interleave_num=2)``: ``0.0`` plus the network's
    outputs over ``interleave_num`` slices of the batch (an integer output becomes float32,
    as MindSpore's ``Add(0.0, output)``)."""

    def __init__(self, network, interleave_num=2):
        super().__init__(auto_prefix=False)
        if not isinstance(interleave_num, int):
            raise TypeError("For 'MicroBatchInterleaved', the argument 'interleave_num' must be integer, "
                            f"but got the type : {type(interleave_num)}.")
        if interleave_num <= 0:
            raise ValueError("For 'MicroBatchInterleaved', the argument 'interleave_num' must be large than 0, "
                             f"but got {interleave_num}.")
        self.network = network
        self.interleave_num = interleave_num
        self.add = P.Add()
        _keep_amp_level(self, network)

    def construct(self, *inputs):
        output = 0.0
        for i in range(self.interleave_num):
            output = self.add(output, self.network(*_micro_slices(inputs, self.interleave_num, i)))
        return output


def accumulation_sens(network):
    """The sensitivity MindSpore's ``_TrainGradAccuStepCell`` trains with when ``amp.build_train_network``
    (so ``Model``) meets pipeline stages or a gradient-accumulation cell under semi-auto/auto parallel:
    ``1 / micro_size``, i.e. the mean of the micro-batch gradients (the gradient of the summed
    loss is their sum); None otherwise. Difference: MindSpore also builds that cell stand-alone,
    where nothing fills its accumulators and the optimizer sees zeros; msjax keeps the plain
    training step there."""
    parallel = get_parallel_mode() in (ParallelMode.SEMI_AUTO_PARALLEL, ParallelMode.AUTO_PARALLEL)
    cells = [c for _, c in network.cells_and_names()]
    accumulating = any(type(c).__name__ in ("GradAccumulationCell", "GradAccumulation") for c in cells)
    if not parallel or not (pipeline_stages() > 1 or accumulating):
        return None
    micro = next((c.micro_size for c in cells if isinstance(getattr(c, "micro_size", None), int)), 1)
    return 1.0 / micro
