"""Ctrl-C during ``Model.train`` (issue 36): run unmodified by MindSpore 2.10 (``record_sigint.py``)
and by ``python -m msjax run`` (``tests/test_sigint.py``). A callback sends the process SIGINT at
step 3 of a small PyNative training; the step before it prints with ``flush``, the step itself
without, and an ``atexit`` hook prints: what reaches stdout and how the process ends are compared.
"""
import atexit
import os
import signal

import numpy as np
import mindspore as ms
import mindspore.dataset as ds
from mindspore import nn
from mindspore.train import Callback, Model


class Interrupt(Callback):
    def on_train_step_end(self, run_context):
        step = run_context.original_args().cur_step_num
        print("step", step, flush=step < 3)
        if step == 3:
            os.kill(os.getpid(), signal.SIGINT)


atexit.register(lambda: print("atexit", flush=True))
rng = np.random.RandomState(0)
data = ds.NumpySlicesDataset((rng.rand(12, 4).astype(np.float32), rng.rand(12, 2).astype(np.float32)),
                             ["x", "y"], shuffle=False).batch(2)
net = nn.Dense(4, 2)
Model(net, nn.MSELoss(), nn.SGD(net.trainable_params())).train(2, data, dataset_sink_mode=False,
                                                                callbacks=[Interrupt()])
print("trained", flush=True)
