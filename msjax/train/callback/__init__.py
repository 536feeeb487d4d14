"""Training callbacks (``mindspore.train.callback``)."""
from ._callback import Callback, CallbackManager as _CallbackManager, InternalCallbackParam as _InternalCallbackParam
from ._callback import RunContext
from ._callback import set_cur_net as _set_cur_net  # noqa: F401
from ._checkpoint import CheckpointConfig, CheckpointManager as _CheckpointManager, ModelCheckpoint
from ._loss_curve import LossCurve
from ._monitors import LossMonitor, ProgressBar, TimeMonitor
from ._backup_and_restore import BackupAndRestore
from ._on_request_exit import OnRequestExit
from ._others import (EarlyStopping, FlopsUtilizationCollector, History, LambdaCallback, LearningRateScheduler,
                      ReduceLROnPlateau, SummaryLandscape, TrainFaultTolerance)
from ._summary_collector import SummaryCollector

__all__ = ["Callback", "LossMonitor", "TimeMonitor", "ModelCheckpoint", "FlopsUtilizationCollector",
           "SummaryCollector", "CheckpointConfig", "RunContext", "LearningRateScheduler", "SummaryLandscape",
           "History", "LambdaCallback", "ReduceLROnPlateau", "EarlyStopping", "OnRequestExit", "BackupAndRestore",
           "TrainFaultTolerance", "ProgressBar", "LossCurve"]
