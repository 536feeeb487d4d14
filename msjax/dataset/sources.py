"""Source datasets over user data: ``GeneratorDataset``, ``NumpySlicesDataset``,
``PaddedDataset``, and the random-access base the file readers share.

A *random-access* source (``__getitem__`` and ``__len__``) is read through a
sampler (``shuffle``, ``sampler``, ``num_samples``, ``num_shards``/``shard_id``
select it as MindSpore does); ``num_parallel_workers > 1`` reads rows on that
many threads and keeps the sampler's order (sample ``n`` of an epoch on worker
``n % num_parallel_workers``, as MindSpore's). A random-access ``GeneratorDataset``
with ``python_multiprocessing=True`` (its default) and several workers calls
``source[i]`` in that many forked processes instead (``_procpool``: the source is
inherited, not pickled; big arrays come back through shared memory; each worker
seeds ``random``/``numpy.random`` with ``seed + worker`` after ``set_seed``, as
MindSpore's). An *iterable* source (an object with ``__iter__``, or a generator
function called once per epoch) is read in order in one thread, whatever the
workers, as in MindSpore; ``num_samples`` caps it.

As MindSpore, a source whose class's ``__init__``/``__getitem__`` (or a source
function) mentions ``mindspore.nn``/``ops``/``numpy`` (msjax's modules too) gets
``num_parallel_workers = 1`` with MindSpore's warning: its operators cannot run in a
forked worker. Differences from MindSpore: ``set_multiprocessing_start_method('spawn')``
still forks; a worker killed by a signal raises ``RuntimeError`` in the iterator (MindSpore
logs it and terminates the main process); ``max_rowsize`` is ignored.
"""
from __future__ import annotations

import contextlib
import inspect
import types

import numpy as np

from .. import log as logger
from . import config
from . import samplers as _samplers
from ._procpool import ProcessCalls, WorkerLost, runs_jax
from .engine import Dataset, _FnRunner, ordered_parallel, py_object, to_numpy, user_error

__all__ = ["GeneratorDataset", "NumpySlicesDataset", "PaddedDataset", "MappableSource", "Schema"]

INT64_MAX = 9223372036854775807


def _check_sharding(num_shards, shard_id):
    if (num_shards is None) != (shard_id is None):
        raise ValueError("num_shards and shard_id need to be passed in together.")
    if num_shards is not None:
        for name, v in (("num_shards", num_shards), ("shard_id", shard_id)):
            if not isinstance(v, int) or isinstance(v, bool):
                raise TypeError(f"Argument {name} with value {v} is not of type [<class 'int'>].")
        if num_shards <= 0:
            raise ValueError(f"Input num_shards is not within the required interval of [1, 2147483647].")
        if shard_id < 0:
            raise ValueError(f"Input shard_id is not within the required interval of [0, 2147483647].")
        if shard_id >= num_shards:
            raise ValueError("shard_id should be less than num_shards.")


def _check_num_samples(num_samples):
    if num_samples is not None:
        if not isinstance(num_samples, int) or isinstance(num_samples, bool):
            raise TypeError(f"Argument num_samples with value {num_samples} is not of type [<class 'int'>].")
        if num_samples < 0 or num_samples > INT64_MAX:
            raise ValueError(f"num_samples exceeds the boundary between 0 and {INT64_MAX}!")


def _check_shuffle(shuffle):
    if shuffle is not None and not isinstance(shuffle, (bool, _samplers.Shuffle)):
        raise TypeError(f"Argument shuffle with value {shuffle} is not of type [<class 'bool'>], "
                        f"but got {type(shuffle)}.")


def _check_source_args(num_samples, shuffle, num_shards, shard_id):
    """The checks every source makes of ``num_samples``, ``shuffle`` and sharding."""
    _check_num_samples(num_samples)
    _check_shuffle(shuffle)
    _check_sharding(num_shards, shard_id)


class MappableSource(Dataset):
    """A source whose rows are read by index through a sampler. Subclasses give
    ``_num_rows()``, ``_read(i)`` (a list of numpy arrays) and ``_col_names()``."""

    _what = "source"

    def __init__(self, num_samples=None, num_parallel_workers=None, shuffle=None, sampler=None, num_shards=None,
                 shard_id=None, cache=None):
        _check_source_args(num_samples, shuffle, num_shards, shard_id)
        super().__init__(num_parallel_workers=num_parallel_workers, cache=cache)
        self.num_samples, self.shuffle_flag = num_samples, shuffle
        self.num_shards, self.shard_id = num_shards, shard_id
        self.sampler = _samplers.select_sampler(num_samples, sampler, shuffle, num_shards, shard_id)

    def _num_rows(self):
        raise NotImplementedError

    def _read(self, i):
        raise NotImplementedError

    def _labels(self):
        return None

    def _worker_processes(self, ctx):
        """The worker processes that read this source's rows, or None (threads)."""
        return None

    def _process_args(self, i):
        """The arguments of the worker processes' ``_read`` for index ``i``."""
        return (i,)

    def _split_by_sampler(self):
        return True

    def _static_size(self):
        n = self._num_rows()
        if isinstance(self.sampler, _samplers.PKSampler):
            self.sampler._labels = self._labels()
        return self.sampler._count(n)

    def _runner(self, ctx):
        run = self.sampler._run(ctx.rng())
        n = self._num_rows()
        if isinstance(self.sampler, _samplers.PKSampler):
            self.sampler._labels = self._labels()

        procs = self._worker_processes(ctx)

        def fetch(item):
            pos, i = item
            i = int(i)
            try:
                if procs is None:
                    return self._read(i)
                return procs.call(0, *self._process_args(i), worker=pos)   # sample pos on worker pos % n
            except WorkerLost:
                raise
            except Exception as e:  # noqa: BLE001
                if isinstance(e, RuntimeError) and str(e).startswith("Exception thrown from"):
                    raise
                raise user_error(f"{type(self).__name__}: reading sample index {i} from the {self._what}", e) from e

        def epoch(k):
            ids = self.sampler._epoch_ids(n, run, k)
            return ordered_parallel(fetch, enumerate(ids), self.num_parallel_workers)
        return _FnRunner(epoch, [procs] if procs is not None else [])


class Schema:
    """A column schema (``mindspore.dataset.Schema``): names, types and shapes."""

    def __init__(self, schema_file=None):
        self.columns = []
        self.num_rows = 0
        if schema_file is not None:
            import json
            with open(schema_file) as f:
                js = json.load(f)
            self.from_json(js)

    def add_column(self, name, de_type, shape=None):
        from .._core import dtype as mstype
        if not isinstance(name, str):
            raise TypeError("Expected non-empty string for column name.")
        if not isinstance(de_type, str):
            de_type = np.dtype(mstype.to_np(de_type)).name if not isinstance(de_type, type) or \
                not issubclass(de_type, np.generic) else np.dtype(de_type).name
        col = {"name": name, "type": de_type}
        if shape is not None:
            col["shape"] = list(shape)
            col["rank"] = len(shape)
        self.columns.append(col)

    def from_json(self, json_obj):
        cols = json_obj.get("columns", {})
        if isinstance(cols, dict):
            for k, v in cols.items():
                self.columns.append({"name": k, **v})
        else:
            self.columns.extend(cols)
        self.num_rows = json_obj.get("numRows", 0)

    def to_json(self):
        import json
        return json.dumps({"columns": self.columns, "numRows": self.num_rows}, indent=2)

    def parse_columns(self, columns):
        self.columns = []
        self.from_json({"columns": columns})

    def __str__(self):
        return self.to_json()


def _row_from_item(item):
    """A source item as a list of column arrays (MindSpore's ``_convert_row``)."""
    prim = (int, float, str, bytes, np.ndarray, np.number, np.bool_)
    if isinstance(item, prim) or (hasattr(item, "asnumpy") and hasattr(item, "dtype")):
        return [to_numpy(item, "input")]
    if isinstance(item, dict):
        return [py_object(item)]
    out = []
    for k, x in enumerate(item, 1):
        if isinstance(x, dict):
            out.append(py_object(x))
            continue
        if hasattr(x, "asnumpy") and hasattr(x, "dtype"):
            out.append(x.asnumpy())
            continue
        a = np.asarray(x)
        if a.dtype == object:
            raise TypeError(f"Data type of {k}th item of the input or its converted Numpy array is expected to be "
                            f"int or float or str, but got {a.dtype}.")
        out.append(a)
    return out


_OPERATOR_MODULES = ("mindspore.nn", "mindspore.ops", "mindspore.numpy", "mindspore.compression",
                     "msjax.nn", "msjax.ops", "msjax.numpy")


def _mentions_operators(source):
    """MindSpore's test for a source that computes with framework operators (which cannot run
    in a forked worker): the names and code of the source function, or of its class's
    ``__init__`` and ``__getitem__`` (else ``__next__``), mention an operator module.

    msjax also counts any msjax name those functions use (``ms.Tensor``, ``ops``...) and any
    msjax object the source holds (a Tensor, a Cell): JAX cannot run in a forked process at all
    (its thread pools are not copied: the worker would hang), where MindSpore's PyNative can."""
    funcs = [source] if isinstance(source, types.FunctionType) else \
        [getattr(type(source), m) for m in ("__init__", "__getitem__" if "__getitem__" in vars(type(source))
                                            else "__next__") if m in vars(type(source))]
    text = ""
    for f in funcs:
        with contextlib.suppress(TypeError, OSError):     # a builtin or code without a file: no text
            text += str(inspect.getclosurevars(f)) + inspect.getsource(f)
    return any(m in text for m in _OPERATOR_MODULES) or runs_jax(source, funcs)


class GeneratorDataset(MappableSource):
    """A dataset over a Python source: a random-access object (``__getitem__`` and
    ``__len__``), an iterable, or a generator function.

    ``GeneratorDataset(source, column_names=None, column_types=None, schema=None, num_samples=None,
    num_parallel_workers=1, shuffle=None, sampler=None, num_shards=None, shard_id=None,
    python_multiprocessing=True, max_rowsize=None, batch_sampler=None, collate_fn=None)``
    """

    _what = "source"

    def __init__(self, source, column_names=None, column_types=None, schema=None, num_samples=None,
                 num_parallel_workers=1, shuffle=None, sampler=None, num_shards=None, shard_id=None,
                 python_multiprocessing=True, max_rowsize=None, batch_sampler=None, collate_fn=None):
        if isinstance(column_names, str):
            column_names = [column_names]
        if schema is not None:
            if isinstance(schema, str):
                schema = Schema(schema)
            if not isinstance(schema, Schema):
                raise TypeError(f"Argument schema with value {schema} is not of type [Schema, str].")
            if column_names is None:
                column_names = [c["name"] for c in schema.columns]
            if column_types is None:
                column_types = [c.get("type") for c in schema.columns]
        if column_names is None:
            raise ValueError("Neither columns_names nor schema are provided.")
        if not isinstance(column_names, (list, tuple)) or not column_names or \
                not all(isinstance(c, str) for c in column_names):
            raise TypeError(f"column_names should be a str or a non-empty list of str, but got {column_names}.")
        if len(set(column_names)) != len(column_names):
            raise ValueError(f"Column names should be unique, but got {list(column_names)}.")
        if column_types is not None:
            if not isinstance(column_types, (list, tuple)):
                raise TypeError(f"column_types should be a list, but got {type(column_types)}.")
            if len(column_types) != len(column_names):
                raise ValueError("Number of column_names and column_types should be equal, but got "
                                 f"{len(column_names)} and {len(column_types)}.")
        if isinstance(sampler, _samplers.PKSampler):
            raise ValueError("GeneratorDataset doesn't support PKSampler.")
        if sampler is not None and not isinstance(sampler, _samplers.BuiltinSampler):
            try:        # MindSpore's argument check: a user sampler's __iter__ runs here once more
                iter(sampler)
            except TypeError as exc:
                raise TypeError("sampler should be either iterable or from mindspore.dataset.samplers.") from exc
        if batch_sampler is not None and (sampler is not None or shuffle is not None or num_samples is not None
                                          or num_shards is not None):
            raise ValueError("batch_sampler is mutually exclusive with sampler, shuffle, num_samples and "
                             "num_shards/shard_id.")
        if collate_fn is not None and batch_sampler is None:
            raise ValueError("collate_fn can only be used together with batch_sampler.")
        self.source = source
        self.random_access = hasattr(source, "__getitem__") and hasattr(source, "__len__") and \
            not isinstance(source, (str, bytes))
        if not self.random_access:
            if not (callable(source) or hasattr(source, "__iter__")):
                raise TypeError("Input `source` function of GeneratorDataset should be callable, iterable or "
                                "random accessible, commonly it should implement one of the method like yield, "
                                "__getitem__ or __next__(__iter__).")
            if sampler is not None or batch_sampler is not None:
                raise ValueError("sampler is not supported if source does not have attribute '__getitem__'.")
            if num_shards is not None:
                raise ValueError("num_shards is not supported if source does not have attribute '__getitem__'.")
            # shuffle=True is accepted and the rows keep the source's order, as in MindSpore 2.10
        if num_parallel_workers is None:
            num_parallel_workers = 1
        if config.get_multiprocessing_start_method() == "fork" and _mentions_operators(source):
            num_parallel_workers = 1
            logger.warning(
                "Input 'source' of 'GeneratorDataset' includes network computing operators like in mindspore.nn, "
                "mindspore.ops, mindspore.numpy module and etc, which do not support multi-thread compiling, recommend"
                " to replace it with python implemented operator like numpy etc. Here decrease 'num_parallel_workers' "
                "into 1.")
        if batch_sampler is not None:
            sampler = _samplers.SequentialSampler()
        super().__init__(num_samples, num_parallel_workers, shuffle if self.random_access else False,
                         sampler if self.random_access else None, num_shards, shard_id)
        self.column_names = list(column_names)
        self.column_types = None
        if column_types is not None:
            from .._core import dtype as mstype
            self.column_types = [None if t is None else np.dtype(t if isinstance(t, str) or
                                                                (isinstance(t, type) and issubclass(t, np.generic))
                                                                else mstype.to_np(t)) for t in column_types]
        self.python_multiprocessing = python_multiprocessing
        self.max_rowsize = max_rowsize
        self.batch_sampler = batch_sampler
        self.collate_fn = collate_fn

    def _split_by_sampler(self):
        return self.random_access and self.batch_sampler is None

    def _col_names(self):
        return self.column_names

    def _num_rows(self):
        if self.batch_sampler is not None:
            return len(self.batch_sampler)
        return len(self.source)

    def _check_row(self, row, where):
        if len(row) != len(self.column_names):
            raise RuntimeError(
                "Exception thrown from user defined Python function in dataset. Invalid Python function, the "
                "'source' of 'GeneratorDataset' should return same number of NumPy arrays as specified in "
                f"column_names, the size of column_names is:{len(self.column_names)} and number of returned NumPy "
                f"array is:{len(row)} ({where}).")
        if self.column_types is not None:
            for a, t, name in zip(row, self.column_types, self.column_names):
                if t is not None and isinstance(a, np.ndarray) and a.dtype != t:
                    raise RuntimeError(
                        "Exception thrown from user defined Python function in dataset. Invalid Python function, "
                        "type of returned data in 'GeneratorDataset' should be same with specified column_types, but "
                        f"the type of returned data in column '{name}': {a.dtype}, specified column type: {t} "
                        f"({where}).")
        return row

    def _batch_ids(self, i):
        batches = getattr(self, "_batches", None)
        return list(batches[i]) if batches is not None else None

    def _worker_processes(self, ctx):
        if not (self.python_multiprocessing and self.random_access and ctx.processes
                and (self.num_parallel_workers or 1) > 1 and not config.get_debug_mode()):
            return None
        return ProcessCalls([self._read], self.num_parallel_workers, config.get_seed(), "GeneratorDataset")

    def _process_args(self, i):
        # the batches are drawn in the main process every epoch: a worker's copy is stale
        return (i,) if self.batch_sampler is None else (i, self._batch_ids(i))

    def _read(self, i, idxs=None):
        if self.batch_sampler is not None:
            if idxs is None:
                idxs = self._batch_ids(i)
            items = [self.source[j] for j in idxs]
            if self.collate_fn is not None:
                return self._check_row(_row_from_item(self.collate_fn(items)), f"batch {i}")
            rows = [_row_from_item(x) for x in items]
            return self._check_row([np.stack([r[c] for r in rows]) for c in range(len(rows[0]))], f"batch {i}")
        item = self.source[i]
        return self._check_row(_row_from_item(item), f"sample index {i}")

    def _static_size(self):
        if self.random_access or self.batch_sampler is not None:
            return super()._static_size()
        return None

    def _runner(self, ctx):
        if self.batch_sampler is not None:
            base = super()._runner(ctx)

            def epoch(k):
                self._batches = list(self.batch_sampler)
                return base._epoch(k)
            return _FnRunner(epoch)
        if self.random_access:
            return super()._runner(ctx)
        limit = self.num_samples

        def epoch(k):
            try:
                it = iter(self.source() if callable(self.source) and not hasattr(self.source, "__iter__")
                          else self.source)
            except Exception as e:  # noqa: BLE001
                raise user_error("GeneratorDataset: calling the source", e) from e
            n = 0
            while limit is None or limit == 0 or n < limit:
                try:
                    item = next(it)
                except StopIteration:
                    return
                except Exception as e:  # noqa: BLE001
                    raise user_error(f"GeneratorDataset: getting sample index {n} from the source", e) from e
                try:
                    row = _row_from_item(item)
                except Exception as e:  # noqa: BLE001
                    raise user_error(f"GeneratorDataset: converting sample index {n}", e) from e
                yield self._check_row(row, f"sample index {n}")
                n += 1
        return _FnRunner(epoch)


def _slices_columns(data, column_names):
    """Columns of ``NumpySlicesDataset`` data (list, tuple, dict or ndarray)."""
    if hasattr(data, "to_dict") and hasattr(data, "columns"):   # pandas DataFrame
        data = {k: np.asarray(v) for k, v in data.to_dict("list").items()}
    if isinstance(data, dict):
        names = list(data.keys())
        cols = [np.asarray(to_numpy(v)) if not isinstance(v, list) else np.asarray(v) for v in data.values()]
    elif isinstance(data, tuple):
        names = None
        cols = [np.asarray(to_numpy(v)) if not isinstance(v, list) else np.asarray(v) for v in data]
    elif isinstance(data, (list, np.ndarray)) or hasattr(data, "asnumpy"):
        names = None
        cols = [np.asarray(data) if isinstance(data, list) else to_numpy(data)]
    else:
        raise TypeError(f"Unsupported data type: {type(data)}, only support some common python data type, like "
                        "list, tuple, dict, and numpy array.")
    for c in cols:
        if c.dtype == object:
            raise TypeError("Data type of the input or its converted Numpy array is expected to be int or float "
                            f"or str, but got {c.dtype}.")
        if c.ndim == 0:
            raise ValueError("Each column of NumpySlicesDataset data should be sliceable (at least 1-D).")
    if len({len(c) for c in cols}) > 1:
        raise ValueError("Data length in each column is not equal.")
    if column_names is not None:
        if isinstance(column_names, str):
            column_names = [column_names]
        if len(column_names) != len(cols):
            raise ValueError(f"Number of column_names ({len(column_names)}) should equal the number of data columns "
                             f"({len(cols)}).")
        names = list(column_names)
    elif names is None:
        names = [f"column_{i}" for i in range(len(cols))]
    return names, cols


class NumpySlicesDataset(MappableSource):
    """Rows sliced along the first axis of list/tuple/dict/ndarray data.

    ``NumpySlicesDataset(data, column_names=None, num_samples=None, num_parallel_workers=1, shuffle=None,
    sampler=None, num_shards=None, shard_id=None)``
    """

    _what = "data"

    def __init__(self, data, column_names=None, num_samples=None, num_parallel_workers=1, shuffle=None,
                 sampler=None, num_shards=None, shard_id=None):
        if isinstance(sampler, _samplers.PKSampler):
            raise ValueError("GeneratorDataset doesn't support PKSampler.")   # MindSpore's text (a subclass there)
        names, cols = _slices_columns(data, column_names)
        super().__init__(num_samples, None if num_parallel_workers == 1 else num_parallel_workers, shuffle, sampler,
                         num_shards, shard_id)
        self.column_list = names
        self._data = cols

    def _col_names(self):
        return self.column_list

    def _num_rows(self):
        return len(self._data[0]) if self._data else 0

    def _read(self, i):
        return [c[i] if c[i].ndim else np.asarray(c[i]) for c in self._data]


class PaddedDataset(MappableSource):
    """Rows given as a list of dicts (``mindspore.dataset.PaddedDataset``)."""

    def __init__(self, padded_samples):
        if not isinstance(padded_samples, list) or not padded_samples:
            raise ValueError("padded_samples should be a non-empty list of dict.")
        for s in padded_samples:
            if not isinstance(s, dict):
                raise TypeError("The element of padded_samples should be a dict.")
        keys = list(padded_samples[0].keys())
        for s in padded_samples:
            if list(s.keys()) != keys:
                raise ValueError("Each dict of padded_samples should have the same keys.")
        super().__init__(shuffle=False)
        self.padded_samples = padded_samples
        self._keys = keys

    def _col_names(self):
        return self._keys

    def _num_rows(self):
        return len(self.padded_samples)

    def _read(self, i):
        return [np.asarray(self.padded_samples[i][k]) for k in self._keys]


_RANDOM_TYPES = ("bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float16",
                 "float32", "float64")


class RandomDataset(Dataset):
    """``mindspore.dataset.RandomDataset``: rows of random data.

    ``RandomDataset(total_rows=None, schema=None, columns_list=None, num_samples=None,
    num_parallel_workers=None, cache=None, shuffle=None, num_shards=None, shard_id=None)``.
    As in MindSpore each array is one random byte repeated (``True`` for a non-zero
    byte in Bool columns); a column without a shape gets a random one (rank 1-4,
    sizes 1-32). Without a schema there are 1-4 columns ``c0``, ``c1`` ... of random
    numeric types; without ``total_rows`` (or ``num_samples``, or the schema's
    ``num_rows``) there are 1-1024 rows. ``num_shards``/``shard_id`` are checked but,
    as in MindSpore 2.10, every shard gives all rows. The numbers differ from MindSpore's.
    """

    def __init__(self, total_rows=None, schema=None, columns_list=None, num_samples=None, num_parallel_workers=None,
                 cache=None, shuffle=None, num_shards=None, shard_id=None):
        for name, v in (("total_rows", total_rows), ("num_samples", num_samples)):
            if v is not None and (not isinstance(v, int) or isinstance(v, bool)):
                raise TypeError(f"Argument {name} with value {v} is not of type [<class 'int'>], "
                                f"but got {type(v)}.")
        if shuffle is not None and not isinstance(shuffle, bool):
            raise TypeError(f"Argument shuffle with value {shuffle} is not of type [<class 'bool'>], "
                            f"but got {type(shuffle)}.")
        if columns_list is not None and not isinstance(columns_list, list):
            raise TypeError(f"Argument columns_list with value {columns_list} is not of type [<class 'list'>], "
                            f"but got {type(columns_list)}.")
        _check_num_samples(num_samples)
        _check_sharding(num_shards, shard_id)
        super().__init__(num_parallel_workers=num_parallel_workers, cache=cache)
        # MindSpore's rule (RandomDataset.__init__)
        rows = total_rows or 0
        if rows and num_samples:
            rows = min(rows, num_samples)
        if num_samples:
            rows = num_samples
        if isinstance(schema, str):
            schema = Schema(schema)
        if schema is not None:
            rows = total_rows if total_rows is not None else schema.num_rows
        gen = np.random.default_rng([config._base_seed(), 0x5EED])
        self.total_rows = int(rows) if rows else int(gen.integers(1, 1025))
        if schema is not None:
            cols = [(c["name"], np.dtype(c["type"]), tuple(c["shape"]) if c.get("shape") is not None else None)
                    for c in schema.columns]
        else:
            cols = [(f"c{i}", np.dtype(_RANDOM_TYPES[gen.integers(len(_RANDOM_TYPES))]), None)
                    for i in range(int(gen.integers(1, 5)))]
        if columns_list:
            by_name = {c[0]: c for c in cols}
            cols = [by_name[n] for n in columns_list]
        self._columns = cols

    def _col_names(self):
        return [c[0] for c in self._columns]

    def _static_size(self):
        return self.total_rows

    def _runner(self, ctx):
        rng = ctx.rng()

        def column(dtype, shape):
            if shape is None:
                shape = tuple(int(d) for d in rng.integers(1, 33, size=int(rng.integers(1, 5))))
            byte = int(rng.integers(0, 256))
            if dtype == np.bool_:
                return np.full(shape, byte != 0)
            return np.full(int(np.prod(shape)) * dtype.itemsize, byte, np.uint8).view(dtype).reshape(shape)

        def epoch(k):
            for _ in range(self._static_size()):
                yield [column(dtype, shape) for _, dtype, shape in self._columns]
        return _FnRunner(epoch)
