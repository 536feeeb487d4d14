"""``mindspore.export`` / ``load`` and the MindIR helpers ``load_mindir``, ``save_mindir``,
``export_split_mindir``: MindSpore 2.10's argument checks, messages and file naming, then the
format's writer (``mindir_writer.write_mindir``, ``onnx.write_onnx``, ``stablehlo.write_stablehlo``)
or the MindIR reader (``mindir_reader.load_mindir_graph``, run by ``nn.GraphCell``).

Differences from MindSpore:

- ``file_format="STABLEHLO"`` (msjax's own): ``jax.export``'s serialization (``stablehlo.py``).
- ``file_format="AIR"`` raises MindSpore's CPU error (AIR needs Ascend in MindSpore too).
- ``enc_key`` with a built-in ``enc_mode`` (``'AES-GCM'``, ``'AES-CBC'``, ``'SM4-CBC'``) raises
  NotImplementedError after MindSpore's checks; a function as ``enc_mode`` (customized
  encryption, ``enc_mode(data, enc_key)``) works as in MindSpore.
- A Dataset as the input (exporting its preprocessing into MindIR) raises NotImplementedError
  after MindSpore's checks; ``export_split_mindir`` raises NotImplementedError after its checks.
- A writer that raises leaves no file and no directory created by the export behind; the
  previous file of that name stays as it was.
"""
from __future__ import annotations

import os

import jax

from ... import _checkparam as Validator
from ... import log as logger
from ..._core import rng
from ..._core.state import Recorder
from ..._core.tensor import Tensor
from .._mind_ir_pb import ModelProto
from ._output import finish_file, output_dirs, replace_file, rewrite_file, with_suffix

__all__ = ["export", "load", "load_mindir", "save_mindir", "export_split_mindir"]

SUPPORTED_FORMATS = ["AIR", "ONNX", "MINDIR"]        # MindSpore's list, as its message prints it
EXTRA_FORMATS = ("STABLEHLO",)                        # msjax's own
BUILTIN_ENC_MODES = ("AES-CBC", "AES-GCM", "SM4-CBC")
_OBF_ERROR = "Dynamic model structure obfuscation is no longer supported."


def export(net, *inputs, file_name, file_format, **kwargs):
    """``mindspore.export(net, *inputs, file_name, file_format, **kwargs)``: write ``net`` traced
    on ``inputs`` as MINDIR (MindSpore 2.10 loads it), ONNX or STABLEHLO; ``file_name`` gets the
    format's suffix unless it has it. ``kwargs``: ``enc_key``/``enc_mode`` (customized encryption
    only), ``custom_func`` (MINDIR: called with the ``ModelProto`` before it is written)."""
    if "obf_func" in kwargs:
        raise NotImplementedError(_OBF_ERROR)
    if file_format not in SUPPORTED_FORMATS and file_format not in EXTRA_FORMATS:
        raise ValueError(f"For 'export', 'file_format' must be one of {SUPPORTED_FORMATS}, but got {file_format}.")
    if file_format == "AIR":
        logger.warning("AIR format is deprecated, and will be removed in a future version, please use other "
                       "format or use MindSpore Lite to do offline inference")
    Validator.check_file_name_by_regular(file_name)
    inputs = _check_dataset_inputs(inputs)
    file_name = os.path.realpath(file_name)
    if "enc_key" in kwargs:
        kwargs["enc_key"], kwargs["enc_mode"] = _check_key_mode_type(file_format, **kwargs)
    custom_func = kwargs.get("custom_func")
    if custom_func is not None and file_format != "MINDIR":
        raise ValueError(f"Currently only support custom_func for MindIR format, but got {file_format} format.")
    net = _unwrap_jit(net)
    if file_format == "AIR":
        raise ValueError("Only support export file in 'AIR' format with Ascend backend.")
    if file_format == "ONNX":
        logger.warning("mindspore.export(file_format='ONNX') will be deleted, please use mindspore.onnx.export()")
        _save_onnx(net, file_name, inputs, kwargs)
    elif file_format == "MINDIR":
        from .mindir_writer import write_mindir
        _save(write_mindir, net, inputs, with_suffix(file_name, ".mindir"), _mindir_transform(kwargs),
              owned_parameters=True)
    else:
        from .stablehlo import write_stablehlo
        _save(write_stablehlo, net, inputs, with_suffix(file_name, ".stablehlo"), _encryption(kwargs))


def _check_dataset_inputs(inputs):
    """MindSpore's checks when the inputs are Datasets (all of them, or none given); exporting a
    dataset's preprocessing is not supported here."""
    if not all(_is_dataset(x) for x in inputs):
        return inputs
    if len(inputs) != 1:
        if not inputs:       # MindSpore: the compile of a net called with no arguments fails first
            return inputs
        raise RuntimeError("You can only serialize one dataset into MindIR, got " + str(len(inputs)) + " datasets")
    columns = inputs[0].get_col_names()
    if "image" not in columns:
        raise RuntimeError("Only supports parse \"image\" column from dataset now, given dataset has columns: "
                           + str(columns))
    raise NotImplementedError("export with a Dataset as the input (its preprocessing serialized into MindIR) "
                              "is not supported by msjax; pass Tensors of the network's input shapes.")


def _is_dataset(x):
    """A ``mindspore.dataset`` Dataset (by its methods: ``msjax.train`` sits below ``msjax.dataset``)."""
    return callable(getattr(x, "get_col_names", None)) and callable(getattr(x, "create_tuple_iterator", None))


def _check_key_mode_type(file_format, **kwargs):
    """MindSpore's ``enc_key``/``enc_mode`` checks; built-in modes are not implemented here."""
    enc_key = Validator.check_isinstance("enc_key", kwargs.get("enc_key"), bytes)
    enc_mode = kwargs.get("enc_mode")
    if callable(enc_mode):
        return enc_key, enc_mode
    enc_mode = "AES-GCM"
    if "enc_mode" in kwargs:
        enc_mode = Validator.check_isinstance("enc_mode", kwargs.get("enc_mode"), str)
    if file_format in ("AIR", "ONNX"):
        raise ValueError(f"AIR/ONNX only support customized encryption, but got {enc_mode}.")
    if file_format in EXTRA_FORMATS:
        raise ValueError(f"{file_format} only supports customized encryption, but got {enc_mode}.")
    if enc_mode not in BUILTIN_ENC_MODES:
        raise ValueError(f"MindIR only support AES-GCM/AES-CBC/SM4-CBC encryption, but got {enc_mode}")
    raise NotImplementedError(f"MindIR encryption with enc_mode '{enc_mode}' (MindSpore's built-in cipher) is "
                              "not supported by msjax; pass a function as enc_mode (customized encryption, "
                              "called as enc_mode(data, enc_key)) or export without enc_key.")


def _unwrap_jit(net):
    """The function under an ``ms.jit`` wrapper (the writers trace the plain function)."""
    while getattr(net, "__ms_jit__", None) is not None and hasattr(net, "__wrapped__"):
        net = net.__wrapped__
    return net


def _encryption(kwargs):
    """The customized encryption as a bytes -> bytes transform, or None."""
    enc = kwargs.get("enc_mode") if "enc_key" in kwargs else None
    if enc is None:
        return None
    key = kwargs["enc_key"]
    return lambda data: enc(data, key)


def _mindir_transform(kwargs):
    """``custom_func`` on the parsed ModelProto, then the customized encryption, or None."""
    custom_func, encrypt = kwargs.get("custom_func"), _encryption(kwargs)
    if custom_func is None:
        return encrypt

    def transform(data):
        model = ModelProto()
        model.ParseFromString(data)
        custom_func(model)
        data = model.SerializeToString()
        return encrypt(data) if encrypt else data
    return transform


def _save(write, net, inputs, path, transform=None, owned_parameters=False):
    """``write(net, inputs, tmp)`` into a temporary file beside ``path``, the Parameters the
    trace reads recorded; ``owned_parameters``: MindSpore's ValueError for a Parameter created
    outside the Cell (MINDIR); ``transform`` over the bytes; then the file replaces ``path``
    and is left read-only. Whatever raises, ``path`` keeps its previous content."""
    base, suffix = os.path.splitext(path)
    tmp = f"{base}.{os.getpid()}.export{suffix}"
    with output_dirs(path):
        try:
            with Recorder() as reads:
                write(net, tuple(inputs), tmp)
            if owned_parameters:
                _check_parameters_owned(net, inputs, reads)
            if transform is not None:
                rewrite_file(tmp, transform)
            os.replace(tmp, path)
        finally:
            if os.path.exists(tmp):
                os.remove(tmp)
    finish_file(path)


def _check_parameters_owned(net, inputs, reads):
    """A Cell's graph may only read the Cell's own Parameters, those given as inputs and those
    it creates while running; MindSpore cannot export the data of any other one."""
    from ...nn.cell import Cell
    if not isinstance(net, Cell):
        return
    own = {id(p) for p in net.get_parameters()} | set(reads.created) | {id(rng._key)}
    own |= {id(x) for x in jax.tree_util.tree_leaves(inputs, is_leaf=lambda x: isinstance(x, Tensor))}
    for key, param in reads.reads.items():
        if key not in own:
            raise ValueError("There's a mindspore.Parameter that wasn't created in nn.Cell, and mindspore.export() "
                             f"does not support exporting such Parameters. The parameter name is: {param.name}.\n"
                             "You can find the supported syntax range for mindspore.export() at the following "
                             "link:\nhttps://www.mindspore.cn/tutorials/zh-CN/master/beginner/save_load.html")


def _save_onnx(net, file_name, inputs, kwargs):
    """MindSpore's ``_save_onnx``: Cells only, static shapes, traced in inference mode."""
    from ...nn.cell import Cell
    if not isinstance(net, Cell):
        raise ValueError(f"Export ONNX format model only support nn.Cell object, but got {type(net)}.")
    for x in inputs:
        if isinstance(x, Tensor) and -1 in x.shape:
            raise ValueError("Export ONNX format model not support dynamic shape mode.")
    from .onnx import write_onnx
    cell_mode = net.training
    net.set_train(mode=False)
    try:
        _save(write_onnx, net, inputs, with_suffix(file_name, ".onnx"), _encryption(kwargs))
    finally:
        net.set_train(mode=cell_mode)


def load(file_name, **kwargs):
    """``mindspore.load(file_name, dec_key=None, dec_mode='AES-GCM')``: the graph of a MindIR file,
    for ``nn.GraphCell``."""
    if "obf_func" in kwargs:
        raise NotImplementedError(_OBF_ERROR)
    file_name = _check_mindir_file(file_name, "load")
    logger.info("Execute the process of loading mindir.")
    dec = {}
    if "dec_key" in kwargs:
        dec["dec_key"] = Validator.check_isinstance("dec_key", kwargs.get("dec_key"), bytes)
        dec["dec_mode"] = kwargs.get("dec_mode", "AES-GCM")
        if not callable(dec["dec_mode"]):
            Validator.check_isinstance("dec_mode", dec["dec_mode"], str)
    from .mindir_reader import load_mindir_graph
    graph = load_mindir_graph(file_name, **dec)
    if graph is None:
        raise RuntimeError("Load MindIR failed.")
    return graph


def _check_mindir_file(file_name, what):
    """MindSpore's checks of an existing MindIR file name (``load``, ``export_split_mindir``)."""
    if not isinstance(file_name, str):
        raise ValueError(f"For '{what}', the argument 'file_name' must be string, but got {type(file_name)}.")
    if not file_name.endswith(".mindir"):
        raise ValueError(f"For '{what}', the argument 'file_name'(MindIR file) should end with '.mindir', "
                         "please input the correct 'file_name'.")
    if not os.path.exists(file_name):
        raise ValueError(f"For '{what}', the argument 'file_name'(MindIR file) does not exist, "
                         "please check whether the 'file_name' is correct.")
    return os.path.realpath(file_name)


def export_split_mindir(file_name, device_num=8, rank_id=0, dynamic=True, sapp=True):
    """``mindspore.export_split_mindir``: MindSpore's checks, then NotImplementedError (splitting a
    MindIR for distributed inference is not supported by msjax)."""
    _check_mindir_file(file_name, "Split MindIR")
    raise NotImplementedError("export_split_mindir (splitting a MindIR across devices for distributed "
                              "inference) is not supported by msjax.")


def load_mindir(file_name):
    """``mindspore.load_mindir`` (deprecated in MindSpore): the file's ``ModelProto``."""
    logger.warning("The interface 'mindspore.load_mindir' is deprecated from version 2.5 "
                   "and will be removed in a future version.")
    Validator.check_file_name_by_regular(file_name)
    file_name = os.path.realpath(file_name)
    model = ModelProto()
    try:
        with open(file_name, "rb") as f:
            model.ParseFromString(f.read())
    except BaseException as e:
        logger.critical(f"Failed to parse the file: {file_name}  please check the correct file.")
        raise ValueError(str(e)) from e
    return model


def save_mindir(model, file_name):
    """``mindspore.save_mindir`` (deprecated in MindSpore): write a ``ModelProto`` to
    ``file_name`` (``.mindir`` appended unless present)."""
    logger.warning("The interface 'mindspore.save_mindir' is deprecated from version 2.5 "
                   "and will be removed in a future version.")
    Validator.check_file_name_by_regular(file_name)
    file_name = with_suffix(file_name, ".mindir")
    if not isinstance(model, ModelProto):
        raise TypeError(f"For 'save_mindir', the argument 'model' must be ModelProto, but got {type(model)}.")
    try:
        with output_dirs(file_name):
            replace_file(file_name, model.SerializeToString())
    except BaseException as e:
        logger.critical(f"Failed to save the file: {file_name} , please check the correct file.")
        raise ValueError(str(e)) from e
