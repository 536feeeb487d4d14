"""``CheckpointConfig`` and ``ModelCheckpoint``: save ``PREFIX-EPOCH_STEP.ckpt`` files
during training (every ``save_checkpoint_steps`` steps or ``save_checkpoint_seconds``
seconds, plus once at the end), keeping the newest ``keep_checkpoint_max``, with
MindSpore's file naming (``PREFIX_1-...`` when files of that prefix already exist), and in
GRAPH_MODE ``PREFIX-graph.meta`` (the compiled step, ``train/_graph_meta.py``) at the first step."""
from __future__ import annotations

import os
import stat
import time

from ..._core.parameter import Parameter
from ..._core.tensor import Tensor
from .._graph_meta import save_graph
from ..serialization import _wait_async, save_checkpoint
from ._callback import Callback

__all__ = ["CheckpointConfig", "ModelCheckpoint", "CheckpointManager"]

_info_list = ["epoch_num", "step_num"]


def _non_negative_int(value, name):
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"The type of '{name}' should be int, but got {type(value).__name__}.")
    if value < 0:
        raise ValueError(f"'{name}' should be an int and must >= 0, but got '{value}' with type "
                         f"'{type(value).__name__}'.")
    return value


def _make_directory(path):
    path = os.path.realpath(path)
    os.makedirs(path, exist_ok=True)
    return path


def _chg_ckpt_file_name_if_same_exist(directory, prefix, exception=False):
    """``prefix`` or ``prefix_N`` so that new files do not mix with an earlier run's."""
    if callable(prefix) or callable(directory):
        return prefix
    suffix_num = 0
    pre_len = len(prefix)
    for filename in os.listdir(directory):
        name_ext = os.path.splitext(filename)
        if exception and filename[-16:] != "_breakpoint.ckpt":
            continue
        if not exception and (name_ext[-1] not in (".ckpt", ".safetensors") or filename[-16:] == "_breakpoint.ckpt"):
            continue
        if filename.find(prefix) == 0 and not filename[pre_len].isalpha():
            index = filename[pre_len:].find("-")
            if index == 0:
                suffix_num = max(suffix_num, 1)
            elif index != -1:
                num = filename[pre_len + 1:pre_len + index]
                if num.isdigit():
                    suffix_num = max(suffix_num, int(num) + 1)
    if suffix_num != 0:
        prefix = f"{prefix}_{suffix_num}"
    return prefix


class CheckpointConfig:
    """When and what ``ModelCheckpoint`` saves.

    ``CheckpointConfig(save_checkpoint_steps=1, save_checkpoint_seconds=0, keep_checkpoint_max=5,
    keep_checkpoint_per_n_minutes=0, integrated_save=True, async_save=False, saved_network=None,
    append_info=None, enc_key=None, enc_mode='AES-GCM', exception_save=False, crc_check=False,
    remove_redundancy=False, format='ckpt')``
    """

    def __init__(self, save_checkpoint_steps=1, save_checkpoint_seconds=0, keep_checkpoint_max=5,
                 keep_checkpoint_per_n_minutes=0, integrated_save=True, async_save=False, saved_network=None,
                 append_info=None, enc_key=None, enc_mode="AES-GCM", exception_save=False, crc_check=False,
                 remove_redundancy=False, format="ckpt", **kwargs):
        if save_checkpoint_steps is not None:
            save_checkpoint_steps = _non_negative_int(save_checkpoint_steps, "save_checkpoint_steps")
        if save_checkpoint_seconds is not None:
            save_checkpoint_seconds = _non_negative_int(save_checkpoint_seconds, "save_checkpoint_seconds")
        if keep_checkpoint_max is not None:
            keep_checkpoint_max = _non_negative_int(keep_checkpoint_max, "keep_checkpoint_max")
        if keep_checkpoint_per_n_minutes is not None:
            keep_checkpoint_per_n_minutes = _non_negative_int(keep_checkpoint_per_n_minutes,
                                                              "keep_checkpoint_per_n_minutes")
        if saved_network is not None and not getattr(type(saved_network), "_ms_is_cell", False):
            raise TypeError("For 'CheckpointConfig', the type of 'saved_network' must be None or Cell, but got "
                            f"{str(type(saved_network))}.")
        if not save_checkpoint_steps and not save_checkpoint_seconds and not keep_checkpoint_max and \
                not keep_checkpoint_per_n_minutes:
            raise ValueError("For 'CheckpointConfig', the input arguments 'save_checkpoint_steps', "
                             "'save_checkpoint_seconds', 'keep_checkpoint_max' and 'keep_checkpoint_per_n_minutes' "
                             "can't be all None or 0.")
        if not isinstance(exception_save, bool):
            raise TypeError(f"The type of 'exception_save' should be bool, but got {type(exception_save).__name__}.")
        self.exception_save = exception_save
        self._save_checkpoint_steps = save_checkpoint_steps
        self._save_checkpoint_seconds = save_checkpoint_seconds
        if self._save_checkpoint_steps and self._save_checkpoint_steps > 0:
            self._save_checkpoint_seconds = None
        self._keep_checkpoint_max = keep_checkpoint_max
        self._keep_checkpoint_per_n_minutes = keep_checkpoint_per_n_minutes
        if self._keep_checkpoint_max and self._keep_checkpoint_max > 0:
            self._keep_checkpoint_per_n_minutes = None
        elif not self._keep_checkpoint_per_n_minutes or self._keep_checkpoint_per_n_minutes == 0:
            self._keep_checkpoint_max = 1
        if not isinstance(integrated_save, bool):
            raise TypeError(f"The type of 'integrated_save' should be bool, but got {type(integrated_save).__name__}.")
        self._integrated_save = integrated_save
        if not isinstance(async_save, (bool, str)) or (isinstance(async_save, str) and
                                                      async_save not in ("process", "thread")):
            raise TypeError(f"For 'save_checkpoint', the parameter 'async_save' must be bool or 'process'/'thread', "
                            f"but got {async_save}.")
        self._async_save = async_save
        self._saved_network = saved_network
        self._append_dict = self._handle_append_info(append_info)
        if enc_key is not None and not isinstance(enc_key, bytes):
            raise TypeError(f"The type of 'enc_key' should be None or bytes, but got {type(enc_key).__name__}.")
        self._enc_key = enc_key
        self._enc_mode = enc_mode
        if not isinstance(crc_check, bool):
            raise TypeError(f"The type of 'crc_check' should be bool, but got {type(crc_check).__name__}.")
        self._crc_check = crc_check
        if not isinstance(format, str):
            raise TypeError(f"The type of 'format' should be str, but got {type(format).__name__}.")
        self._format = format
        self._map_param_inc = kwargs.get("incremental", False)
        self.enable_redundance = kwargs.get("enable_redundance", False)
        if not isinstance(remove_redundancy, bool):
            raise TypeError(f"The type of 'remove_redundancy' should be bool, but got "
                            f"{type(remove_redundancy).__name__}.")
        self.remove_redundancy = remove_redundancy
        if format == "safetensors" and (enc_key is not None or enc_mode != "AES-GCM" or crc_check or exception_save
                                        or self._map_param_inc):
            raise ValueError("For 'save_checkpoint', when format is 'safetensors', other param must be default.")

    save_checkpoint_steps = property(lambda self: self._save_checkpoint_steps)
    save_checkpoint_seconds = property(lambda self: self._save_checkpoint_seconds)
    keep_checkpoint_max = property(lambda self: self._keep_checkpoint_max)
    keep_checkpoint_per_n_minutes = property(lambda self: self._keep_checkpoint_per_n_minutes)
    integrated_save = property(lambda self: self._integrated_save)
    async_save = property(lambda self: self._async_save)
    saved_network = property(lambda self: self._saved_network)
    enc_key = property(lambda self: self._enc_key)
    enc_mode = property(lambda self: self._enc_mode)
    crc_check = property(lambda self: self._crc_check)
    format = property(lambda self: self._format)
    append_dict = property(lambda self: self._append_dict)
    map_param_inc = property(lambda self: self._map_param_inc)

    def get_checkpoint_policy(self):
        return {"save_checkpoint_steps": self.save_checkpoint_steps,
                "save_checkpoint_seconds": self.save_checkpoint_seconds,
                "keep_checkpoint_max": self.keep_checkpoint_max,
                "keep_checkpoint_per_n_minutes": self.keep_checkpoint_per_n_minutes,
                "saved_network": self.saved_network}

    @staticmethod
    def _handle_append_info(append_info):
        if append_info is None or append_info == []:
            return None
        if not isinstance(append_info, list):
            raise TypeError(f"For 'CheckpointConfig', the type of 'append_info' must be list,but got "
                            f"{str(type(append_info))}.")
        out = {}
        if "epoch_num" in append_info:
            out["epoch_num"] = 0
        if "step_num" in append_info:
            out["step_num"] = 0
        dict_num = 0
        for element in append_info:
            if not isinstance(element, (str, dict)):
                raise TypeError(f"For 'CheckpointConfig', the type of 'append_info' element must be str or dict,but "
                                f"got {str(type(element))}.")
            if isinstance(element, str) and element not in _info_list:
                raise ValueError(f"For 'CheckpointConfig', the value of element in the argument 'append_info' must "
                                 f"be in {_info_list}, but got {element}.")
            if isinstance(element, dict):
                dict_num += 1
                if dict_num > 1:
                    raise TypeError(f"For 'CheckpointConfig', the element of 'append_info' must has only one dict, "
                                    f"but got {dict_num}")
                for key, value in element.items():
                    if isinstance(key, str) and isinstance(value, (int, float, bool, str, Parameter, Tensor)):
                        out[key] = value
                    else:
                        raise TypeError("For 'CheckpointConfig', the key type of the dict 'append_info' must be "
                                        "string, the value type must be int or float or bool, but got key type "
                                        f"{type(key)}, value type {type(value)}")
        return out


class CheckpointManager:
    """The checkpoint files of one prefix in a directory (oldest removed first)."""

    def __init__(self, format="ckpt"):
        self._ckpoint_filelist = []
        self._format = format

    @property
    def ckpoint_filelist(self):
        return self._ckpoint_filelist

    @property
    def ckpoint_num(self):
        return len(self._ckpoint_filelist)

    def update_ckpoint_filelist(self, directory, prefix):
        self._ckpoint_filelist = []
        n = len(self._format) + 1
        for filename in os.listdir(directory):
            if os.path.splitext(filename)[-1] == f".{self._format}" and filename.startswith(prefix + "-"):
                mid = filename[len(prefix):-n]
                if not any(ch.isalpha() for ch in mid):
                    self._ckpoint_filelist.append(os.path.join(directory, filename))

    def remove_ckpoint_file(self, file_name):
        try:
            os.chmod(file_name, stat.S_IWRITE)
            os.remove(file_name)
            self._ckpoint_filelist.remove(file_name)
        except (OSError, ValueError):
            pass

    def remove_oldest_ckpoint_file(self):
        files = sorted(self._ckpoint_filelist, key=os.path.getmtime)
        self.remove_ckpoint_file(files[0])

    def keep_one_ckpoint_per_minutes(self, minutes, cur_time):
        del_list, oldest_file, oldest_time = [], "", cur_time
        for f in self._ckpoint_filelist:
            t = os.path.getmtime(f)
            if cur_time - t < 60 * minutes:
                del_list.append(f)
                if t < oldest_time:
                    oldest_time, oldest_file = t, f
        for f in del_list:
            if f != oldest_file:
                self.remove_ckpoint_file(f)


def _aiturbo_refused():
    """``AITURBO=1``: MindSpore's import of the AITurbo manager (its error when absent), else a refusal."""
    import aiturbo.checkpoint.aiturbo_mindspore_ckpt  # noqa: F401  pylint: disable=import-outside-toplevel
    raise RuntimeError("msjax has no AITurbo checkpoint backend; unset the environment variable AITURBO.")


class ModelCheckpoint(Callback):
    """Save checkpoints during training: ``ModelCheckpoint(prefix='CKP', directory=None, config=None)``.

    With the environment variable ``AITURBO=1`` MindSpore hands checkpoints to Huawei's ``aiturbo``
    shared-memory manager: as there, a missing ``aiturbo`` raises ``ModuleNotFoundError``; an
    installed one is refused (``RuntimeError``: msjax has no AITurbo backend)."""

    def __init__(self, prefix="CKP", directory=None, config=None):
        super().__init__()
        self._latest_ckpt_file_name = ""
        self._init_time = time.time()
        self._last_time = time.time()
        self._last_time_for_keep = time.time()
        self._last_triggered_step = 0
        self._graph_saved = False
        self._prefix_func = None
        self._directory_func = None
        if not callable(prefix) and (not isinstance(prefix, str) or prefix.find("/") >= 0):
            raise ValueError("For 'ModelCheckpoint', the argument 'prefix' for checkpoint file name is invalid, it "
                             "must be callable or string that does not contain '/', but got {}.".format(prefix))
        self._prefix = prefix
        self._exception_prefix = prefix
        if directory is not None:
            if callable(directory):
                self._directory_func = directory
            else:
                self._directory = _make_directory(directory)
        else:
            self._directory = os.getcwd()
        if callable(prefix):
            self._prefix_func = prefix
        if config is None:
            self._config = CheckpointConfig()
        else:
            if not isinstance(config, CheckpointConfig):
                raise TypeError("For 'ModelCheckpoint', the type of argument 'config' should be 'CheckpointConfig', "
                                f"but got {type(config)}.")
            self._config = config
        if os.getenv("AITURBO") == "1":
            _aiturbo_refused()
        self._manager = CheckpointManager(self._config.format)
        if not callable(directory) and not callable(prefix):
            self._prefix = _chg_ckpt_file_name_if_same_exist(self._directory, self._prefix)
        self._append_dict = self._config.append_dict or {}
        self._append_epoch_num = self._append_dict.get("epoch_num", 0) if "epoch_num" in self._append_dict else 0
        self._append_step_num = self._append_dict.get("step_num", 0) if "step_num" in self._append_dict else 0

    def step_end(self, run_context):
        cb_params = run_context.original_args()
        if self._prefix_func:
            self._prefix = self._prefix_func(cb_params)
            if not isinstance(self._prefix, str) or self._prefix.find("/") >= 0:
                raise ValueError("For 'ModelCheckpoint', the argument 'prefix' for checkpoint file name is callable, "
                                 "it must return a string that does not contain '/', but got {}.".format(self._prefix))
        if self._directory_func:
            self._directory = self._directory_func(cb_params)
            _make_directory(self._directory)
        if not self._graph_saved:       # MindSpore: the compiled step's graph, once (GRAPH_MODE only)
            save_graph(cb_params.train_network, os.path.join(self._directory, self._prefix + "-graph.meta"),
                       cb_params.get("train_dataset_element"))
            self._graph_saved = True
        self._save_ckpt(cb_params)

    def end(self, run_context):
        cb_params = run_context.original_args()
        self._save_ckpt(cb_params, True)
        _wait_async()

    def _check_save_ckpt(self, cb_params, force_to_save):
        if self._config.save_checkpoint_steps and self._config.save_checkpoint_steps > 0:
            if cb_params.cur_step_num >= self._last_triggered_step + self._config.save_checkpoint_steps or \
                    force_to_save is True:
                return True
        elif self._config.save_checkpoint_seconds and self._config.save_checkpoint_seconds > 0:
            self._cur_time = time.time()
            if self._cur_time - self._last_time > self._config.save_checkpoint_seconds or force_to_save:
                self._last_time = self._cur_time
                return True
        return False

    def _append_dict_content(self, epoch_num, step_num):
        if "epoch_num" in self._append_dict:
            self._append_dict["epoch_num"] = self._append_epoch_num + epoch_num
        if "step_num" in self._append_dict:
            self._append_dict["step_num"] = self._append_step_num + step_num

    def _save_ckpt(self, cb_params, force_to_save=False):
        if cb_params.cur_step_num == self._last_triggered_step:
            return
        if not self._check_save_ckpt(cb_params, force_to_save):
            return
        step_num_in_epoch = int((cb_params.cur_step_num - 1) % cb_params.batch_num + 1)
        fmt = self._config.format
        if self._prefix_func:
            cur_file_name = self._prefix + f".{fmt}"
        else:
            cur_file_name = f"{self._prefix}-{cb_params.cur_epoch_num}_{step_num_in_epoch}.{fmt}"
        self._manager.update_ckpoint_filelist(self._directory, self._prefix)
        keep_max = self._config.keep_checkpoint_max
        if keep_max and 0 < keep_max <= self._manager.ckpoint_num:
            self._manager.remove_oldest_ckpoint_file()
        elif self._config.keep_checkpoint_per_n_minutes and self._config.keep_checkpoint_per_n_minutes > 0:
            now = time.time()
            if now - self._last_time_for_keep < self._config.keep_checkpoint_per_n_minutes * 60:
                self._manager.keep_one_ckpoint_per_minutes(self._config.keep_checkpoint_per_n_minutes, now)
        cur_file = os.path.join(self._directory, cur_file_name)
        self._last_time_for_keep = time.time()
        self._last_triggered_step = cb_params.cur_step_num
        self._append_dict_content(cb_params.cur_epoch_num, cb_params.cur_step_num)
        network = self._config.saved_network if self._config.saved_network is not None else cb_params.train_network
        save_checkpoint(network, cur_file, self._config.integrated_save, self._config.async_save,
                        self._append_dict or None, self._config.enc_key, self._config.enc_mode,
                        crc_check=self._config.crc_check, format=fmt)
        self._latest_ckpt_file_name = cur_file

    @property
    def latest_ckpt_file_name(self):
        return self._latest_ckpt_file_name

    @property
    def _get_save_checkpoint_steps(self):
        return self._config.save_checkpoint_steps

    @property
    def _get_last_trigger_step(self):
        return self._last_triggered_step
