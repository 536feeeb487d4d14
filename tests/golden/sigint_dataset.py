"""Ctrl-C in a dataset-only loop (issue 36): run unmodified by MindSpore 2.10 (``record_sigint.py``)
and by ``python -m msjax run`` (``tests/test_sigint.py``). The loop iterates a small pipeline
(generator, map, batch) with no training and sends the process SIGINT at its third batch; an
``atexit`` hook prints: what reaches stdout and how the process ends are compared.
"""
import atexit
import os
import signal

import numpy as np
import mindspore.dataset as ds


def rows():
    for i in range(1000):
        yield (np.full((4,), i, np.float32),)


atexit.register(lambda: print("atexit", flush=True))
data = ds.GeneratorDataset(rows, ["x"], shuffle=False).map(lambda x: x * 2, "x").batch(2)
for n, (x,) in enumerate(data.create_tuple_iterator(), 1):
    print("batch", n, x.asnumpy()[:, 0].tolist(), flush=True)
    if n == 3:
        os.kill(os.getpid(), signal.SIGINT)
print("done", flush=True)
