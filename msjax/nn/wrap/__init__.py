"""Training wrappers: loss/eval cells, one-step training cells, loss scaling,
gradient reducers, gradient accumulation."""
from .cell_wrapper import (ForwardValueAndGrad, GetNextSingleOp, GradAccumulationCell, MicroBatchInterleaved,
                           ParameterUpdate, PipelineCell, TrainOneStepCell, VirtualDatasetCellTriple, WithEvalCell,
                           WithGradCell, WithLossCell)
from .grad_accumulation import GradAccumulationOptimizer
from .grad_reducer import DistributedGradReducer, PipelineGradReducer
from .loss_scale import DynamicLossScaleUpdateCell, FixedLossScaleUpdateCell, TrainOneStepWithLossScaleCell

__all__ = ["TrainOneStepCell", "WithLossCell", "WithGradCell", "WithEvalCell", "ParameterUpdate",
           "GetNextSingleOp", "VirtualDatasetCellTriple", "MicroBatchInterleaved", "PipelineCell",
           "GradAccumulationCell", "ForwardValueAndGrad", "DistributedGradReducer", "PipelineGradReducer",
           "TrainOneStepWithLossScaleCell", "DynamicLossScaleUpdateCell", "FixedLossScaleUpdateCell",
           "GradAccumulationOptimizer"]
