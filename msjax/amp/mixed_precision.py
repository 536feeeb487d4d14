"""Mixed precision: ``amp.auto_mixed_precision``, ``custom_mixed_precision`` and
``amp.build_train_network``, on ``Cell.to_float`` (``msjax/nn/_precision.py``:
a marked cell computes in the low type, its Parameters keep float32 masters).

AMP levels (MindSpore's defaults, without its source rewriting):

* ``O0``: nothing;
* ``O1``: white-list cells (``Dense``, ``Conv*``, ``LSTMCell``, ``RNNCell``, ``GRUCell``)
  compute in the low type and return float32. MindSpore also casts white-list
  *primitives* used directly inside ``construct`` (``ops.matmul``...); msjax works
  at the Cell level only;
* ``O2``: the whole network in the low type except ``BatchNorm*``/``LayerNorm``
  (float32, their outputs cast back), output cast to float32;
* ``O3``: the whole network in the low type, output cast to float32;
* ``auto``: treated as ``O1``.
"""
from __future__ import annotations

import jax.numpy as jnp

from .._core import dtype as mstype
from .._core.tensor import wrap
from ..nn._precision import _cast_tree, cell_to_float, precision_call  # noqa: F401  (importable from amp as before)

__all__ = ["auto_mixed_precision", "build_train_network", "custom_mixed_precision", "get_white_list",
           "get_black_list", "cell_to_float", "precision_call"]


# ---------------------------------------------------------------------------
# AMP levels
# ---------------------------------------------------------------------------
_WHITE_NAMES = ("Conv1d", "Conv2d", "Conv3d", "Conv1dTranspose", "Conv2dTranspose", "Conv3dTranspose", "Dense",
                "LSTMCell", "RNNCell", "GRUCell")
_BLACK_NAMES = ("BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "LayerNorm")


def _classes(names):
    from .. import nn
    return [getattr(nn, n) for n in names if isinstance(getattr(nn, n, None), type)]


def get_white_list():
    """The Cell classes O1 runs in low precision."""
    return _classes(_WHITE_NAMES)


def get_black_list():
    """The Cell classes O2 keeps in float32."""
    return _classes(_BLACK_NAMES)


def _output_to(cell, dtype):
    object.__setattr__(cell, "_ms_output_dtype", dtype)


def _white_list_cast(network, white_list, dtype):
    for _, c in network.cells_and_names():
        if c is not network and isinstance(c, tuple(white_list)) and not _precision_set_by_user(c):
            cell_to_float(c, dtype)
            _output_to(c, mstype.float32)
    if isinstance(network, tuple(white_list)):
        cell_to_float(network, dtype)
        _output_to(network, mstype.float32)


def _precision_set_by_user(cell):
    return any(cell.__dict__.get(f) for f in ("fp32", "fp16", "bf16"))


def _black_list_cast(network, black_list, dtype):
    cell_to_float(network, dtype)
    for _, c in network.cells_and_names():
        if c is not network and isinstance(c, tuple(black_list)):
            cell_to_float(c, mstype.float32)
            _output_to(c, dtype)
    return network


def _output_to32(network):
    from ..nn.cell import Cell

    class _OutputTo32(Cell):
        """Casts the wrapped network's output to float32."""

        def __init__(self, backbone):
            super().__init__(auto_prefix=False)
            self._backbone = backbone
            if hasattr(backbone, "_amp_level"):
                object.__setattr__(self, "_amp_level", backbone._amp_level)

        def construct(self, *args, **kwargs):
            return _cast_tree(self._backbone(*args, **kwargs), jnp.float32)

    return _OutputTo32(network)


def auto_mixed_precision(network, amp_level="O0", dtype=mstype.float16):
    """``amp.auto_mixed_precision(network, amp_level='O0', dtype=ms.float16)``."""
    from ..nn.cell import Cell
    if not isinstance(network, Cell):
        if amp_level == "auto":
            if not callable(network):
                raise TypeError("For amp_level 'auto', the network type should be Cell or function.")
            raise TypeError("msjax applies amp_level 'auto' to Cells only.")
        raise TypeError(f"For amp_level '{amp_level}', the network type should be Cell.")
    if dtype not in (mstype.float16, mstype.bfloat16):
        raise ValueError(f"The dtype should be one of (mstype.float16, mstype.bfloat16), but got {dtype}.")
    if amp_level == "O0":
        return network
    if amp_level in ("O1", "auto"):
        _white_list_cast(network, get_white_list(), dtype)
    elif amp_level == "O2":
        network = _output_to32(_black_list_cast(network, get_black_list(), dtype))
    elif amp_level == "O3":
        cell_to_float(network, dtype)
        network = _output_to32(network)
    else:
        raise ValueError(f"The amp level {amp_level} is not supported")
    object.__setattr__(network, "_amp_level", amp_level)
    return network


def custom_mixed_precision(network, *, white_list=None, black_list=None, dtype=mstype.float16):
    """``amp.custom_mixed_precision``: low precision for the given Cell classes (``white_list``)
    or for everything except them (``black_list``)."""
    from ..nn.cell import Cell
    if not isinstance(network, Cell):
        raise TypeError("The network type should be Cell.")
    if white_list is None and black_list is None:
        raise ValueError("For custom_mixed_precision, one of white_list and black_list must be provided.")
    if white_list is not None and black_list is not None:
        raise ValueError("For custom_mixed_precision, the white_list or black_list cannot be provided at the "
                         "same time, please provide one or the other.")
    if dtype not in (mstype.float16, mstype.bfloat16):
        raise ValueError(f"The dtype should be one of (mstype.float16, mstype.bfloat16), but got {dtype}.")
    lst = white_list if white_list is not None else black_list
    name = "white_list" if white_list is not None else "black_list"
    if not isinstance(lst, list):
        raise TypeError(f"The type of {name} should be list, but got {type(lst)}")
    for elem in lst:
        if not isinstance(elem, type):
            raise TypeError(f"The element in {name} should be a class, but got {elem}")
    if white_list is not None:
        _white_list_cast(network, [c for c in white_list if issubclass(c, Cell)], dtype)
        return network
    return _output_to32(_black_list_cast(network, black_list, dtype))


_CONFIG_LEVEL = {
    "O0": {"keep_batchnorm_fp32": False, "cast_model_type": mstype.float32, "loss_scale_manager": None},
    "O1": {"keep_batchnorm_fp32": False, "cast_model_type": mstype.float32, "loss_scale_manager": None},
    "O2": {"keep_batchnorm_fp32": True, "cast_model_type": mstype.float16, "loss_scale_manager": "dynamic"},
    "O3": {"keep_batchnorm_fp32": False, "cast_model_type": mstype.float16, "loss_scale_manager": None},
    "auto": {"keep_batchnorm_fp32": False, "cast_model_type": mstype.float32, "loss_scale_manager": None},
}


def _check_kwargs(key_words):
    from .loss_scale_manager import LossScaleManager
    for arg in key_words:
        if arg not in ("cast_model_type", "keep_batchnorm_fp32", "loss_scale_manager"):
            raise ValueError(f"Unsupported arg '{arg}'")
    if "cast_model_type" in key_words and key_words["cast_model_type"] not in (mstype.float16, mstype.float32):
        raise TypeError(f"The type of 'cast_model_type' should be one of [Float16, Float32], "
                        f"but got {key_words['cast_model_type']}.")
    if "keep_batchnorm_fp32" in key_words and not isinstance(key_words["keep_batchnorm_fp32"], bool):
        raise TypeError("The type of 'keep_batchnorm_fp32' should be 'bool'.")
    lsm = key_words.get("loss_scale_manager")
    if lsm and not isinstance(lsm, LossScaleManager):
        raise TypeError(f"The type of 'loss_scale_manager' should be 'LossScaleManager', but got {type(lsm)}.")


def _check_level(level, boost_level):
    if not isinstance(level, str):
        raise TypeError("The argument `level` must be a string in ['O0', 'O1', 'O2', 'O3', 'auto'],"
                        f"but got type {type(level)}.")
    if level not in ("O0", "O1", "O2", "O3", "auto"):
        raise ValueError(f"The `level` must be in ['O0', 'O1', 'O2', 'O3', 'auto'], but got {level}.")
    if boost_level not in ("O0", "O1", "O2"):
        raise ValueError(f"The `boost_level` must be in ['O0', 'O1', 'O2'], but got {boost_level}.")
    return level, boost_level in ("O1", "O2")


def _keep_batchnorm_fp32(network):
    for _, c in network.cells_and_names():
        if c is not network and isinstance(c, tuple(get_black_list())):
            cell_to_float(c, mstype.float32)
            _output_to(c, mstype.float16)


def _auto_mixed_precision_process(network, config, level):
    if config["cast_model_type"] == mstype.float16:
        cell_to_float(network, mstype.float16)
        if config["keep_batchnorm_fp32"]:
            _keep_batchnorm_fp32(network)
    elif not config["keep_batchnorm_fp32"] and level == "O2":
        cell_to_float(network, mstype.float16)
    elif config["cast_model_type"] == mstype.float32 and level in ("O2", "O3"):
        pass
    else:
        network = auto_mixed_precision(network, level)
    return network


def _add_loss_network(network, loss_fn, cast_model_type):
    from ..nn.cell import Cell
    from ..nn.wrap.cell_wrapper import WithLossCell

    class _WithLossCell(Cell):
        """WithLossCell that computes the loss in float32."""

        def __init__(self, backbone, loss_fn):
            super().__init__(auto_prefix=False)
            self._backbone = backbone
            self._loss_fn = loss_fn

        def construct(self, data, label):
            out = self._backbone(data)
            return self._loss_fn(_cast_tree(out, jnp.float32), _cast_tree(label, jnp.float32))

    if not isinstance(loss_fn, Cell):
        raise TypeError(f"The type of 'loss_fn' should be 'Cell', but got type '{type(loss_fn).__name__}'.")
    if cast_model_type in (mstype.float16, mstype.bfloat16) or \
            getattr(network, "_amp_level", None) in ("O2", "O3", "auto"):
        return _WithLossCell(network, loss_fn)
    return WithLossCell(network, loss_fn)


def build_train_network(network, optimizer, loss_fn=None, level="O0", boost_level="O0", **kwargs):
    """``amp.build_train_network``: the network (with ``loss_fn``) in the precision of
    ``level`` inside a ``TrainOneStepCell``, or a ``TrainOneStepWithLossScaleCell``
    when the loss-scale manager has an update cell (O2's default
    ``DynamicLossScaleManager``). Unlike MindSpore's CPU build, loss-scale update
    cells work on every backend."""
    from ..nn.optim.optimizer import Optimizer
    from ..nn.wrap.cell_wrapper import TrainOneStepCell
    from ..nn.wrap.pipeline import accumulation_sens
    from ..nn.wrap.loss_scale import TrainOneStepWithLossScaleCell
    from .loss_scale_manager import DynamicLossScaleManager
    if not isinstance(optimizer, Optimizer):
        raise TypeError(f"The type of 'optimizer' should be 'Optimizer', but got type "
                        f"'{type(optimizer).__name__}'.")
    level, _ = _check_level(level, boost_level)
    _check_kwargs(kwargs)
    config = dict(_CONFIG_LEVEL[level], **kwargs)
    if config["loss_scale_manager"] == "dynamic":
        config["loss_scale_manager"] = DynamicLossScaleManager()
    network = _auto_mixed_precision_process(network, config, level)
    if loss_fn:
        network = _add_loss_network(network, loss_fn, config["cast_model_type"])
    loss_scale = None
    manager = config["loss_scale_manager"]
    if manager is not None:
        loss_scale = manager.get_loss_scale()
        update_cell = manager.get_update_cell()
        if update_cell is not None:
            return TrainOneStepWithLossScaleCell(network, optimizer, scale_sense=update_cell).set_train()
    accumulate = accumulation_sens(network)
    if accumulate is not None and loss_scale in (None, 1.0):    # MindSpore's _TrainGradAccuStepCell
        return TrainOneStepCell(network, optimizer, accumulate).set_train()
    return TrainOneStepCell(network, optimizer, loss_scale).set_train()
