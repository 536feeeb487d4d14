"""Reading and writing MindSpore's checkpoint files: ``.ckpt`` through the protobuf
classes of ``checkpoint.proto`` (``_checkpoint_pb``) and safetensors through the
``safetensors`` package's NumPy API. No wire format is coded here by hand.

``.ckpt`` layout (MindSpore 2.10): one serialized ``Checkpoint`` message per
parameter, a parameter over ``SLICE_SIZE`` bytes cut into ``SLICE_SIZE``-byte
pieces in several messages with the same tag and the full dims, all concatenated, optionally followed by
``b"crc_num" + crc32.to_bytes(10, "big")``. Concatenated messages parse as one
message whose ``value`` list is the union, which is how both MindSpore and this
module read a file (the protobuf runtime, upb, parses files over 2 GB).

Writes go through a temporary file beside the target, renamed over it at the
end; the temporary files left by a killed save (``<name>.<8 chars>.tmp``) are
removed by the next save of the same file.
"""
from __future__ import annotations

import binascii
import mmap
import os
import re
import stat
import tempfile
from collections import OrderedDict

import numpy as np
from google.protobuf.message import DecodeError

from .._core import dtype as mstype
from .. import log as logger
from ._checkpoint_pb import Checkpoint

__all__ = ["SLICE_SIZE", "read_ckpt", "write_ckpt", "read_safetensors", "write_safetensors", "encode_entry",
           "decode_entries"]

SLICE_SIZE = 512 * 1024 * 1024          # bytes per ckpt entry before MindSpore splits a parameter
_CRC_MARK = b"crc_num"


class _Corrupt(Exception):
    pass


def _np_of(type_name):
    """NumPy dtype of a ``TensorProto.tensor_type`` (MindSpore's dtype name, e.g. ``Float32``)."""
    for t in mstype.DTYPES:
        if str(t) == type_name and getattr(t, "np", None) is not None:
            return np.dtype(t.np)
    raise _Corrupt(f"unsupported tensor_type {type_name!r}")


def _type_name(np_dtype):
    return str(mstype.from_np(np.dtype(np_dtype)))


# ---------------------------------------------------------------------------
# .ckpt entries
# ---------------------------------------------------------------------------
def encode_entry(tag, dims, type_name, content):
    """One serialized ``Checkpoint`` message holding one ``Value``."""
    msg = Checkpoint()
    value = msg.value.add()
    value.tag = tag
    value.tensor.dims.extend(int(d) for d in dims)
    value.tensor.tensor_type = type_name
    value.tensor.tensor_content = bytes(content)
    return msg.SerializeToString()


def decode_entries(buf):
    """``[(tag, dims, type_name, content bytes)]`` of a ``.ckpt`` payload (without the crc trailer)."""
    msg = Checkpoint()
    try:
        msg.ParseFromString(buf)
    except DecodeError as e:
        raise _Corrupt(f"protobuf parse error: {e}") from None
    out = []
    for value in msg.value:
        if not value.HasField("tensor"):
            if value.HasField("maptensor"):
                raise _Corrupt(f"'{value.tag}' is a MapParameter (maptensor), which msjax does not support")
            raise _Corrupt(f"Value '{value.tag}' without tensor")
        t = value.tensor
        out.append((value.tag, list(t.dims), t.tensor_type, t.tensor_content))
    return out


def _param_entries(name, value):
    """The serialized entries of one parameter: its bytes cut into ``SLICE_SIZE``
    pieces, as MindSpore 2.10 cuts a Tensor's bytes (every piece carries the full dims)."""
    if isinstance(value, str):
        return [encode_entry(name, [0], "str", np.array(value).tobytes())]
    arr = np.asarray(value, order="C")
    dims, type_name = list(arr.shape), _type_name(arr.dtype)
    raw = memoryview(arr.reshape(-1).view(np.uint8)) if arr.size else b""
    if len(raw) <= SLICE_SIZE:
        return [encode_entry(name, dims, type_name, raw)]
    return [encode_entry(name, dims, type_name, raw[i:i + SLICE_SIZE]) for i in range(0, len(raw), SLICE_SIZE)]


def write_ckpt(path, items, crc_check=False):
    """Write ``[(name, numpy array or str)]`` as a MindSpore ``.ckpt`` file."""
    def write(tmp):
        crc = 0
        with open(tmp, "wb") as f:
            for name, value in items:
                for chunk in _param_entries(name, value):
                    if crc_check:
                        crc = binascii.crc32(chunk, crc)
                    f.write(chunk)
            if crc_check:
                f.write(_CRC_MARK + crc.to_bytes(10, byteorder="big"))
    atomic_write(path, write)


def _join(entries, path):
    out = OrderedDict()
    i = 0
    while i < len(entries):
        tag, dims, type_name, _ = entries[i]
        j = i
        while j + 1 < len(entries) and entries[j + 1][0] == tag:
            j += 1
        raw = entries[i][3] if i == j else b"".join(e[3] for e in entries[i:j + 1])
        if type_name == "str":
            out[tag] = str(np.frombuffer(raw, "U" + str(len(raw) // 4))[0]) if raw else ""
        else:
            npd = _np_of(type_name)
            shape = [] if list(dims) == [0] else list(dims)
            if any(d < 0 for d in shape):
                raise _Corrupt(f"parameter '{tag}' has a negative dimension in its shape {tuple(shape)}")
            need = int(np.prod(shape, dtype=np.int64)) * npd.itemsize
            if len(raw) != need:
                raise _Corrupt(f"parameter '{tag}' has {len(raw)} data bytes, but its shape {tuple(shape)} and "
                               f"type {type_name} need {need}")
            out[tag] = np.frombuffer(raw, npd).reshape(shape)      # read-only, no copy
        i = j + 1
    return out


def read_ckpt(path, crc_check=False):
    """``OrderedDict(name -> numpy array or str)`` of a ``.ckpt`` file (read-only
    arrays over the parsed bytes); raises ``ValueError`` naming the file when it is
    truncated or corrupt. The file is memory-mapped for parsing (no extra copy)."""
    try:
        f = open(path, "rb")
    except OSError as e:
        raise ValueError(f"Failed to read the checkpoint file {path}. May not have permission to read it, please "
                         "check the correct of the file.") from e
    with f:
        mapped = False
        try:
            mm = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) if os.fstat(f.fileno()).st_size else b""
            mapped = bool(mm)
        except (OSError, ValueError):    # a file system without mmap: read it
            mm = f.read()
        try:
            return _read_mapped(path, memoryview(mm), crc_check)
        finally:
            if mapped:
                try:
                    mm.close()
                except BufferError:      # a view is still referenced somewhere; the GC closes it
                    pass


def _one_bit_from(tail, mark):
    """Whether ``tail`` differs from ``mark`` in exactly one bit (a flipped crc mark)."""
    return len(tail) == len(mark) and sum(bin(a ^ b).count("1") for a, b in zip(tail, mark)) == 1


def _read_mapped(path, data, crc_check):
    if bytes(data[-17:-10]) == _CRC_MARK:
        crc_bytes, data = bytes(data[-10:]), data[:-17]
        if crc_check and binascii.crc32(data, 0) != int.from_bytes(crc_bytes, "big"):
            raise ValueError("For 'load_checkpoint', the crc check is failed, please check whether the ckpt file is "
                             "damaged.")
    elif crc_check and _one_bit_from(bytes(data[-17:-10]), _CRC_MARK):
        raise ValueError("For 'load_checkpoint', the crc check is failed (the crc mark is damaged), please check "
                         "whether the ckpt file is damaged.")
    elif crc_check:
        logger.warning("For 'load_checkpoint', the ckpt file do not contain the crc code, please check the file.")
    try:
        entries = decode_entries(data)
        data.release()
        return _join(entries, path)
    except (_Corrupt, ValueError, UnicodeDecodeError) as e:
        raise ValueError(f"Failed to read the checkpoint file {path}. The file may be corrupted, and the content "
                         f"cannot be parsed ({e}).") from e


# ---------------------------------------------------------------------------
# safetensors
# ---------------------------------------------------------------------------
def write_safetensors(path, items, metadata=None):
    """Write ``[(name, numpy array)]`` as a safetensors file (``safetensors.numpy.save_file``)."""
    from safetensors.numpy import save_file
    tensors = {}
    for name, arr in items:
        arr = np.asarray(arr, order="C")
        if arr.dtype == np.complex128 or arr.dtype.kind not in "biufc" and arr.dtype.name != "bfloat16":
            raise TypeError(f"safetensors cannot store dtype {arr.dtype} (parameter '{name}').")
        tensors[name] = arr
    meta = {str(k): str(v) for k, v in metadata.items()} if metadata and tensors else None

    def write(tmp):
        try:
            save_file(tensors, tmp, metadata=meta)
        except Exception as e:  # the library's SafetensorError / ValueError for an unstorable dtype
            if type(e).__name__ in ("SafetensorError", "ValueError", "TypeError"):
                raise TypeError(f"safetensors cannot store these tensors: {e}") from e
            raise
    atomic_write(path, write)


def read_safetensors(path):
    """``(OrderedDict(name -> numpy array), metadata)`` of a safetensors file (names sorted)."""
    from safetensors import SafetensorError, safe_open
    if not os.access(path, os.R_OK):
        raise ValueError(f"Failed to read the checkpoint file {path}.")
    try:
        with safe_open(path, framework="np") as f:
            meta = f.metadata()
            out = OrderedDict((name, f.get_tensor(name)) for name in sorted(f.keys()))
    except (SafetensorError, OSError, ValueError, KeyError, TypeError) as e:
        raise ValueError(f"Failed to read the checkpoint file {path}. The file may be corrupted, and the content "
                         f"cannot be parsed ({e}).") from e
    return out, meta


# ---------------------------------------------------------------------------
# atomic writes
# ---------------------------------------------------------------------------
def _stale_temp_files(path):
    """Temporary files a previous, interrupted ``atomic_write`` of ``path`` left behind."""
    directory = os.path.dirname(path) or "."
    pattern = re.compile(re.escape(os.path.basename(path)) + r"\.[a-z0-9_]{8}\.tmp\Z")
    try:
        names = os.listdir(directory)
    except OSError:
        return []
    return [os.path.join(directory, n) for n in names if pattern.match(n)]


def atomic_write(path, write):
    """Call ``write(tmp_path)`` for a temporary file in the target's directory, then
    rename it over the target (read-only, as MindSpore leaves it): the previous
    file survives any interruption. Stale temporary files of ``path`` go first."""
    for stale in _stale_temp_files(path):
        try:
            os.remove(stale)
        except OSError:
            pass
    directory = os.path.dirname(path) or "."
    fd, tmp = tempfile.mkstemp(prefix=os.path.basename(path) + ".", suffix=".tmp", dir=directory)
    os.close(fd)
    try:
        write(tmp)
        with open(tmp, "rb+") as f:
            os.fsync(f.fileno())
        if os.path.exists(path):
            try:
                os.chmod(path, stat.S_IRUSR | stat.S_IWUSR)
            except OSError:
                pass
        os.replace(tmp, path)
        os.chmod(path, stat.S_IRUSR)
    except BaseException:
        try:
            os.remove(tmp)
        except OSError:
            pass
        raise

