"""``mindspore.mindrecord.FileReader``: read the rows of MindRecord files as dicts.

Scalar fields come back as Python ``int``/``float``/``str`` as MindSpore gives them
(a whole-valued float as ``int``; float32 fields rounded to float32 when ``columns`` is
given, the stored value otherwise), ``bytes`` fields as ``bytes``, array fields as numpy arrays of the
schema's type and shape, in file order. ``num_consumer`` is checked and otherwise
has no effect (rows are read in the calling thread). Decryption is not supported.
"""
from __future__ import annotations

import logging
import os

import numpy as np

from . import _codec
from .common.exceptions import ParamTypeError, ParamValueError
from .filewriter import check_filename

__all__ = ["FileReader"]

_log = logging.getLogger("mindspore")


def _check_files(file_name):
    names = file_name if isinstance(file_name, list) else [file_name]
    for f in names:
        check_filename(f)
    for f in names:
        if not os.path.exists(f):
            raise RuntimeError(f"The input: {f} is not exists.")


def open_shards(file_name):
    """A :class:`_codec.ShardSet` for a path (all its shards) or a list of shard paths."""
    if isinstance(file_name, list):
        return _codec.ShardSet(file_name, load_dataset=False)
    return _codec.ShardSet([file_name], load_dataset=True)


class FileReader:
    """Read MindRecord files: ``FileReader(file_name, num_consumer=4, columns=None, operator=None)``;
    ``get_next()`` yields one dict per row, ``schema()``, ``len()``, ``close()``."""

    def __init__(self, file_name, num_consumer=4, columns=None, operator=None):
        _check_files(file_name)
        if num_consumer is None:
            raise ParamValueError("Parameter num_consumer is None.")
        if not isinstance(num_consumer, int):
            raise ParamValueError("Parameter num_consumer is not int.")
        max_consumer = os.cpu_count() or 1
        # MindSpore checks an explicitly passed num_consumer only; the default 4 passes on any machine
        if num_consumer != 4 and (num_consumer < 1 or num_consumer > max_consumer):
            raise ParamValueError(f"Parameter num_consumer: {num_consumer} should between 1 and {max_consumer}.")
        if operator is not None:
            _log.warning("The parameter 'operator' will be deprecated in a future version.")
        if columns:
            if not isinstance(columns, list):
                raise ParamTypeError("columns", "list")
            self._columns = columns
        else:
            self._columns = None
        self._shards = open_shards(file_name)
        if self._columns:
            for c in self._columns:
                if c not in self._shards.schema:
                    raise RuntimeError(f"Invalid data, column name: {c} can not found in schema.")
        self._closed = False

    def get_next(self):
        """Yield the rows, each a dict of the selected columns."""
        shards = self._shards
        schema = shards.schema
        for i in range(len(shards)):
            raw, blobs = shards.read_row(i)
            out = {}
            for name, v in raw.items():
                if self._columns and name not in self._columns:
                    continue
                if isinstance(v, float):
                    if self._columns and schema[name]["type"] == "float32":
                        v = float(np.float32(v))
                    if v.is_integer():
                        v = int(v)   # MindSpore gives a whole-valued float field as int
                out[name] = v
            for name in shards.blob_fields:
                if self._columns and name not in self._columns:
                    continue
                spec = schema[name]
                b = blobs[name]
                out[name] = shards.field_array(name, b, shards.index[i][0]) if "shape" in spec else b
            yield out

    def schema(self):
        """The schema dict of the files."""
        return self._shards.schema

    def len(self):
        """The number of rows."""
        return len(self._shards)

    def close(self):
        """Release the open files."""
        if not self._closed:
            self._shards.close()
            self._closed = True

    def __del__(self):
        try:
            self.close()
        except Exception:  # noqa: BLE001  pylint: disable=broad-except
            pass
