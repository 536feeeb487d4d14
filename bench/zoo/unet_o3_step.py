"""The zoo Unet's O3 training step (UNetMedical, float16 network, ``amp.build_train_network(level='O3')``,
Adam, its ``CrossEntropyWithLogits``) on one random 2x1x572x572 batch, timed step by step in wall
and process CPU seconds (issue 36), with peak RSS:

    flock /tmp/heavy.lock python -m msjax run bench/zoo/unet_o3_step.py <models checkout>   # msjax
    flock /tmp/heavy.lock /tmp/ms/bin/python bench/zoo/unet_o3_step.py <models checkout>    # MindSpore 2.10

CPU seconds compare the two frameworks on a shared machine better than wall seconds. Heavy (13 GB).
"""
import os
import resource
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(sys.argv[1], "official", "cv", "Unet"))

import mindspore as ms  # noqa: E402  (msjax under ``python -m msjax run``)
from mindspore import nn  # noqa: E402
from src.loss import CrossEntropyWithLogits  # noqa: E402
from src.unet_medical import UNetMedical  # noqa: E402


def main(size=572, steps=2):
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_seed(1)
    net = UNetMedical(n_channels=1, n_classes=2)
    train = ms.amp.build_train_network(net, nn.Adam(net.trainable_params(), 1e-4), CrossEntropyWithLogits(),
                                       level="O3")
    out = size - 184           # UNetMedical's valid convolutions: 572 -> 388
    x = ms.Tensor(np.random.RandomState(0).rand(2, 1, size, size).astype(np.float32))
    y = ms.Tensor(np.random.RandomState(1).rand(2, 2, out, out).astype(np.float32))
    for step in range(steps + 1):
        t, c = time.perf_counter(), time.process_time()
        loss = float(train(x, y).asnumpy())
        label = "first (compiles)" if step == 0 else f"step {step + 1}"
        print(f"{label}: wall {time.perf_counter() - t:.1f} s, cpu {time.process_time() - c:.1f} s, loss {loss!r}",
              flush=True)
    print(f"peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6:.1f} GB")


if __name__ == "__main__":
    main()
