"""``Model``: MindSpore's high-level train / evaluate / predict loop.

``Model(network, loss_fn, optimizer, metrics, ...)`` wraps the network the way
MindSpore does (``amp.build_train_network``: ``WithLossCell`` and
``TrainOneStepCell``, or ``TrainOneStepWithLossScaleCell`` with a loss-scale
manager; ``WithEvalCell`` for evaluation) and runs the same loop with the same
callback calls and ``cb_params`` fields. Each training step is one call of the
training cell, which compiles forward, backward and the optimizer update (see
``nn.wrap``); evaluation calls are compiled too. The data pipeline runs in a
background thread, overlapping the step.

Differences from MindSpore: ``dataset_sink_mode=True`` runs like MindSpore does
on CPU (no device queue; the loop is the same); ``build``,
``infer_train_layout``/``infer_predict_layout`` are Ascend/parallel-only in
MindSpore and raise the same errors here; ``predict(backend='lite')`` falls back
to the normal path.
"""
from __future__ import annotations

import copy
import functools
import os
from collections.abc import Iterable

import jax
import numpy as np

from .._core import context
from .._core.tensor import Tensor
from .. import log as logger
from .callback import __all__ as _internal_cb_names
from .callback._callback import Callback, CallbackManager, InternalCallbackParam, RunContext
from .callback._checkpoint import ModelCheckpoint, _chg_ckpt_file_name_if_same_exist
from .callback._monitors import TimeMonitor
from ..nn.cell import Cell
from ..nn.metrics import Loss, get_metric_fn, get_metrics
from .serialization import save_checkpoint
from ..parallel import _context as _parallel_context

__all__ = ["Model"]


def _is_cell(x):
    return getattr(type(x), "_ms_is_cell", False)


def _to_tuple(inputs):
    if isinstance(inputs, Tensor):
        return (inputs,)
    return tuple(inputs)


# The per-step hooks: a callback that overrides one of them watches single steps (a timer
# between step_begin and step_end, a loss read); one that overrides none watches epochs at most.
_STEP_HOOKS = {"train": ("on_train_step_begin", "on_train_step_end", "step_begin", "step_end"),
               "eval": ("on_eval_step_begin", "on_eval_step_end", "step_begin", "step_end")}


def _watches_steps(callbacks, mode):
    return any(getattr(type(cb), name, None) is not getattr(Callback, name)
               for cb in callbacks for name in _STEP_HOOKS[mode])


def _arrays(value, out):
    """The device arrays of a step's outputs (a Tensor, or tuples/lists/dicts of them)."""
    if isinstance(value, Tensor):
        if isinstance(value._data, jax.Array):
            out.append(value._data)
    elif isinstance(value, (tuple, list)):
        for v in value:
            _arrays(v, out)
    elif isinstance(value, dict):
        for v in value.values():
            _arrays(v, out)
    return out


def _check_int(value, name, positive=False, prim="Model"):
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"The type of '{name}' should be int, but got {type(value).__name__}.")
    if positive and value <= 0:
        raise ValueError(f"'{name}' should be an int and must > 0, but got '{value}' with type 'int'.")
    if not positive and value < 0:
        raise ValueError(f"'{name}' should be an int and must >= 0, but got '{value}' with type 'int'.")
    return value


def _check_bool(value, name):
    if not isinstance(value, bool):
        raise TypeError(f"The type of '{name}' should be bool, but got {type(value).__name__}.")
    return value


def _build_train_network(network, optimizer, loss_fn, level, boost_level, amp_config):
    """``amp.build_train_network`` (issue 4's), or the O0 path when it is absent."""
    from .. import amp
    build = getattr(amp, "build_train_network", None)
    if build is not None:
        return build(network, optimizer, loss_fn, level=level, boost_level=boost_level, **amp_config)
    from .. import nn
    if level != "O0":
        raise ValueError(f"amp_level {level!r} needs mindspore.amp.build_train_network, which msjax lacks.")
    if loss_fn:
        network = nn.WithLossCell(network, loss_fn)
    manager = amp_config.get("loss_scale_manager")
    if manager is not None:
        update_cell = manager.get_update_cell()
        if update_cell is not None:
            return nn.TrainOneStepWithLossScaleCell(network, optimizer, scale_sense=update_cell).set_train()
        return nn.TrainOneStepCell(network, optimizer, manager.get_loss_scale()).set_train()
    return nn.TrainOneStepCell(network, optimizer).set_train()


def _set_train(network, mode):
    """``network.set_train(mode)`` only when some cell's flag differs: every set_train
    invalidates the compiled functions, so a no-op one would force a recompile."""
    if any(c.training != mode for _, c in network.cells_and_names()):
        network.set_train(mode)



class _Float64(np.float64):
    """``np.float64`` that prints as under NumPy 1 (``0.5``, not ``np.float64(0.5)``):
    MindSpore runs on NumPy 1, so ``print(model.eval(ds))`` shows ``{'Accuracy': 0.5}``."""

    def __repr__(self):
        return repr(float(self))


def _plain(value):
    """A metric's ``np.float64`` result, printing as MindSpore's does."""
    if type(value) is np.float64:
        return _Float64(value)
    if isinstance(value, np.generic) and np.ndim(value) == 0:
        return value.item()
    return value                      # a Python number (CRNN's accuracy), a list, an array...

def _auto_parallel_settings(network):
    """The parallel settings of an ``AutoParallel`` Cell in ``network`` (MindSpore: a Model's
    network must be wrapped with AutoParallel for a parallel run), or None."""
    from .auto_parallel import AutoParallel
    cells = network.cells_and_names() if hasattr(network, "cells_and_names") else ()
    for _, cell in cells:
        if isinstance(cell, AutoParallel):
            return cell._context()
    return None


def _parallel_scoped(method):
    """Run a Model method under its AutoParallel network's settings, so the training (or
    evaluation) step the Model compiles is the sharded one."""
    @functools.wraps(method)
    def run(self, *args, **kwargs):
        settings = _auto_parallel_settings(self._network)
        if settings is None:
            return method(self, *args, **kwargs)
        with _parallel_context.scoped(settings):
            return method(self, *args, **kwargs)
    return run


class Model:
    """High-level API for training, evaluation and inference.

    ``Model(network, loss_fn=None, optimizer=None, metrics=None, eval_network=None, eval_indexes=None,
    amp_level='O0', boost_level='O0', **kwargs)``; ``kwargs``: ``loss_scale_manager``,
    ``keep_batchnorm_fp32``, ``boost_config_dict``, ``acc_level``.
    """

    def __init__(self, network, loss_fn=None, optimizer=None, metrics=None, eval_network=None, eval_indexes=None,
                 amp_level="O0", boost_level="O0", **kwargs):
        self._network = network
        self._loss_fn = loss_fn
        self._optimizer = optimizer
        self._loss_scale_manager = None
        self._loss_scale_manager_set = False
        self._keep_bn_fp32 = None
        for arg in kwargs:
            if arg not in ("loss_scale_manager", "keep_batchnorm_fp32", "boost_config_dict", "acc_level"):
                raise ValueError("The argument in 'kwargs' should be 'loss_scale_manager' or 'keep_batchnorm_fp32' "
                                 f"or 'boost_config_dict' or 'acc_level', but got '{arg}'.")
        self._amp_level = amp_level
        self._boost_level = kwargs.get("acc_level", boost_level)
        self._eval_network = eval_network
        if "keep_batchnorm_fp32" in kwargs:
            self._keep_bn_fp32 = kwargs["keep_batchnorm_fp32"]
        if "loss_scale_manager" in kwargs:
            self._loss_scale_manager = kwargs["loss_scale_manager"]
            self._loss_scale_manager_set = True
        self._parallel_mode = "stand_alone"
        self._device_number = 1
        self._metrics = metrics
        if optimizer is None and amp_level != "O0":
            raise ValueError("Auto mixed precision will not work because 'optimizer' is None.Please set amp_level='O0' "
                             "to disable auto mixed precision or set 'optimizer' not be None to use auto mixed "
                             "precision.")
        settings = _auto_parallel_settings(network)    # AutoParallel's pipeline stages shape the step
        if settings is None:
            self._train_network = self._build_train_network()
        else:
            with _parallel_context.scoped(settings):
                self._train_network = self._build_train_network()
        self._build_eval_network(metrics, self._eval_network, eval_indexes)
        self._predict_network = self._network
        self._current_epoch_num = 0
        self._current_step_num = 0
        self.epoch_iter = 0
        self._backbone_is_train = True
        self.batch_num = -1
        self._initial_step = None
        self._eval_fn = None
        self._step_params = None    # (train network, its Parameters): what _finish_step waits for

    # --- networks -------------------------------------------------------------------
    def _build_train_network(self):
        network = self._network
        if not _is_cell(network):
            raise TypeError(f"For 'Model', the type of 'network' should be Cell, but got {type(network).__name__}.")
        if self._loss_scale_manager is not None and self._optimizer is None:
            raise ValueError("The argument 'optimizer' can not be None when set 'loss_scale_manager'.")
        if self._optimizer:
            amp_config = {}
            if self._loss_scale_manager_set:
                amp_config["loss_scale_manager"] = self._loss_scale_manager
            if self._keep_bn_fp32 is not None:
                amp_config["keep_batchnorm_fp32"] = self._keep_bn_fp32
            return _build_train_network(network, self._optimizer, self._loss_fn, self._amp_level,
                                        self._boost_level, amp_config)
        if self._loss_fn:
            from .. import nn
            return nn.WithLossCell(network, self._loss_fn)
        return network

    def _build_eval_network(self, metrics, eval_network, eval_indexes):
        self._metric_fns = get_metrics(metrics)
        if not self._metric_fns:
            return
        if eval_network is not None:
            if eval_indexes is not None and not (isinstance(eval_indexes, list) and len(eval_indexes) == 3):
                raise ValueError("The argument 'eval_indexes' must be a list or None. If 'eval_indexes' is a list, "
                                 f"length of it must be three. But got 'eval_indexes' {eval_indexes}")
            self._eval_network = eval_network
            self._eval_indexes = eval_indexes
        else:
            if self._loss_fn is None:
                raise ValueError(
                    "If `metrics` is set, `eval_network` must not be None. Do not set `metrics` if you don't want an "
                    "evaluation.\nIf evaluation is required, you need to specify `eval_network`, which will be used in "
                    "the framework to evaluate the model.\nFor the simple scenarios with one data, one label and one "
                    "logits, `eval_network` is optional, and then you can set `eval_network` or `loss_fn`. For the "
                    "latter case, framework will automatically build an evaluation network with `network` and "
                    "`loss_fn`.")
            from .. import nn
            self._eval_network = nn.WithEvalCell(self._network, self._loss_fn, self._amp_level in ("O2", "O3", "auto"))
            self._eval_indexes = [0, 1, 2]

    @property
    def train_network(self):
        return self._train_network

    @property
    def predict_network(self):
        return self._predict_network

    @property
    def eval_network(self):
        return self._eval_network

    # --- metrics ------------------------------------------------------------------------
    def _clear_metrics(self):
        for metric in self._metric_fns.values():
            metric.clear()

    def _update_metrics(self, outputs):
        if isinstance(outputs, Tensor):
            outputs = (outputs,)
        if isinstance(outputs, list):
            outputs = tuple(outputs)
        if not isinstance(outputs, tuple):
            raise ValueError(f"The argument 'outputs' should be tuple, but got {type(outputs)}.")
        if self._eval_indexes is not None and len(outputs) < 3:
            raise ValueError(f"The length of 'outputs' must be >= 3, but got {len(outputs)}")
        for metric in self._metric_fns.values():
            if self._eval_indexes is None:
                metric.update(*outputs)
            elif isinstance(metric, Loss):
                metric.update(outputs[self._eval_indexes[0]])
            else:
                metric.update(outputs[self._eval_indexes[1]], outputs[self._eval_indexes[2]])

    def _get_metrics(self):
        return {key: _plain(value.eval()) for key, value in self._metric_fns.items()}

    # --- helpers ------------------------------------------------------------------------
    def _check_network_mode(self, network, is_train):
        if self._backbone_is_train != is_train:
            _set_train(network, is_train)
            self._backbone_is_train = is_train
        if not is_train:
            network.set_grad(False)
        return network

    def _check_reuse_dataset(self, dataset):
        if not hasattr(dataset, "__model_hash__"):
            dataset.__model_hash__ = hash(self)
        if dataset.__model_hash__ != hash(self):
            raise RuntimeError("The dataset object had been used in other model by model.train(...), please create a "
                               "new dataset.")

    @staticmethod
    def _transform_callbacks(callbacks):
        if callbacks is None:
            return []
        if isinstance(callbacks, Iterable):
            return list(callbacks)
        return [callbacks]

    @staticmethod
    def _check_methods_for_custom_callbacks(callbacks, current_mode):
        old = {"begin", "end", "epoch_begin", "epoch_end", "step_begin", "step_end"}
        for cb in (callbacks if isinstance(callbacks, list) else [callbacks]):
            name = type(cb).__name__
            if name in _internal_cb_names:
                continue
            bad = set(type(cb).__dict__.keys()) & old
            if bad:
                msg = (f"For {name} callback, {bad} methods may not be supported in later version, Use methods "
                       "prefixed with 'on_train' or 'on_eval' instead when using customized callbacks.")
                if current_mode in ("train", "eval"):
                    logger.warning(msg)
                else:
                    raise ValueError(msg)

    def _call_eval_network(self, inputs):
        """The evaluation network's call, compiled (one trace per input signature)."""
        if context.is_graph_mode():
            return self._eval_network(*inputs)
        from .._core.transforms import StatefulFunction, to_tensors
        if self._eval_fn is None or self._eval_fn[0] is not self._eval_network:
            self._eval_fn = (self._eval_network, StatefulFunction(self._eval_network.construct))
        return to_tensors(self._eval_fn[1](*inputs))

    # --- finished steps -------------------------------------------------------------------
    def _finish_step(self, outputs, network=None):
        """Wait until the step's outputs (and, for a training step, the network's updated
        parameters) are computed: MindSpore's callbacks see a finished step, and JAX's
        asynchronous dispatch would otherwise return before the step has run (a callback's
        timer would measure the dispatch)."""
        arrays = _arrays(outputs, [])
        if network is not None:
            cached = self._step_params
            if cached is None or cached[0] is not network:
                # Cell's own method, not the instance's attribute: a train cell may keep a list in
                # ``self.trainable_params`` (Wide&Deep's TrainStepWrap), as MindSpore's Model allows
                cached = self._step_params = (network, tuple(Cell.get_parameters(network)))
            arrays.extend(p._data for p in cached[1] if isinstance(p._data, jax.Array))
        jax.block_until_ready(arrays)

    # --- train --------------------------------------------------------------------------
    def _save_on_exception(self, callbacks, run):
        ckpt = None
        for cb in self._transform_callbacks(callbacks):
            if isinstance(cb, ModelCheckpoint):
                ckpt = cb
        if ckpt is None or not ckpt._config.exception_save:
            return run()
        try:
            return run()
        except BaseException:
            prefix = _chg_ckpt_file_name_if_same_exist(ckpt._directory, ckpt._exception_prefix, True)
            name = f"{prefix}-{self._current_epoch_num}_{self._current_step_num}_breakpoint.ckpt"
            ckpt._append_dict_content(self._current_epoch_num, self._current_step_num)
            save_checkpoint(self._train_network, os.path.join(ckpt._directory, name), append_dict=ckpt._append_dict
                            or None)
            raise

    def _train(self, epoch, train_dataset, callbacks=None, dataset_sink_mode=True, sink_size=-1, initial_epoch=0,
               valid_dataset=None, valid_frequency=1, valid_dataset_sink_mode=True):
        cb_params = InternalCallbackParam()
        cb_params.cur_step_num = 0
        cb_params.train_network = self._train_network
        cb_params.epoch_num = epoch - initial_epoch
        if dataset_sink_mode and sink_size > 0:
            cb_params.batch_num = sink_size
        else:
            cb_params.batch_num = train_dataset.get_dataset_size()
        self.batch_num = cb_params.batch_num
        cb_params.mode = "train"
        cb_params.loss_fn = self._loss_fn
        cb_params.optimizer = self._optimizer
        cb_params.parallel_mode = self._parallel_mode
        cb_params.device_number = self._device_number
        cb_params.train_dataset = train_dataset
        cb_params.list_callback = self._transform_callbacks(callbacks)
        cb_params.train_dataset_element = None
        cb_params.network = self._network
        cb_params.last_save_ckpt_step = None
        cb_params.latest_ckpt_file = None
        cb_params.loss_scale_mananger = self._loss_scale_manager
        cb_params.initial_step = self._initial_step
        valid_infos = (valid_dataset, valid_frequency, valid_dataset_sink_mode)
        with CallbackManager(cb_params.list_callback) as list_callback:
            self._check_reuse_dataset(train_dataset)
            self._train_process(epoch, train_dataset, list_callback, cb_params, initial_epoch, valid_infos)

    def _train_process(self, epoch, train_dataset, list_callback, cb_params, initial_epoch, valid_infos):
        _set_train(self._train_network, True)
        self._backbone_is_train = True
        iterator = train_dataset.create_tuple_iterator(num_epochs=epoch - initial_epoch, do_copy=True)
        cb_params.dataset_sink_mode = False
        run_context = RunContext(cb_params)
        list_callback.on_train_begin(run_context)
        initial_epoch = cb_params.get("initial_epoch", initial_epoch)
        should_stop = False
        for i in range(initial_epoch, epoch):
            cb_params.cur_epoch_num = i + 1
            self._current_epoch_num = cb_params.cur_epoch_num
            self._current_step_num = 0
            list_callback.on_train_epoch_begin(run_context)
            watched = _watches_steps(list_callback._callbacks, "train")
            for next_element in iterator:
                len_element = len(next_element)
                next_element = _to_tuple(next_element)
                if self._loss_fn and len_element != 2:
                    raise ValueError("When 'loss_fn' is not None, 'train_dataset' should return two elements, but got "
                                     f"{len_element}, please check the number of elements returned by "
                                     "'train_dataset'")
                cb_params.cur_step_num += 1
                self._current_step_num = int((cb_params.cur_step_num - 1) % cb_params.batch_num + 1)
                cb_params.train_dataset_element = next_element
                list_callback.on_train_step_begin(run_context)
                self._check_network_mode(self._train_network, True)
                outputs = self._train_network(*next_element)
                cb_params.net_outputs = outputs
                manager = self._loss_scale_manager
                if manager is not None and getattr(manager, "get_drop_overflow_update", lambda: False)():
                    overflow = np.all(outputs[1].asnumpy())
                    manager.update_loss_scale(overflow)
                if watched:
                    self._finish_step(outputs, self._train_network)
                list_callback.on_train_step_end(run_context)
                if run_context.get_stop_requested():
                    should_stop = True
                    break
            if list_callback._callbacks and not watched:
                self._finish_step(cb_params.get("net_outputs"), self._train_network)   # the epoch has run
            self._eval_during_train(valid_infos, cb_params, list_callback)
            train_dataset.reset()
            list_callback.on_train_epoch_end(run_context)
            cb_params.pop("metrics", None)
            cb_params.pop("eval_results", None)
            if should_stop or run_context.get_stop_requested():
                break
        iterator.stop()
        list_callback.on_train_end(run_context)

    @staticmethod
    def _should_eval(epoch, validation_freq):
        return epoch % validation_freq == 0 if isinstance(validation_freq, int) else epoch in validation_freq

    def _eval_during_train(self, valid_infos, cb_params, list_callback):
        valid_dataset, valid_frequency, valid_dataset_sink_mode = valid_infos
        if not valid_dataset or not self._should_eval(cb_params.cur_epoch_num, valid_frequency):
            return
        saved = (cb_params.cur_step_num, cb_params.batch_num, cb_params.dataset_sink_mode, cb_params.net_outputs)
        eval_callbacks = [cb for cb in list_callback._callbacks
                          if type(cb).__name__ not in _internal_cb_names or isinstance(cb, TimeMonitor)]
        self._eval_in_fit(valid_dataset, eval_callbacks, cb_params)
        cb_params.mode = "train"
        cb_params.cur_step_num, cb_params.batch_num, cb_params.dataset_sink_mode, cb_params.net_outputs = saved
        self._check_network_mode(self._train_network, True)

    @_parallel_scoped
    def train(self, epoch, train_dataset, callbacks=None, dataset_sink_mode=False, sink_size=-1, initial_epoch=0):
        """Train ``epoch`` epochs over ``train_dataset`` (``initial_epoch`` epochs already done)."""
        _check_bool(dataset_sink_mode, "dataset_sink_mode")
        if not isinstance(sink_size, int) or isinstance(sink_size, bool):
            raise TypeError(f"The type of 'sink_size' should be int, but got {type(sink_size).__name__}.")
        _check_int(epoch, "epoch", positive=True)
        _check_int(initial_epoch, "initial_epoch")
        if initial_epoch >= epoch:
            raise ValueError(f"For 'Model.train', the parameter 'epoch' must bigger than parameter 'initial_epoch', "
                             f"but got the parameter 'epoch' is {epoch}, 'initial_epoch' is {initial_epoch}.")
        dataset_size = train_dataset.get_dataset_size()
        if dataset_size == 0:
            raise ValueError("There is no valid data in dataset, please check dataset file firstly.")
        if sink_size == -1:
            sink_size = dataset_size
        if sink_size < -1 or sink_size == 0:
            raise ValueError(f"For 'Model.train', The argument 'sink_size' must be -1 or positive, but got "
                             f"{sink_size}.")
        if callbacks:
            self._check_methods_for_custom_callbacks(callbacks, "train")
        self._save_on_exception(callbacks, lambda: self._train(
            epoch, train_dataset, callbacks=callbacks, dataset_sink_mode=dataset_sink_mode, sink_size=sink_size,
            initial_epoch=initial_epoch))

    @_parallel_scoped
    def fit(self, epoch, train_dataset, valid_dataset=None, valid_frequency=1, callbacks=None,
            dataset_sink_mode=False, valid_dataset_sink_mode=False, sink_size=-1, initial_epoch=0):
        """Train, evaluating on ``valid_dataset`` every ``valid_frequency`` epochs (an int, or a
        list of epoch numbers); metrics go to ``cb_params.metrics``/``eval_results``."""
        _check_bool(dataset_sink_mode, "dataset_sink_mode")
        _check_bool(valid_dataset_sink_mode, "valid_dataset_sink_mode")
        _check_int(epoch, "epoch", positive=True)
        _check_int(initial_epoch, "initial_epoch")
        if initial_epoch >= epoch:
            raise ValueError(f"For 'Model.fit', the parameter 'epoch' must bigger than parameter 'initial_epoch', but "
                             f"got the parameter 'epoch' is {epoch}, 'initial_epoch' is {initial_epoch}.")
        dataset_size = train_dataset.get_dataset_size()
        if dataset_size == 0:
            raise ValueError("There is no valid data in dataset, please check dataset file firstly.")
        if sink_size == -1:
            sink_size = dataset_size
        if sink_size < -1 or sink_size == 0:
            raise ValueError(f"For 'Model.fit', The parameter 'sink_size' must be -1 or positive, but got "
                             f"{sink_size}.")
        if not isinstance(valid_frequency, (int, list)):
            raise TypeError("For 'Model.fit', the type of 'valid_frequency' must be a list or an integer, but got "
                            f"type {type(valid_frequency)}.")
        if valid_dataset and not self._metric_fns:
            raise ValueError("For 'Model.fit', if valid_dataset is not None, the model argument 'metrics' can not "
                             "beNone or empty, you should set the argument 'metrics' for model.")
        if callbacks:
            self._check_methods_for_custom_callbacks(callbacks, "fit")
        self._save_on_exception(callbacks, lambda: self._train(
            epoch, train_dataset, callbacks=callbacks, dataset_sink_mode=dataset_sink_mode, sink_size=sink_size,
            initial_epoch=initial_epoch, valid_dataset=valid_dataset, valid_frequency=valid_frequency,
            valid_dataset_sink_mode=valid_dataset_sink_mode))

    def build(self, train_dataset=None, valid_dataset=None, sink_size=-1, epoch=1, sink_mode=True):
        """Ascend-only in MindSpore (data-sink warm-up and graph pre-compilation)."""
        raise RuntimeError("Pre-init process only supports Ascend target currently.")

    # --- eval -----------------------------------------------------------------------------
    def _eval_in_fit(self, valid_dataset, callbacks, cb_params):
        cb_params.eval_network = self._eval_network
        cb_params.valid_dataset = valid_dataset
        cb_params.batch_num = valid_dataset.get_dataset_size()
        cb_params.mode = "eval"
        cb_params.cur_step_num = 0
        self._clear_metrics()
        with CallbackManager(callbacks) as list_callback:
            return self._eval_process(valid_dataset, list_callback, cb_params, add_eval_loss=True)

    def _eval_process(self, valid_dataset, list_callback, cb_params, add_eval_loss=False):
        run_context = RunContext(cb_params)
        cb_params.dataset_sink_mode = False
        list_callback.on_eval_begin(run_context)
        _set_train(self._eval_network, False)
        self._eval_network.set_grad(False)
        self._backbone_is_train = False
        iterator = valid_dataset.create_tuple_iterator(num_epochs=1, do_copy=True)
        list_callback.on_eval_epoch_begin(run_context)
        eval_loss_fn = get_metric_fn("loss") if add_eval_loss else None
        watched = _watches_steps(list_callback._callbacks, "eval")
        for next_element in iterator:
            cb_params.cur_step_num += 1
            next_element = _to_tuple(next_element)
            cb_params.eval_dataset_element = next_element
            list_callback.on_eval_step_begin(run_context)
            self._check_network_mode(self._eval_network, False)
            outputs = self._call_eval_network(next_element)
            cb_params.net_outputs = outputs
            if watched:
                self._finish_step(outputs)
            list_callback.on_eval_step_end(run_context)
            self._update_metrics(outputs)
            if add_eval_loss:
                eval_loss_fn.update(outputs[self._eval_indexes[0]])
            if run_context.get_stop_requested():
                break
        if list_callback._callbacks and not watched:
            self._finish_step(cb_params.get("net_outputs"))
        list_callback.on_eval_epoch_end(run_context)
        iterator.stop()
        valid_dataset.reset()
        metrics = self._get_metrics()
        cb_params.metrics = metrics
        if add_eval_loss:
            cb_params.eval_results = copy.deepcopy(metrics)
            cb_params.eval_results.update({"eval_loss": _plain(eval_loss_fn.eval())})
        list_callback.on_eval_end(run_context)
        return metrics

    @_parallel_scoped
    def eval(self, valid_dataset, callbacks=None, dataset_sink_mode=False):
        """Evaluate the metrics over ``valid_dataset``; returns ``{name: value}``."""
        _check_bool(dataset_sink_mode, "dataset_sink_mode")
        if not self._metric_fns:
            raise ValueError("For Model.eval, the model argument 'metrics' can not be None or empty, you should set "
                             "the argument 'metrics' for model.")
        if callbacks:
            self._check_methods_for_custom_callbacks(callbacks, "eval")
        cb_params = InternalCallbackParam()
        cb_params.eval_network = self._eval_network
        cb_params.valid_dataset = valid_dataset
        cb_params.batch_num = valid_dataset.get_dataset_size()
        cb_params.mode = "eval"
        cb_params.cur_step_num = 0
        cb_params.list_callback = self._transform_callbacks(callbacks)
        cb_params.network = self._network
        self._clear_metrics()
        with CallbackManager(callbacks) as list_callback:
            return self._eval_process(valid_dataset, list_callback, cb_params)

    # --- predict -----------------------------------------------------------------------------
    @_parallel_scoped
    def predict(self, *predict_data, backend=None, config=None):
        """Run the network on ``predict_data`` in inference mode."""
        if backend not in ("lite", None):
            raise ValueError(f"For Model.predict, `backend` should be 'lite' or None, but got {backend}")
        for item in predict_data:
            if item is None:
                continue
            if isinstance(item, Tensor):
                if item.size == 0:
                    raise ValueError("The input data can not be empty.")
                continue
            if not isinstance(item, (int, float, str)):
                data_class_str = "Tensor, None, int, float, str"
                raise TypeError(f"The types of input data must be in the Union({data_class_str}, "
                                f"tuple[{data_class_str}], list[{data_class_str}], dict[{data_class_str}]), but got "
                                f"type {type(item).__name__}.")
        self._check_network_mode(self._predict_network, False)
        return self._predict_network(*predict_data)

    def infer_train_layout(self, train_dataset, dataset_sink_mode=True, sink_size=-1):
        raise RuntimeError("'infer_train_layout' only supports 'semi_auto_parallel' and 'auto_parallel' mode, but got "
                           "stand_alone.")

    def infer_predict_layout(self, *predict_data, skip_backend_compile=False):
        raise RuntimeError("Infer predict layout only supports semi auto parallel and auto parallel mode.")

