"""``mindspore.mindrecord``: MindSpore's MindRecord data files, written and read in
pure Python (``FileWriter``, ``FileReader``; ``mindspore.dataset.MindDataset`` reads
them into a pipeline). Files cross with MindSpore 2.10 both ways; the format is
described in ``_codec.py``.

Not supported (raise when used): the converters (``Cifar10ToMR``...), ``MindPage``,
and encryption (``set_enc_key`` with a key).
"""
import enum

from .common.exceptions import *  # noqa: F401,F403
from .common import exceptions as _exc
from .filereader import FileReader
from .filewriter import FileWriter


class MSRStatus(enum.IntEnum):
    """MindRecord's status codes."""
    SUCCESS = 0
    FAILED = 1


SUCCESS = MSRStatus.SUCCESS
FAILED = MSRStatus.FAILED

_ENC = {"key": None, "mode": "AES-GCM", "dec": "AES-GCM"}


def set_enc_key(enc_key):
    """Only ``None`` (no encryption) is supported: msjax does not encrypt MindRecord files."""
    if enc_key is None:
        _ENC["key"] = None
        return
    if not isinstance(enc_key, str):
        raise ValueError("The input enc_key is not str.")
    if len(enc_key) not in (16, 24, 32):
        raise ValueError("The length of input enc_key is not 16, 24, 32.")
    raise NotImplementedError("msjax does not support encrypted MindRecord files (mindrecord.set_enc_key with a "
                              "key); write and read them unencrypted.")


def set_enc_mode(enc_mode="AES-GCM"):
    """Accepted (``AES-GCM``/``SM4-CBC`` or a callable); encryption itself is not supported."""
    if not callable(enc_mode) and enc_mode not in ("AES-GCM", "SM4-CBC"):
        raise ValueError("Invalid encrypt mode, it should be 'AES-GCM' or 'SM4-CBC' or callable function.")
    _ENC["mode"] = enc_mode


def set_dec_mode(dec_mode="AES-GCM"):
    """Accepted (``AES-GCM``/``SM4-CBC`` or a callable); decryption itself is not supported."""
    if not callable(dec_mode) and dec_mode not in ("AES-GCM", "SM4-CBC"):
        raise ValueError("Invalid decrypt mode, it should be 'AES-GCM' or 'SM4-CBC' or callable function.")
    _ENC["dec"] = dec_mode


__all__ = ["FileWriter", "FileReader", "set_enc_key", "set_enc_mode", "set_dec_mode", "SUCCESS", "FAILED"] + \
    list(_exc.__all__)
