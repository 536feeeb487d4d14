"""Checkpoints in MindSpore's own formats: ``.ckpt`` (protobuf) and safetensors.

The files are read and written by ``_checkpoint_files``: ``.ckpt`` through
protobuf classes for MindSpore's ``checkpoint.proto`` (``checkpoint.proto`` next to
this module), safetensors through the ``safetensors`` package, so files cross both
ways with MindSpore 2.10 (byte for byte: MindSpore uses the same libraries).

Differences from MindSpore (deliberate): saving writes a temporary file in the
same directory and renames it over the target, so an interrupted save never
destroys the previous checkpoint (MindSpore deletes it first); loading checks
every parameter (shape, dtype) before changing any, so a mismatched checkpoint
raises and leaves the network untouched (MindSpore may have updated some
parameters already). Encrypted checkpoints (``enc_key``/``dec_key``) are not
supported.
"""
from __future__ import annotations

import binascii
import os
import threading
from collections import OrderedDict

import jax
import numpy as np

from .._core import dtype as mstype
from .._core.parameter import Parameter
from .._core.tensor import Tensor, wrap
from .. import log as logger
from ..parallel._pipeline import pipeline_stages
from ..parallel._pipeline import sync_pipeline_shared_parameters  # noqa: F401  (mindspore.train.serialization's)
from ._checkpoint_files import read_ckpt, read_safetensors, write_ckpt, write_safetensors
from ._checkpoint_pb import Checkpoint  # noqa: F401  (mindspore.train.serialization.Checkpoint: the protobuf message)

__all__ = ["save_checkpoint", "load_checkpoint", "load_param_into_net", "load_checkpoint_async",
           "ckpt_to_safetensors", "safetensors_to_ckpt", "read_ckpt", "write_ckpt", "read_safetensors",
           "write_safetensors"]

# MindSpore's table from a TensorProto's tensor_type to the dtype (qint4x2 aside: msjax has no Int4)
tensor_to_ms_type = {str(t): t for t in mstype.DTYPES if str(t) not in ("Complex64", "Complex128")}
tensor_to_ms_type["str"] = mstype.string
_TENSOR_TO_NP = {"Int8": np.int8, "UInt8": np.uint8, "Int16": np.int16, "UInt16": np.uint16, "Int32": np.int32,
                 "UInt32": np.uint32, "Int64": np.int64, "UInt64": np.uint64, "Float16": np.float16,
                 "Float32": np.float32, "Float64": np.float64, "Bool": np.bool_, "str": "U"}


def tensor_to_np_type(tensor_type_str):
    """MindSpore's ``tensor_to_np_type``: the numpy type of a checkpoint dtype name
    (``"Float32"`` -> ``np.float32``; ``None`` for an unknown name)."""
    if tensor_type_str == "BFloat16":
        import ml_dtypes
        return ml_dtypes.bfloat16
    return _TENSOR_TO_NP.get(tensor_type_str)


from ..parallel.checkpoint_transform import (build_searched_strategy, lend_serialization,  # noqa: E402,F401
                                             load_distributed_checkpoint, merge_sliced_parameter)

_lock = threading.RLock()
_async = {"thread": None}


# ---------------------------------------------------------------------------
# save_checkpoint
# ---------------------------------------------------------------------------
def _is_cell(x):
    return getattr(type(x), "_ms_is_cell", False)


def _spread(value):
    """Whether ``value`` is a Parameter spread over several processes (semi-auto parallel)."""
    d = getattr(value, "_data", None)
    return isinstance(d, jax.Array) and not d.is_fully_addressable


def _elsewhere(value):
    """Another pipeline stage's Parameter on this rank of a launched job: this rank holds none
    of it. MindSpore's rank saves only the Parameters its stage's graph sliced."""
    return _spread(value) and not value._data.addressable_shards


def _host_value(value, integrated):
    """A value to write. A Parameter spread over several processes (semi-auto parallel) is
    gathered whole with ``integrated_save`` (every rank must save: a collective, as in
    MindSpore), else this rank's slice (``integrated_save=False``). A pipeline job's ranks
    hold different Parameters, so there ``integrated_save`` raises MindSpore's RuntimeError."""
    d = getattr(value, "_data", None)
    if integrated and _spread(value):
        if pipeline_stages() > 1:
            raise RuntimeError("Pipeline Parallel don't support Integrated save checkpoint now.")
        from jax.experimental import multihost_utils
        return np.array(multihost_utils.process_allgather(d, tiled=True))
    return np.array(value.asnumpy())


def _save_items(save_obj, choice_func, integrated=True):
    items = []
    if isinstance(save_obj, list):
        if save_obj and isinstance(save_obj[0], dict):
            for p in save_obj:
                if not (isinstance(p, dict) and "name" in p and "data" in p):
                    raise TypeError("For save_checkpoint, save_obj should be a list of dict items, and the dict should "
                                    f"have key values 'name' and 'value', but got {type(p)} and {p}.")
                if not isinstance(p["name"], str):
                    raise TypeError("For save_checkpoint, when save_obj is a list of dict items, the name in dict "
                                    f"should be string, but got {type(p['name'])}.")
                if not isinstance(p["data"], Tensor):
                    raise TypeError("For save_checkpoint, when save_obj is a list of dict items, the data in dict "
                                    f"should be parameter, but got {type(p['data'])}.")
                if choice_func is None or choice_func(p["name"]):
                    items.append((p["name"], p["data"]))
        else:
            for p in save_obj:
                if not isinstance(p, Parameter):
                    raise TypeError("For save_checkpoint, when save_obj is made up by list of Parameter,the param "
                                    f"should be parameter, but got {type(p)}")
                if choice_func is None or choice_func(p.name):
                    items.append((p.name, p))
    elif isinstance(save_obj, dict):
        for k, v in save_obj.items():
            if not isinstance(k, str):
                raise TypeError("For save_checkpoint, when save_obj is made up by dict, the key should be str "
                                f"andvalue should be Parameter, but got the type of key is {type(k)} andthe type of "
                                f"value is {type(v)}")
            if choice_func is not None and not choice_func(k):
                continue
            if isinstance(v, np.ndarray):
                v = Tensor(v)
            items.append((k, v))
    else:
        others = False      # a launched pipeline rank: another stage's Parameters are not saved here
        for _, p in save_obj.parameters_and_names():
            if _elsewhere(p):
                others = True
            elif choice_func is None or choice_func(p.name):
                items.append((p.name, p))
        if others and integrated:
            raise RuntimeError("Pipeline Parallel don't support Integrated save checkpoint now.")
    out = []
    for name, value in items:
        if isinstance(value, str):
            out.append((name, value))
        else:
            out.append((name, _host_value(value, integrated)))
    return out


def _wait_async():
    t = _async["thread"]
    if t is not None:
        t.join()
        _async["thread"] = None


def save_checkpoint(save_obj, ckpt_file_name, integrated_save=True, async_save=False, append_dict=None,
                    enc_key=None, enc_mode="AES-GCM", choice_func=None, crc_check=False, format="ckpt", **kwargs):
    """Save a Cell's parameters (or a list of Parameters / ``{"name", "data"}`` dicts, or a
    dict as returned by ``load_checkpoint``) to ``ckpt_file_name`` in MindSpore's format."""
    if format not in ("safetensors", "ckpt"):
        raise ValueError(f"For 'save_checkpoint', the format must be 'safetensors' or 'ckpt', but got {format}.")
    if not (_is_cell(save_obj) or isinstance(save_obj, (list, dict))):
        raise TypeError("For 'save_checkpoint', the parameter 'save_obj' must be nn.Cell, list or dict, but got "
                        f"{type(save_obj)}.")
    if not isinstance(ckpt_file_name, str):
        raise TypeError(f"For 'save_checkpoint', the parameter {ckpt_file_name} for checkpoint file name is "
                        f"invalid,'ckpt_file_name' must be string, but got {type(ckpt_file_name)}.")
    ckpt_file_name = os.path.realpath(ckpt_file_name)
    if os.path.isdir(ckpt_file_name):
        raise IsADirectoryError(f"For 'save_checkpoint', the parameter `ckpt_file_name`: {ckpt_file_name} is a "
                                "directory, it must be a file name.")
    if not ckpt_file_name.endswith(format):
        ckpt_file_name += f".{format}"
    if not isinstance(integrated_save, bool):
        raise TypeError(f"The type of 'integrated_save' should be bool, but got {type(integrated_save).__name__}.")
    if not isinstance(async_save, (bool, str)):
        raise TypeError(f"For 'save_checkpoint', the parameter 'async_save' must be bool or str, but got "
                        f"{type(async_save)}.")
    if isinstance(async_save, str) and async_save not in ("process", "thread"):
        raise ValueError("For 'save_checkpoint', the argument 'async_save' can only be 'process' or 'thread',but got "
                         f"{async_save}.")
    if not isinstance(crc_check, bool):
        raise TypeError(f"The type of 'crc_check' should be bool, but got {type(crc_check).__name__}.")
    if enc_key is not None:
        if not isinstance(enc_key, bytes):
            raise TypeError(f"The type of 'enc_key' should be None or bytes, but got {type(enc_key).__name__}.")
        raise NotImplementedError("Encrypted checkpoints (enc_key) are not supported by msjax.")
    if append_dict is not None:
        if not isinstance(append_dict, dict):
            raise TypeError(f"For 'save_checkpoint', the argument 'append_dict' must be dict, but got "
                            f"{type(append_dict)}.")
        for k, v in append_dict.items():
            if not isinstance(k, str) or not isinstance(v, (int, float, bool, str, Tensor)):
                raise TypeError("For 'save_checkpoint', the type of dict 'append_info' must be key: string, value: "
                                f"int, float, bool or Generator, but got key: {type(k)}, value: {type(v)}")
    os.makedirs(os.path.dirname(ckpt_file_name) or ".", exist_ok=True)
    with _lock:
        items = _save_items(save_obj, choice_func, integrated_save)
        for k, v in (append_dict or {}).items():
            items.append((k, v if isinstance(v, str) else np.array(Tensor(v).asnumpy())))

    def do_save():
        with _lock:
            if format == "ckpt":
                write_ckpt(ckpt_file_name, items, crc_check)
            else:
                arrays = [(k, v) for k, v in items if not isinstance(v, str)]
                meta = {"format": "ms"}
                if crc_check:
                    crc = 0
                    for k, v in sorted(arrays, key=lambda kv: kv[0]):
                        crc = binascii.crc32(bytes(k, encoding="utf-8"), crc)
                        crc = binascii.crc32(bytes(np.asarray(v, order="C")), crc)
                    meta["crc_num"] = str(crc)
                write_safetensors(ckpt_file_name, arrays, meta)

    _wait_async()
    if async_save:
        t = threading.Thread(target=do_save, name="asyn_save_ckpt")
        _async["thread"] = t
        t.start()
    else:
        do_save()


# ---------------------------------------------------------------------------
# load_checkpoint / load_param_into_net
# ---------------------------------------------------------------------------
def _check_prefix(prefix):
    if prefix is None:
        return prefix
    if not isinstance(prefix, (str, list, tuple)):
        raise TypeError("For 'load_checkpoint', the type of 'specify_prefix' or 'filter_prefix' must be string, "
                        f"list[string] or tuple[string], but got {str(type(prefix))}.")
    if isinstance(prefix, str):
        prefix = (prefix,)
    if not prefix:
        raise ValueError("For 'load_checkpoint', the argument 'specify_prefix' or 'filter_prefix' can't be empty when"
                         " 'specify_prefix' or 'filter_prefix' is list or tuple.")
    for index, pre in enumerate(prefix):
        if not isinstance(pre, str):
            raise TypeError("For 'load_checkpoint', when 'specify_prefix' or 'filter_prefix' is list or tuple, the "
                            f"element in it must be string, but got {str(type(pre))} at index {index}.")
        if pre == "":
            raise ValueError("For 'load_checkpoint', the value of 'specify_prefix' or 'filter_prefix' can't include "
                             "''.")
    return prefix


def _whether_load(specify_prefix, filter_prefix, name):
    ok = True
    if specify_prefix:
        ok = any(name.startswith(p) for p in specify_prefix)
    if filter_prefix and any(name.startswith(p) for p in filter_prefix):
        ok = False
    return ok


def _check_file(file, fmt):
    if fmt not in ("ckpt", "safetensors"):
        raise ValueError("For 'load_checkpoint', the checkpoint file should end with '.ckpt' or '.safetensors', "
                         "please input the correct 'format'.")
    if not isinstance(file, str):
        raise TypeError(f"For 'load_checkpoint', the argument 'ckpt_file_name' must be string, but got {type(file)}.")
    if not file.endswith(fmt):
        raise ValueError("For 'load_checkpoint', the checkpoint file format must same with 'format', but got "
                         f"file_name:'{file}', format:'{fmt}'")
    file = os.path.realpath(file)
    if not os.path.exists(file):
        raise ValueError(f"For 'load_checkpoint', the checkpoint file: {file} does not exist, please check whether "
                         "the 'ckpt_file_name' is correct.")
    return file


def load_checkpoint(ckpt_file_name, net=None, strict_load=False, filter_prefix=None, dec_key=None,
                    dec_mode="AES-GCM", specify_prefix=None, choice_func=None, crc_check=False,
                    remove_redundancy=False, format="ckpt"):
    """Read a ``.ckpt``/safetensors file into ``{name: Parameter or str}``; with ``net``,
    also load it into the network (``load_param_into_net``)."""
    specify_prefix = _check_prefix(specify_prefix)
    filter_prefix = _check_prefix(filter_prefix)
    if dec_key is not None:
        if not isinstance(dec_key, bytes):
            raise TypeError(f"The type of 'dec_key' should be None or bytes, but got {type(dec_key).__name__}.")
        raise NotImplementedError("Encrypted checkpoints (dec_key) are not supported by msjax.")
    if not isinstance(crc_check, bool):
        raise TypeError(f"The type of 'crc_check' should be bool, but got {type(crc_check).__name__}.")
    if not isinstance(remove_redundancy, bool):
        raise TypeError(f"The type of 'remove_redundancy' should be bool, but got {type(remove_redundancy).__name__}.")
    _wait_async()
    file = _check_file(ckpt_file_name, format)
    parameter_dict = OrderedDict()
    use_choice = specify_prefix is None and filter_prefix is None and choice_func is not None
    if format == "safetensors":
        values, meta = read_safetensors(file)
        if crc_check:
            if not meta or "crc_num" not in meta:
                logger.warning("For 'load_checkpoint', the safetensors file do not contain the crc code, please check "
                               "the file.")
            else:
                crc = 0
                for k, v in values.items():
                    crc = binascii.crc32(bytes(k, encoding="utf-8"), crc)
                    crc = binascii.crc32(bytes(np.asarray(v, order="C")), crc)
                if crc != int(meta["crc_num"]):
                    raise ValueError("For 'load_checkpoint', the crc check has failed. Please check whether the ckpt "
                                     "file is damaged.")
        for k, v in values.items():
            if choice_func is not None and not choice_func(k):
                continue
            parameter_dict[k] = Parameter(Tensor(v))     # MindSpore leaves these unnamed
    else:
        values = read_ckpt(file, crc_check)
        for k, v in values.items():
            if not _whether_load(specify_prefix, filter_prefix, k):
                continue
            if use_choice and not choice_func(k):
                continue
            parameter_dict[k] = v if isinstance(v, str) else Parameter(Tensor(v), name=k)
    if not parameter_dict:
        raise ValueError("The loaded parameter dict is empty after filter or specify, please check whether "
                         "'filter_prefix' or 'specify_prefix' are set correctly.")
    if net is not None:
        load_param_into_net(net, parameter_dict, strict_load, remove_redundancy)
    return dict(parameter_dict)


class _Future:
    def __init__(self, value):
        self._value = value

    def result(self):
        return self._value


def load_checkpoint_async(ckpt_file_name, net=None, strict_load=False, filter_prefix=None, dec_key=None,
                          dec_mode="AES-GCM", specify_prefix=None, choice_func=None):
    """``load_checkpoint`` returning an object whose ``result()`` is the dict (loads eagerly)."""
    return _Future(load_checkpoint(ckpt_file_name, net, strict_load, filter_prefix, dec_key, dec_mode,
                                   specify_prefix, choice_func))


_FLOATS = {mstype.float16, mstype.float32, mstype.float64, mstype.bfloat16}
_INTS = {mstype.int8, mstype.int16, mstype.int32, mstype.int64}


def _update_param(param, new_param, strict_load):
    """MindSpore's ``serialization._update_param``: ``param`` takes ``new_param``'s value,
    with ``load_param_into_net``'s shape and dtype checks."""
    param.set_data(_plan_update(param, new_param, strict_load))


def _plan_update(param, new_param, strict_load):
    """The value ``param`` gets from ``new_param`` (validated, not yet set)."""
    new = new_param.value() if isinstance(new_param, Parameter) else new_param
    if not isinstance(new, Tensor):
        new = Tensor(new)
    if _spread(param) and (new.dtype == param.dtype or not strict_load):     # a launched job's Parameter
        # spread over processes: the rank's slice, as saved (or the whole value)
        from ..communication._sharded import from_local_view
        placed = from_local_view(param._data, new.asnumpy().astype(param._data.dtype))
        if placed is not None:
            return wrap(placed)
    if param.shape != new.shape:
        extra = new.shape[len(param.shape):]
        if len(new.shape) > len(param.shape) and all(d == 1 for d in extra) and \
                tuple(new.shape[:len(param.shape)]) == tuple(param.shape):
            new = Tensor(new.asnumpy().reshape(param.shape))
        else:
            raise RuntimeError(
                f"For 'load_param_into_net', {param.name} in the argument 'net' should have the same shape as "
                f"{param.name} in the argument 'parameter_dict'. But got its shape {param.shape} in the argument "
                f"'net' and shape {new.shape} in the argument 'parameter_dict'.May you need to check whether the "
                "checkpoint you loaded is correct or the batch size and so on in the 'net' and 'parameter_dict' are "
                "same.")
    if param.dtype != new.dtype:
        pair = {param.dtype, new.dtype}
        if not strict_load and (pair <= _FLOATS or pair <= _INTS):
            return Tensor(new.asnumpy(), param.dtype)
        raise RuntimeError(
            f"For 'load_param_into_net', {param.name} in the argument 'net' should have the same type as "
            f"{param.name} in the argument 'parameter_dict'. but got its type {param.dtype} in the argument 'net' and "
            f"type {new.dtype} in the argument 'parameter_dict'.May you need to check whether the checkpoint you "
            "loaded is correct.")
    return new


def load_param_into_net(net, parameter_dict, strict_load=False, remove_redundancy=False):
    """Load ``{name: Parameter}`` into ``net``; returns ``(param_not_load, ckpt_not_load)``: the
    network's parameters that got no value and the checkpoint's names that were not used.
    All values are checked first; on any mismatch nothing is changed."""
    if not _is_cell(net):
        raise TypeError(f"For 'load_param_into_net', the argument 'net' should be a Cell, but got {type(net)}.")
    if not isinstance(parameter_dict, dict):
        raise TypeError(f"For 'load_param_into_net', the argument 'parameter_dict' should be a dict, but got "
                        f"{type(parameter_dict)}.")
    for key, value in parameter_dict.items():
        if not isinstance(key, str) or not isinstance(value, (Parameter, str, list)):
            raise TypeError("For 'parameter_dict', the element in the argument 'parameter_dict' should be a 'str' and "
                            f"'Parameter' , but got {type(key)} and {type(value)}.")
    if not isinstance(strict_load, bool):
        raise TypeError(f"The type of 'strict_load' should be bool, but got {type(strict_load).__name__}.")
    if remove_redundancy:
        raise TypeError("The deduplication feature for loading checkpoint can only be used in parallel scenarios, but "
                        "got stand_alone.")
    params = [p for _, p in net.parameters_and_names()]
    plan = {}
    param_not_load = []
    ckpt_not_load = list(parameter_dict.keys())
    for p in params:
        if p.name in parameter_dict:
            new = parameter_dict[p.name]
            if not hasattr(new, "asnumpy"):
                continue
            plan[id(p)] = (p, _plan_update(p, new, strict_load))
            ckpt_not_load.remove(p.name)
        elif not p.name.startswith("accu_grads"):
            param_not_load.append(p.name)
    if param_not_load and not strict_load:
        # MindSpore's rule for checkpoints saved from a wrapper: strip a common prefix
        prefix, longest = "", param_not_load[0]
        while prefix != longest and param_not_load:
            prefix = longest
            for name in param_not_load:
                for dict_name in parameter_dict:
                    if dict_name.endswith(name):
                        prefix = dict_name[:-len(name)]
                        break
                if prefix != longest:
                    break
            if prefix != longest:
                logger.warning(f"For 'load_param_into_net', remove parameter prefix name: {prefix}, continue to load.")
                for p in params:
                    full = prefix + p.name
                    if p.name in param_not_load and full in parameter_dict:
                        plan[id(p)] = (p, _plan_update(p, parameter_dict[full], strict_load))
                        param_not_load.remove(p.name)
    for p, value in plan.values():
        p.set_data(value)
    if param_not_load:
        logger.warning(f"For 'load_param_into_net', {len(param_not_load)} parameters in the 'net' are not loaded, "
                       "because they are not in the 'parameter_dict', please check whether the network structure is "
                       "consistent when training and loading checkpoint.")
        logger.warning(f"{param_not_load} are not loaded.")
    return param_not_load, ckpt_not_load


def ckpt_to_safetensors(file_path, save_path=None, name_map=None, file_name_regex=None, processes_num=1):
    """Convert ``.ckpt`` files (a file or every ``.ckpt`` in a directory) to safetensors."""
    files = [file_path] if os.path.isfile(file_path) else \
        [os.path.join(file_path, f) for f in sorted(os.listdir(file_path)) if f.endswith(".ckpt")]
    for f in files:
        values = read_ckpt(f)
        items = [((name_map or {}).get(k, k), v) for k, v in values.items() if not isinstance(v, str)]
        out_dir = save_path or os.path.dirname(f)
        os.makedirs(out_dir, exist_ok=True)
        write_safetensors(os.path.join(out_dir, os.path.basename(f)[:-5] + ".safetensors"), items, {"format": "ms"})


def safetensors_to_ckpt(file_path, save_path=None, name_map=None, file_name_regex=None, processes_num=1):
    """Convert safetensors files (a file or every ``.safetensors`` in a directory) to ``.ckpt``."""
    files = [file_path] if os.path.isfile(file_path) else \
        [os.path.join(file_path, f) for f in sorted(os.listdir(file_path)) if f.endswith(".safetensors")]
    for f in files:
        values, _ = read_safetensors(f)
        items = [((name_map or {}).get(k, k), v) for k, v in values.items()]
        out_dir = save_path or os.path.dirname(f)
        os.makedirs(out_dir, exist_ok=True)
        write_ckpt(os.path.join(out_dir, os.path.basename(f)[:-len(".safetensors")] + ".ckpt"), items)


# the distributed-checkpoint tools (msjax/parallel, a lower layer) read and write files through these
lend_serialization(load_checkpoint, save_checkpoint, load_param_into_net)
