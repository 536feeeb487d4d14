"""MindSpore's parallel strategy files (``strategy_ckpt_config={"save_file": ...}``,
``AutoParallel.save_param_strategy_file``), read and written.

A strategy file is one serialized ``ParallelStrategyMap`` message of MindSpore's
``node_strategy.proto`` (package ``mindspore.straspb``), or, for a name ending in
``.json``, the same content as JSON. Each parameter has one ``ParallelLayoutItem``:
its device matrix, its tensor map (tensor dimension -> device-matrix axis counted
from the right, -1 for not split; a dimension split over several axes is written
as one ``TensorMap`` per tensor dimension, as MindSpore's ``Layout`` does), the
optimizer-parallel ``opt_weight_shard_size``/``opt_weight_shard_step``, and the
``field``/``param_split_shape`` of embedding and uneven splits (always 0 and empty
here). The message classes are built at import time from a descriptor spelled
out below, in a private pool (no protoc step, no clash with MindSpore's own
classes), as ``msjax/train/_checkpoint_pb.py`` does for ``.ckpt`` files.
"""
from __future__ import annotations

import json
import math
import os

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory
from google.protobuf.message import DecodeError

from .._core.tensor import Tensor, to_array
from ._layout import TensorLayout, _dim_parts, _layout_of, make_layout

__all__ = ["ParallelStrategyMap", "ParallelLayouts", "save_strategy_file", "write_strategy_file",
           "read_strategy_file", "layout_from_message", "strategy_layouts", "file_descriptor"]

_F = descriptor_pb2.FieldDescriptorProto
_PACKAGE = "msjax.straspb"
MAX_DEVICES = 1 << 16       # a strategy file's layouts span at most this many devices
_REP, _REQ = _F.LABEL_REPEATED, _F.LABEL_REQUIRED

# message name -> [(field, number, label, type, message type)], as in node_strategy.proto
_MESSAGES = {
    "ParallelStrategy": [("dim", 1, _REP, _F.TYPE_UINT32, None)],
    "ParallelStrategys": [("stage", 1, _REQ, _F.TYPE_UINT32, None),
                          ("parallel_strategy", 2, _REP, _F.TYPE_MESSAGE, "ParallelStrategy")],
    "ParallelStrategyItem": [("node_name", 1, _REQ, _F.TYPE_STRING, None),
                             ("parallel_strategys", 2, _REQ, _F.TYPE_MESSAGE, "ParallelStrategys")],
    "DevMatrix": [("dim", 1, _REP, _F.TYPE_UINT32, None)],
    "TensorMap": [("dim", 1, _REP, _F.TYPE_INT32, None)],
    "ParamSplitShape": [("dim", 1, _REP, _F.TYPE_INT64, None)],
    "IndicesOffset": [("dim", 1, _REP, _F.TYPE_INT64, None)],
    "ParallelLayouts": [("dev_matrix", 1, _REP, _F.TYPE_MESSAGE, "DevMatrix"),
                        ("tensor_map", 2, _REP, _F.TYPE_MESSAGE, "TensorMap"),
                        ("param_split_shape", 3, _REP, _F.TYPE_MESSAGE, "ParamSplitShape"),
                        ("indices_offset", 4, _REP, _F.TYPE_MESSAGE, "IndicesOffset"),
                        ("field", 5, _REQ, _F.TYPE_INT32, None),
                        ("opt_weight_shard_step", 6, _REQ, _F.TYPE_INT32, None),
                        ("opt_weight_shard_size", 7, _REQ, _F.TYPE_INT32, None)],
    "ParallelLayoutItem": [("param_name", 1, _REQ, _F.TYPE_STRING, None),
                           ("parallel_layouts", 2, _REQ, _F.TYPE_MESSAGE, "ParallelLayouts")],
    "ParallelGroupRanks": [("dim", 1, _REP, _F.TYPE_UINT32, None)],
    "ParallelGroupItem": [("group_name", 1, _REQ, _F.TYPE_STRING, None),
                          ("parallel_group_ranks", 2, _REQ, _F.TYPE_MESSAGE, "ParallelGroupRanks")],
    "ParallelGroupMap": [("parallel_group_item", 1, _REP, _F.TYPE_MESSAGE, "ParallelGroupItem"),
                         ("ckpt_restore_rank_list", 2, _REQ, _F.TYPE_MESSAGE, "ParallelGroupRanks")],
    "ParallelStrategyMap": [("current_stage", 1, _REQ, _F.TYPE_UINT32, None),
                            ("parallel_strategy_item", 2, _REP, _F.TYPE_MESSAGE, "ParallelStrategyItem"),
                            ("parallel_layout_item", 3, _REP, _F.TYPE_MESSAGE, "ParallelLayoutItem")],
}


def file_descriptor():
    """The ``FileDescriptorProto`` of MindSpore's ``node_strategy.proto`` (proto2)."""
    fd = descriptor_pb2.FileDescriptorProto(name="msjax/parallel/node_strategy.proto", package=_PACKAGE,
                                            syntax="proto2")
    for name, fields in _MESSAGES.items():
        msg = fd.message_type.add(name=name)
        for fname, number, label, ftype, type_name in fields:
            f = msg.field.add(name=fname, number=number, label=label, type=ftype)
            if type_name:
                f.type_name = f".{_PACKAGE}.{type_name}"
    return fd


_POOL = descriptor_pool.DescriptorPool()
_POOL.Add(file_descriptor())
ParallelStrategyMap = message_factory.GetMessageClass(_POOL.FindMessageTypeByName(_PACKAGE + ".ParallelStrategyMap"))
ParallelLayouts = message_factory.GetMessageClass(_POOL.FindMessageTypeByName(_PACKAGE + ".ParallelLayouts"))


def _fill(msg, layout):
    """``ParallelLayouts`` fields of a :class:`TensorLayout` (MindSpore's writer: one
    DevMatrix, one TensorMap, one empty ParamSplitShape and IndicesOffset)."""
    msg.dev_matrix.add().dim.extend(layout.dev_matrix)
    if any(isinstance(d, tuple) for d in layout.tensor_map):
        for d in layout.tensor_map:
            msg.tensor_map.add().dim.extend(d if isinstance(d, tuple) else (d,))
    else:
        msg.tensor_map.add().dim.extend(layout.tensor_map)
    msg.param_split_shape.add()
    msg.indices_offset.add()
    msg.field = 0
    msg.opt_weight_shard_step = layout.opt_shard_step
    msg.opt_weight_shard_size = layout.opt_shard_size
    return msg


def layout_message(layout):
    """A ``ParallelLayouts`` message of a :class:`TensorLayout`."""
    return _fill(ParallelLayouts(), layout)


def _json_item(layout):
    item = {"dev_matrix": list(layout.dev_matrix),
            "tensor_map": [list(d) if isinstance(d, tuple) else d for d in layout.tensor_map],
            "field": 0, "opt_weight_shard_step": layout.opt_shard_step,
            "opt_weight_shard_size": layout.opt_shard_size}
    if layout.shape is not None:
        item["tensor_shape"] = list(layout.shape)
    return item


def write_strategy_file(path, layouts, stage=0):
    """Write ``{parameter name: TensorLayout}`` to ``path``: MindSpore's protobuf, or JSON
    when ``path`` ends with ``.json``. The directory is created when missing. Besides the
    layouts, each parameter gets a ``parallel_strategy_item`` named after it holding its
    pipeline ``stage`` and how many parts each dimension is cut into (MindSpore names
    these after operators; its pipeline tools read the stage from the first one)."""
    path = os.path.abspath(path)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if path.endswith(".json"):
        content = {"current_stage": stage,
                   "parallel_strategy_item": {name: {"stage": stage, "parallel_strategy": [_dim_parts(lay)]}
                                              for name, lay in layouts.items()},
                   "parallel_layout_item": {name: _json_item(lay) for name, lay in layouts.items()}}
        with open(path, "w", encoding="utf-8") as f:
            json.dump(content, f, indent=2)
        return path
    msg = ParallelStrategyMap(current_stage=stage)
    for name, lay in layouts.items():
        node = msg.parallel_strategy_item.add(node_name=name)
        node.parallel_strategys.stage = stage
        node.parallel_strategys.parallel_strategy.add().dim.extend(_dim_parts(lay))
    for name, lay in layouts.items():
        item = msg.parallel_layout_item.add(param_name=name)
        _fill(item.parallel_layouts, lay)
    with open(path, "wb") as f:
        f.write(msg.SerializeToString())
    return path


def read_strategy_file(path):
    """``{parameter name: ParallelLayouts message}`` of a strategy file (MindSpore's
    ``build_searched_strategy`` result; empty when the file has no layouts)."""
    if not path.endswith(".json"):
        msg = ParallelStrategyMap()
        with open(path, "rb") as f:
            content = f.read()
        try:
            msg.ParseFromString(content)
        except DecodeError as e:
            raise TypeError("The strategy file type should be one of json or protobuf. When the file name extension "
                            "is not '.json', the file is considered as a protobuf file.") from e
        return {item.param_name: item.parallel_layouts for item in msg.parallel_layout_item}
    with open(path, "rb") as f:
        raw = f.read()
    try:       # JSON and UTF-8 errors are ValueErrors; a wrong structure raises them too
        content = json.loads(raw.decode("utf-8"))
        out = {}
        for name, item in content.get("parallel_layout_item", {}).items():
            tmap = tuple(tuple(d) if isinstance(d, list) else d for d in item["tensor_map"])
            lay = TensorLayout(tuple(item["dev_matrix"]), tmap, item.get("opt_weight_shard_size", 0),
                               item.get("opt_weight_shard_step", 0))
            msg = layout_message(lay)
            msg.field = item.get("field", 0)
            msg.param_split_shape[0].dim.extend(item.get("param_split_shape", ()))
            msg.indices_offset[0].dim.extend(item.get("indices_offset", ()))
            out[name] = msg
    except (KeyError, TypeError, AttributeError, ValueError, OverflowError) as e:
        raise ValueError(f"For 'build_searched_strategy', the strategy file {path} is not a valid JSON strategy file "
                         f"({type(e).__name__}: {e}).") from None
    return out


def layout_from_message(name, msg):
    """The :class:`TensorLayout` of a ``ParallelLayouts`` message (MindSpore's or msjax's).
    Raises ``ValueError`` for what msjax does not merge: embedding ``field`` layouts and
    uneven ``param_split_shape`` splits."""
    try:
        dev_matrix = tuple(int(d) for d in msg.dev_matrix[0].dim)
        maps = [tuple(int(d) for d in m.dim) for m in msg.tensor_map]
        field = int(msg.field)
        split = [int(d) for m in msg.param_split_shape for d in m.dim]
        opt_size, opt_step = int(msg.opt_weight_shard_size), int(msg.opt_weight_shard_step)
    except (AttributeError, IndexError, TypeError) as e:
        raise ValueError(f"{e}. Convert layout strategy to list failed, please make sure that strategy matches the "
                         "node_strategy.proto, you can check whether 'train_strategy_filename' is correct.") from e
    if len(maps) > 1:   # one TensorMap per tensor dimension (a Layout with several axes on one dimension)
        tensor_map = tuple(m[0] if len(m) == 1 else m for m in maps if m)
    else:
        tensor_map = maps[0] if maps else ()
    if field > 0 or split:
        raise ValueError(f"The layout of parameter '{name}' uses "
                         f"{'an embedding field' if field > 0 else 'an uneven split (param_split_shape)'}, "
                         "which msjax does not merge.")
    # a layout from a file is checked as msjax's own (a corrupt file fails here, not in the slicing)
    if math.prod(d for d in dev_matrix if d > 0) > MAX_DEVICES:
        raise ValueError(f"The layout of parameter '{name}' has the device matrix {dev_matrix}, more than "
                         f"{MAX_DEVICES} devices. Convert layout strategy to list failed, please make sure that "
                         "strategy matches the node_strategy.proto.")
    try:
        checked = make_layout(dev_matrix, tensor_map, opt_size)
    except ValueError as e:
        raise ValueError(f"The layout of parameter '{name}' is invalid: {e} Convert layout strategy to list failed, "
                         "please make sure that strategy matches the node_strategy.proto.") from None
    if opt_step < 0:
        raise ValueError(f"The layout of parameter '{name}' has a negative opt_weight_shard_step {opt_step}.")
    return checked._replace(opt_shard_step=opt_step)


def _layout_arg(name, value):
    if isinstance(value, TensorLayout):
        return value
    if isinstance(value, Tensor):
        value = to_array(value)
    if hasattr(value, "sharding") and hasattr(value, "shape"):
        dev_matrix, tensor_map = _layout_of(value)
        return make_layout(dev_matrix, tensor_map, 0, value.shape)
    if isinstance(value, (tuple, list)) and 2 <= len(value) <= 3:
        return make_layout(*value)
    raise TypeError(f"The layout of parameter '{name}' should be a jax.Array, Tensor, TensorLayout or "
                    f"(dev_matrix, tensor_map[, opt_shard_size]), but got {type(value).__name__}.")


def save_strategy_file(path, params, stage=0):
    """Write a MindSpore strategy file for ``{parameter name: layout}``: each layout a sharded
    ``jax.Array`` (or a Tensor/Parameter holding one), a :class:`TensorLayout`, or
    ``(dev_matrix, tensor_map[, opt_shard_size])`` in MindSpore's conventions. What
    ``strategy_ckpt_config={"save_file": path}`` and ``AutoParallel.save_param_strategy_file``
    write; ``build_searched_strategy`` (MindSpore's and msjax's) reads it. Returns the path."""
    if not isinstance(path, str):
        raise TypeError(f"The strategy file path should be str, but got {type(path).__name__}.")
    layouts = {name: _layout_arg(name, v) for name, v in params.items()}
    # an unsharded Parameter is repeated on every rank: MindSpore records it over the job's devices
    devices = max((lay.device_num for lay in layouts.values()), default=1)
    layouts = {name: lay._replace(dev_matrix=(devices,)) if all(m == -1 for m in lay.tensor_map) and
               not lay.opt_shard_size else lay for name, lay in layouts.items()}
    return write_strategy_file(path, layouts, stage)


def strategy_layouts(strategy):
    """``{parameter name: (TensorLayout, pipeline stage)}`` of a ``build_searched_strategy``
    result; ``merge_pipeline_strategys`` names are ``"<stage>-<name>"``."""
    out = {}
    for key, msg in strategy.items():
        stage, sep, name = key.partition("-")
        if sep and stage.isdigit():
            out[name] = (layout_from_message(name, msg), int(stage))
        else:
            out[key] = (layout_from_message(key, msg), 0)
    return out
