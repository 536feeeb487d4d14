"""``OnRequestExit``: save and stop when asked (a signal, or ``{"GracefulExit": 1}`` in a JSON file).

As MindSpore 2.10 (``mindspore/train/callback/_on_request_exit.py``):

* ``__init__`` creates ``<directory>/rank_<device_id>/``; files are ``<file_name>_train.ckpt``
  / ``.mindir`` (training) and ``<file_name>_eval.*`` (evaluation).
* ``on_train_begin`` installs the signal handler and, if ``<file_name>_train.ckpt`` exists,
  loads it into the train network (the resume path).
* Without ``MS_ENABLE_GRACEFUL_EXIT=1`` a request does not stop training: the files are
  written when training ends (MindSpore's behaviour, kept on purpose).
* With ``MS_ENABLE_GRACEFUL_EXIT=1`` (read when ``TrainOneStepCell`` is built, which then
  carries the ``graceful_exit``/``graceful_init`` Parameters) a request seen at a step's
  begin marks that step; at its end the checkpoint (with ``epoch_num``, ``step_num``,
  ``batch_num``, ``global_step``, ``loss_scale``) is written and training stops. In a job of
  several processes the step all-reduces ``graceful_init`` and every rank stops at the same
  step, once all ranks have asked.

Differences: the previous handler of ``sig`` is put back when training/evaluation ends
(MindSpore leaves its handler installed); ``save_mindir=True`` writes the ``.mindir`` with
``mindspore.export``; a build without the MindIR writer logs a warning and skips that file.
"""
from __future__ import annotations

import json
import os
import signal
import threading

from ..._checkparam import check_isinstance
from ..._core import context
from ..._core.tensor import Tensor
from ... import log as logger
from ...common import dtype as mstype
from ...communication.management import get_group_size
from ...parallel._context import ParallelMode, get_parallel_mode
from ..serialization import load_checkpoint, save_checkpoint
from ._callback import Callback
from ._checkpoint import _make_directory

__all__ = ["OnRequestExit"]


def _export_mindir(net, inputs, file_name):
    """``mindspore.export(net, *inputs, file_format='MINDIR')``; while msjax has no MindIR writer
    a warning says the file is skipped."""
    from .._export import export
    try:
        from .._export import mindir_writer  # noqa: F401  (the writer export uses for MINDIR)
    except ImportError:
        logger.warning(f"OnRequestExit: {file_name}.mindir is not written: this msjax build cannot export "
                       "MindIR (mindspore.export(file_format='MINDIR')).")
        return
    export(net, *inputs, file_name=file_name, file_format="MINDIR")


class OnRequestExit(Callback):
    """Save the checkpoint (and MindIR) and exit training or evaluation when ``sig`` arrives or
    ``config_file`` holds ``{"GracefulExit": 1}``."""

    def __init__(self, save_ckpt=True, save_mindir=True, file_name="Net", directory="./", config_file=None,
                 sig=signal.SIGTERM):
        super().__init__()
        self.save_ckpt = check_isinstance("save_ckpt", save_ckpt, bool)
        self.save_mindir = check_isinstance("save_mindir", save_mindir, bool)
        self.sig = check_isinstance("sig", sig, int)
        if hasattr(signal, "SIGKILL") and self.sig == signal.SIGKILL:
            raise ValueError("Not support send exit request by signal SIGKILL.")
        self.exit = False
        self.lock = threading.Lock()
        self.save_path = directory
        self.key = "GracefulExit"
        self.remote_config_file = config_file
        self.use_graceful = os.environ.get("MS_ENABLE_GRACEFUL_EXIT") == "1"
        self.is_distributed = get_group_size() > 1
        self.integrated_save = True
        self.stop_train = False
        self.need_do_step_end = False
        self._old_handler = None
        if self.save_ckpt or self.save_mindir:
            self.train_name, self.eval_name = self._get_save_path(file_name)

    # -- signal handler ----------------------------------------------------------------
    def _install(self):
        try:
            old = signal.signal(self.sig, self._handle_signal)
        except ValueError:          # not the main thread: only the config file can ask
            return
        if self._old_handler is None:
            self._old_handler = old

    def _restore(self):
        if self._old_handler is not None:
            try:
                signal.signal(self.sig, self._old_handler)
            except ValueError:
                pass
            self._old_handler = None

    def _handle_signal(self, signum, frame):
        logger.debug(f"signum: {signum}, frame: {frame}")
        self.exit = True

    # -- training ------------------------------------------------------------------------
    def on_train_begin(self, run_context):
        self._install()
        if self.save_ckpt and os.path.isfile(f"{self.train_name}.ckpt"):
            load_checkpoint(f"{self.train_name}.ckpt", net=run_context.original_args().train_network)

    def on_train_step_begin(self, run_context):
        self._do_step_begin(run_context)

    def on_train_step_end(self, run_context):
        self._do_step_end(run_context)

    def on_train_epoch_end(self, run_context):
        self._do_step_end(run_context)

    def on_train_end(self, run_context):
        try:
            if not self.exit:
                return
            cb_params = run_context.original_args()
            self._save(cb_params.train_network, self.train_name, cb_params.train_dataset_element)
        finally:
            self._restore()

    # -- evaluation ----------------------------------------------------------------------
    def on_eval_begin(self, run_context):
        self._install()
        if not self.save_ckpt:
            return
        eval_net = run_context.original_args().eval_network
        if os.path.isfile(f"{self.eval_name}.ckpt"):
            load_checkpoint(f"{self.eval_name}.ckpt", net=eval_net)
        elif os.path.isfile(f"{self.train_name}.ckpt"):
            load_checkpoint(f"{self.train_name}.ckpt", net=eval_net)

    def on_eval_step_end(self, run_context):
        if self.exit:
            run_context.request_stop()

    def on_eval_end(self, run_context):
        try:
            if not self.exit:
                return
            cb_params = run_context.original_args()
            self._save(cb_params.eval_network, self.eval_name, cb_params.eval_dataset_element)
        finally:
            self._restore()

    # -- helpers ---------------------------------------------------------------------------
    def _save(self, net, name, inputs, append_dict=None, integrated_save=True):
        if self.save_ckpt:
            save_checkpoint(net, name, integrated_save=integrated_save, append_dict=append_dict)
        if self.save_mindir:
            _export_mindir(net, inputs if inputs is not None else (), name)

    def _do_step_end(self, run_context):
        with self.lock:
            if self.stop_train or not self.need_do_step_end:
                return
            logger.info("Gracefully exiting training process on step end.")
            cb_params = run_context.original_args()
            net = cb_params.train_network
            for _, param in net.parameters_and_names():
                if param.name == "graceful_exit" and bool(param.asnumpy()):
                    logger.warning("Graceful exit is triggered, stop training.")
                    append_dict = None
                    if self.save_ckpt:
                        append_dict = {"epoch_num": cb_params.cur_epoch_num, "step_num": cb_params.cur_step_num,
                                       "batch_num": cb_params.batch_num}
                        if cb_params.loss_scale_mananger is not None:
                            append_dict["loss_scale"] = cb_params.loss_scale_mananger.get_loss_scale()
                        optimizer = cb_params.optimizer if cb_params.optimizer is not None \
                            else cb_params.network.optimizer
                        append_dict["global_step"] = int(optimizer.global_step.asnumpy().reshape(-1)[0])
                        if self.is_distributed:
                            self.integrated_save = get_parallel_mode() == ParallelMode.AUTO_PARALLEL
                    self._save(net, self.train_name, cb_params.train_dataset_element, append_dict,
                               self.integrated_save)
                    run_context.request_stop()
                    self.stop_train = True

    def _do_step_begin(self, run_context):
        with self.lock:
            if not self.use_graceful:
                return
            if self._check_config_info() or self.exit:
                net = run_context.original_args().train_network
                for _, param in net.parameters_and_names():
                    if not self.is_distributed and param.name == "graceful_exit":
                        param.set_data(Tensor(True, mstype.bool_))
                        self.need_do_step_end = True
                        break
                    if param.name == "graceful_init":
                        param.set_data(Tensor([1], mstype.int32))
                        self.need_do_step_end = True
                        break

    def _check_config_info(self):
        if self.remote_config_file is not None and os.path.exists(self.remote_config_file):
            with open(self.remote_config_file, "r", encoding="utf-8") as f:
                try:
                    config_info = json.load(f)
                except json.JSONDecodeError as e:
                    logger.warning(f"Parse json file failed: {e}, please check json file: {self.remote_config_file}")
                    return False
                if self.key in config_info and config_info[self.key] == 1:
                    return True
        return False

    def _get_save_path(self, file_name):
        device_id = context.get_context("device_id")
        base = os.getcwd() if self.save_path is None else self.save_path
        path = _make_directory(os.path.join(base, "rank_" + str(device_id)))
        return os.path.join(path, f"{file_name}_train"), os.path.join(path, f"{file_name}_eval")
