"""``mindspore.log``: MindSpore's logger API over Python's ``logging``.

Configured, like MindSpore's, from the environment when first used:
``GLOG_v`` (0 DEBUG, 1 INFO, 2 WARNING (default), 3 ERROR, 4 CRITICAL),
``GLOG_logtostderr`` (1: to stderr (default); 0: to a rotating file under
``GLOG_log_dir/rank_<RANK_ID>/logs/``, with ``logger_maxBytes``,
``logger_backupCount`` and ``GLOG_stderrthreshold`` for what still reaches
stderr).  Records read ``[LEVEL] ME(pid:thread,process):time [file:line] msg``, the file
shown as MindSpore shows it (``mindspore/nn/layer/basic.py``; msjax's own files by their
``mindspore/`` path when ``mindspore`` resolves to msjax, else ``msjax/...``).  MindSpore's
warnings that its source logs with ``logger.warning`` (deprecations, checkpoint loading,
callbacks) are logged here the same way, not raised as Python warnings; the line numbers are
msjax's.
The logger is the ``logging`` logger ``ME.mindspore.log.<pid>``, so
``logging`` configuration applies to it.

JAX's own log lines (backend probes such as ``Unable to initialize backend 'tpu'``,
compilation-cache lines: the ``jax`` and ``jaxlib`` loggers) are not MindSpore's: ``import
msjax`` keeps them below WARNING, so that a script's ``logging.basicConfig(level=INFO)``
shows what it would show under MindSpore. JAX logging stays as JAX has it when asked for:
``MSJAX_JAX_LOGS=1``, ``JAX_LOGGING_LEVEL``/``jax_logging_level`` or
``JAX_DEBUG_LOG_MODULES`` set, a level already given to those loggers, or a later
``jax.config.update('jax_logging_level', ...)``/``logging.getLogger('jax').setLevel(...)``.
"""
from __future__ import annotations

import logging
import os
import stat
import sys
import threading
import time
from logging.handlers import RotatingFileHandler

from ._core import provided as _provided

__all__ = ["get_level", "get_log_config"]

_LOCK = threading.Lock()
_LOGGER = None
_LEVELS = {"0": "DEBUG", "1": "INFO", "2": "WARNING", "3": "ERROR", "4": "CRITICAL"}
_GLOG = {logging.DEBUG: "0", logging.INFO: "1", logging.WARNING: "2", logging.ERROR: "3", logging.CRITICAL: "4"}
_ENV = {"level": "GLOG_v", "console": "GLOG_logtostderr", "filepath": "GLOG_log_dir",
        "maxBytes": "logger_maxBytes", "backupCount": "logger_backupCount", "stderr_level": "GLOG_stderrthreshold"}
_FORMAT = "[%(levelname)s] %(sub_module)s(%(process)d:%(thread)d,%(processName)s):%(asctime)s " \
          "[%(filepath)s:%(lineno)d] %(message)s"


class _Formatter(logging.Formatter):
    """MindSpore's record layout: time as ``%Y-%m-%d-%H:%M:%S.mmm.uuu``."""

    def formatTime(self, record, datefmt=None):
        created = self.converter(record.created)
        if datefmt:
            return time.strftime(datefmt, created)
        micros = str(round(record.msecs * 1000))
        return f"{time.strftime('%Y-%m-%d-%H:%M:%S', created)}.{micros[:3]}.{micros[3:]}"

    def format(self, record):
        record.filepath = _shown_path(record.pathname)
        record.sub_module = "ME"
        return super().format(record)


_PACKAGE = os.path.dirname(os.path.abspath(__file__))


def _shown_path(path):
    """A record's file as MindSpore shows it: from the last ``mindspore`` in the path on
    (``mindspore/nn/layer/basic.py``); msjax's own files as ``msjax/...``, or as
    ``mindspore/...`` where ``mindspore`` resolves to msjax (``python -m msjax run``)."""
    if path.startswith(_PACKAGE + os.sep):
        top = "mindspore" if sys.modules.get("mindspore") is sys.modules.get("msjax") else "msjax"
        return top + "/" + os.path.relpath(path, _PACKAGE).replace(os.sep, "/")
    idx = path.rfind("mindspore")
    return path[idx:] if idx >= 0 else path


def _env_config():
    return {key: os.environ[var].strip() for key, var in _ENV.items() if os.environ.get(var)}


def _check_level(level):
    if level not in _LEVELS:
        raise ValueError("Incorrect log level, please check the configuration of GLOG_v or GLOG_stderrthreshold, "
                         "desired log level: 4-CRITICAL, 3-ERROR, 2-WARNING, 1-INFO, 0-DEBUG. "
                         f"But got {level}.")


def _check_config(cfg):
    for key in ("level", "stderr_level"):
        if key in cfg:
            _check_level(cfg[key])
    console = cfg.get("console")
    if console is None:
        return
    if console not in ("0", "1"):
        raise ValueError(f"Incorrect value, the value of GLOG_logtostderr must be 0 or 1, but got {console}.")
    if console == "0":
        if not cfg.get("filepath"):
            raise ValueError("When GLOG_logtostderr is set to 0, the directory of saving log GLOG_log_dir "
                             "must be set, but got it empty.")
        for key, what in (("maxBytes", "logger_maxBytes"), ("backupCount", "logger_backupCount")):
            if key in cfg and not cfg[key].isdigit():
                raise ValueError(f"Incorrect value, the value of {what} must be positive integer. "
                                 f"But got {what}:{cfg[key]}.")


def _rank_id():
    return os.getenv("RANK_ID") or os.getenv("OMPI_COMM_WORLD_RANK") or os.getenv("MS_NODE_ID") or "0"


def _find_caller(stack_info=False, stacklevel=1):
    """The first frame outside this file (the code that called ``log.info``...)."""
    f = sys._getframe(1)
    here = os.path.normcase(__file__)
    while f is not None and (os.path.normcase(f.f_code.co_filename) in (here, os.path.normcase(logging.__file__))):
        f = f.f_back
    if f is None:
        return "(unknown file)", 0, "(unknown function)", None
    return f.f_code.co_filename, f.f_lineno, f.f_code.co_name, None


def _get_logger():
    global _LOGGER
    if _LOGGER is not None:
        return _LOGGER
    cfg = _env_config()
    _check_config(cfg)
    with _LOCK:
        if _LOGGER is not None:
            return _LOGGER
        name = f"mindspore.log.{os.getpid()}"
        logger = logging.getLogger(f"ME.{name}")
        logger.findCaller = _find_caller
        logger.setLevel(_LEVELS[cfg.get("level", "2")])
        logger.propagate = False
        for h in list(logger.handlers):
            logger.removeHandler(h)
        stderr = logging.StreamHandler(sys.stderr)
        stderr.name = "StreamHandler"
        stderr.formatter = _Formatter(_FORMAT)
        if cfg.get("console", "1") == "0":
            log_dir = os.path.join(os.path.realpath(cfg["filepath"]), f"rank_{_rank_id()}", "logs")
            os.makedirs(log_dir, mode=0o700, exist_ok=True)
            path = os.path.join(log_dir, name)
            handler = RotatingFileHandler(path, maxBytes=int(cfg.get("maxBytes", 52428800)),
                                          backupCount=int(cfg.get("backupCount", 30)), encoding="utf8")
            handler.name = "FileHandler"
            handler.formatter = _Formatter(_FORMAT)
            logger.addHandler(handler)
            os.chmod(path, stat.S_IREAD | stat.S_IWRITE)
            stderr.setLevel(_LEVELS[cfg.get("stderr_level", "2")])
        logger.addHandler(stderr)
        _LOGGER = logger
    return logger


def _quiet_jax():
    """JAX's and jaxlib's loggers to WARNING unless the user asked for JAX's logs (module docstring)."""
    if os.environ.get("MSJAX_JAX_LOGS", "").strip() not in ("", "0"):
        return
    import jax
    if getattr(jax.config, "jax_logging_level", None) not in (None, "", "NOTSET") \
            or getattr(jax.config, "jax_debug_log_modules", None):
        return
    for name in ("jax", "jaxlib"):
        logger = logging.getLogger(name)
        if logger.level == logging.NOTSET:
            logger.setLevel(logging.WARNING)


def debug(msg, *args, **kwargs):
    """Log ``msg % args`` with severity DEBUG on MindSpore's logger."""
    _get_logger().debug(msg, *args, **kwargs)


def info(msg, *args, **kwargs):
    """Log ``msg % args`` with severity INFO on MindSpore's logger."""
    _get_logger().info(msg, *args, **kwargs)


def warning(msg, *args, **kwargs):
    """Log ``msg % args`` with severity WARNING on MindSpore's logger."""
    _get_logger().warning(msg, *args, **kwargs)


def error(msg, *args, **kwargs):
    """Log ``msg % args`` with severity ERROR on MindSpore's logger."""
    _get_logger().error(msg, *args, **kwargs)


def critical(msg, *args, **kwargs):
    """Log ``msg % args`` with severity CRITICAL on MindSpore's logger."""
    _get_logger().critical(msg, *args, **kwargs)


def get_level():
    """``mindspore.get_level``: the logger level as GLOG's string, ``'0'`` (DEBUG) to ``'4'`` (CRITICAL)."""
    return _GLOG.get(_get_logger().getEffectiveLevel())


def get_log_config():
    """``mindspore.get_log_config``: the logger configuration as GLOG environment names."""
    logger = _get_logger()
    handler = logger.handlers[0]
    cfg = {"GLOG_v": get_level(), "GLOG_logtostderr": "1"}
    if handler.name == "FileHandler":
        cfg["GLOG_logtostderr"] = "0"
        cfg["GLOG_log_dir"] = os.path.dirname(handler.baseFilename)
        cfg["logger_maxBytes"] = handler.maxBytes
        cfg["logger_backupCount"] = handler.backupCount
        cfg["GLOG_stderrthreshold"] = _GLOG.get(logger.handlers[1].level)
    return cfg


# MindSpore 2.10's set_context keys it warns about (its _check_context_deprecated): each key and
# what to use instead ('' when nothing), in MindSpore's words
_DEPRECATED_CONTEXT = {
    'save_graphs': 'env MS_DEV_SAVE_GRAPHS',
    'save_graphs_path': 'env MS_DEV_SAVE_GRAPHS_PATH',
    'check_bprop': '',
    'max_call_depth': 'api mindspore.set_recursion_limit()',
    'enable_compile_cache': 'env MS_COMPILER_CACHE_ENABLE',
    'enable_cache_path': 'env MS_COMPILER_CACHE_PATH',
    'debug_level': '',
    'device_target': 'api mindspore.set_device()',
    'device_id': 'api mindspore.set_device()',
    'deterministic': 'api mindspore.set_deterministic()',
    'inter_op_parallel_num': 'api mindspore.runtime.dispatch_threads_num()',
    'pynative_synchronize': 'api mindspore.runtime.launch_blocking()',
    'max_device_memory': 'api mindspore.runtime.set_memory()',
    'variable_memory_max_size': 'api mindspore.runtime.set_memory()',
    'mempool_block_size': 'api mindspore.runtime.set_memory()',
    'memory_optimize_level': 'api mindspore.runtime.set_memory()',
    'ascend_config': 'api mindspore.device_context.ascend.op_precision.precision_mode(),\n                                                       mindspore.device_context.ascend.op_precision.op_precision_mode(),\n                                                       mindspore.device_context.ascend.op_precision.matmul_allow_hf32(),\n                                                       mindspore.device_context.ascend.op_precision.conv_allow_hf32(),\n                                                       mindspore.device_context.ascend.op_tuning.op_compile()',
    'aoe_tune_mode': 'api mindspore.device_context.ascend.op_tuning.aoe_tune_mode()',
    'aoe_config': 'api mindspore.device_context.ascend.op_tuning.aoe_job_type()',
    'op_timeout': 'api mindspore.device_context.ascend.op_debug.execute_timeout()',
    'op_debug_option': 'api mindspore.device_context.ascend.op_debug.debug_option()',
    'gpu_config': 'api mindspore.device_context.gpu.op_precision.conv_allow_tf32(),\n                                                     mindspore.device_context.gpu.op_precision.matmul_allow_tf32(),\n                                                     mindspore.device_context.gpu.op_precision.conv_fprop_algo(),\n                                                     mindspore.device_context.gpu.op_precision.conv_wgrad_algo(),\n                                                     mindspore.device_context.gpu.op_precision.conv_dgrad_algo()',
    'runtime_num_threads': 'api mindspore.device_context.cpu.op_tuning.threads_num()',
}


def context_deprecated(key):
    """MindSpore's warning that set_context(key=...) will be removed (lent to the core's set_context)."""
    if key in _DEPRECATED_CONTEXT:
        msg = f"For 'context.set_context', the parameter '{key}' will be deprecated and removed in a future version."
        if _DEPRECATED_CONTEXT[key]:
            msg += f" Please use the {_DEPRECATED_CONTEXT[key]} instead."
        warning(msg)


_provided.provide("context_deprecated", context_deprecated)
