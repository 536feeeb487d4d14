"""``mindspore.mindrecord.FileWriter``: write rows into MindRecord files that
MindSpore 2.10 reads (and that msjax's ``FileReader``/``MindDataset`` read).

Differences from MindSpore: ``parallel_writer=True`` writes each call's rows to the
next shard in turn, as MindSpore's worker processes do, but in the calling process
(no worker processes). Encryption (``set_enc_key``) is not supported.
"""
from __future__ import annotations

import logging
import os
import re

import numpy as np

from . import _codec
from ._shardwriter import ShardFiles
from .common.exceptions import (MRMAddSchemaError, MRMDefineIndexError, MRMInvalidSchemaError, ParamTypeError,
                                ParamValueError)

__all__ = ["FileWriter", "check_filename"]

_log = logging.getLogger("mindspore")

VALUE_TYPE_MAP = {"int": ["int32", "int64"], "float": ["float32", "float64"], "str": "string", "bytes": "bytes",
                  "int32": "int32", "int64": "int64", "float32": "float32", "float64": "float64",
                  "ndarray": ["int32", "int64", "float32", "float64"]}


def _pipeline_error(msg):
    return RuntimeError("Exception thrown from dataset pipeline. Refer to 'Dataset Pipeline Error Message'. \n\n"
                        "------------------------------------------------------------------\n"
                        "- Dataset Pipeline Error Message: \n"
                        "------------------------------------------------------------------\n"
                        f"[ERROR] {msg}")


def check_filename(path, arg_name=""):
    """MindSpore's file-name check (``ParamValueError`` for an empty, non-str or unsafe name)."""
    arg_name = "File path" if arg_name == "" else f"'{arg_name}'"
    if not path:
        raise ParamValueError(f"{arg_name} is not allowed None or empty!")
    if not isinstance(path, str):
        raise ParamValueError(f"File path: {path} is not string.")
    if path.endswith("/"):
        raise ParamValueError("File path can not end with '/'")
    name = os.path.basename(path)
    if set(name) & set(r'\/:*?"<>|`&\';'):
        raise ParamValueError(r"File name should not contains \/:*?\"<>|`&;\'")
    if name.startswith(" ") or name.endswith(" "):
        raise ParamValueError("File name should not start/end with space.")
    return True


def _check_size(what, value, low, high):
    if not low <= value <= high:
        raise _pipeline_error(f"Invalid data, {what}: {value} should be in range [{low} bytes, {high} bytes].")
    if value % 4:
        raise _pipeline_error(f"Invalid data, {what} {value} should be divided by four.")
    return value


class FileWriter:
    """Write user rows into MindRecord files (``FileWriter(file_name, shard_num=1, overwrite=False)``).

    ``add_schema``, ``add_index``, ``write_raw_data``, ``commit``, ``set_header_size``,
    ``set_page_size`` and ``FileWriter.open_for_append`` as MindSpore's; rows that do not
    match the schema are dropped with a warning, as MindSpore does.
    """

    def __init__(self, file_name, shard_num=1, overwrite=False):
        check_filename(file_name)
        self._file_name = file_name
        if shard_num is None:
            raise ParamValueError("Parameter shard_num is None.")
        if not isinstance(shard_num, int):
            raise ParamValueError("Parameter shard_num's type is not int.")
        if shard_num < _codec.MIN_SHARD_COUNT or shard_num > _codec.MAX_SHARD_COUNT:
            raise ParamValueError(f"Parameter shard_num's value: {shard_num} should between "
                                  f"{_codec.MIN_SHARD_COUNT} and {_codec.MAX_SHARD_COUNT}.")
        if not isinstance(overwrite, bool):
            raise ParamValueError("Parameter overwrite's type is not bool.")
        self._shard_num = shard_num
        width = len(str(shard_num - 1))
        self._paths = [file_name] if shard_num == 1 else [f"{file_name}{str(x).rjust(width, '0')}"
                                                          for x in range(shard_num)]
        self._overwrite = overwrite
        self._append = False
        self._flush = False
        self._schema = None
        self._desc = ""
        self._index_fields = []
        self._header_size = _codec.DEFAULT_HEADER_SIZE
        self._page_size = _codec.DEFAULT_PAGE_SIZE
        self._files = None
        self._append_headers = None
        self._parallel_writer = None
        self._next_shard = 0

    # ------------------------------------------------------------ append
    @classmethod
    def open_for_append(cls, file_name):
        """Open a committed MindRecord file (all its shards) to append rows."""
        check_filename(file_name)
        header = _codec.read_header(file_name)
        folder = os.path.dirname(file_name)
        paths = [os.path.join(folder, a) for a in header["shard_addresses"]]
        headers = [_codec.read_header(p) for p in paths]
        self = cls.__new__(cls)
        cls.__init__(self, paths[0], 1, False)
        self._paths = paths
        self._shard_num = len(paths)
        self._append = True
        s = header["schema"][0]
        self._schema, self._desc = s["schema"], s["desc"]
        self._index_fields = [f["index_field"] for f in header.get("index_fields") or []]
        self._header_size, self._page_size = header["header_size"], header["page_size"]
        self._append_headers = headers
        return self

    # ------------------------------------------------------------ schema
    def add_schema(self, content, desc=None):
        """Describe the fields (``{"name": {"type": t}}`` or ``{"type": t, "shape": [...]}``)."""
        ok, msg = self._validate_schema(content)
        if not ok:
            raise MRMInvalidSchemaError(msg)
        if self._schema is not None:
            _log.critical("Failed to add schema.")
            raise MRMAddSchemaError
        self._schema = {k: dict(v) for k, v in content.items()}
        self._desc = desc if desc else ""

    @staticmethod
    def _validate_schema(content):
        if not content:
            return False, "Schema content is empty."
        if not isinstance(content, dict):
            return False, "Schema content should be dict."
        for k, v in content.items():
            if not re.match(r"^[0-9a-zA-Z\_]+$", k):
                return False, f"Field '{k}' should be composed of '0-9' or 'a-z' or 'A-Z' or '_'."
            if not (v and isinstance(v, dict)):
                return False, f"Field '{k}' should be dict."
            if len(v) == 1 and "type" in v:
                if v["type"] not in _codec.SCALAR_TYPES:
                    return False, f"Field '{k}' contain illegal attribute '{v['type']}'."
            elif len(v) == 2 and "type" in v:
                if v["type"] not in _codec.ARRAY_TYPES:
                    return False, f"Field '{k}' contain illegal attribute '{v['type']}'."
                if "shape" not in v:
                    return False, f"Field '{v}' contains illegal attributes."
                if not isinstance(v["shape"], list):
                    return False, f"Field '{k}' contain illegal attribute '{v['shape']}'."
            else:
                return False, f"Field '{v}' contains illegal attributes."
        return True, ""

    def add_index(self, index_fields):
        """Index these scalar fields in the ``.db`` files (default: every scalar field)."""
        if not index_fields or not isinstance(index_fields, list):
            raise ParamTypeError("index_fields", "list")
        blobs = _codec.blob_fields(self._schema or {})
        for field in index_fields:
            if field in blobs:
                raise MRMDefineIndexError(f"Failed to set field {field} since it's not primitive type.")
            if not isinstance(field, str):
                raise ParamTypeError("index field", "str")
        for field in index_fields:
            if self._schema is None or field not in self._schema:
                raise _pipeline_error(f"Invalid input, 'index_fields': {field} can not found in schema: "
                                      f"{self._schema}.")
            if field not in self._index_fields:
                self._index_fields.append(field)

    def set_header_size(self, header_size):
        """Header bytes per shard file, in [16 KB, 128 MB] and a multiple of 4."""
        self._header_size = _check_size("header size", header_size, _codec.MIN_HEADER_SIZE, _codec.MAX_HEADER_SIZE)

    def set_page_size(self, page_size):
        """Page bytes, in [32 KB, 256 MB] and a multiple of 4."""
        self._page_size = _check_size("page size", page_size, _codec.MIN_PAGE_SIZE, _codec.MAX_PAGE_SIZE)

    # ------------------------------------------------------------ writing
    def _open(self):
        if self._files is not None:
            return
        if self._schema is None:
            raise _pipeline_error("Invalid data, schema is not found in header, please use 'add_schema' to add a "
                                  "schema for new mindrecord files.")
        if not self._append:
            for p in self._paths:
                if os.path.exists(p) or os.path.exists(p + ".db"):
                    if not self._overwrite:
                        raise _pipeline_error(
                            f"Invalid file, mindrecord files already exist. Please check file path: {p}.\nIf you "
                            "do not want to keep the files, set the 'overwrite' parameter to True and try again.")
                    for q in (p, p + ".db"):
                        if os.path.exists(q):
                            os.remove(q)
                            _log.warning("Succeed to remove the old mindrecord files, path: %s", q)
            for p in self._paths:
                folder = os.path.dirname(os.path.abspath(p))
                if not os.path.isdir(folder):
                    raise _pipeline_error("Invalid dir, failed to get the realpath of mindrecord file dir. Please "
                                          f"check path: {folder}")
        index = self._index_fields
        if not index:
            index = [k for k in sorted(self._schema) if self._schema[k]["type"] != "bytes"
                     and "shape" not in self._schema[k]]
        self._files = ShardFiles(self._paths, self._header_size, self._page_size, self._schema, self._desc, index,
                                 self._append_headers)

    def _verify_based_on_schema(self, raw_data):
        """Drop (with a warning) the rows that do not match the schema, as MindSpore does."""
        errors = {}
        schema = self._schema
        for field in schema:
            for i, v in enumerate(raw_data):
                if i in errors:
                    continue
                if field not in v:
                    errors[i] = f"for schema, {i} th data is wrong, there is not field: '{field}' in the raw data."
                    continue
                ftype = type(v[field]).__name__
                if ftype not in VALUE_TYPE_MAP:
                    errors[i] = (f"for schema, {i} th data is wrong, data type: '{ftype}' for field: '{field}' "
                                 "is not matched.")
                    continue
                if schema[field]["type"] not in VALUE_TYPE_MAP[ftype]:
                    errors[i] = (f"for schema, {i} th data is wrong, data type: '{schema[field]['type']}' for "
                                 f"field: '{field}' is not matched.")
                    continue
                if ftype == "ndarray":
                    if "shape" not in schema[field]:
                        errors[i] = f"for schema, {i} th data is wrong, data shape for field: '{field}' is not " \
                                    "specified."
                    elif schema[field]["type"] != str(v[field].dtype):
                        errors[i] = (f"for schema, {i} th data is wrong, data type: '{v[field].dtype}' for field: "
                                     f"'{field}' is not matched.")
                    else:
                        try:
                            np.reshape(v[field], schema[field]["shape"])
                        except ValueError:
                            errors[i] = (f"for schema, {i} th data is wrong, data shape: '{v[field].shape}' for "
                                         f"field: '{field}' is not matched.")
        for i, msg in sorted(errors.items(), reverse=True):
            raw_data.pop(i)
            _log.warning(msg)

    def write_raw_data(self, raw_data, parallel_writer=False):
        """Validate ``raw_data`` (a list of dicts) against the schema and write it."""
        if not isinstance(parallel_writer, bool):
            raise TypeError("The parameter `parallel_writer` must be bool.")
        if self._parallel_writer is None:
            self._parallel_writer = parallel_writer
        if self._parallel_writer != parallel_writer:
            raise RuntimeError("The parameter `parallel_writer` must be consistent during use.")
        self._open()
        if not isinstance(raw_data, list):
            raise ParamTypeError("raw_data", "list")
        if self._flush and not self._append:
            raise RuntimeError("Not allowed to call `write_raw_data` on flushed MindRecord files.When creating new "
                               "MindRecord files, please remove `commit` before `write_raw_data`. In other cases, "
                               "when appending to existing MindRecord files, please call `open_for_append` first "
                               "and then `write_raw_data`.")
        for row in raw_data:
            if not isinstance(row, dict):
                raise ParamTypeError("raw_data item", "dict")
        self._verify_based_on_schema(raw_data)
        if not raw_data:
            raise RuntimeError("There is no valid data which can be written by 'write_raw_data' to mindrecord file. "
                               "Please check the abnormal input data indicated in the warning log above.")
        blobs = self._files.blob_fields
        if len(blobs) == 1 and any(not bytes(row[blobs[0]]) for row in raw_data):
            # MindSpore leaves out a row whose only blob field is empty; with scalar fields as well the
            # row counts then differ and it fails
            if len(self._files.blob_fields) < len(self._schema):
                raise _pipeline_error("[Internal ERROR] raw data size is not equal to blob data size: a row's "
                                      "only blob field is empty.")
            raw_data = [row for row in raw_data if bytes(row[blobs[0]])]
            if not raw_data:
                return
        payloads = [self._files.row_payloads(row) for row in raw_data]
        if parallel_writer:
            self._files.independent = True
            self._files.write_rows(payloads, shard=self._next_shard)
            self._next_shard = (self._next_shard + 1) % len(self._paths)
        else:
            self._files.write_rows(payloads)

    def commit(self):
        """Write the headers and the ``.db`` index files; the files are complete after this."""
        self._flush = True
        self._open()
        self._files.commit()

    # MindSpore's writer keeps these helpers public
    def open_and_set_header(self):
        self._open()
