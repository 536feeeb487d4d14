"""``mindspore.parallel.checkpoint_transform``: distributed checkpoints.

In MindSpore's semi-auto parallel each rank holds a piece of each Parameter and
saves its pieces (``integrated_save=False``); a strategy file records each
Parameter's layout (``_strategy_file.py``, the layouts themselves ``_layout.py``).
These tools put the pieces together: ``merge_sliced_parameter`` (one Parameter),
``load_distributed_checkpoint`` (a stand-alone or sharded network from every rank's
file), ``transform_checkpoints``/``transform_checkpoint_by_rank`` (the files of one
layout rewritten for another, or for one device when the destination strategy is
``None``), ``rank_list_for_transform``, ``merge_pipeline_strategys`` and
``load_segmented_checkpoints``. Arguments are checked as MindSpore 2.10 checks them,
with its exception types and messages; files cross both ways with MindSpore.

Differences from MindSpore: pieces are cut and joined with NumPy, so
``rank_list_for_transform`` names one source rank per needed piece (the one nearest
the destination rank); MindSpore's list comes from its redistribution operators and
may name more ranks (every list MindSpore gives also works here). msjax's Parameters
hold the whole tensor, sharded over the job's devices, so
``load_distributed_checkpoint`` loads the merged value with each Parameter's own
sharding; ``predict_strategy`` is checked but does not cut it further.
``transform_checkpoints`` works in one process (``process_num`` is accepted) and names
its files ``<prefix><rank>.ckpt`` also where MindSpore transforms stage by stage
(``<prefix><rank>_part<stage>.ckpt``, a destination with parameters the source lacks). Embedding
``field`` layouts, uneven splits (``param_split_shape``), encrypted files and the
safetensors formats of these tools are not supported (``ValueError``/
``NotImplementedError``). ``.ckpt`` files are read and written by ``train.serialization``,
which lends its functions here when imported (it sits above this layer).
"""
from __future__ import annotations

import glob
import os

import jax
import numpy as np

from .._core import dtype as mstype
from .._core.parameter import Parameter
from .._core.tensor import Tensor, to_array
from .. import log as logger
from . import _context
from ._layout import (assemble, fake_shape, full_shape, make_layout, merge_slices, pieces_needed,
                      slice_bounds)
from ._strategy_file import ParallelStrategyMap, read_strategy_file, strategy_layouts

__all__ = ["merge_sliced_parameter", "build_searched_strategy", "load_distributed_checkpoint",
           "rank_list_for_transform", "transform_checkpoint_by_rank", "transform_checkpoints",
           "merge_pipeline_strategys", "load_segmented_checkpoints"]

_LENT = {}


def lend_serialization(load_checkpoint, save_checkpoint, load_param_into_net):
    """``train.serialization`` lends its checkpoint functions (called when it is imported)."""
    _LENT.update(load=load_checkpoint, save=save_checkpoint, load_into=load_param_into_net)


def _serialization(name):
    try:
        return _LENT[name]
    except KeyError:
        raise RuntimeError("Distributed checkpoints need msjax.train.serialization, which is not imported; "
                           "import msjax.") from None


def _numpy(p):
    data = p.astype(mstype.float32) if p.dtype == mstype.bfloat16 else p
    return np.asarray(data.asnumpy())


# ---------------------------------------------------------------------------
# merge_sliced_parameter, build_searched_strategy
# ---------------------------------------------------------------------------
def merge_sliced_parameter(sliced_parameters, strategy=None):
    """``mindspore.merge_sliced_parameter``: one Parameter from its slices in rank order,
    joined along axis 0, or placed by ``strategy`` (``build_searched_strategy``'s result)."""
    if not isinstance(sliced_parameters, list):
        raise TypeError("For 'merge_sliced_parameter', the argument 'sliced_parameters' should be list, "
                        f"but got {type(sliced_parameters)}.")
    if not sliced_parameters:
        raise ValueError("For 'merge_sliced_parameter', the argument 'sliced_parameters' should not be empty.")
    if strategy and not isinstance(strategy, dict):
        raise TypeError("For 'merge_sliced_parameter', the argument 'strategy' should be dict, "
                        f"but got {type(strategy)}.")
    first = sliced_parameters[0]
    if not isinstance(first, Parameter):
        raise TypeError("For 'merge_sliced_parameter', the element in 'sliced_parameters' should be 'Parameter', "
                        f"but got {type(first)} at index 0.")
    name, shape = first.name, tuple(first.shape)
    for i, p in enumerate(sliced_parameters):
        if not isinstance(p, Parameter):
            raise TypeError("For 'merge_sliced_parameter', the element in 'sliced_parameters' should be 'Parameter', "
                            f"but got {type(p)} at index {i}.")
        if p.name != name or len(p.shape) != len(shape) or tuple(p.shape[1:]) != shape[1:]:
            raise ValueError("For 'merge_sliced_parameter', please make sure that the elements in 'slice_parameters'"
                             " have the same name, dimension length and shape except 0 axis. The name, dimension "
                             f"length, shape except 0 axis should be {name}, {len(shape)}, {shape[1:]}, but got name: "
                             f"{p.name}, dimension length: {len(p.shape)}, shape except 0 axis: {tuple(p.shape[1:])} "
                             f"at index {i}.")
    data = [_numpy(p) for p in sliced_parameters]
    if not strategy:
        merged = np.concatenate(data)
    else:
        if name not in strategy:
            raise KeyError(f"For 'merge_sliced_parameter', the parameter name {name} should be a key in the "
                           "'strategy'. Please check 'sliced_parameter' and 'strategy'.")
        merged = _merge_with_strategy(data, name, strategy[name])
    return Parameter(Tensor(merged), name, first.requires_grad, first.layerwise_parallel)


def _merge_with_strategy(data, name, layout_msg):
    try:
        dev_matrix = [int(d) for d in layout_msg.dev_matrix[0].dim]
        tensor_map = [int(d) for d in layout_msg.tensor_map[0].dim]
        split = [int(d) for d in layout_msg.param_split_shape[0].dim]
        field = int(layout_msg.field)
        opt_size = int(layout_msg.opt_weight_shard_size)
    except Exception as e:   # MindSpore wraps whatever reading the layout raised
        raise ValueError(f"{e}. For 'merge_sliced_parameter', please make sure that 'strategy' is correct.") from e
    count = int(np.prod(dev_matrix))
    if len(data) != count:
        raise ValueError("For 'merge_sliced_parameter', the length of 'sliced_parameters' should be equal to "
                         f"device_count. The length of 'sliced_parameters' is {len(data)}, but device_count is "
                         f"{count}.")
    if split or field > 0:
        raise NotImplementedError(f"For 'merge_sliced_parameter', the strategy of '{name}' uses "
                                  f"{'param_split_shape' if split else 'an embedding field'}, which msjax does not "
                                  "merge.")
    if any(d.shape != data[0].shape for d in data):
        raise ValueError("For 'merge_sliced_parameter', the shape of every parameter in 'sliced_parameters' "
                         "should be the same when slice manner is even.")
    return merge_slices(dict(enumerate(data)), make_layout(dev_matrix, tensor_map, opt_size))


def _check_strategy_file(strategy_filename):
    if not isinstance(strategy_filename, str):
        raise TypeError("For 'build_searched_strategy', the argument 'strategy_filename' should be string, "
                        f"but got {type(strategy_filename)}.")
    if not os.path.isfile(strategy_filename):
        raise ValueError(f"For 'build_searched_strategy', no such strategy file: {strategy_filename}. "
                         "Please check whether the 'strategy_filename' exists.")
    if os.path.getsize(strategy_filename) == 0:
        raise ValueError(f"For 'build_searched_strategy', the strategy file {strategy_filename} should not be "
                         "empty. Please check whether the 'strategy_filename' is correct.")


def build_searched_strategy(strategy_filename):
    """``mindspore.build_searched_strategy``: ``{parameter name: ParallelLayouts message}``
    of a strategy file (protobuf, or JSON for a ``.json`` name); ``None`` for ``None``."""
    if strategy_filename is None:
        return None
    _check_strategy_file(strategy_filename)
    return read_strategy_file(strategy_filename)


def _layouts(strategy_file):
    """``{name: (TensorLayout, stage)}`` of a strategy file (``None``: ``None``)."""
    if strategy_file is None:
        return None
    return strategy_layouts(build_searched_strategy(strategy_file))


def _stage_devices(layouts):
    return next(iter(layouts.values()))[0].device_num if layouts else 1


def _stages(layouts):
    return len({stage for _, stage in layouts.values()}) if layouts else 1


# ---------------------------------------------------------------------------
# rank_list_for_transform, transform_checkpoint_by_rank, transform_checkpoints
# ---------------------------------------------------------------------------
def _plan(rank_id, src, dst):
    """``({name: (src layout, src stage, dst layout)}, local rank)``: the parameters destination
    rank ``rank_id`` holds (all of them for ``dst`` ``None``) and its rank inside its stage."""
    if dst is None:
        if rank_id >= _stage_devices(src) * _stages(src):
            raise RuntimeError(f"Rank {rank_id} is not in the current stage!")
        return {name: (lay, stage, None) for name, (lay, stage) in src.items()}, 0
    n = _stage_devices(dst)
    if not 0 <= rank_id < n * _stages(dst):
        raise IndexError(f"Rank {rank_id} is out of the {n * _stages(dst)} ranks of the destination strategy.")
    stage, local = divmod(rank_id, n)
    return {name: (src[name][0], src[name][1], lay) for name, (lay, s) in dst.items()
            if s == stage and name in src}, local


def rank_list_for_transform(rank_id, src_strategy_file=None, dst_strategy_file=None):
    """``mindspore.rank_list_for_transform``: the source ranks whose checkpoints make the
    checkpoint of ``rank_id`` under the destination strategy (descending, as MindSpore)."""
    if not isinstance(rank_id, int):
        raise TypeError("The rank_id should be a int.")
    if src_strategy_file is None:
        return [0]
    src, dst = _layouts(src_strategy_file), _layouts(dst_strategy_file)
    if not src:
        raise ValueError("The src_strategy_file is empty.")
    plan, local = _plan(rank_id, src, dst)
    n_src = _stage_devices(src)
    out = set()
    for s_lay, s_stage, d_lay in set(plan.values()):
        out.update(s_stage * n_src + r for r in pieces_needed(s_lay, d_lay, fake_shape(s_lay, d_lay), local))
    return sorted(out, reverse=True)


def _read_pieces(files, stage_devices):
    """``{name: {rank inside its pipeline stage: Parameter}}`` of ``{rank: file}``."""
    load = _serialization("load")
    out = {}
    for rank, path in sorted(files.items()):
        for name, p in load(path).items():
            if isinstance(p, Parameter):
                out.setdefault(name, {})[rank % stage_devices] = p
    return out


def _transform_rank(rank_id, pieces, src, dst):
    """The ``[{"name", "data"}]`` of destination rank ``rank_id`` from the source pieces
    (``src`` ``None``: each file holds whole Parameters)."""
    if src is None and dst is None:
        raise ValueError("None of the parameters in checkpoint file are in either src strategy or dst strategy. "
                         "Please check correctness of strategy files.")
    known = set(src or ()) | set(dst or ())       # parameters a strategy places (maybe in another stage)
    if src is None:
        src = {name: (make_layout((1,), (-1,) * len(next(iter(ps.values())).shape)), 0)
               for name, ps in pieces.items()}
    plan, local = _plan(rank_id, src, dst)
    n_src = _stage_devices(src)
    out, done = [], False
    for name, by_rank in pieces.items():
        some = by_rank[local % n_src] if local % n_src in by_rank else next(iter(by_rank.values()))
        if name not in plan:
            if name not in known:
                out.append({"name": name, "data": some})       # a step count, learning rate...: kept as it is
            continue
        s_lay, _, d_lay = plan[name]
        shape = full_shape(s_lay, some.shape)
        bounds = [(0, s) for s in shape] if d_lay is None else slice_bounds(d_lay, shape, local)
        data = assemble({r: np.asarray(p.asnumpy()) for r, p in by_rank.items()}, s_lay, shape, bounds)
        out.append({"name": name, "data": Parameter(Tensor(data), name, some.requires_grad, some.layerwise_parallel)})
        done = True
    if not done:
        raise ValueError("None of the parameters in checkpoint file are in either src strategy or dst strategy. "
                         "Please check correctness of strategy files.")
    return out


def _check_strategy_dir(which, path):
    if path and os.path.dirname(path) and not os.path.exists(os.path.dirname(path)):
        raise ValueError(f"The director of {which}: {os.path.dirname(path)} is not exists.")


def transform_checkpoint_by_rank(rank_id, checkpoint_files_map, save_checkpoint_file_name,
                                 src_strategy_file=None, dst_strategy_file=None):
    """``mindspore.transform_checkpoint_by_rank``: write the checkpoint of ``rank_id`` under
    ``dst_strategy_file`` (``None``: one device) from ``{source rank: file}``."""
    if not isinstance(checkpoint_files_map, dict):
        raise TypeError("The checkpoint_files_map should be a dict.")
    if not isinstance(rank_id, int):
        raise TypeError("The rank_id should be a int.")
    if not isinstance(save_checkpoint_file_name, str):
        raise TypeError("The save_checkpoint_file_name should be a str.")
    if save_checkpoint_file_name[-5:] != ".ckpt":
        raise ValueError(f"The save_checkpoint_file_name {save_checkpoint_file_name} should end with .ckpt")
    _check_strategy_dir("dst_strategy_file", dst_strategy_file)
    for rank, path in checkpoint_files_map.items():
        if not os.path.exists(path):
            raise ValueError(f"Checkpoint file {path} in rank {rank} not exits: ")
    src, dst = _layouts(src_strategy_file), _layouts(dst_strategy_file)
    params = _transform_rank(rank_id, _read_pieces(checkpoint_files_map, _stage_devices(src)), src, dst)
    _serialization("save")(params, save_checkpoint_file_name)


def _rank_files(directory, ext):
    """``{rank: file}``: the last ``*.<ext>`` (by name) in each ``<directory>/rank_<n>``."""
    out = {}
    for d in glob.glob(os.path.join(directory, "rank_[0-9]*")):
        suffix = d.split("rank_")[-1]
        if not os.path.isdir(d) or not suffix.isdigit():
            continue
        files = sorted(f for f in glob.glob(os.path.join(d, "*." + ext)) if os.path.isfile(f))
        if files:
            out[int(suffix)] = files[-1]
    return out


def transform_checkpoints(src_checkpoints_dir, dst_checkpoints_dir, ckpt_prefix, src_strategy_file=None,
                          dst_strategy_file=None, process_num=1, output_format="ckpt"):
    """``mindspore.transform_checkpoints``: rewrite ``src_checkpoints_dir/rank_<n>/*.ckpt`` for
    the destination strategy into ``dst_checkpoints_dir/rank_<r>/<ckpt_prefix><r>.ckpt``."""
    ckpts = _rank_files(src_checkpoints_dir, "ckpt") if isinstance(src_checkpoints_dir, str) else {}
    safetensors = _rank_files(src_checkpoints_dir, "safetensors") if isinstance(src_checkpoints_dir, str) else {}
    if ckpts and safetensors:
        raise ValueError("For 'transform_checkpoints', the 'src_checkpoints_dir' cannot contain both ckpt file and "
                         "safetensors file simultaneously")
    if safetensors:
        raise NotImplementedError("For 'transform_checkpoints', msjax transforms .ckpt files only, but "
                                  f"'{src_checkpoints_dir}' holds safetensors files.")
    if not ckpts:
        raise ValueError("For 'transform_checkpoints', the 'src_checkpoints_dir' can not be empty.")
    if output_format == "safetensors":
        raise ValueError("For 'transform_checkpoints', 'output_format' can not be 'safetensors' when "
                         "'src_checkpoints_dir' only contains ckpt file.")
    if not isinstance(ckpt_prefix, str):
        raise TypeError("The ckpt_prefix should be a str.")
    _check_strategy_dir("src_strategy_file", src_strategy_file)
    _check_strategy_dir("dst_strategy_file", dst_strategy_file)
    src, dst = _layouts(src_strategy_file), _layouts(dst_strategy_file)
    os.makedirs(dst_checkpoints_dir, exist_ok=True)
    dst_ranks = _stage_devices(dst) * _stages(dst) if dst else 1
    needs = {r: rank_list_for_transform(r, src_strategy_file, dst_strategy_file) for r in range(dst_ranks)}
    for r, needed in needs.items():
        for s in needed:
            if s not in ckpts:
                raise ValueError(f"The checkpoint file of rank{s} is needed for converting rank{r}'s checkpoint, "
                                 "but it is missing.")
    pieces = _read_pieces({s: ckpts[s] for s in sorted({s for v in needs.values() for s in v})}, _stage_devices(src))
    for r in range(dst_ranks):
        params = _transform_rank(r, pieces, src, dst)
        out_dir = os.path.join(dst_checkpoints_dir, f"rank_{r}")
        os.makedirs(out_dir, exist_ok=True)
        _serialization("save")(params, os.path.join(out_dir, f"{ckpt_prefix}{r}.ckpt"))


# ---------------------------------------------------------------------------
# load_distributed_checkpoint
# ---------------------------------------------------------------------------
def _check_checkpoint_files(checkpoint_filenames):
    for index, filename in enumerate(checkpoint_filenames):
        if not isinstance(filename, str) or not os.path.exists(filename) or filename[-5:] != ".ckpt" \
                or os.path.getsize(filename) == 0:
            raise ValueError(f"For 'load_distributed_checkpoint', please check 'checkpoint_filenames', and make sure "
                             f"the {filename} at index {index} is a valid checkpoint file, it must be a string ending "
                             "with '.ckpt', and the checkpoint file it represents must be exist and not empty.")


def _check_predict_strategy(predict_strategy):
    if predict_strategy is None or isinstance(predict_strategy, str):
        return
    if not isinstance(predict_strategy, dict):
        raise ValueError(f"The parameter 'predict_strategy' must be isinstance of {dict}, but got {predict_strategy}.")

    def ints(v):
        return isinstance(v, list) and all(isinstance(i, int) for i in v)

    for key, value in predict_strategy.items():
        ok = isinstance(key, str) and isinstance(value, (list, tuple)) and len(value) >= 4
        if ok:
            dev_matrix, tensor_map, split, field = value[:4]
            ok = ints(dev_matrix) and ints(tensor_map) and (not split or ints(split)) and \
                isinstance(field, int) and field == 0
        if not ok:
            raise ValueError("For 'load_distributed_checkpoint', the argument 'predict_strategy' is dict, the key of "
                             "it must be string, and the value of it must be list or tuple that the first four "
                             "elements must be dev_matrix (list[int]), tensor_map (list[int]), param_split_shape "
                             "(list[int]) and field_size (int, which value is 0).Please check whether "
                             "'predict_strategy' is correct.")


def _train_strategy_file(network):
    """MindSpore's default: the file an ``AutoParallel`` network saves, else the context's load file."""
    if type(network).__name__ == "AutoParallel":
        saved = getattr(network, "_save_strategy_file_path", None) or \
            getattr(network, "_settings", {}).get("strategy_ckpt_config", {}).get("save_file")
        if saved:
            return saved
    path = _context.get_auto_parallel_context("strategy_ckpt_load_file")
    return path or _context.get_auto_parallel_context("strategy_ckpt_config").get("load_file", "")


def _placed(value, param):
    """``value`` (NumPy) with ``param``'s sharding when it has one."""
    current = to_array(param)
    sharding = getattr(current, "sharding", None)
    if sharding is None or sharding.is_fully_replicated or tuple(current.shape) != value.shape:
        return Tensor(value)
    return Tensor(jax.make_array_from_callback(value.shape, sharding, lambda idx: value[idx]))


def load_distributed_checkpoint(network, checkpoint_filenames=None, predict_strategy=None,
                                train_strategy_filename=None, strict_load=False, dec_key=None, dec_mode="AES-GCM",
                                format="ckpt", unified_safetensors_dir=None, dst_safetensors_dir=None, rank_id=None,
                                output_format="safetensors", name_map=None, max_process_num=64,
                                return_param_dict=False):
    """``mindspore.load_distributed_checkpoint``: merge every rank's ``.ckpt`` (in rank order)
    by the training strategy file and load the whole Parameters into ``network``."""
    if format not in ("safetensors", "ckpt") or output_format not in ("safetensors", "ckpt"):
        raise ValueError("For 'load_distributed_checkpoint', 'format' and 'output_format' must be 'ckpt' or "
                         f"'safetensors', but got {format}.")
    if format == "safetensors":
        raise NotImplementedError("For 'load_distributed_checkpoint', msjax loads .ckpt files only (format='ckpt').")
    if not getattr(type(network), "_ms_is_cell", False):
        raise ValueError(f"The parameter 'network' must be isinstance of <class 'mindspore.nn.cell.Cell'>, but got "
                         f"{network}.")
    _check_checkpoint_files(checkpoint_filenames)
    _check_predict_strategy(predict_strategy)
    if not isinstance(dec_key, (type(None), bytes)):
        raise ValueError(f"The parameter 'dec_key' must be isinstance of ({type(None)}, {bytes}), but got {dec_key}.")
    if not isinstance(dec_mode, str):
        raise ValueError(f"The parameter 'dec_mode' must be isinstance of {str}, but got {dec_mode}.")
    if dec_key is not None:
        raise NotImplementedError("Encrypted checkpoints (dec_key) are not supported by msjax.")
    if train_strategy_filename is None:
        train_strategy_filename = _train_strategy_file(network)
    strategy = build_searched_strategy(train_strategy_filename)
    if not strategy:
        return True
    layouts = strategy_layouts(strategy)
    count = len(checkpoint_filenames)
    devices = next(iter(layouts.values()))[0].device_num
    if devices != count:
        raise ValueError("For 'Load_distributed_checkpoint', the length of 'checkpoint_filenames' should be equal to "
                         "the device count of training process. But got the length of 'checkpoint_filenames' is "
                         f"{count} and the device count is {devices}.")
    pieces = _read_pieces(dict(enumerate(checkpoint_filenames)), count)
    param_dict, not_in_strategy, not_in_ckpt = {}, [], []
    for _, param in network.parameters_and_names():
        if param.name not in layouts:
            not_in_strategy.append(param.name)
            continue
        if param.name not in pieces:
            not_in_ckpt.append(param.name)
            continue
        by_rank = pieces[param.name]
        some = next(iter(by_rank.values()))
        merged = merge_slices({r: np.asarray(p.asnumpy()) for r, p in by_rank.items()}, layouts[param.name][0])
        param_dict[param.name] = Parameter(_placed(merged, param), param.name, some.requires_grad,
                                           some.layerwise_parallel)
    if not_in_strategy:
        logger.warning(f"For 'load_distributed_checkpoint', {not_in_strategy} parameters in network are not in the "
                       "slice strategy, you can check whether 'predict_strategy' or 'train_strategy_filename' is "
                       "correct.")
    if not_in_ckpt:
        logger.warning(f"For 'load_distributed_checkpoint', {not_in_ckpt} parameters in network and slice strategy "
                       "but not in the checkpoint file, please check whether 'checkpoint_filenames' is correct.")
    _serialization("load_into")(network, param_dict, strict_load=strict_load)
    return True


# ---------------------------------------------------------------------------
# merge_pipeline_strategys, load_segmented_checkpoints
# ---------------------------------------------------------------------------
def merge_pipeline_strategys(src_strategy_dirs, dst_strategy_file):
    """``mindspore.merge_pipeline_strategys``: one strategy file from the files of every
    pipeline stage in ``src_strategy_dirs`` (names become ``"<stage>-<name>"``)."""
    import json
    dst_strategy_file = os.path.abspath(os.path.normpath(dst_strategy_file))
    os.makedirs(os.path.dirname(dst_strategy_file), exist_ok=True)
    if not os.path.isdir(src_strategy_dirs):
        raise NotADirectoryError(f"src_strategy_dirs {src_strategy_dirs} is not a directory.")
    pb = sorted(glob.glob(os.path.join(src_strategy_dirs, "*.ckpt")))
    js = sorted(glob.glob(os.path.join(src_strategy_dirs, "*.json")))
    if pb and js:
        raise ValueError("The strategys format should be all '.ckpt' or all '.json'")
    stages = []
    if pb:
        merged, seen = ParallelStrategyMap(current_stage=1), set()
        for path in pb:
            with open(path, "rb") as f:
                content = f.read()
            if content in seen:
                continue
            seen.add(content)
            msg = ParallelStrategyMap()
            msg.ParseFromString(content)
            if not msg.parallel_strategy_item or not msg.parallel_layout_item:
                raise ValueError(f"The strategy file {path} is empty")
            stage = msg.parallel_strategy_item[0].parallel_strategys.stage
            if stage in stages:
                continue
            for item in msg.parallel_layout_item:
                item.param_name = f"{stage}-{item.param_name}"
            merged.parallel_strategy_item.extend(msg.parallel_strategy_item)
            merged.parallel_layout_item.extend(msg.parallel_layout_item)
            stages.append(stage)
        with open(dst_strategy_file, "wb") as f:
            f.write(merged.SerializeToString())
        return
    merged = {"current_stage": 1, "parallel_strategy_item": {}, "parallel_layout_item": {}}
    for path in js:
        with open(path, encoding="utf-8") as f:
            content = json.load(f)
        layouts, items = content.get("parallel_layout_item"), content.get("parallel_strategy_item")
        if not items or not layouts:
            raise ValueError(f"The strategy file {path} is empty")
        stage = next(iter(items.values())).get("stage")
        if stage in stages:
            continue
        merged["parallel_layout_item"].update({f"{stage}-{k}": v for k, v in layouts.items()})
        merged["parallel_strategy_item"].update(items)
        stages.append(stage)
    with open(dst_strategy_file, "w", encoding="utf-8") as f:
        json.dump(merged, f)


def load_segmented_checkpoints(ckpt_file_dir, net=None, strict_load=False, filter_prefix=None, dec_key=None,
                               dec_mode="AES-GCM", specify_prefix=None, choice_func=None):
    """``mindspore.load_segmented_checkpoints``: every ``*.ckpt`` of a directory in one dict
    (and loaded into ``net`` when given)."""
    if not isinstance(ckpt_file_dir, str):
        raise TypeError("The ckpt_file_dir should be a str.")
    if not os.path.isdir(ckpt_file_dir):
        raise ValueError(f"The dst_strategy_file: {ckpt_file_dir} doesn't exist. Or it's not a directory")
    load = _serialization("load")
    out = {}
    for path in sorted(glob.glob(os.path.join(ckpt_file_dir, "*.ckpt"))):
        out.update(load(path, net, strict_load, filter_prefix, dec_key, dec_mode, specify_prefix, choice_func))
    return out
