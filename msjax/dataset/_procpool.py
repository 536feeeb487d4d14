"""Python callables of a ``map(..., python_multiprocessing=True)`` in worker processes.

As MindSpore, the map's own transforms (OpenCV/numpy kernels, which release the GIL) stay
on its worker threads and only the user's Python callables go to a pool of
``num_parallel_workers`` processes, so Python-heavy functions run in parallel. The pool is
the standard library's ``ProcessPoolExecutor`` on ``fork`` (MindSpore's default start
method): the callables reach the processes by inheritance, so lambdas and closures work
without being pickled. Arrays of 64 KiB or more travel through
``multiprocessing.shared_memory`` (one copy each way, not a pipe's pickling); smaller values
are pickled. The processes start when a row first needs them and stop with the iterator.

Differences from MindSpore: the callables must not call msjax operators (JAX cannot run
in a forked child: its threads are not copied), and JAX's warning about ``os.fork`` is
silenced for the pool's own fork; ``max_rowsize`` is not needed (each array gets a block
of its size) and is ignored.
"""
from __future__ import annotations

import concurrent.futures
import multiprocessing
import threading
import warnings
from multiprocessing import resource_tracker, shared_memory

import numpy as np

__all__ = ["ProcessCalls"]

_SHM_MIN = 64 * 1024
_FUNCS = None          # in a worker process: the map's callables, inherited through fork


class _Shm:
    """An array's place in shared memory: (block name, shape, dtype)."""

    __slots__ = ("name", "shape", "dtype")

    def __init__(self, name, shape, dtype):
        self.name, self.shape, self.dtype = name, shape, dtype


def _put(value, keep=None):
    """``value`` ready to send: a large array written to a new shared block, anything else as
    is. The block is appended to ``keep`` (its owner unlinks it once the other side has read
    it) or, without ``keep``, closed here and left for the reader to unlink."""
    if isinstance(value, np.ndarray) and value.nbytes >= _SHM_MIN and value.dtype.kind not in "OUSV":
        block = shared_memory.SharedMemory(create=True, size=value.nbytes)
        np.ndarray(value.shape, value.dtype, buffer=block.buf)[...] = value
        if keep is None:
            block.close()
        else:
            keep.append(block)
        return _Shm(block.name, value.shape, value.dtype.str)
    return value


def _take(value, unlink=False):
    """The value sent by ``_put``: a shared block's array copied out (the block unlinked when
    ``unlink``, i.e. by the side that owns it)."""
    if not isinstance(value, _Shm):
        return value
    block = shared_memory.SharedMemory(name=value.name)
    try:
        arr = np.ndarray(value.shape, np.dtype(value.dtype), buffer=block.buf).copy()
    finally:
        block.close()
        if unlink:
            block.unlink()
    return arr


def _init(funcs):
    global _FUNCS
    _FUNCS = funcs


def _ready():
    return True


def _run(k, args):
    """In a worker process: callable ``k`` on ``args``; a tuple result stays a tuple."""
    res = _FUNCS[k](*[_take(a) for a in args])
    if isinstance(res, tuple):
        return True, tuple(_put(r) for r in res)
    return False, _put(res)


class ProcessCalls:
    """The worker processes of one map iterator; ``call(k, *args)`` runs its ``k``-th Python
    callable there (from any of the map's threads) and gives back the result."""

    def __init__(self, funcs, workers):
        self._funcs, self._workers = list(funcs), max(1, int(workers or 1))
        self._pool, self._closed = None, False
        self._lock = threading.Lock()

    def _start(self):
        with self._lock:
            if self._closed:
                raise RuntimeError("map: the worker processes of this iterator were stopped.")
            if self._pool is None:
                resource_tracker.ensure_running()     # one tracker for the blocks of every process
                pool = concurrent.futures.ProcessPoolExecutor(
                    self._workers, mp_context=multiprocessing.get_context("fork"), initializer=_init,
                    initargs=(self._funcs,))
                with warnings.catch_warnings():
                    warnings.filterwarnings("ignore", message=r"os\.fork\(\) was called", category=RuntimeWarning)
                    pool.submit(_ready).result()      # fork start: every process starts here
                self._pool = pool
        return self._pool

    def call(self, k, *args):
        pool = self._pool or self._start()
        blocks = []
        try:
            tuple_out, res = pool.submit(_run, k, [_put(a, blocks) for a in args]).result()
        finally:
            for block in blocks:
                block.close()
                block.unlink()
        if tuple_out:
            return tuple(_take(r, unlink=True) for r in res)
        return _take(res, unlink=True)

    def close(self):
        with self._lock:
            self._closed = True
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
