"""Steps/s of the zoo's ShuffleNetV1 (2.0x, 4 classes) train step at O0 on a fixed batch of 224x224
images, as its ``train.py`` builds it (``Momentum`` with loss scale 1024 over
``FixedLossScaleManager(drop_overflow_update=False)``, ``CrossEntropySmooth``,
``Model(amp_level='O0')``'s ``TrainOneStepCell``), under msjax or MindSpore 2.10, side by side:

    python -m msjax run bench/zoo/shufflenet/o0_step.py ZOO [--batch 8] [--steps 12]
    /tmp/ms/bin/python bench/zoo/shufflenet/o0_step.py ZOO [--batch 8] [--steps 12]

``ZOO`` is ``official/cv/ShuffleNet/shufflenetv1`` of a checkout of mindspore-ai/models. The first
two steps (compilation) are left out of the rate. Beside the wall-clock rate it prints the process's
CPU seconds per step (all threads), which moves less than the wall clock when other jobs share the
machine. ``--threads`` adds each thread's CPU seconds per step and how many of the process's threads
were runnable (state R in ``/proc``, sampled every 5 ms over the timed steps; the sampler's own thread
left out): the parallelism the step asks for, which a loaded machine does not hide as it hides the
wall clock (the sampler itself costs CPU time, so read the rate from a run without it).
"""
import argparse
import collections
import os
import sys
import threading
import time

import numpy as np


def thread_stats():
    """(thread id, its /proc stat line) of this process's live threads."""
    for tid in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{tid}/stat") as f:
                yield tid, f.read()
        except OSError:
            continue


def thread_cpu():
    """{thread id: (name, CPU seconds)} of this process's threads."""
    out, tick = {}, os.sysconf("SC_CLK_TCK")
    for tid, s in thread_stats():
        fields = s[s.rindex(")") + 2:].split()
        out[tid] = (s[s.index("(") + 1:s.rindex(")")], (int(fields[11]) + int(fields[12])) / tick)
    return out


class RunnableSampler(threading.Thread):
    """Counts, every 5 ms while ``on`` is set, the process's threads in state R (itself left out)."""

    def __init__(self):
        super().__init__(daemon=True)
        self.hist, self.on, self.stop = collections.Counter(), threading.Event(), threading.Event()

    def run(self):
        me = str(threading.get_native_id())
        while not self.stop.is_set():
            if self.on.is_set():
                self.hist[sum(tid != me and s[s.rindex(")") + 2] == "R" for tid, s in thread_stats())] += 1
            time.sleep(0.005)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("zoo")
    ap.add_argument("--batch", type=int, default=8)
    ap.add_argument("--steps", type=int, default=12)
    ap.add_argument("--threads", action="store_true", help="per-thread CPU time and runnable threads")
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
    sampler = RunnableSampler() if args.threads else None
    if sampler:
        sampler.start()
    for i in range(args.steps):
        out = step(x, y)
        out.asnumpy()
        times.append(time.perf_counter())
        cpu.append(time.process_time())
        if sampler and i == 1:
            before = thread_cpu()
            sampler.on.set()
    rate = (len(times) - 2) / (times[-1] - times[1])
    cpu_step = (cpu[-1] - cpu[1]) / (len(cpu) - 2)
    print(f"steps/s {rate:.3f}, CPU s/step {cpu_step:.2f} (steps 3-{args.steps}, batch {args.batch}); "
          f"last loss {float(out.asnumpy()):.4f}")
    if sampler:
        sampler.stop.set()
        steps, after, total = len(times) - 2, thread_cpu(), sum(sampler.hist.values())
        shares = ", ".join(f"{k}: {v / total:.2f}" for k, v in sorted(sampler.hist.items()))
        print(f"runnable threads (share of samples) {shares}; "
              f"mean {sum(k * v for k, v in sampler.hist.items()) / total:.2f}")
        for tid, (name, sec) in sorted(after.items(), key=lambda t: -t[1][1]):
            per = (sec - before.get(tid, (name, 0.0))[1]) / steps
            if per >= 0.005:
                print(f"  thread {tid} {name}: {per:.3f} CPU s/step")


if __name__ == "__main__":
    main()
