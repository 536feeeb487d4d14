"""``mindspore.SummaryRecord`` writing TensorBoard event files (through ``tensorboardX``).

``SummaryRecord(log_dir, file_prefix="events", file_suffix="_MS", ...)`` buffers
values given by ``add_value(plugin, name, value)`` and writes them at
``record(step)``; ``flush()``/``close()`` and the context-manager form are
MindSpore's. Plugins: ``"scalar"`` (a one-element Tensor or number),
``"image"`` (an NCHW Tensor, values in [0, 1] for floats or uint8),
``"histogram"`` (any numeric Tensor). ``tensorboard --logdir <log_dir>`` shows them.

Differences from MindSpore: the files are TensorBoard's ``tfevents`` format (not
MindInsight's summary protobuf), named ``events.out.tfevents.<time>.<host><file_suffix>``
(``file_prefix`` must stay ``"events"``: TensorBoard only reads ``*tfevents*`` files);
the ``"tensor"``, ``"graph"``, lineage and landscape plugins and ``ops.TensorSummary``
are not supported (clear error); ``record`` writes the latest value the network's
``ops.ScalarSummary``/``ImageSummary``/``HistogramSummary`` saw per name (MindSpore's
cache, likewise);
``max_file_size`` and ``num_process`` are accepted and unused.
"""
from __future__ import annotations

import os
import re

import numpy as np

from ..._core.tensor import Tensor

__all__ = ["SummaryRecord"]

_PLUGINS = ("scalar", "image", "histogram")
_UNSUPPORTED = ("tensor", "graph", "custom_lineage_data", "train_lineage", "eval_lineage", "dataset_graph",
                "LandscapeData")


def _writer_class():
    try:
        from tensorboardX import SummaryWriter
    except ImportError as e:
        raise ImportError("SummaryRecord writes TensorBoard event files through 'tensorboardX'; install it with "
                          "`pip install msjax[summary]` (or `pip install tensorboardX`).") from e
    return SummaryWriter


def _numpy(value, plugin, name):
    if isinstance(value, Tensor):
        return value.asnumpy()
    if isinstance(value, (int, float, np.ndarray, np.generic)) and not isinstance(value, bool):
        return np.asarray(value)
    raise TypeError(f"For 'add_value', the value of '{name}' ({plugin}) should be a Tensor, but got "
                    f"{type(value).__name__}.")


class SummaryRecord:
    """Write scalars, images and histograms to TensorBoard event files in ``log_dir``."""

    def __init__(self, log_dir, file_prefix="events", file_suffix="_MS", num_process=32, network=None,
                 max_file_size=None, raise_exception=False, export_options=None):
        if not isinstance(log_dir, str) or not log_dir:
            raise ValueError(f"For 'SummaryRecord', the 'log_dir' should be a non-empty str, but got {log_dir!r}.")
        for arg, val in (("file_prefix", file_prefix), ("file_suffix", file_suffix)):
            if not isinstance(val, str):
                raise TypeError(f"For 'SummaryRecord', the '{arg}' should be str, but got {type(val).__name__}.")
        if file_prefix != "events":
            raise ValueError("For 'SummaryRecord', msjax writes TensorBoard event files, whose names must start "
                             f"with 'events.out.tfevents'; 'file_prefix' must be 'events', but got {file_prefix!r}.")
        if max_file_size is not None and (not isinstance(max_file_size, int) or max_file_size <= 0):
            raise ValueError(f"For 'SummaryRecord', 'max_file_size' should be a positive int, but got "
                             f"{max_file_size!r}.")
        if export_options is not None:
            raise NotImplementedError("SummaryRecord 'export_options' (exporting tensors to npy files) is not "
                                      "supported by msjax.")
        os.makedirs(log_dir, exist_ok=True)
        self._log_dir = os.path.realpath(log_dir)
        self._raise = bool(raise_exception)
        self._writer = _writer_class()(logdir=self._log_dir, filename_suffix=file_suffix)
        self._pending = []
        self._mode = "train"
        self._closed = False

    # --- MindSpore API ---------------------------------------------------------------------
    @property
    def log_dir(self):
        return self._log_dir

    def set_mode(self, mode):
        if mode not in ("train", "eval"):
            raise ValueError(f"For 'set_mode', the argument 'mode' should be 'train' or 'eval', but got {mode}.")
        self._mode = mode

    def add_value(self, plugin, name, value):
        """Buffer ``value`` under ``name`` for the next ``record``."""
        if not isinstance(name, str) or not name:
            raise ValueError(f"For 'add_value', the argument 'name' should be a non-empty str, but got {name!r}.")
        if plugin in _UNSUPPORTED:
            raise NotImplementedError(f"SummaryRecord plugin {plugin!r} is not supported by msjax (TensorBoard "
                                      f"output supports {', '.join(_PLUGINS)}).")
        if plugin not in _PLUGINS:
            raise ValueError(f"For 'add_value', the argument 'plugin' should be one of {_PLUGINS + _UNSUPPORTED}, "
                             f"but got {plugin!r}.")
        arr = _numpy(value, plugin, name)
        if plugin == "scalar" and arr.size != 1:
            raise ValueError(f"For 'add_value', the scalar '{name}' should have one element, but got shape "
                             f"{arr.shape}.")
        if plugin == "image" and arr.ndim != 4:
            raise ValueError(f"For 'add_value', the image '{name}' should be a 4-D NCHW Tensor, but got shape "
                             f"{arr.shape}.")
        if plugin == "histogram" and arr.size == 0:
            raise ValueError(f"For 'add_value', the histogram '{name}' is empty.")
        self._pending.append((plugin, name, arr))

    def record(self, step, train_network=None, plugin_filter=None):
        """Write the buffered values at ``step``; returns True."""
        if not isinstance(step, int) or isinstance(step, bool):
            raise TypeError(f"For 'record', the argument 'step' should be int, but got {type(step).__name__}.")
        self._check_open()
        from ...ops import _summary_cache as summary_cache      # what the network's summary operators saw
        pending, self._pending = summary_cache.drain() + self._pending, []
        for plugin, name, arr in pending:
            if plugin_filter is not None and not plugin_filter(plugin):
                continue
            tag = re.sub(r"[^\w./-]", "_", name)
            try:
                if plugin == "scalar":
                    self._writer.add_scalar(tag, float(arr.reshape(-1)[0]), step)
                elif plugin == "image":
                    img = arr.astype(np.float32) / 255.0 if arr.dtype == np.uint8 else arr.astype(np.float32)
                    self._writer.add_images(tag, img, step, dataformats="NCHW")
                else:
                    self._writer.add_histogram(tag, arr.astype(np.float64).reshape(-1), step)
            except Exception:
                if self._raise:
                    raise
        return True

    def flush(self):
        self._check_open()
        self._writer.flush()

    def close(self):
        if not self._closed:
            self._writer.close()
            self._closed = True

    def _check_open(self):
        if self._closed:
            raise ValueError("SummaryRecord has been closed.")

    def __enter__(self):
        self._check_open()
        return self

    def __exit__(self, *exc):
        self.close()
        return False

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass
