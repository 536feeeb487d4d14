"""The data pipeline: ``Dataset`` and its operations (batch, map, shuffle, ...).

A ``Dataset`` is a description (a tree of nodes). Iterating it builds *runners*:
one per node, each holding that iterator's state (random generators, epoch
counters). ``runner.epoch()`` yields one epoch of rows, a row being a list of
numpy arrays in column order; calling it again gives the next epoch, so shuffles
and random samplers draw a new order every epoch, and a pipeline built after
``ds.config.set_seed(n)`` repeats the same orders.

Iterators (``create_tuple_iterator``/``create_dict_iterator``/``for x in ds``)
run the pipeline in a background thread one epoch at a time, ``prefetch_size``
rows ahead, so preparing the next batch overlaps the training step. Sources with
``num_parallel_workers > 1`` and ``map``/``batch(per_batch_map=...)`` with several
workers run user functions on worker threads (row ``i`` on worker ``i % n``, as
MindSpore's) and keep the order of rows; a map's work runs on its own thread even with
one worker. Every stage holds a bounded number of rows. ``map(...,
python_multiprocessing=True)`` runs the Python callables (not msjax's transforms),
``batch(per_batch_map=..., python_multiprocessing=True)`` its function and a random-access
``GeneratorDataset`` (``python_multiprocessing=True``, several workers) its ``source[i]`` in
worker processes (``_procpool``), which start when a row first needs them and stop with the
iterator (``stop()``, its garbage collection or the interpreter's exit); the getters
(``get_dataset_size``, ``output_shapes``...) run without them, as MindSpore's. User code
that raises becomes a ``RuntimeError`` naming the operation and the sample index, chained
to the original exception (rebuilt from a worker process with the worker's traceback).

Differences from MindSpore: ``cache`` (a cache server) is accepted and ignored; a dataset
object may feed several pipelines; see ``_procpool`` for the worker processes'.
"""
from __future__ import annotations

import builtins
import collections
import concurrent.futures
import functools
import itertools
import queue
import threading
import weakref

import numpy as np

from . import config
from ._opstreams import MapStreams
from ._procpool import ProcessCalls, WorkerLost, runs_jax
from .callbacks import CallbackRunner, check_callbacks

__all__ = ["Dataset", "BatchDataset", "MapDataset", "ShuffleDataset", "RepeatDataset", "TakeDataset",
           "SkipDataset", "ProjectDataset", "RenameDataset", "ZipDataset", "ConcatDataset", "FilterDataset",
           "BatchInfo", "TupleIterator", "DictIterator", "zip", "to_numpy", "user_error"]

INT32_MAX = 2147483647
_builtin_zip = zip


# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------
def to_numpy(value, what="data"):
    """A column value as a numpy array (MindSpore's conversion rules)."""
    if isinstance(value, np.ndarray):
        return value
    if hasattr(value, "asnumpy") and hasattr(value, "dtype") and not isinstance(value, type):
        return value.asnumpy()
    if isinstance(value, dict):
        return py_object(value)
    arr = np.asarray(value)
    if arr.dtype == object:
        raise TypeError(f"Data type of the {what} or its converted Numpy array is expected to be int or float "
                        f"or str, but got {arr.dtype}.")
    return arr


def py_object(d):
    """A dict column value as MindSpore carries it: Python scalars become 0-d arrays,
    nested dicts likewise; arrays, lists and other objects are kept."""
    out = {}
    for k, v in d.items():
        if isinstance(v, dict):
            v = py_object(v)
        elif isinstance(v, (bool, int, float, complex, str, bytes, np.generic)):
            v = np.array(v)
        elif hasattr(v, "asnumpy") and hasattr(v, "dtype") and not isinstance(v, type):
            v = v.asnumpy()
        out[k] = v
    return out


def user_error(where, exc):
    """The error raised for an exception in user code inside the pipeline."""
    msg = (f"Exception thrown from user defined Python function in dataset. {where} failed: "
           f"{type(exc).__name__}: {exc}")
    err = RuntimeError(msg)
    err.__cause__ = exc
    return err


def _fn_name(fn):
    return getattr(fn, "__name__", None) or type(fn).__name__


def _check_workers(num, name="num_parallel_workers"):
    if num is None:
        return None
    if not isinstance(num, int) or isinstance(num, bool):
        raise TypeError(f"Argument {name} with value {num} is not of type [<class 'int'>], "
                        f"but got {type(num)}.")
    import os
    cpus = os.cpu_count() or 1
    if num < 1 or num > cpus:
        raise ValueError(f"{name} exceeds the boundary between 1 and {cpus}!")
    return num


def _as_list(cols, name):
    if cols is None:
        return None
    if isinstance(cols, str):
        cols = [cols]
    if not isinstance(cols, (list, tuple)) or not cols:
        raise TypeError(f"{name} should be a str or a non-empty list of str, but got {cols}.")
    for c in cols:
        if not isinstance(c, str):
            raise TypeError(f"Argument {name}[{cols.index(c)}] with value {c} is not of type [<class 'str'>].")
    if len(set(cols)) != len(cols):
        raise ValueError(f"{name} has duplicate column names: {list(cols)}.")
    return list(cols)


def _check_count(count, name="count", allow_minus_one=True, allow_zero=False):
    if not isinstance(count, int) or isinstance(count, bool):
        raise TypeError(f"Argument {name} with value {count} is not of type [<class 'int'>], but got {type(count)}.")
    if allow_minus_one and count == -1:
        return count
    lo = 0 if allow_zero else 1
    if count < lo or count > INT32_MAX:
        if allow_minus_one:
            raise ValueError(f"{name} should be either -1 or positive integer, range[1, INT32_MAX].")
        raise ValueError(f"Input {name} is not within the required interval of [{lo}, {INT32_MAX}].")
    return count


class _Ctx:
    """Per-iterator context: each node's runner gets its own random generator,
    seeded from the pipeline seed and the node's position in the tree."""

    def __init__(self, processes=True):
        self.base = config._base_seed()
        self._k = itertools.count()
        # worker processes allowed (MindSpore's getters, ``get_dataset_size``/``output_shapes``, run
        # the pipeline without them)
        self.processes = processes

    def rng(self):
        return np.random.default_rng([self.base, next(self._k)])


def ordered_parallel(fn, items, workers, window=None, pipelined=False, route=None):
    """``fn`` over ``items`` on ``workers`` threads; results in input order, at most
    ``window`` items in flight (the buffer is bounded). An exception of ``fn`` is re-raised
    for the item that raised it.

    As MindSpore's workers, item ``i`` goes to worker ``i % workers`` (or ``route(item)``; a
    one-thread ``ThreadPoolExecutor`` each), which treats its items in order: a worker's random
    engines then draw in MindSpore's order without waiting on the other workers. ``pipelined``: one
    worker is a thread too, so ``fn`` runs beside the caller's own work (reading the items,
    batching the results), as MindSpore's one-worker map runs beside its source and batch ops."""
    if not workers or (workers <= 1 and not pipelined):
        for it in items:
            yield fn(it)
        return
    window = window or max(workers * 4, 8)
    pools = [concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"msjax-dataset-w{k}")
             for k in range(workers)]
    pending = collections.deque()
    try:
        for n, it in enumerate(items):
            pending.append(pools[(n if route is None else route(it)) % workers].submit(fn, it))
            if len(pending) >= window:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
    finally:
        for f in pending:
            f.cancel()
        for pool in pools:
            pool.shutdown(wait=False, cancel_futures=True)


class BatchInfo:
    """What a callable ``batch_size``/``per_batch_map`` is told about the batch."""

    def __init__(self, batch_num, epoch_num):
        self._batch_num = batch_num
        self._epoch_num = epoch_num

    def get_batch_num(self):
        return self._batch_num

    def get_epoch_num(self):
        return self._epoch_num


# ---------------------------------------------------------------------------
# the Dataset base
# ---------------------------------------------------------------------------
class Dataset:
    """Base of every dataset node (``mindspore.dataset.Dataset``)."""

    def __init__(self, children=None, num_parallel_workers=None, cache=None):
        if children is None:
            children = []
        elif isinstance(children, Dataset):
            children = [children]
        self.children = list(children)
        self.num_parallel_workers = _check_workers(num_parallel_workers)
        self.cache = cache
        self._size = None
        self._cols = None
        self.dataset_size = None

    # --- structure (overridden) ---------------------------------------------------
    def _col_names(self):
        return self.children[0].get_col_names()

    def _static_size(self):
        """Rows per epoch when known without running the pipeline, else None."""
        return None

    def _runner(self, ctx):
        raise NotImplementedError

    # --- queries -------------------------------------------------------------------------
    def get_col_names(self):
        if self._cols is None:
            self._cols = list(self._col_names())
        return list(self._cols)

    def get_dataset_size(self):
        """Rows (batches after ``batch``) per epoch; runs the pipeline once to count
        when the size is not known from the structure (generators, filters)."""
        if self.dataset_size is not None:
            return self.dataset_size
        if self._size is None:
            n = self._static_size()
            if n is None:
                runner = self._runner(_Ctx(processes=False))
                n = sum(1 for _ in runner.epoch())
                runner.close()
            self._size = n
        return self._size

    def get_batch_size(self):
        for c in self.children:
            return c.get_batch_size()
        return 1

    def get_repeat_count(self):
        for c in self.children:
            return c.get_repeat_count()
        return 1

    def num_classes(self):
        for c in self.children:
            return c.num_classes()
        return None

    def _first_row(self):
        runner = self._runner(_Ctx(processes=False))
        try:
            for row in runner.epoch():
                return row
        finally:
            runner.close()
        raise RuntimeError("The dataset is empty: no row to infer shapes and types from.")

    def output_shapes(self, estimate=False):
        return [list(np.shape(x)) for x in self._first_row()]

    def output_types(self):
        return [x.dtype if isinstance(x, np.ndarray) else np.dtype(object) for x in self._first_row()]

    def get_class_indexing(self):
        for c in self.children:
            return c.get_class_indexing()
        raise TypeError("get_class_indexing() is only supported by ImageFolderDataset and similar sources.")

    def reset(self):
        """Kept for MindSpore compatibility: every iterator starts its own epochs."""
        return None

    def set_dynamic_columns(self, columns=None):
        return None

    def close_pool(self):
        return None

    def release(self):
        return None

    def sync_wait(self, condition_name, num_batch=1, callback=None):
        """Pass ``num_batch`` rows (batches, after ``batch``), then wait for ``sync_update``."""
        return SyncWaitDataset(self, condition_name, num_batch, callback)

    def sync_update(self, condition_name, num_batch=None, data=None):
        """Release the ``sync_wait`` named ``condition_name`` for ``num_batch`` more rows (default: its
        own), calling its callback with ``data`` first."""
        node = self._find_sync(condition_name)
        if node is None:
            raise RuntimeError(f"Condition name not found: {condition_name}.")
        node._release(num_batch, data)

    def _find_sync(self, name):
        if isinstance(self, SyncWaitDataset) and self.condition_name == name:
            return self
        for c in self.children:
            found = c._find_sync(name)
            if found is not None:
                return found
        return None

    def device_que(self, send_epoch_end=True, create_data_info_queue=False, queue_name=""):
        raise NotImplementedError("Dataset.device_que (data sinking onto Ascend/GPU queues) is not supported by "
                                  "msjax: iterate the dataset, or use Model.train(dataset_sink_mode=False).")

    def to_device(self, send_epoch_end=True, create_data_info_queue=False, queue_name=""):
        return self.device_que(send_epoch_end, create_data_info_queue, queue_name)

    def save(self, file_name, num_files=1, file_type="mindrecord"):
        """Write the pipeline's rows (one epoch) to MindRecord files that ``MindDataset`` (msjax's or
        MindSpore's) reads. The schema comes from the first row, with MindSpore's casts (bool and
        8/16-bit integers and int32 to int32, uint32/int64/uint64 to int64, float16/float32 to float32,
        float64 kept; arrays get shape ``[-1, *rest]``; 0-d strings and bytes stay scalar fields)."""
        from ..mindrecord.filewriter import FileWriter
        if not isinstance(file_name, str):
            raise TypeError(f"Argument file_name with value {file_name} is not of type [<class 'str'>].")
        if not isinstance(num_files, int) or isinstance(num_files, bool):
            raise TypeError(f"Argument num_files with value {num_files} is not of type [<class 'int'>].")
        if not 1 <= num_files <= 1000:
            raise ValueError(f"Input num_files is not within the required interval of [1, 1000].")
        if file_type != "mindrecord":
            raise ValueError(f"Input file_type is not within the valid set of ['mindrecord'].")
        names = self.get_col_names()
        writer, schema, buf = None, None, []
        for row in self.create_tuple_iterator(num_epochs=1, output_numpy=True):
            if schema is None:
                schema = {n: _save_field(n, v) for n, v in builtins.zip(names, row)}
                writer = FileWriter(file_name, num_files)
                writer.add_schema(schema, "mindrecord")
            buf.append({n: _save_value(v, schema[n]) for n, v in builtins.zip(names, row)})
            if len(buf) >= 1000:
                writer.write_raw_data(buf)
                buf = []
        if writer is None:
            raise RuntimeError("Invalid data, the dataset to save has no rows.")
        if buf:
            writer.write_raw_data(buf)
        writer.commit()

    # --- pipeline operations -------------------------------------------------------------
    def batch(self, batch_size, drop_remainder=False, num_parallel_workers=None, **kwargs):
        return BatchDataset(self, batch_size, drop_remainder, num_parallel_workers, **kwargs)

    def padded_batch(self, batch_size, drop_remainder=False, num_parallel_workers=None, pad_info=None):
        return BatchDataset(self, batch_size, drop_remainder, num_parallel_workers, pad_info=pad_info or {})

    def map(self, operations, input_columns=None, output_columns=None, num_parallel_workers=None, **kwargs):
        return MapDataset(self, operations, input_columns, output_columns, num_parallel_workers, **kwargs)

    def filter(self, predicate, input_columns=None, num_parallel_workers=None):
        return FilterDataset(self, predicate, input_columns, num_parallel_workers)

    def bucket_batch_by_length(self, column_names, bucket_boundaries, bucket_batch_sizes,
                               element_length_function=None, pad_info=None, pad_to_bucket_boundary=False,
                               drop_remainder=False):
        return BucketBatchByLengthDataset(self, column_names, bucket_boundaries, bucket_batch_sizes,
                                          element_length_function, pad_info, pad_to_bucket_boundary, drop_remainder)

    def shuffle(self, buffer_size):
        return ShuffleDataset(self, buffer_size)

    def repeat(self, count=None):
        return RepeatDataset(self, count)

    def take(self, count=-1):
        return TakeDataset(self, count)

    def skip(self, count):
        return SkipDataset(self, count)

    def project(self, columns):
        return ProjectDataset(self, columns)

    def rename(self, input_columns, output_columns):
        return RenameDataset(self, input_columns, output_columns)

    def zip(self, datasets):
        if isinstance(datasets, tuple):
            datasets = (self,) + datasets
        elif isinstance(datasets, Dataset):
            datasets = (self, datasets)
        else:
            raise TypeError(f"Invalid datasets, expected Dataset object or tuple of Dataset, but got {datasets}.")
        return ZipDataset(datasets)

    def concat(self, datasets):
        if isinstance(datasets, Dataset):
            datasets = [self, datasets]
        elif isinstance(datasets, list):
            datasets = [self] + datasets
        else:
            raise TypeError(f"Invalid datasets, expected Dataset object or list of Dataset, but got {datasets}.")
        return ConcatDataset(datasets)

    def __add__(self, other):
        return self.concat(other)

    def apply(self, apply_func):
        if not callable(apply_func):
            raise TypeError("apply_func must be a function.")
        out = apply_func(self)
        if not isinstance(out, Dataset):
            raise TypeError("apply_func must return a dataset.")
        return out

    def split(self, sizes, randomize=True):
        """Split into datasets of the given sizes (ints, or fractions summing to 1)."""
        n = self.get_dataset_size()
        if not isinstance(sizes, list) or not sizes:
            raise TypeError("sizes must be a non-empty list of int or float.")
        if all(isinstance(s, float) for s in sizes):
            if abs(sum(sizes) - 1) > 1e-6:
                raise ValueError("Sum of split sizes is not 1.")
            counts = [int(round(s * n)) for s in sizes]
            counts[-1] += n - sum(counts)
        else:
            counts = list(sizes)
            if sum(counts) != n:
                raise ValueError(f"Sum of split sizes {sum(counts)} is not equal to dataset size {n}.")
        order = np.arange(n)
        if randomize:
            # as MindSpore: a random-access source is split through a RandomSampler (the
            # same order every epoch), any other dataset through a shuffle buffer of 10000
            from ._stdrandom import MT19937, MT19937_64, shuffle
            from .samplers import _engine_seed
            seed = _engine_seed(np.random.default_rng(config._base_seed()))
            if getattr(self, "_split_by_sampler", lambda: False)():
                order = np.asarray(shuffle(list(range(n)), MT19937(seed)), np.int64)
            else:
                order = np.fromiter(_buffer_shuffle(range(n), 10000, MT19937_64(seed)), np.int64, n)
        rows = []
        runner = self._runner(_Ctx())
        rows = list(runner.epoch())
        runner.close()
        out, start = [], 0
        for c in counts:
            out.append(_RowsDataset([rows[i] for i in order[start:start + c]], self.get_col_names()))
            start += c
        return tuple(out)

    # --- iteration --------------------------------------------------------------------------
    def create_tuple_iterator(self, columns=None, num_epochs=-1, output_numpy=False, do_copy=True):
        return TupleIterator(self, columns, num_epochs, output_numpy, do_copy)

    def create_dict_iterator(self, num_epochs=-1, output_numpy=False, do_copy=True):
        return DictIterator(self, num_epochs, output_numpy, do_copy)

    def __iter__(self):
        return iter(self.create_tuple_iterator())

    def __deepcopy__(self, memodict):
        return self


# ---------------------------------------------------------------------------
# runners
# ---------------------------------------------------------------------------
def _save_type(dtype):
    k = np.dtype(dtype)
    if k.kind == "b" or (k.kind in "iu" and k.itemsize <= 2) or k == np.int32:
        return "int32"
    if k.kind in "iu":
        return "int64"
    if k.kind == "f":
        return "float64" if k.itemsize == 8 else "float32"
    raise RuntimeError(f"Invalid data, Dataset.save does not support the type {k} in MindRecord files.")


def _save_field(name, v):
    v = np.asarray(v)
    if v.dtype.kind in "SUO":
        if v.ndim:
            raise RuntimeError(f"Invalid data, column {name}: MindRecord does not support multi-dimensional string "
                               "or bytes tensors.")
        return {"type": "bytes" if v.dtype.kind == "S" else "string"}
    t = _save_type(v.dtype)
    if v.ndim == 0:
        return {"type": t}
    return {"type": t, "shape": [-1] + list(v.shape[1:])}


def _save_value(v, spec):
    v = np.asarray(v)
    if spec["type"] == "bytes":
        return bytes(v.item())
    if spec["type"] == "string":
        return str(v.item())
    if "shape" in spec:
        return np.ascontiguousarray(v.astype(spec["type"]))
    return int(v) if spec["type"].startswith("int") else float(np.asarray(v, spec["type"]))


class _Runner:
    def __init__(self):
        self.epochs = 0

    def epoch(self):
        gen = self._epoch(self.epochs)
        self.epochs += 1
        return gen

    def _epoch(self, k):
        raise NotImplementedError

    def close(self):
        pass


class _FnRunner(_Runner):
    def __init__(self, fn, children=()):
        super().__init__()
        self._fn = fn
        self._children = list(children)

    def _epoch(self, k):
        return self._fn(k)

    def close(self):
        for c in self._children:
            c.close()


# ---------------------------------------------------------------------------
# operations
# ---------------------------------------------------------------------------
def _replace_columns(cols, inputs, outputs):
    """Column order after an op that consumes ``inputs`` and produces ``outputs``:
    the outputs take the place of the first input column (MindSpore)."""
    first = cols.index(inputs[0])
    keep_before = [c for c in cols[:first] if c not in inputs]
    keep_after = [c for c in cols[first:] if c not in inputs]
    return keep_before + list(outputs) + keep_after


def _stack(values, col, pad=None):
    """Rows of one column stacked into a batch."""
    if values and isinstance(values[0], dict):
        # MindSpore batches dict rows key by key (a key missing from a row is an error)
        keys = list(values[0])
        for v in values:
            if not isinstance(v, dict) or list(v) != keys:
                raise RuntimeError(f"Invalid data, column: {col}: every row's dict must have the keys {keys} to "
                                   "be batched.")
        return {k: _stack([v[k] if isinstance(v[k], dict) else to_numpy(v[k]) for v in values], col)
                for k in keys}
    if pad is not None:
        shape, value = pad
        ndim = values[0].ndim
        if shape is None:
            shape = [None] * ndim
        target = [max(v.shape[d] for v in values) if (shape[d] is None) else shape[d] for d in range(ndim)]
        out = np.full([len(values)] + target, value, dtype=values[0].dtype)
        for i, v in enumerate(values):
            v = v[tuple(slice(0, t) for t in target)]   # larger rows are cut to pad_shape
            out[(i,) + tuple(slice(0, s) for s in v.shape)] = v
        return out
    first = values[0].shape
    for v in values[1:]:
        if v.shape != first:
            raise RuntimeError(
                f"Inconsistent batch shapes, batch operation expects same shape for each data row, but got "
                f"inconsistent shape in column {col}, expected shape for this column is:{list(first)}, got "
                f"shape:{list(v.shape)}")
    try:
        return np.stack(values)
    except (TypeError, ValueError) as e:
        raise RuntimeError(f"Batch operation failed for column {col}: {e}") from e


class BucketBatchByLengthDataset(Dataset):
    """``dataset.bucket_batch_by_length(column_names, bucket_boundaries, bucket_batch_sizes, ...)``:
    rows go to the bucket of their length (``element_length_function`` of the named columns, or
    the one column's first dimension); a full bucket is padded (``pad_info``) and batched; at the
    end of an epoch the partial buckets follow in bucket order unless ``drop_remainder``."""

    def __init__(self, input_dataset, column_names, bucket_boundaries, bucket_batch_sizes,
                 element_length_function=None, pad_info=None, pad_to_bucket_boundary=False, drop_remainder=False):
        column_names = _as_list(column_names, "column_names")
        if not column_names:
            raise ValueError("column_names should not be empty.")
        if not isinstance(bucket_boundaries, list) or not all(isinstance(b, int) and b > 0
                                                              for b in bucket_boundaries):
            raise ValueError("bucket_boundaries must only contain positive numbers.")
        if any(b >= c for b, c in _builtin_zip(bucket_boundaries, bucket_boundaries[1:])):
            raise ValueError("bucket_boundaries should be strictly increasing.")
        if not isinstance(bucket_batch_sizes, list) or len(bucket_batch_sizes) != len(bucket_boundaries) + 1:
            raise ValueError("bucket_batch_sizes must contain one element more than bucket_boundaries.")
        if not all(isinstance(b, int) and b > 0 for b in bucket_batch_sizes):
            raise ValueError("bucket_batch_sizes must only contain positive numbers.")
        if element_length_function is None and len(column_names) != 1:
            raise ValueError("If element_length_function is not specified, exactly one column name should be "
                             "passed.")
        if pad_info is not None and not isinstance(pad_info, dict):
            raise TypeError(f"pad_info should be a dict, but got {type(pad_info)}.")
        super().__init__([input_dataset])
        self.column_names, self.bucket_boundaries = column_names, bucket_boundaries
        self.bucket_batch_sizes, self.element_length_function = bucket_batch_sizes, element_length_function
        self.pad_info, self.pad_to_bucket_boundary = pad_info, pad_to_bucket_boundary
        self.drop_remainder = drop_remainder

    def _static_size(self):
        return None

    def _runner(self, ctx):
        import bisect
        child = self.children[0]._runner(ctx)
        cols = self.children[0].get_col_names()
        for c in self.column_names:
            if c not in cols:
                raise RuntimeError(f"Invalid parameter, column name: {c} doesn't exist in the dataset columns "
                                   f"{cols}.")
        idx = [cols.index(c) for c in self.column_names]

        def length(row):
            args = [row[i] for i in idx]
            if self.element_length_function is None:
                a = np.asarray(args[0])
                return 0 if a.ndim == 0 else a.shape[0]
            try:
                n = self.element_length_function(*args)
            except Exception as e:  # noqa: BLE001
                raise user_error(f"bucket_batch_by_length: element_length_function "
                                 f"[{_fn_name(self.element_length_function)}]", e) from e
            return int(np.asarray(n))

        def make(rows, b):
            out = []
            for j, c in enumerate(cols):
                pad = None
                if self.pad_info is not None:
                    shape, value = self.pad_info.get(c, (None, 0))
                    if self.pad_to_bucket_boundary and c in self.pad_info:
                        if b >= len(self.bucket_boundaries):
                            raise RuntimeError("Invalid data, if pad_to_bucket_boundary is set to true, elements "
                                               "should not fall into the last bucket.")
                        shape = [self.bucket_boundaries[b] - 1 if (shape is None or d is None) else d
                                 for d in (shape or [None])]
                    pad = (shape, value)
                out.append(_stack([r[j] for r in rows], c, pad))
            return out

        def epoch(k):
            buckets = [[] for _ in self.bucket_batch_sizes]
            for row in child.epoch():
                b = bisect.bisect_right(self.bucket_boundaries, length(row))
                buckets[b].append(row)
                if len(buckets[b]) == self.bucket_batch_sizes[b]:
                    yield make(buckets[b], b)
                    buckets[b] = []
            if not self.drop_remainder:
                for b, rows in enumerate(buckets):
                    if rows:
                        yield make(rows, b)
        return _FnRunner(epoch, [child])


class SyncWaitDataset(Dataset):
    """``dataset.sync_wait(condition_name, num_batch=1, callback=None)``: a gate that lets
    ``num_batch`` rows through per ``sync_update`` call (the first ones freely)."""

    def __init__(self, input_dataset, condition_name, num_batch=1, callback=None):
        if not isinstance(condition_name, str):
            raise TypeError(f"Argument condition_name with value {condition_name} is not of type "
                            "[<class 'str'>].")
        if not isinstance(num_batch, int) or isinstance(num_batch, bool) or num_batch < 1:
            raise ValueError("Input num_batch is not within the required interval of [1, 2147483647].")
        if callback is not None and not callable(callback):
            raise TypeError("callback should be callable.")
        if input_dataset._find_sync(condition_name) is not None:
            raise RuntimeError(f"Condition name is already in use: {condition_name}.")
        super().__init__([input_dataset])
        self.condition_name, self.num_batch, self.callback = condition_name, num_batch, callback
        self._cond = threading.Condition()
        self._allowed = num_batch

    def _release(self, num_batch, data):
        if num_batch is not None and (not isinstance(num_batch, int) or num_batch < 1):
            raise ValueError("Input num_batch is not within the required interval of [1, 2147483647].")
        if self.callback is not None:
            self.callback(data)
        with self._cond:
            self._allowed += self.num_batch if num_batch is None else num_batch
            self._cond.notify_all()

    def _runner(self, ctx):
        child = self.children[0]._runner(ctx)

        def epoch(k):
            for row in child.epoch():
                with self._cond:
                    while self._allowed <= 0:
                        if not self._cond.wait(timeout=1.0) and threading.current_thread() is \
                                threading.main_thread():
                            raise RuntimeError(f"sync_wait '{self.condition_name}': the pipeline waits for "
                                               "sync_update, which was not called.")
                    self._allowed -= 1
                yield row
        return _FnRunner(epoch, [child])


class BatchDataset(Dataset):
    """``dataset.batch(batch_size, drop_remainder=False, num_parallel_workers=None, per_batch_map=None,
    input_columns=None, output_columns=None, ...)``."""

    def __init__(self, input_dataset, batch_size, drop_remainder=False, num_parallel_workers=None,
                 per_batch_map=None, input_columns=None, output_columns=None, python_multiprocessing=False,
                 max_rowsize=None, pad_info=None, **kwargs):
        unknown = set(kwargs) - {"column_order"}
        if unknown:
            raise TypeError(f"batch() got an unexpected keyword argument '{sorted(unknown)[0]}'")
        if callable(batch_size):
            pass
        elif not isinstance(batch_size, int) or isinstance(batch_size, bool):
            raise TypeError("batch_size should either be an int or a callable.")
        elif batch_size < 1 or batch_size > INT32_MAX:
            raise ValueError(f"Input batch_size is not within the required interval of [1, {INT32_MAX}].")
        if not isinstance(drop_remainder, bool):
            raise TypeError(f"Argument drop_remainder with value {drop_remainder} is not of type "
                            f"[<class 'bool'>], but got {type(drop_remainder)}.")
        if per_batch_map is not None and not callable(per_batch_map):
            raise TypeError("per_batch_map should be callable.")
        if (input_columns is not None or output_columns is not None) and per_batch_map is None:
            raise ValueError("per_batch_map and input_columns need to be passed in together.")
        if pad_info is not None and not isinstance(pad_info, dict):
            raise TypeError(f"pad_info should be a dict, but got {type(pad_info)}.")
        if not isinstance(python_multiprocessing, bool):
            raise TypeError(f"Argument python_multiprocessing with value {python_multiprocessing} is not of type "
                            f"[<class 'bool'>], but got {type(python_multiprocessing)}.")
        super().__init__([input_dataset], num_parallel_workers)
        self.batch_size = batch_size
        self.drop_remainder = drop_remainder
        self.per_batch_map = per_batch_map
        self.python_multiprocessing = python_multiprocessing
        self.input_columns = _as_list(input_columns, "input_columns")
        self.output_columns = _as_list(output_columns, "output_columns")
        self.pad_info = pad_info

    def _col_names(self):
        cols = self.children[0].get_col_names()
        if self.per_batch_map is None:
            return cols
        ins = self.input_columns or cols
        for c in ins:
            if c not in cols:
                raise RuntimeError(f"Invalid parameter, input column name: {c} doesn't exist in the dataset "
                                   f"columns {cols}.")
        outs = self.output_columns or ins
        return _replace_columns(cols, ins, outs)

    def _static_size(self):
        if callable(self.batch_size):
            return None   # a per_batch_map keeps the row count of each batch (MindSpore checks it)
        n = self.children[0].get_dataset_size()
        return n // self.batch_size if self.drop_remainder else -(-n // self.batch_size)

    def get_batch_size(self):
        return self.batch_size if isinstance(self.batch_size, int) else -1

    def _runner(self, ctx):
        child = self.children[0]._runner(ctx)
        in_cols = self.children[0].get_col_names()
        out_cols = self.get_col_names()
        pads = self.pad_info
        per_batch_map, procs = self.per_batch_map, None
        if self.python_multiprocessing and per_batch_map is not None and ctx.processes \
                and not config.get_debug_mode():
            # MindSpore's: the function on num_parallel_workers processes (the default count without one)
            procs = ProcessCalls([per_batch_map], self.num_parallel_workers or config.get_num_parallel_workers(),
                                 config.get_seed(), "batch")
            per_batch_map = functools.partial(procs.call, 0)

        def make_batch(args):
            rows, info = args
            if self.per_batch_map is not None:
                ins = self.input_columns or in_cols
                idx = [in_cols.index(c) for c in ins]
                cols_in = [[r[i] for r in rows] for i in idx]
                try:
                    res = per_batch_map(*cols_in, info)
                except WorkerLost:
                    raise
                except Exception as e:  # noqa: BLE001
                    raise user_error(f"batch operation: per_batch_map [{_fn_name(self.per_batch_map)}] of batch "
                                     f"{info.get_batch_num()}", e) from e
                if not isinstance(res, tuple):
                    res = (res,)
                outs = self.output_columns or ins
                if len(res) != len(outs):
                    raise RuntimeError(f"Invalid columns, the number of columns returned by 'per_batch_map' is "
                                       f"{len(res)}, but the number of 'output_columns' is {len(outs)}.")
                values, whole = {}, {}
                for c, r in _builtin_zip(outs, res):
                    if isinstance(r, dict):      # a Python object for the whole batch (MindSpore keeps it)
                        whole[c] = py_object(r)
                        continue
                    values[c] = [to_numpy(x) for x in r]
                    if len(values[c]) != len(rows):
                        raise RuntimeError(f"Invalid data, column: {c} expects: {len(rows)} rows returned from "
                                           f"'per_batch_map', got: {len(values[c])}")
                for j, c in enumerate(in_cols):
                    if c not in ins:
                        values[c] = [r[j] for r in rows]
                return [whole[c] if c in whole else _stack(values[c], c) for c in out_cols]
            out = []
            for j, c in enumerate(out_cols):
                pad = None
                if pads is not None:
                    pad = pads.get(c, (None, 0)) if pads else (None, 0)
                out.append(_stack([r[j] for r in rows], c, pad))
            return out

        def epoch(k):
            def groups():
                it = child.epoch()
                bnum = 0
                while True:
                    bs = self.batch_size
                    if callable(bs):
                        try:
                            bs = bs(BatchInfo(bnum, k))
                        except Exception as e:  # noqa: BLE001
                            raise user_error(f"batch operation: batch_size [{_fn_name(self.batch_size)}]", e) from e
                        if not isinstance(bs, int) or bs < 1:
                            raise RuntimeError(f"Invalid batch_size: the callable batch_size returned {bs}, it "
                                               "should be a positive int.")
                    rows = list(itertools.islice(it, bs))
                    if not rows or (len(rows) < bs and self.drop_remainder):
                        return
                    yield rows, BatchInfo(bnum, k)
                    bnum += 1
                    if len(rows) < bs:
                        return
            workers = self.num_parallel_workers if self.per_batch_map is not None else None
            yield from ordered_parallel(make_batch, groups(), workers)
        return _FnRunner(epoch, [child] + ([procs] if procs is not None else []))


class MapDataset(Dataset):
    """``dataset.map(operations, input_columns=None, output_columns=None, num_parallel_workers=None, ...)``."""

    def __init__(self, input_dataset, operations=None, input_columns=None, output_columns=None,
                 num_parallel_workers=None, python_multiprocessing=False, cache=None, callbacks=None,
                 max_rowsize=None, offload=None, **kwargs):
        unknown = set(kwargs) - {"column_order"}
        if unknown:
            raise TypeError(f"map() got an unexpected keyword argument '{sorted(unknown)[0]}'")
        if operations is None:
            raise ValueError("Input operations should not be None.")
        ops = list(operations) if isinstance(operations, (list, tuple)) else [operations]
        if not ops:
            raise ValueError("Input operations should not be empty.")
        for op in ops:
            if not callable(op):
                raise TypeError(f"Argument operations[{ops.index(op)}] with value {op} is not a callable: "
                                "operations must be transforms or Python functions.")
        self.callbacks = check_callbacks(callbacks)
        if not isinstance(python_multiprocessing, bool):
            raise TypeError(f"Argument python_multiprocessing with value {python_multiprocessing} is not of type "
                            f"[<class 'bool'>], but got {type(python_multiprocessing)}.")
        super().__init__([input_dataset], num_parallel_workers, cache)
        self.operations = ops
        self.python_multiprocessing = python_multiprocessing
        self.input_columns = _as_list(input_columns, "input_columns")
        self.output_columns = _as_list(output_columns, "output_columns")

    def _io(self):
        cols = self.children[0].get_col_names()
        ins = self.input_columns or cols[:1]
        for c in ins:
            if c not in cols:
                raise RuntimeError(f"Invalid parameter, input column name: {c} doesn't exist in the dataset "
                                   f"columns {cols}.")
        outs = self.output_columns or ins
        return cols, ins, outs

    def _col_names(self):
        cols, ins, outs = self._io()
        return _replace_columns(cols, ins, outs)

    def _static_size(self):
        return self.children[0].get_dataset_size()

    def _runner(self, ctx):
        child = self.children[0]._runner(ctx)
        cols, ins, outs = self._io()
        out_cols = _replace_columns(cols, ins, outs)
        idx = [cols.index(c) for c in ins]
        ops = self.operations
        pos = {c: i for i, c in enumerate(cols)}

        # MindSpore's per-worker random engines (each worker's operations seeded GetSeed() + worker)
        streams = MapStreams(ops, self.num_parallel_workers or config.get_num_parallel_workers())
        calls, procs = _process_calls(ops, self.python_multiprocessing,
                                      self.num_parallel_workers or config.get_num_parallel_workers())

        def apply(item):
            tag, (n, row) = item
            args = [row[i] for i in idx]
            with streams.applying(tag):
                for op, call in _builtin_zip(ops, calls):
                    try:
                        res = call(*args)
                    except WorkerLost:
                        raise
                    except Exception as e:  # noqa: BLE001
                        raise user_error(f"map operation: [{_fn_name(op)}] on row {n} (input_columns={ins})",
                                         e) from e
                    args = list(res) if isinstance(res, tuple) else [res]
            if len(args) != len(outs):
                raise RuntimeError(
                    "Invalid columns, the number of columns returned in 'map' operations should match the number "
                    f"of 'output_columns', but got the number of columns returned in 'map' operations: {len(args)}, "
                    f"the number of 'output_columns': {len(outs)}.")
            produced = dict(_builtin_zip(outs, (to_numpy(a, "map result") for a in args)))
            return [produced[c] if c in produced else row[pos[c]] for c in out_cols]

        hooks = CallbackRunner(self.callbacks) if self.callbacks else None

        def epoch(k):
            rows = ordered_parallel(apply, streams.rows(enumerate(child.epoch())), self.num_parallel_workers,
                                    pipelined=True, route=lambda item: item[0][0])
            return hooks.epoch(rows, k) if hooks else rows
        return _FnRunner(epoch, [child] + ([procs] if procs else []))


def _process_calls(ops, multiprocessing, workers):
    """How a map calls each of its operations: with ``python_multiprocessing``, the Python
    callables (not msjax's transforms) through worker processes, as MindSpore; the pool (a
    closable, or None) is the second value."""
    # msjax's own transforms stay on the map's threads (they release the GIL), and so do callables
    # that run msjax operators (JAX would hang in a forked worker: _procpool.runs_jax)
    python = [k for k, op in enumerate(ops) if not type(op).__module__.startswith("msjax.") and not runs_jax(op)]
    if not multiprocessing or not python:
        return list(ops), None
    procs = ProcessCalls([ops[k] for k in python], workers, config.get_seed(), "map")
    calls = list(ops)
    for j, k in enumerate(python):
        calls[k] = functools.partial(procs.call, j)
    return calls, procs


class FilterDataset(Dataset):
    """``dataset.filter(predicate, input_columns=None)``: keep the rows the predicate accepts."""

    def __init__(self, input_dataset, predicate, input_columns=None, num_parallel_workers=None):
        if not callable(predicate):
            raise TypeError("predicate should be callable.")
        super().__init__([input_dataset], num_parallel_workers)
        self.predicate = predicate
        self.input_columns = _as_list(input_columns, "input_columns")

    def _runner(self, ctx):
        child = self.children[0]._runner(ctx)
        cols = self.children[0].get_col_names()
        ins = self.input_columns or cols
        idx = [cols.index(c) for c in ins]

        def test(item):
            n, row = item
            try:
                keep = self.predicate(*[row[i] for i in idx])
            except Exception as e:  # noqa: BLE001
                raise user_error(f"filter operation: [{_fn_name(self.predicate)}] on row {n}", e) from e
            return row, bool(np.all(keep))

        def epoch(k):
            for row, keep in ordered_parallel(test, enumerate(child.epoch()), self.num_parallel_workers):
                if keep:
                    yield row
        return _FnRunner(epoch, [child])


def _buffer_shuffle(rows, size, g):
    """MindSpore's shuffle buffer: fill ``size`` rows, then repeatedly send the row at a
    random slot (``g() % filled``), move the last row into that slot and refill the last
    slot from the input; drain the same way at the end."""
    end = object()
    rows = iter(rows)
    buf = list(itertools.islice(rows, size))
    pending = next(rows, end) if len(buf) == size else end
    last = len(buf) - 1
    while last >= 0:
        slot = g() % (last + 1)
        out = buf[slot]
        buf[slot] = buf[last]
        if pending is not end:
            buf[last] = pending
            pending = next(rows, end)
        else:
            buf[last] = None
            last -= 1
        yield out


class ShuffleDataset(Dataset):
    """``dataset.shuffle(buffer_size)``: a random pick from a buffer of ``buffer_size``
    rows, refilled from the input; a new order every epoch. Draws as MindSpore's
    shuffle operation (``std::mt19937_64`` from the seed, continued from epoch to epoch),
    so with a seed set the order is MindSpore's."""

    def __init__(self, input_dataset, buffer_size):
        if not isinstance(buffer_size, int) or isinstance(buffer_size, bool):
            raise TypeError(f"Argument buffer_size with value {buffer_size} is not of type [<class 'int'>].")
        if buffer_size < 2 or buffer_size > INT32_MAX:
            raise ValueError(f"Input buffer_size is not within the required interval of [2, {INT32_MAX}].")
        super().__init__([input_dataset])
        self.buffer_size = buffer_size
        self.reshuffle_each_epoch = True

    def _static_size(self):
        return self.children[0].get_dataset_size()

    def _runner(self, ctx):
        from ._stdrandom import MT19937_64
        from .samplers import _engine_seed
        child = self.children[0]._runner(ctx)
        seed = _engine_seed(ctx.rng())
        size = self.buffer_size
        state = {"g": MT19937_64(seed)}

        def epoch(k):
            if not self.reshuffle_each_epoch:
                state["g"] = MT19937_64(seed)
            return _buffer_shuffle(child.epoch(), size, state["g"])
        return _FnRunner(epoch, [child])


class RepeatDataset(Dataset):
    """``dataset.repeat(count=None)``: ``count`` epochs of the input per epoch (None/-1: forever)."""

    def __init__(self, input_dataset, count=None):
        if count is None:
            count = -1
        _check_count(count)
        super().__init__([input_dataset])
        self.count = count

    def _static_size(self):
        n = self.children[0].get_dataset_size()
        return n if self.count == -1 else n * self.count

    def get_repeat_count(self):
        return self.count

    def _runner(self, ctx):
        child = self.children[0]._runner(ctx)

        def epoch(k):
            rounds = itertools.count() if self.count == -1 else range(self.count)
            for _ in rounds:
                yield from child.epoch()
        return _FnRunner(epoch, [child])


class TakeDataset(Dataset):
    """``dataset.take(count=-1)``: the first ``count`` rows of every epoch."""

    def __init__(self, input_dataset, count=-1):
        if not isinstance(count, int) or isinstance(count, bool):
            raise TypeError(f"Argument count with value {count} is not of type [<class 'int'>].")
        if count != -1 and (count <= 0 or count > INT32_MAX):
            raise ValueError(f"count should be either -1 or within the required interval of (0, {INT32_MAX}], "
                             f"got {count}.")
        super().__init__([input_dataset])
        self.count = count

    def _static_size(self):
        n = self.children[0].get_dataset_size()
        return n if self.count == -1 else min(n, self.count)

    def _runner(self, ctx):
        child = self.children[0]._runner(ctx)

        def epoch(k):
            it = child.epoch()
            return it if self.count == -1 else itertools.islice(it, self.count)
        return _FnRunner(epoch, [child])


class SkipDataset(Dataset):
    """``dataset.skip(count)``: drop the first ``count`` rows of every epoch."""

    def __init__(self, input_dataset, count):
        _check_count(count, allow_minus_one=False, allow_zero=True)
        super().__init__([input_dataset])
        self.count = count

    def _static_size(self):
        return max(self.children[0].get_dataset_size() - self.count, 0)

    def _runner(self, ctx):
        child = self.children[0]._runner(ctx)

        def epoch(k):
            return itertools.islice(child.epoch(), self.count, None)
        return _FnRunner(epoch, [child])


class ProjectDataset(Dataset):
    """``dataset.project(columns)``: keep these columns, in this order."""

    def __init__(self, input_dataset, columns):
        super().__init__([input_dataset])
        self.columns = _as_list(columns, "columns")

    def _col_names(self):
        cols = self.children[0].get_col_names()
        for c in self.columns:
            if c not in cols:
                raise RuntimeError(f"Invalid column, column name: {c} does not exist in the dataset columns "
                                   f"{cols}.")
        return list(self.columns)

    def _static_size(self):
        return self.children[0].get_dataset_size()

    def _runner(self, ctx):
        child = self.children[0]._runner(ctx)
        cols = self.children[0].get_col_names()
        idx = [cols.index(c) for c in self.get_col_names()]

        def epoch(k):
            for row in child.epoch():
                yield [row[i] for i in idx]
        return _FnRunner(epoch, [child])


class RenameDataset(Dataset):
    """``dataset.rename(input_columns, output_columns)``."""

    def __init__(self, input_dataset, input_columns, output_columns):
        ins = _as_list(input_columns, "input_columns")
        outs = _as_list(output_columns, "output_columns")
        if len(ins) != len(outs):
            raise ValueError("Number of column in input_columns and output_columns is not equal.")
        super().__init__([input_dataset])
        self.input_columns, self.output_columns = ins, outs

    def _col_names(self):
        cols = self.children[0].get_col_names()
        for c in self.input_columns:
            if c not in cols:
                raise RuntimeError(f"Invalid column, column name: {c} does not exist in the dataset columns "
                                   f"{cols}.")
        m = dict(_builtin_zip(self.input_columns, self.output_columns))
        out = [m.get(c, c) for c in cols]
        if len(set(out)) != len(out):
            raise RuntimeError(f"Invalid column, rename produces duplicate column names: {out}.")
        return out

    def _static_size(self):
        return self.children[0].get_dataset_size()

    def _runner(self, ctx):
        return self.children[0]._runner(ctx)


class ZipDataset(Dataset):
    """``ds.zip((a, b, ...))``: rows side by side, as long as the shortest input."""

    def __init__(self, datasets):
        if not isinstance(datasets, (tuple, list)) or len(datasets) < 1:
            raise TypeError(f"Invalid datasets, expected a tuple of Dataset, but got {datasets}.")
        for d in datasets:
            if not isinstance(d, Dataset):
                raise TypeError(f"Invalid dataset, expected Dataset object, but got {type(d)}.")
        super().__init__(list(datasets))

    def _col_names(self):
        cols = [c for d in self.children for c in d.get_col_names()]
        dup = [c for c in cols if cols.count(c) > 1]
        if dup:
            raise RuntimeError(f"Invalid data, duplicate column {dup[0]} already exists when creating zip: "
                               "rename the columns of the inputs first.")
        return cols

    def _static_size(self):
        return min(d.get_dataset_size() for d in self.children)

    def _runner(self, ctx):
        children = [d._runner(ctx) for d in self.children]
        self.get_col_names()

        def epoch(k):
            for rows in _builtin_zip(*[c.epoch() for c in children]):
                yield [x for r in rows for x in r]
        return _FnRunner(epoch, children)


class ConcatDataset(Dataset):
    """``a + b`` / ``a.concat([b, ...])``: the inputs one after the other."""

    def __init__(self, datasets):
        for d in datasets:
            if not isinstance(d, Dataset):
                raise TypeError(f"Invalid dataset, expected Dataset object, but got {type(d)}.")
        super().__init__(list(datasets))

    def _col_names(self):
        first = self.children[0].get_col_names()
        for d in self.children[1:]:
            if d.get_col_names() != first:
                raise RuntimeError(f"Invalid data, column names of the datasets to concat differ: {first} vs "
                                   f"{d.get_col_names()}.")
        return first

    def _static_size(self):
        return sum(d.get_dataset_size() for d in self.children)

    def get_batch_size(self):
        return self.children[0].get_batch_size()

    def _runner(self, ctx):
        children = [d._runner(ctx) for d in self.children]
        self.get_col_names()

        def epoch(k):
            for c in children:
                yield from c.epoch()
        return _FnRunner(epoch, children)


class _RowsDataset(Dataset):
    """Materialised rows (the parts of ``split``)."""

    def __init__(self, rows, cols):
        super().__init__()
        self._rows, self._colnames = rows, list(cols)

    def _col_names(self):
        return self._colnames

    def _static_size(self):
        return len(self._rows)

    def _runner(self, ctx):
        return _FnRunner(lambda k: iter(list(self._rows)))


def zip(datasets):  # noqa: A001  (mindspore.dataset.zip)
    """``mindspore.dataset.zip((ds1, ds2, ...))``."""
    if not isinstance(datasets, tuple) or len(datasets) <= 1:
        raise ValueError("Can't zip empty or just one dataset!")
    return ZipDataset(datasets)


# ---------------------------------------------------------------------------
# iterators
# ---------------------------------------------------------------------------
_EOE = object()


class _Failure:
    __slots__ = ("exc",)

    def __init__(self, exc):
        self.exc = exc


# MindSpore hands out 64-bit integer columns as numpy arrays of C ``long long``
# (``dtype.char`` 'q'/'Q'), whose repr names the dtype: ``array(0, dtype=int64)``
_LONGLONG = {np.dtype(np.int64): np.dtype(np.longlong), np.dtype(np.uint64): np.dtype(np.ulonglong)}


def _to_output(value, output_numpy):
    if isinstance(value, dict) and not output_numpy:
        return {k: _to_output(v, False) for k, v in value.items()}
    if output_numpy and isinstance(value, np.ndarray) and value.dtype in _LONGLONG:
        return value.view(_LONGLONG[value.dtype])
    if output_numpy or not isinstance(value, np.ndarray) or value.dtype.kind in "USO":
        return value
    from .._core.tensor import Tensor
    out = Tensor(value)
    out._host_repr = True      # MindSpore's iterators give numpy-backed Tensors, printed in numpy's format
    return out


class _Iterator:
    """One pass over a pipeline: ``num_epochs`` epochs (-1: unlimited), each ended by
    ``StopIteration``; the next ``next()`` starts the next epoch."""

    def __init__(self, dataset, num_epochs=-1, output_numpy=False, do_copy=True, columns=None):
        if not isinstance(num_epochs, int) or isinstance(num_epochs, bool):
            raise TypeError(f"Argument num_epochs with value {num_epochs} is not of type [<class 'int'>].")
        if num_epochs != -1 and num_epochs <= 0:
            raise ValueError(f"num_epochs should be either -1 or positive integer, but got {num_epochs}.")
        if not isinstance(output_numpy, bool):
            raise TypeError(f"Argument output_numpy with value {output_numpy} is not of type [<class 'bool'>].")
        self.dataset = dataset
        self.num_epochs = num_epochs
        self.output_numpy = output_numpy
        self._all_cols = dataset.get_col_names()
        if columns is not None:
            columns = _as_list(columns, "columns")
            for c in columns:
                if c not in self._all_cols:
                    raise RuntimeError(f"Invalid column, column name: {c} does not exist in the dataset columns "
                                       f"{self._all_cols}.")
            self._idx = [self._all_cols.index(c) for c in columns]
        else:
            self._idx = None
        self._cols = columns or self._all_cols
        self._runner = dataset._runner(_Ctx())
        self._epochs_done = 0
        self._queue = None
        self._thread = None
        self._stop = threading.Event()
        self._prefetch = config.get_prefetch_size()
        self._finalizer = weakref.finalize(self, _stop_runner, self._stop, self._runner)
        _LIVE.add(self)

    def __iter__(self):
        return self

    def _start_epoch(self):
        q = queue.Queue(maxsize=max(1, self._prefetch))
        stop = self._stop
        gen = self._runner.epoch()
        idx, output_numpy = self._idx, self.output_numpy

        def produce():
            try:
                for row in gen:
                    if idx is not None:
                        row = [row[i] for i in idx]
                    if not _put(q, [_to_output(x, output_numpy) for x in row], stop):
                        return
                _put(q, _EOE, stop)
            except BaseException as e:  # noqa: BLE001  (re-raised in the consumer)
                _put(q, _Failure(e), stop)
            finally:
                gen.close() if hasattr(gen, "close") else None
                _PRODUCERS.pop(threading.current_thread(), None)

        t = threading.Thread(target=produce, name="msjax-dataset-iterator", daemon=True)
        self._queue, self._thread = q, t
        _PRODUCERS[t] = stop
        t.start()

    def _next_row(self):
        if self._queue is None:
            if self.num_epochs != -1 and self._epochs_done >= self.num_epochs:
                raise RuntimeError("EOF buffer encountered. User tries to fetch data beyond the specified number "
                                   f"of epochs ({self.num_epochs}).")
            self._start_epoch()
        item = self._queue.get()
        if item is _EOE:
            self._queue = None
            self._thread = None
            self._epochs_done += 1
            raise StopIteration
        if isinstance(item, _Failure):
            self._queue = None
            self._thread = None
            raise item.exc
        return item

    def stop(self):
        self._finalizer()

    def get_next(self):
        return self.__next__()

    def __del__(self):
        stop = getattr(self, "_stop", None)
        if stop is not None:
            stop.set()


def _stop_runner(event, runner):
    """An iterator's end (``stop()``, garbage collection, interpreter exit): its producer
    thread stops and its runner closes (worker processes are joined)."""
    event.set()
    runner.close()


_LIVE = weakref.WeakSet()
_PRODUCERS = {}       # producer thread: its stop event, while it runs
_EXIT_WAIT = 60.0      # seconds the exit waits for a producer's row (a source that never returns: no hang)


def _put(q, item, stop):
    """``q.put(item)`` unless ``stop`` is set first (nobody may read the queue any more)."""
    while not stop.is_set():
        try:
            q.put(item, timeout=0.1)
            return True
        except queue.Full:
            continue
    return False


def _stop_all_iterators():
    """Stop the producer threads and wait for them before the interpreter finalizes.

    Python ends a daemon thread that wants the interpreter back during finalization with
    ``pthread_exit``; a producer coming back then from native code (an OpenCV transform, a
    JAX transfer: C++ whose ``catch (...)`` or ``noexcept`` frames meet the forced unwind)
    aborted the process ("FATAL: exception not rethrown", "terminate called without an active
    exception", exit status 134) after a Ctrl-C of a dataset loop under load, when it was still
    there after this hook's former one-second wait. The hook runs in ``threading``'s shutdown
    (before non-daemon threads are joined and the ``atexit`` hooks run) and waits for each
    producer to finish the row it is on (up to a minute each): its puts give up once it is
    stopped. A producer outlives its iterator (a ``for`` loop's, dropped as the
    ``KeyboardInterrupt`` left the loop, stopped by its finalizer while the producer was still in
    a JAX transfer): they are waited for too."""
    _stop_and_wait(list(_LIVE), dict(_PRODUCERS))


def _stop_and_wait(iterators, producers):
    """Stop ``iterators`` and ``producers`` (``{thread: stop event}``), wait for the threads."""
    for it in iterators:
        it._stop.set()
    for stop in producers.values():
        stop.set()
    for it in iterators:
        try:
            it._finalizer()
        except Exception:  # noqa: BLE001
            pass
    for t in producers:
        if t is not threading.current_thread():
            t.join(_EXIT_WAIT)


threading._register_atexit(_stop_all_iterators)      # noqa: SLF001 - concurrent.futures' hook for its workers


class TupleIterator(_Iterator):
    """Rows as lists of Tensors (or numpy arrays with ``output_numpy=True``)."""

    def __init__(self, dataset, columns=None, num_epochs=-1, output_numpy=False, do_copy=True):
        super().__init__(dataset, num_epochs, output_numpy, do_copy, columns)

    def __next__(self):
        return self._next_row()


class DictIterator(_Iterator):
    """Rows as ``{column: Tensor}`` dicts."""

    def __next__(self):
        row = self._next_row()
        return dict(_builtin_zip(self._cols, row))
