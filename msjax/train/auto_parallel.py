"""``mindspore.parallel.auto_parallel.AutoParallel`` and ``mindspore.shard``.

``AutoParallel(network_or_function, parallel_mode)`` is a Cell whose call compiles the
wrapped network (or training-step function) as one step partitioned over all devices
(``communication/_sharded.py``), with its own parallel settings applied for the
duration of the call: ``semi_auto`` (the operators' strategies), ``sharding_propagation``
and ``recursive_programming`` (``AUTO_PARALLEL``: operators without strategies are
placed by XLA's sharding propagation). Differences from MindSpore: both automatic
modes use XLA's propagation (MindSpore searches with its own cost model); on one
device the network runs as stand-alone, compiled.
"""
from __future__ import annotations

import os

from .._core.jit import jit
from ..nn.cell import Cell
from ..parallel import _apply
from ..parallel import _context as parallel
from ..parallel._strategy import Layout

__all__ = ["AutoParallel", "shard"]

_MODES = {"semi_auto": (parallel.ParallelMode.SEMI_AUTO_PARALLEL, None),
          "sharding_propagation": (parallel.ParallelMode.AUTO_PARALLEL, "sharding_propagation"),
          "recursive_programming": (parallel.ParallelMode.AUTO_PARALLEL, "recursive_programming")}


def _check_str(value, name):
    if not isinstance(value, str):
        raise TypeError(f"the argument '{name}' must be str, but got the type : {type(value)} .")


def _check_bool(value, name):
    if not isinstance(value, bool):
        raise TypeError(f"the argument '{name}' must be bool, but got the type : {type(value)} .")


class AutoParallel(Cell):
    """``AutoParallel(network, parallel_mode="semi_auto")``: see the module docstring."""

    def __init__(self, network, parallel_mode="semi_auto"):
        super().__init__(auto_prefix=False)
        if parallel_mode not in _MODES:
            raise ValueError("the argument 'parallel_mode' must be one of ['semi_auto', 'sharding_propagation', "
                             f"'recursive_programming'], but got the value : {parallel_mode} .")
        self.network = network
        self._parallel_mode = parallel_mode
        self._settings = {}
        self._settings_only = {}     # accepted settings that change nothing under XLA (see below)
        self._compiled = jit(network)

    # --- configuration (MindSpore's methods) --------------------------------------------
    def hsdp(self, shard_size=-1, threshold=64, optimizer_level="level1"):
        """Optimizer parallel: Parameters and optimizer states cut over the data-parallel devices."""
        if isinstance(shard_size, bool) or not isinstance(shard_size, int) or (shard_size <= 0 and shard_size != -1):
            raise ValueError(f"shard_size must be a positive integer or -1, but got {shard_size}.")
        if isinstance(threshold, bool) or not isinstance(threshold, int) or threshold < 0:
            raise ValueError(f"threshold must be a non-negative integer, but got {threshold}.")
        if optimizer_level not in ("level1", "level2", "level3"):
            raise ValueError(f"Optimizer level should in ['level1', 'level2', 'level3'], but got {optimizer_level}")
        self._settings["enable_parallel_optimizer"] = True
        self._settings["parallel_optimizer_config"] = {"optimizer_weight_shard_size": shard_size,
                                                       "parallel_optimizer_threshold": threshold,
                                                       "optimizer_level": optimizer_level}

    def dataset_strategy(self, config):
        """``"data_parallel"`` (each rank's batch is its slice), ``"full_batch"``, or a tuple of
        per-input strategies (tuples or Layouts)."""
        if isinstance(config, str):
            if config not in ("full_batch", "data_parallel"):
                raise ValueError("For 'AutoParallel.dataset_strategy', the argument 'config' must be either "
                                 f"'full_batch' or 'data_parallel', but got {config}.")
        elif isinstance(config, tuple):
            for ele in config:
                if not isinstance(ele, (tuple, Layout)):
                    raise TypeError("For 'AutoParallel.dataset_strategy', the element of argument 'config' must "
                                    f"be tuple or Layout, but got the type : {type(ele)} .")
        else:
            raise TypeError("For 'AutoParallel.dataset_strategy', the argument 'config' must be str or tuple, "
                            f"but got the type : {type(config)} .")
        self._settings["dataset_strategy"] = config

    def pipeline(self, stages=1, output_broadcast=False, interleave=False, scheduler="1f1b"):
        if isinstance(stages, bool) or not isinstance(stages, int) or stages <= 0:
            raise ValueError(f"For 'AutoParallel.pipeline', the argument 'stages' must be a positive integer, "
                             f"but got {stages}.")
        _check_bool(output_broadcast, "output_broadcast")
        _check_bool(interleave, "interleave")
        if not isinstance(scheduler, str):
            raise TypeError("For 'AutoParallel.pipeline', the argument 'scheduler' must be str type, but got the "
                            f"type : {type(scheduler)}.")
        if scheduler not in parallel._SCHEDULERS:
            raise ValueError("For 'AutoParallel.pipeline', the argument 'scheduler' must be "
                             f"'1f1b'/'gpipe'/'seqpipe'/'seqvpp'/'seqsmartvpp'/'zero_bubble_v' , but got the value : "
                             f"{scheduler}.")
        self._settings["pipeline_stages"] = stages
        self._settings["pipeline_result_broadcast"] = output_broadcast
        self._settings["pipeline_config"] = {"pipeline_interleave": True, "pipeline_scheduler": scheduler}

    def save_param_strategy_file(self, file_path):
        _check_str(file_path, "file_path")
        self._strategy_files()["save_file"] = file_path

    def load_param_strategy_file(self, file_path):
        _check_str(file_path, "file_path")
        self._strategy_files()["load_file"] = file_path

    def disable_strategy_file_only_for_trainable_params(self):
        self._strategy_files()["only_trainable_params"] = False

    def _strategy_files(self):
        return self._settings.setdefault("strategy_ckpt_config",
                                         {"load_file": "", "save_file": "", "only_trainable_params": True})

    def save_operator_strategy_file(self, file_path):
        self._operator_file(file_path)

    def load_operator_strategy_file(self, file_path):
        self._operator_file(file_path)

    @staticmethod
    def _operator_file(file_path):
        _check_str(file_path, "file_path")
        if not os.path.isabs(file_path):
            raise KeyError("the argument 'file_path' must be an absolute path.")
        if os.path.splitext(file_path)[1] != ".json":
            raise KeyError("File type must be .json")

    def enable_gradients_mean(self):
        self._settings["gradients_mean"] = True

    def disable_gradient_fp32_sync(self):
        self._settings["gradient_fp32_sync"] = False

    def comm_fusion(self, config):
        if not isinstance(config, dict):
            raise TypeError(f"For 'comm_fusion', the argument 'config' must be dict, but got {type(config)}.")
        self._settings["comm_fusion"] = config

    # Settings whose MindSpore effect msjax has anyway: recorded, nothing else to do.
    def no_init_parameters_in_compile(self):
        """MindSpore skips initialising weights while compiling; msjax's compile never initialises them."""
        self._settings_only["init_param_in_compile"] = False

    def set_group_ckpt_save_file(self, file_path):
        """MindSpore saves its communication-group table here; msjax has one group (the world)."""
        _check_str(file_path, "file_path")
        self._settings_only["group_ckpt_save_file"] = file_path

    def transformer_opt(self, file_path):
        """An Ascend graph-optimisation config file: no effect on the numbers; XLA optimises itself."""
        if file_path is not None:
            _check_str(file_path, "file_path")
        self._settings_only["transformer_opt"] = file_path

    # Settings msjax does not reproduce: a clear error rather than silently different output.
    def dump_local_norm(self, file_path):
        _check_str(file_path, "file_path")
        self._unsupported("dump_local_norm (per-device gradient norms written to files)")

    def print_local_norm(self):
        self._unsupported("print_local_norm (per-device gradient norms printed each step)")

    def enable_device_local_norm(self):
        self._unsupported("enable_device_local_norm (per-device gradient norms)")

    def enable_fp32_communication(self):
        self._unsupported("enable_fp32_communication (collectives of float16/bfloat16 gradients in float32; XLA "
                          "reduces in the tensor's own dtype)")

    def disable_loss_repeated_mean(self):
        self._unsupported("disable_loss_repeated_mean (msjax's gradients are always the true gradient of the loss, "
                          "as with MindSpore's default loss_repeated_mean=True)")

    @staticmethod
    def _unsupported(feature):
        raise NotImplementedError(f"For 'AutoParallel', msjax does not support {feature}.")

    # --- running ------------------------------------------------------------------------------
    def _context(self):
        mode, search = _MODES[self._parallel_mode]
        settings = {"parallel_mode": mode}
        if search is not None:
            settings["search_mode"] = search
        settings.update(self._settings)
        return settings

    def construct(self, *args, **kwargs):
        with parallel.scoped(self._context()):
            return self._compiled(*args, **kwargs)

    def __call__(self, *args, **kwargs):
        return self.construct(*args, **kwargs)


def shard(fn, in_strategy, out_strategy=None, parameter_plan=None, device="Ascend", level=0):
    """``mindspore.shard`` / ``mindspore.parallel.shard``: a Cell's (``Cell.shard``) or a
    function's strategies; a function comes back wrapped, a Cell comes back itself."""
    if isinstance(fn, Cell):
        return fn.shard(in_strategy, out_strategy, parameter_plan, device, level)
    if not callable(fn):
        raise TypeError(f"For 'shard', 'fn' must be a Cell or a function, but got {type(fn).__name__}.")
    if parameter_plan is not None:
        raise ValueError("For 'shard', 'parameter_plan' is only for a Cell (its Parameters), but got a function.")
    return _apply.shard_function(fn, in_strategy, out_strategy)
