"""Line-oriented file sources: ``TextFileDataset`` (one ``text`` row per non-empty
line) and ``CSVDataset``.

They are MindSpore's non-mappable file readers and read rows as MindSpore 2.10
does with ``shuffle=False``: shard ``i`` of ``n`` takes rows
``[i*k, (i+1)*k)`` (``k = ceil(rows / n)``) of the files read one after another,
wrapping to the first file when it runs short; the pieces of files go to the
``num_parallel_workers`` readers in turn and the rows come out one per reader in
turn. ``shuffle=True``/``Shuffle.GLOBAL`` (the default) shuffles the file order
and all rows, ``Shuffle.FILES`` the file order only, ``Shuffle.INFILE`` the rows
of each file; the shuffled orders differ from MindSpore's.
"""
from __future__ import annotations

import csv
import glob
import math
import os

import numpy as np

from . import config
from . import samplers as _samplers
from .engine import Dataset, _FnRunner
from .sources import _check_source_args

__all__ = ["TextFileDataset", "CSVDataset"]


def _find_files(patterns):
    """MindSpore's ``_find_files``: glob each pattern (recursive), keep the order given."""
    if not isinstance(patterns, list):
        patterns = [patterns]
    files, unmatched = [], []
    for pattern in patterns:
        matches = [m for m in glob.glob(pattern, recursive=True) if os.path.isfile(m)]
        if matches:
            files.extend(matches)
        else:
            unmatched.append(pattern)
    if unmatched:
        raise ValueError(f"The following patterns did not match any files: {unmatched}.")
    return files


def _check_files(dataset_files):
    if not isinstance(dataset_files, (str, list)):
        raise TypeError(f"Argument dataset files with value {dataset_files} is not of type "
                        f"[<class 'str'>, <class 'list'>], but got {type(dataset_files)}.")
    if not dataset_files:
        raise ValueError("Input dataset_files can not be empty, but got '" + str(dataset_files) + "'.")
    return _find_files(dataset_files)


def _interleave(streams):
    """One item from each stream in turn, skipping streams that have ended."""
    iters = [iter(s) for s in streams]
    while iters:
        alive = []
        for it in iters:
            try:
                yield next(it)
            except StopIteration:
                continue
            alive.append(it)
        iters = alive


class _LineFileSource(Dataset):
    """Rows parsed from the lines of files. Subclasses give ``_file_rows(path)``
    (the list of the file's raw rows) and ``_convert(path, row, line_no)``."""

    def __init__(self, dataset_files, num_samples, num_parallel_workers, shuffle, num_shards, shard_id, cache):
        self.dataset_files = _check_files(dataset_files)
        _check_source_args(num_samples, shuffle, num_shards, shard_id)
        super().__init__(num_parallel_workers=num_parallel_workers, cache=cache)
        self.num_samples, self.shuffle_flag = num_samples, shuffle
        self.num_shards, self.shard_id = num_shards, shard_id
        self.shuffle_mode = _samplers.Shuffle.GLOBAL if shuffle is None or shuffle is True else shuffle
        self._rows_cache = None

    def _all_rows(self):
        if self._rows_cache is None:
            self._rows_cache = {f: self._file_rows(f) for f in self.dataset_files}
        return self._rows_cache

    def _shard_rows(self, total):
        return math.ceil(total / self.num_shards) if self.num_shards else total

    def _static_size(self):
        n = self._shard_rows(sum(len(r) for r in self._all_rows().values()))
        return min(n, self.num_samples) if self.num_samples else n

    def _blocks(self, files, counts):
        """(file, start, end) pieces of this shard, MindSpore's ``NeedPushFileToBlockQueue``."""
        total = sum(counts)
        if not self.num_shards:
            return [(f, 0, c) for f, c in zip(files, counts)]
        per = self._shard_rows(total)
        lo, hi = self.shard_id * per, (self.shard_id + 1) * per
        blocks, pre = [], 0
        while total and pre < hi:
            for f, c in zip(files, counts):
                if pre <= lo < pre + c:
                    blocks.append((f, lo - pre, min(c, hi - pre)))
                elif lo < pre < hi:
                    blocks.append((f, 0, min(c, hi - pre)))
                pre += c
        return blocks

    def _runner(self, ctx):
        rng = ctx.rng()
        rows = self._all_rows()
        workers = self.num_parallel_workers or config.get_num_parallel_workers()
        mode = self.shuffle_mode

        def epoch(k):
            files = list(self.dataset_files)
            if mode in (_samplers.Shuffle.GLOBAL, _samplers.Shuffle.FILES):
                files = [files[i] for i in rng.permutation(len(files))]
            blocks = self._blocks(files, [len(rows[f]) for f in files])

            def block_rows(block):
                f, start, end = block
                ids = list(range(start, end))
                if mode == _samplers.Shuffle.INFILE:
                    ids = [ids[i] for i in rng.permutation(len(ids))]
                for i in ids:
                    yield f, i

            per_worker = [[] for _ in range(max(1, min(workers, len(blocks))))]
            for j, b in enumerate(blocks):
                per_worker[j % len(per_worker)].append(b)
            order = list(_interleave([(r for b in bs for r in block_rows(b)) for bs in per_worker]))
            if mode == _samplers.Shuffle.GLOBAL:
                order = [order[i] for i in rng.permutation(len(order))]
            if self.num_samples:
                order = order[:self.num_samples]
            for f, i in order:
                yield self._convert(f, rows[f][i], i)
        return _FnRunner(epoch)


class TextFileDataset(_LineFileSource):
    """``mindspore.dataset.TextFileDataset``: one ``text`` row (a numpy string) per
    non-empty line of the files (split at ``\n``; a ``\r`` before it stays, as in MindSpore).

    ``TextFileDataset(dataset_files, num_samples=None, num_parallel_workers=None,
    shuffle=Shuffle.GLOBAL, num_shards=None, shard_id=None, cache=None)``.
    """

    def __init__(self, dataset_files, num_samples=None, num_parallel_workers=None, shuffle=_samplers.Shuffle.GLOBAL,
                 num_shards=None, shard_id=None, cache=None):
        super().__init__(dataset_files, num_samples, num_parallel_workers, shuffle, num_shards, shard_id, cache)

    def _col_names(self):
        return ["text"]

    def _file_rows(self, path):
        with open(path, encoding="utf-8", newline="") as f:
            lines = f.read().split("\n")
        return [ln for ln in lines if ln]     # MindSpore keeps a '\r' of CRLF line ends

    def _convert(self, path, row, i):
        return [np.array(row)]


class CSVDataset(_LineFileSource):
    """``mindspore.dataset.CSVDataset``: the rows of CSV files. Without
    ``column_names`` the first line of each file is its header (names from the
    first file). ``column_defaults`` gives each column's type by the type of its
    value (int -> Int32, float -> Float32, str -> string); without it every
    column is a string. A field that does not parse as its column's type stops
    the pipeline with MindSpore's error.

    ``CSVDataset(dataset_files, field_delim=',', column_defaults=None, column_names=None,
    num_samples=None, num_parallel_workers=None, shuffle=Shuffle.GLOBAL, num_shards=None,
    shard_id=None, cache=None)``.
    """

    def __init__(self, dataset_files, field_delim=",", column_defaults=None, column_names=None, num_samples=None,
                 num_parallel_workers=None, shuffle=_samplers.Shuffle.GLOBAL, num_shards=None, shard_id=None,
                 cache=None):
        if field_delim is not None:
            if not isinstance(field_delim, str):
                raise TypeError(f"Argument field delim with value {field_delim} is not of type [<class 'str'>], "
                                f"but got {type(field_delim)}.")
            if field_delim in ['"', '\r', '\n'] or len(field_delim) > 1:
                raise ValueError("field_delim is invalid.")
        if column_defaults is not None:
            if not isinstance(column_defaults, list):
                raise TypeError("column_defaults should be type of list.")
            if any(not isinstance(v, (str, int, float)) for v in column_defaults):
                raise TypeError("column type in column_defaults is invalid.")
        if column_names is not None and not all(isinstance(c, str) for c in column_names):
            raise TypeError("column_names should be a list of str.")
        self.field_delim = field_delim if field_delim is not None else ","
        self.column_defaults = column_defaults
        self.column_names = column_names
        self._header = None
        super().__init__(dataset_files, num_samples, num_parallel_workers, shuffle, num_shards, shard_id, cache)

    def _parse(self, path):
        with open(path, encoding="utf-8", newline="") as f:
            return [r for r in csv.reader(f, delimiter=self.field_delim, quotechar='"') if r]

    def _col_names(self):
        if self.column_names is not None:
            return list(self.column_names)
        if self._header is None:
            rows = self._parse(self.dataset_files[0])
            self._header = rows[0] if rows else []
        return list(self._header)

    def _file_rows(self, path):
        rows = [(i, r) for i, r in enumerate(self._parse(path))]
        return rows if self.column_names is not None else rows[1:]

    def _convert(self, path, row, i):
        line_no, fields = row
        out = []
        for j, field in enumerate(fields):
            default = self.column_defaults[j] if self.column_defaults and j < len(self.column_defaults) else ""
            if isinstance(default, str):
                out.append(np.array(field))
                continue
            try:
                if isinstance(default, int) and not isinstance(default, bool):
                    out.append(np.array(int(field), np.int32))
                else:
                    out.append(np.array(float(field), np.float32))
            except ValueError:
                raise RuntimeError("Exception thrown from dataset pipeline. Refer to 'Dataset Pipeline Error "
                                   f"Message'. Invalid csv, csv file: {path} parse failed at line {line_no}, "
                                   "type does not match.") from None
        return out


# ---------------------------------------------------------------------------
# text transforms (mindspore.dataset.text.transforms)
# ---------------------------------------------------------------------------
def _text_array(text, name):
    if hasattr(text, "asnumpy"):
        text = text.asnumpy()
    a = np.asarray(text)
    if a.dtype.kind == "S":
        a = np.char.decode(a, "utf-8")
    if a.dtype.kind != "U":
        raise RuntimeError(f"{name}: the input should be string tensor, but got type: {a.dtype}.")
    return a


class UnicodeCharTokenizer:
    """``UnicodeCharTokenizer(with_offsets=False)``: a string into its Unicode characters (a 1-D
    string array); with offsets also the UTF-8 byte offsets (uint32) of each character's start and end."""

    def __init__(self, with_offsets=False):
        if not isinstance(with_offsets, bool):
            raise TypeError(f"Argument with_offsets with value {with_offsets} is not of type [<class 'bool'>].")
        self.with_offsets = with_offsets

    def __call__(self, text):
        a = _text_array(text, "UnicodeCharTokenizer")
        if a.ndim != 0:
            raise RuntimeError("UnicodeCharTokenizer: the input tensor should be scalar string tensor.")
        s = str(a)
        tokens = np.array(list(s)) if s else np.array([""])
        if not self.with_offsets:
            return tokens
        sizes = [len(ch.encode("utf-8")) for ch in s]
        ends = np.cumsum(sizes).astype(np.uint32)
        starts = (ends - np.asarray(sizes, np.uint32)).astype(np.uint32)
        return tokens, starts, ends


class ToNumber:
    """``ToNumber(data_type)``: parse each string as a number of a numeric MindSpore/numpy type;
    a string that is not a number (or out of range) is a ``RuntimeError``."""

    def __init__(self, data_type):
        from .transforms.transforms import _np_dtype
        self.data_type = _np_dtype(data_type)
        if self.data_type.kind not in "iuf":
            raise TypeError(f"data_type: {data_type} is not numeric data type.")

    def __call__(self, text):
        a = _text_array(text, "ToNumber")
        out = np.empty(a.shape, self.data_type)
        for idx, s in np.ndenumerate(a):
            try:
                v = float(s) if self.data_type.kind == "f" else int(s)
            except ValueError:
                raise RuntimeError(f"ToNumber: string '{s}' can not be converted to {self.data_type}.") from None
            if self.data_type.kind in "iu":
                info = np.iinfo(self.data_type)
                if not info.min <= v <= info.max:
                    raise RuntimeError(f"ToNumber: string '{s}' is out of bounds for {self.data_type}.")
            out[idx] = v
        return out


__all__ += ["UnicodeCharTokenizer", "ToNumber"]
