"""The map's workers: rows routed to workers as MindSpore's (row i on worker i % n, each
worker in order), a bounded number of rows in flight, and ``python_multiprocessing=True``
running the Python callables in worker processes with large arrays through shared memory."""
import itertools
import os
import threading

import numpy as np
import pytest

import msjax.dataset as ds
from msjax.dataset.engine import ordered_parallel


def _rows(d):
    return list(d.create_tuple_iterator(output_numpy=True))


def test_rows_go_to_workers_in_turn():
    seen = {}

    def where(x):
        seen[int(x)] = threading.current_thread().name
        return x

    d = ds.NumpySlicesDataset(np.arange(12), shuffle=False).map(where, num_parallel_workers=2)
    it = d.create_tuple_iterator(num_epochs=2, output_numpy=True)
    for _ in range(2):                       # the second epoch starts after an end-of-epoch turn
        seen.clear()
        assert [int(r[0]) for r in it] == list(range(12))
        assert len({seen[i] for i in range(0, 12, 2)}) == 1 and len({seen[i] for i in range(1, 12, 2)}) == 1
        assert len(set(seen.values())) == 2


def test_in_flight_items_are_bounded():
    fed = itertools.count()

    def items():
        for i in fed:
            yield i

    out = ordered_parallel(lambda x: x * 2, items(), 2, window=5)
    assert [next(out) for _ in range(3)] == [0, 2, 4]
    assert next(fed) <= 3 + 5 + 1          # the source was read at most a window ahead
    out.close()


def _big(x):
    return np.full((128, 128, 3), float(x), np.float32) + np.float32(os.getpid() % 1), np.array(os.getpid())


def test_python_multiprocessing_runs_callables_in_processes():
    d = ds.NumpySlicesDataset(np.arange(8, dtype=np.int32), column_names=["x"], shuffle=False)
    d = d.map([_big, lambda img, pid: (img * 2, pid)], input_columns=["x"], output_columns=["img", "pid"],
              num_parallel_workers=2, python_multiprocessing=True)
    rows = _rows(d)
    assert len(rows) == 8
    for i, (img, pid) in enumerate(rows):
        assert img.shape == (128, 128, 3) and img.dtype == np.float32     # 192 KiB: through shared memory
        assert np.all(img == 2 * i)
        assert int(pid) != os.getpid()
    assert len({int(p) for _, p in rows}) <= 2


def test_python_multiprocessing_errors_and_small_values():
    def boom(x):
        if x == 2:
            raise ValueError("two")
        return x + 1

    d = ds.NumpySlicesDataset(np.arange(4), shuffle=False).map(boom, num_parallel_workers=2,
                                                               python_multiprocessing=True)
    with pytest.raises(RuntimeError, match=r"map operation: \[boom\] on row 2.*ValueError: two"):
        _rows(d)
    with pytest.raises(TypeError, match=r"python_multiprocessing with value 1 is not of type \[<class 'bool'>\], "
                                        r"but got <class 'int'>"):
        ds.NumpySlicesDataset(np.arange(4)).map(boom, python_multiprocessing=1)
