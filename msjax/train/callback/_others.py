"""``History``, ``LambdaCallback``, ``EarlyStopping``, ``ReduceLROnPlateau``,
``LearningRateScheduler`` and importable stand-ins for MindInsight's collectors
(``OnRequestExit`` and ``BackupAndRestore`` have their own modules)."""
from __future__ import annotations

import copy
import math

import numpy as np

from ..._core.parameter import Parameter
from ..._core.tensor import Tensor
from ... import log as logger
from ..serialization import load_param_into_net
from ._callback import Callback, handle_loss

__all__ = ["History", "LambdaCallback", "EarlyStopping", "ReduceLROnPlateau", "LearningRateScheduler",
           "SummaryLandscape", "FlopsUtilizationCollector", "TrainFaultTolerance"]

_smaller_better_metrics = ["hausdorff_distance", "mae", "mse", "loss", "perplexity", "mean_surface_distance",
                           "root_mean_square_distance", "eval_loss"]


def _bool(v, name):
    if not isinstance(v, bool):
        raise TypeError(f"The type of '{name}' should be bool, but got {type(v).__name__}.")
    return v


def _nonneg(v, name):
    if not isinstance(v, int) or isinstance(v, bool):
        raise TypeError(f"The type of '{name}' should be int, but got {type(v).__name__}.")
    if v < 0:
        raise ValueError(f"'{name}' should be an int and must >= 0, but got '{v}' with type '{type(v).__name__}'.")
    return v


def _typed(v, name, types):
    if isinstance(v, bool) or not isinstance(v, types):
        names = " or ".join(t.__name__ for t in (types if isinstance(types, tuple) else (types,)))
        raise TypeError(f"The type of '{name}' should be {names}, but got {type(v).__name__}.")
    return v


class History(Callback):
    """Records the network output (and, in ``fit``, the metrics) of every epoch in ``self.history``."""

    def __init__(self):
        super().__init__()
        self.history = {}
        self.epoch = None

    def begin(self, run_context):
        self.epoch = {"epoch": []}

    def epoch_end(self, run_context):
        cb_params = run_context.original_args()
        self.epoch.get("epoch").append(cb_params.get("cur_epoch_num", 1))
        out = cb_params.net_outputs
        if isinstance(out, (tuple, list)) and out and isinstance(out[0], Tensor):
            out = out[0]
        if isinstance(out, Tensor):
            out = np.mean(out.asnumpy())
        cur = {"net_output": out}
        metrics = cb_params.get("metrics")
        if metrics:
            cur.update(metrics)
        for k, v in cur.items():
            self.history.setdefault(k, []).append(v)


class LambdaCallback(Callback):
    """A callback from functions: ``LambdaCallback(on_train_epoch_end=lambda run_context: ...)``."""

    def __init__(self, on_train_epoch_begin=None, on_train_epoch_end=None, on_train_step_begin=None,
                 on_train_step_end=None, on_train_begin=None, on_train_end=None, on_eval_epoch_begin=None,
                 on_eval_epoch_end=None, on_eval_step_begin=None, on_eval_step_end=None, on_eval_begin=None,
                 on_eval_end=None):
        super().__init__()
        noop = lambda run_context: None  # noqa: E731
        self.on_train_epoch_begin = on_train_epoch_begin or noop
        self.on_train_epoch_end = on_train_epoch_end or noop
        self.on_train_step_begin = on_train_step_begin or noop
        self.on_train_step_end = on_train_step_end or noop
        self.on_train_begin = on_train_begin or noop
        self.on_train_end = on_train_end or noop
        self.on_eval_epoch_begin = on_eval_epoch_begin or noop
        self.on_eval_epoch_end = on_eval_epoch_end or noop
        self.on_eval_step_begin = on_eval_step_begin or noop
        self.on_eval_step_end = on_eval_step_end or noop
        self.on_eval_begin = on_eval_begin or noop
        self.on_eval_end = on_eval_end or noop


def _monitor_value(monitor, cb_params, what):
    candidates = {}
    if monitor == "loss":
        value = handle_loss(cb_params.get("net_outputs"))
    else:
        candidates = cb_params.get("eval_results", {})
        value = candidates.get(monitor)
    if value is None:
        logger.warning("%s is conditioned on %s, which is not available. Available choices are: %s",
                       what, monitor, set(["loss"] + list(candidates.keys())))
    if isinstance(value, Tensor):
        value = value.asnumpy()
    if isinstance(value, np.ndarray) and value.shape != ():
        raise ValueError(f"{what.split()[0]} only supports scalar monitor now.")
    return np.array(value) if value else None


class _Plateau(Callback):
    def _init_mode(self, mode, monitor, min_delta):
        self.mode = _typed(mode, "mode", str)
        if self.mode not in ("auto", "min", "max"):
            raise ValueError(f"mode should be 'auto', 'min' or 'max', but got {self.mode}.")
        self.min_delta = abs(_typed(min_delta, "min_delta", (float, int)))
        self._reset_best()

    def _smaller(self):
        return self.mode == "min" or (self.mode == "auto" and self.monitor in _smaller_better_metrics)

    def _reset_best(self):
        if self._smaller():
            self.is_improvement = lambda a, b: np.less(a, b - self.min_delta)
            self.best = np.inf
        else:
            self.is_improvement = lambda a, b: np.greater(a, b + self.min_delta)
            self.best = -np.inf


class EarlyStopping(_Plateau):
    """Stop training when the monitored value stops improving for ``patience`` epochs."""

    def __init__(self, monitor="eval_loss", min_delta=0, patience=0, verbose=False, mode="auto", baseline=None,
                 restore_best_weights=False):
        super().__init__()
        self.monitor = _typed(monitor, "monitor", str)
        self.patience = _nonneg(patience, "patience")
        self.verbose = _bool(verbose, "verbose")
        self.baseline = _typed(baseline, "baseline", (float, int)) if baseline else None
        self.restore_best_weights = _bool(restore_best_weights, "restore_best_weights")
        self.wait = 0
        self.stopped_epoch = 0
        self.best_weights_param_dict = None
        self._init_mode(mode, monitor, min_delta)

    def on_train_begin(self, run_context):
        self.wait = 0
        self.stopped_epoch = 0
        self._reset_best()
        self.best_weights_param_dict = None

    def on_train_epoch_end(self, run_context):
        cb_params = run_context.original_args()
        current = _monitor_value(self.monitor, cb_params, "Early stopping")
        if current is None:
            return
        if self.restore_best_weights and self.best_weights_param_dict is None:
            self.best_weights_param_dict = copy.deepcopy(cb_params.train_network.parameters_dict())
        self.wait += 1
        if self.is_improvement(current, self.best):
            self.best = current
            if self.restore_best_weights:
                self.best_weights_param_dict = copy.deepcopy(cb_params.train_network.parameters_dict())
            if self.baseline is None or self.is_improvement(current, self.baseline):
                self.wait = 0
        if self.wait >= self.patience:
            self.stopped_epoch = cb_params.get("cur_epoch_num")
            run_context.request_stop()
            if self.restore_best_weights and self.best_weights_param_dict is not None:
                if self.verbose:
                    print("Restoring model weights from the end of the best epoch.")
                load_param_into_net(cb_params.train_network, self.best_weights_param_dict)

    def on_train_end(self, run_context):
        if self.stopped_epoch > 0 and self.verbose:
            print("Epoch %05d: early stopping" % self.stopped_epoch)


class ReduceLROnPlateau(_Plateau):
    """Multiply the optimizer's learning rate by ``factor`` when the monitored value
    stops improving for ``patience`` epochs."""

    def __init__(self, monitor="eval_loss", factor=0.1, patience=10, verbose=False, mode="auto", min_delta=1e-4,
                 cooldown=0, min_lr=0):
        super().__init__()
        self.monitor = _typed(monitor, "monitor", str)
        factor = _typed(factor, "factor", (float, int))
        if not 0.0 < factor < 1.0:
            raise ValueError(f"'factor' should be in range of (0.0, 1.0), but got {factor}.")
        self.factor = factor
        self.patience = _nonneg(patience, "patience")
        self.verbose = _bool(verbose, "verbose")
        self.cooldown = _nonneg(cooldown, "cooldown")
        self.min_lr = _typed(min_lr, "min_lr", (float, int))
        self.cooldown_counter = 0
        self.wait = 0
        self._init_mode(mode, monitor, min_delta)

    def on_train_begin(self, run_context):
        self.cooldown_counter = 0
        self.wait = 0
        self._reset_best()

    def on_train_epoch_end(self, run_context):
        cb_params = run_context.original_args()
        cur_lr = cb_params.optimizer.learning_rate
        if not isinstance(cur_lr, Parameter):
            raise ValueError("ReduceLROnPlateau does not support dynamic learning rate and group learning rate now.")
        current = _monitor_value(self.monitor, cb_params, "Learning rate reduction")
        if current is None:
            return
        if self.cooldown_counter > 0:
            self.cooldown_counter -= 1
            self.wait = 0
        if self.is_improvement(current, self.best):
            self.best = current
            self.wait = 0
        elif self.cooldown_counter <= 0:
            self.wait += 1
            if self.wait >= self.patience:
                lr = float(cur_lr.asnumpy())
                if lr > self.min_lr:
                    new_lr = max(lr * self.factor, self.min_lr)
                    cur_lr.set_data(Tensor(np.array(new_lr, cur_lr.asnumpy().dtype)))
                    if self.verbose:
                        print("Epoch %05d: ReduceLROnPlateau reducing learning rate to %s."
                              % (cb_params.cur_epoch_num, new_lr))
                self.cooldown_counter = self.cooldown
                self.wait = 0


class LearningRateScheduler(Callback):
    """Set the learning rate after every step to ``learning_rate_function(lr, cur_step_num)``."""

    def __init__(self, learning_rate_function):
        super().__init__()
        self.learning_rate_function = learning_rate_function

    def step_end(self, run_context):
        cb_params = run_context.original_args()
        lr_param = cb_params.optimizer.learning_rate
        lr = float(np.array2string(lr_param.asnumpy()))
        new_lr = self.learning_rate_function(lr, cb_params.cur_step_num)
        if not math.isclose(lr, new_lr, rel_tol=1e-10):
            lr_param.set_data(Tensor(new_lr, lr_param.dtype))


class _Unsupported(Callback):
    _what = ""

    def __init__(self, *args, **kwargs):
        super().__init__()
        logger.warning(f"{type(self).__name__} ({self._what}) is not supported by msjax; the callback does nothing.")


class SummaryLandscape(_Unsupported):
    _what = "MindInsight loss landscapes"


class FlopsUtilizationCollector(_Unsupported):
    _what = "Ascend FLOPs statistics"


class TrainFaultTolerance(_Unsupported):
    _what = "Ascend cluster fault tolerance"
