"""``mindspore.train``: ``Model``, callbacks, metrics and checkpoints."""
from . import callback, metrics, serialization, summary
from .callback import (BackupAndRestore, Callback, CheckpointConfig, EarlyStopping, FlopsUtilizationCollector,
                       History, LambdaCallback, LearningRateScheduler, LossCurve, LossMonitor, ModelCheckpoint,
                       OnRequestExit, ProgressBar, ReduceLROnPlateau, RunContext, SummaryCollector, SummaryLandscape,
                       TimeMonitor, TrainFaultTolerance)
from .dataset_helper import DatasetHelper, connect_network_with_dataset, data_sink
from .metrics import *  # noqa: F401,F403
from .metrics import __all__ as _metrics_all
from .model import Model
from .summary import SummaryRecord
from ._export import export, export_split_mindir, load
from .serialization import (ckpt_to_safetensors, load_checkpoint, load_checkpoint_async, load_param_into_net,
                            safetensors_to_ckpt, save_checkpoint)

__all__ = ["Model", "DatasetHelper", "connect_network_with_dataset", "data_sink", "save_checkpoint",
           "load_checkpoint", "load_param_into_net", "load_checkpoint_async", "ckpt_to_safetensors",
           "safetensors_to_ckpt", "SummaryRecord", "export", "load", "export_split_mindir"]
__all__.extend(callback.__all__)
__all__.extend(_metrics_all)


def __getattr__(name):
    """Names whose home is another part of msjax (loss-scale managers and
    ``build_train_network`` in ``amp``)."""
    if name in ("LossScaleManager", "FixedLossScaleManager", "DynamicLossScaleManager", "build_train_network"):
        from .. import amp
        if hasattr(amp, name):
            return getattr(amp, name)
        from ..amp import loss_scale_manager
        return getattr(loss_scale_manager, name)
    if name == "amp":
        from .. import amp
        return amp
    raise AttributeError(f"module 'msjax.train' has no attribute '{name}'")
