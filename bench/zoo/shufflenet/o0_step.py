"""Steps/s of the zoo's ShuffleNetV1 (2.0x, 4 classes) train step at O0 on a fixed batch of 224x224
images, as its ``train.py`` builds it (``Momentum`` with loss scale 1024 over
``FixedLossScaleManager(drop_overflow_update=False)``, ``CrossEntropySmooth``,
``Model(amp_level='O0')``'s ``TrainOneStepCell``), under msjax or MindSpore 2.10, side by side:

    python -m msjax run bench/zoo/shufflenet/o0_step.py ZOO [--batch 8] [--steps 12]
    /tmp/ms/bin/python bench/zoo/shufflenet/o0_step.py ZOO [--batch 8] [--steps 12]

``ZOO`` is ``official/cv/ShuffleNet/shufflenetv1`` of a checkout of mindspore-ai/models. The first
two steps (compilation) are left out of the rate. Beside the wall-clock rate it prints the process's
CPU seconds per step (all threads), which moves less than the wall clock when other jobs share the
machine.
"""
import argparse
import sys
import time

import numpy as np


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("zoo")
    ap.add_argument("--batch", type=int, default=8)
    ap.add_argument("--steps", type=int, default=12)
    args = ap.parse_args()
    import mindspore as ms
    from mindspore import nn
    sys.path.insert(0, args.zoo)
    sys.argv = sys.argv[:1]
    from src.shufflenetv1 import ShuffleNetV1
    from src.crossentropysmooth import CrossEntropySmooth
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_seed(1)
    net = ShuffleNetV1(model_size="2.0x", n_class=4)
    loss = CrossEntropySmooth(sparse=True, reduction="mean", smooth_factor=0.1, num_classes=4)
    opt = nn.Momentum(net.trainable_params(), learning_rate=0.01, momentum=0.9, weight_decay=4e-5, loss_scale=1024)
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), opt, sens=1024.0)
    step.set_train()
    rng = np.random.default_rng(0)
    x = ms.Tensor(rng.standard_normal((args.batch, 3, 224, 224)).astype(np.float32))
    y = ms.Tensor((np.arange(args.batch) % 4).astype(np.int32))
    times, cpu = [], []
    for _ in range(args.steps):
        out = step(x, y)
        out.asnumpy()
        times.append(time.perf_counter())
        cpu.append(time.process_time())
    rate = (len(times) - 2) / (times[-1] - times[1])
    cpu_step = (cpu[-1] - cpu[1]) / (len(cpu) - 2)
    print(f"steps/s {rate:.3f}, CPU s/step {cpu_step:.2f} (steps 3-{args.steps}, batch {args.batch}); "
          f"last loss {float(out.asnumpy()):.4f}")


if __name__ == "__main__":
    main()
