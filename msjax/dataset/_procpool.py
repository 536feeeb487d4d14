"""Python code of a pipeline on worker processes, as MindSpore's ``python_multiprocessing``.

Three users share the pool: the Python callables of a ``map(..., python_multiprocessing=True)``
(as MindSpore, the map's own transforms, OpenCV/numpy kernels that release the GIL, stay on
its worker threads), the function of ``batch(per_batch_map=..., python_multiprocessing=True)``
and a random-access ``GeneratorDataset``'s ``source[i]`` (``num_parallel_workers > 1`` with
``python_multiprocessing=True``, MindSpore's default there). Python-heavy code then runs in
parallel instead of being serialized by the GIL.

Each of the ``workers`` processes is forked (MindSpore's default start method) with a pipe of
its own; the functions reach it by inheritance, so lambdas, closures and the source object
work without being pickled. A call goes to one process and waits for its answer: the caller
names the process (``worker=``: a ``GeneratorDataset`` sends sample ``n`` of the epoch to
worker ``n % workers``, as MindSpore's) or a calling thread keeps the process it got first (a
map's or batch's worker threads, as MindSpore binds its threads to processes), so at most one
call per process is in flight and the stage's own window bounds the rest. Arrays of 64 KiB or
more, also inside the lists and tuples of a row or a batch, travel through
``multiprocessing.shared_memory`` blocks that each side of a worker keeps from call to call
(one copy in, one copy out; measured: a fresh block per 600 KB array cost twice the pipe);
smaller values are pickled. A process starts when a call first needs it and every process stops with the
iterator (``close``: the iterator's ``stop()``, its garbage collection or the interpreter's
exit); answers nobody read are drained then, so no shared block is left in ``/dev/shm``. As
MindSpore's workers, when ``dataset.config.set_seed(s)`` was called worker ``w`` seeds
``random`` and ``numpy.random`` with ``s + w`` when it starts (without a seed they keep the
state they were forked with).

An exception in a worker comes back with its type and message (rebuilt by pickling, or an
exception class of the same name when it cannot be pickled), its ``__cause__`` carrying the
worker's traceback text. A worker that dies (a signal, ``os._exit``) raises ``WorkerLost``, a
``RuntimeError`` naming the process and the signal as MindSpore's log line does.

Differences from MindSpore: the code must not call msjax operators in a worker (JAX cannot
run in a forked child: its threads are not copied); callables and sources that name msjax or
hold its objects are kept in this process (``runs_jax``), others are not inspected; JAX's warning about ``os.fork`` is silenced
for the pool's own forks. The start method is always ``fork``
(``set_multiprocessing_start_method('spawn')`` does not change it). ``max_rowsize`` is not
needed (each array gets a block of its size) and is ignored. A dead worker raises in the
iterator where MindSpore logs the same line and terminates the main process.
"""
from __future__ import annotations

import contextlib
import functools
import inspect
import multiprocessing
import os
import pickle
import random
import secrets
import signal
import threading
import traceback
import types
import warnings
from multiprocessing import connection, resource_tracker, shared_memory

import numpy as np

__all__ = ["ProcessCalls", "WorkerLost", "runs_jax"]

_SHM_MIN = 64 * 1024
# blocks are named msjax_<pid of the process that imported msjax>_<random>, in its worker
# processes too (they inherit this value): /dev/shm shows whose they are
_BLOCK_PREFIX = f"msjax_{os.getpid()}_"
_STOP_WAIT = 5.0       # seconds close() waits for a busy worker (MindSpore's join timeout)


class WorkerLost(RuntimeError):
    """A worker process ended without answering."""


def _msjax_object(value):
    """A module, class, function or object of msjax outside its dataset package (which is numpy
    and OpenCV, safe in a worker process): something that runs JAX."""
    name = value.__name__ if isinstance(value, types.ModuleType) else \
        getattr(value, "__module__", None) or getattr(type(value), "__module__", "") or ""
    return (name == "msjax" or name.startswith("msjax.")) and not name.startswith("msjax.dataset")


def runs_jax(obj, funcs=None):
    """Whether ``obj`` (a function, a callable object, a source) may run msjax operators: the
    globals and closure variables of ``funcs`` (default: ``obj`` itself, or its ``__call__``)
    name msjax (``ms.Tensor``, ``ops``...), or ``obj`` holds an msjax object (a Tensor, a Cell).
    JAX cannot run in a forked process at all (its thread pools are not copied: the worker
    would hang), so such callables stay in this process."""
    if isinstance(obj, functools.partial):
        return runs_jax(obj.func) or any(_msjax_object(v) for v in (*obj.args, *obj.keywords.values()))
    if funcs is None:
        funcs = [obj] if isinstance(obj, types.FunctionType) else [getattr(type(obj), "__call__", None)]
    for f in funcs:
        try:
            used = inspect.getclosurevars(f)
        except TypeError:
            continue
        if any(_msjax_object(v) for v in (*used.nonlocals.values(), *used.globals.values())):
            return True
    held = () if isinstance(obj, types.FunctionType) else getattr(obj, "__dict__", {}).values()
    return any(_msjax_object(v) for v in held)


def _unlink(block):
    """Remove a shared block from the system; one already removed (by its other side) is fine."""
    with contextlib.suppress(FileNotFoundError):
        block.unlink()


class _Shm:
    """An array's place in shared memory: (slot, block name, shape, dtype)."""

    __slots__ = ("slot", "name", "shape", "dtype")

    def __init__(self, slot, name, shape, dtype):
        self.slot, self.name, self.shape, self.dtype = slot, name, shape, dtype

    def __reduce__(self):
        return _Shm, (self.slot, self.name, self.shape, self.dtype)


def _big(value):
    return isinstance(value, np.ndarray) and value.nbytes >= _SHM_MIN and value.dtype.kind not in "OUSV"


class _Blocks:
    """The shared blocks one side of a worker's pipe writes its arrays into, kept from call to
    call: a worker has one call in flight, so when the next message is written the reader has
    copied the last one's arrays out. Slot ``j`` holds the message's ``j``-th large array (a
    bigger block replaces it when needed). A fresh block per array would cost more than the
    pipe: new pages fault in on both sides."""

    def __init__(self):
        self.slots = []

    def put(self, value):
        """``value`` ready to send: each large array (also inside lists and tuples) copied into
        a block, anything else as is."""
        used = [0]

        def put(v):
            if _big(v):
                j = used[0]
                used[0] += 1
                if j == len(self.slots):
                    self.slots.append(None)
                block = self.slots[j]
                if block is None or block.size < v.nbytes:
                    if block is not None:
                        block.close()
                        block.unlink()
                    block = self.slots[j] = shared_memory.SharedMemory(_BLOCK_PREFIX + secrets.token_hex(6), True,
                                                                         v.nbytes)
                np.ndarray(v.shape, v.dtype, buffer=block.buf)[...] = v
                return _Shm(j, block.name, v.shape, v.dtype.str)
            if type(v) in (list, tuple):
                return type(v)(put(x) for x in v)
            return v
        return put(value)

    def release(self):
        for block in self.slots:
            if block is not None:
                block.close()
                _unlink(block)
        self.slots = []


class _Views:
    """The reader's side of the other side's ``_Blocks``: each slot's block attached once."""

    def __init__(self):
        self.slots = {}

    def take(self, value):
        """The value sent by ``_Blocks.put``, each array copied out of its block."""
        if isinstance(value, _Shm):
            block = self.slots.get(value.slot)
            if block is None or block.name != value.name:
                if block is not None:
                    block.close()
                block = self.slots[value.slot] = shared_memory.SharedMemory(name=value.name)
            return np.ndarray(value.shape, np.dtype(value.dtype), buffer=block.buf).copy()
        if type(value) in (list, tuple):
            return type(value)(self.take(v) for v in value)
        return value

    def close(self, unlink=False):
        """Detach; ``unlink``: also remove the blocks (their writer is gone)."""
        for block in self.slots.values():
            block.close()
            if unlink:
                _unlink(block)
        self.slots = {}


def _discard(value):
    """Unlink the shared blocks of an answer nobody will read."""
    if isinstance(value, _Shm):
        with contextlib.suppress(FileNotFoundError):
            _unlink(shared_memory.SharedMemory(name=value.name))
    elif type(value) in (list, tuple):
        for v in value:
            _discard(v)


class _RemoteTraceback(Exception):
    """The worker's traceback, as the ``__cause__`` of the exception it raised."""

    def __str__(self):
        return self.args[0]


def _pack_error(exc):
    try:
        blob = pickle.dumps(exc)
        pickle.loads(blob)
    except Exception:  # noqa: BLE001  (an exception that cannot cross: rebuilt by name)
        blob = None
    tb = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    return type(exc).__name__, str(exc), tb, blob


def _unpack_error(packed):
    name, msg, tb, blob = packed
    exc = pickle.loads(blob) if blob is not None else type(name, (Exception,), {})(msg)
    exc.__cause__ = _RemoteTraceback(f'\n"""\n{tb}"""')
    return exc


def _tracker_lock():
    """The lock of this process's ``multiprocessing`` resource tracker (every shared block's
    registration takes it), or a no-op where the interpreter has none."""
    return getattr(getattr(resource_tracker, "_resource_tracker", None), "_lock", None)


def _loop(conn, funcs, seed, inherited):
    """A worker process: answer ``(k, args)`` with ``funcs[k](*args)`` until told to stop, the
    pipe closes or the parent process is gone."""
    # the tracker's lock was held across the fork by the forking thread (``ProcessCalls._start``);
    # this process's copy starts free, or its first shared block would wait for it forever
    if _tracker_lock() is not None:
        resource_tracker._resource_tracker._lock = threading.RLock()
    for c in inherited:               # the other workers' parent ends: their EOF must reach them
        c.close()
    signal.signal(signal.SIGINT, signal.SIG_IGN)     # Ctrl-C is the main process's (MindSpore's)
    if seed is not None:
        random.seed(seed)
        np.random.seed(seed)
    ppid = os.getppid()
    out, views = _Blocks(), _Views()
    try:
        while True:
            try:
                if not conn.poll(1.0):
                    if os.getppid() != ppid:
                        return
                    continue
                msg = conn.recv()
            except (EOFError, OSError):
                return
            if msg is None:
                return
            k, args = msg
            try:
                answer = (True, out.put(funcs[k](*views.take(args))))
            except Exception as e:  # noqa: BLE001  (sent to the caller)
                answer = (False, _pack_error(e))
            try:
                conn.send(answer)
            except (EOFError, OSError):
                return
            except Exception as e:  # noqa: BLE001  (an answer that cannot be pickled)
                conn.send((False, _pack_error(e)))
    finally:
        views.close()
        out.release()


class _Worker:
    __slots__ = ("index", "proc", "conn", "lock", "out", "views")

    def __init__(self, index):
        self.index, self.proc, self.conn = index, None, None
        self.lock = threading.Lock()
        self.out, self.views = _Blocks(), _Views()      # the arguments' blocks, the answers'



def _lost(proc):
    code = proc.exitcode
    if code is not None and code < 0:
        return WorkerLost(f"Dataset worker process {proc.pid} was killed by signal: {signal.strsignal(-code)}.")
    return WorkerLost(f"Dataset worker process {proc.pid} exited unexpectedly with exit code {code}.")


class ProcessCalls:
    """The worker processes of one iterator's stage; ``call(k, *args, worker=None)`` runs its
    ``k``-th function there (from any of the stage's threads) and gives back the result.
    ``seed``: the pipeline seed (``dataset.config.get_seed()``); worker ``w`` seeds Python's
    and numpy's random with ``seed + w`` unless it is MindSpore's default 5489."""

    def __init__(self, funcs, workers, seed=None, what="map"):
        self._funcs = list(funcs)
        self._workers = [_Worker(w) for w in range(max(1, int(workers or 1)))]
        self._seed = None if seed is None or seed == 5489 else int(seed)
        self._what = what
        self._closed = False
        self._lock = threading.Lock()
        self._bound = threading.local()
        self._next = 0

    def _pick(self):
        w = getattr(self._bound, "worker", None)
        if w is None:
            with self._lock:
                w, self._next = self._next % len(self._workers), self._next + 1
            self._bound.worker = w
        return w

    def _start(self, wk):
        """Fork worker ``wk`` (its lock held)."""
        with self._lock:
            if self._closed:
                raise RuntimeError(f"{self._what}: the worker processes of this iterator were stopped.")
            resource_tracker.ensure_running()      # one tracker for the blocks of every process
            ctx = multiprocessing.get_context("fork")
            parent, child = ctx.Pipe()
            inherited = [w.conn for w in self._workers if w.conn is not None] + [parent]
            seed = None if self._seed is None else self._seed + wk.index
            proc = ctx.Process(target=_loop, args=(child, self._funcs, seed, inherited),
                               name=f"msjax-dataset-{self._what}-worker{wk.index}", daemon=True)
            # No other thread may be inside the resource tracker (a shared block being opened or
            # made for another worker's call) while the child is made: the child's copy of its lock
            # would stay taken by a thread that does not exist there, and the child's first shared
            # block would wait for it forever (seen under load: a CI run held for an hour).
            with warnings.catch_warnings(), (_tracker_lock() or contextlib.nullcontext()):
                warnings.filterwarnings("ignore", message=r"os\.fork\(\) was called", category=RuntimeWarning)
                proc.start()
            child.close()
            wk.proc, wk.conn = proc, parent

    def call(self, k, *args, worker=None):
        wk = self._workers[(self._pick() if worker is None else worker) % len(self._workers)]
        with wk.lock:
            if wk.proc is None:
                self._start(wk)
            elif self._closed:
                raise RuntimeError(f"{self._what}: the worker processes of this iterator were stopped.")
            try:
                wk.conn.send((k, wk.out.put(list(args))))
            except (EOFError, OSError):
                wk.proc.join(1.0)
                raise _lost(wk.proc) from None
            # the answer, or the worker's end: an answer sent just before it exited is still read;
            # a pipe at end of file (poll() is then true as well) means the answer never comes
            ready = connection.wait([wk.conn, wk.proc.sentinel])
            try:
                if wk.conn not in ready and not wk.conn.poll():
                    raise EOFError
                ok, res = wk.conn.recv()
            except (EOFError, OSError):
                wk.proc.join(1.0)
                raise _lost(wk.proc) from None
            if not ok:
                raise _unpack_error(res)
            return wk.views.take(res)

    def close(self):
        """Stop every worker: each finishes the call it is on (``_STOP_WAIT`` seconds at most,
        then it is killed), its unread answers are discarded and the process is joined."""
        with self._lock:
            self._closed = True
        for wk in self._workers:
            got = wk.lock.acquire(timeout=_STOP_WAIT)
            try:
                proc, conn = wk.proc, wk.conn
                if proc is None:
                    continue
                if got:
                    with contextlib.suppress(EOFError, OSError):      # already gone: nothing to tell it
                        conn.send(None)
                    proc.join(_STOP_WAIT)
                if proc.is_alive():
                    proc.kill()
                    proc.join()
                if got:
                    with contextlib.suppress(EOFError, OSError):      # its unread answers, if any
                        while conn.poll():
                            ok, res = conn.recv()
                            if ok:
                                _discard(res)
                    conn.close()
                    wk.proc = wk.conn = None
                    wk.out.release()
                    wk.views.close(unlink=True)       # a killed worker could not remove its own
            finally:
                if got:
                    wk.lock.release()
