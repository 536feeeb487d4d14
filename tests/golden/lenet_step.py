"""Issue 33's LeNet5 training step, run the same way under MindSpore 2.10 and msjax.

``lenet_step_cases(ms)`` (``ms`` is ``mindspore`` or ``msjax``): the main job's LeNet5 (the zoo's
network, ``examples/train_lenet.py``) under ``set_seed(1)`` on a seeded batch of 32 images, in
GRAPH_MODE: every layer's output, the loss of ``nn.SoftmaxCrossEntropyWithLogits(sparse=True,
reduction='mean')``, every parameter's gradient, and the parameters and losses of two
``TrainOneStepCell`` steps with ``nn.Momentum(lr=0.01, momentum=0.9, weight_decay=1e-4)``. Each record holds the array's SHA-256 (Float32 bytes), its first values and
the sum of its absolute values. ``machine()`` says what the bits depend on: oneDNN's gemm kernels
differ by instruction set and split their work by thread count. Only numpy and hashlib here.
"""
import hashlib
import os

import numpy as np

try:
    from .init_draws import _nets
except ImportError:          # run as a script from tests/golden (the recorder)
    from init_draws import _nets


def machine():
    """The CPU features and thread count oneDNN's kernels (and so the bits) depend on."""
    flags = ""
    try:
        with open("/proc/cpuinfo") as f:
            flags = next((line for line in f if line.startswith("flags")), "")
    except OSError:
        pass
    isa = "avx512" if " avx512f" in flags else ("avx2" if " avx2" in flags else "other")
    return {"isa": isa, "threads": len(os.sched_getaffinity(0))}


# the CPU MindSpore 2.10's records without their own ``meta.isa`` were made on (x86-64, AVX2, no AVX-512):
# oneDNN's and NumPy's kernels, and so the last bits, depend on the instruction set
RECORDED_ISA = "avx2"


def same_isa(recorded=RECORDED_ISA):
    """Whether this CPU's instruction set is the recording one's (bit-for-bit comparisons hold)."""
    return machine()["isa"] == recorded


def record_path(path, isa=None):
    """Where a record made on ``isa`` (this CPU's by default) lives: ``path`` for ``RECORDED_ISA``, else its
    twin ``<stem>_<isa><ext>`` next to it (MindSpore's oneDNN gemm rounds by instruction set)."""
    isa = isa or machine()["isa"]
    stem, ext = os.path.splitext(path)
    return path if isa == RECORDED_ISA else f"{stem}_{isa}{ext}"


def isa_record(path):
    """The record to compare with on this CPU: its instruction set's twin of ``path`` where one was
    recorded (and oneDNN runs that set), else ``path`` (then bits are compared only where ``same_isa()``)."""
    if os.environ.get("ONEDNN_MAX_CPU_ISA"):    # oneDNN held below the CPU's set (the CI emulation): none
        return path
    twin = record_path(path)
    return twin if os.path.exists(twin) else path


def _summary(arr):
    arr = np.ascontiguousarray(np.asarray(arr, np.float32))
    flat = arr.reshape(-1)
    return {"sha256": hashlib.sha256(arr.tobytes()).hexdigest()[:32], "shape": list(arr.shape),
            "head": [float(v) for v in flat[:3]], "abs_sum": float(np.abs(flat.astype(np.float64)).sum())}


def _lenet(ms):
    """init_draws's LeNet5 (its parameters) with the zoo's forward pass."""
    nn = ms.nn

    class LeNet5(_nets(ms)["lenet5"]):
        def __init__(self):
            super().__init__()
            self.relu = nn.ReLU()
            self.max_pool2d = nn.MaxPool2d(kernel_size=2, stride=2)
            self.flatten = nn.Flatten()

        def construct(self, x):
            x = self.max_pool2d(self.relu(self.conv1(x)))
            x = self.max_pool2d(self.relu(self.conv2(x)))
            x = self.flatten(x)
            x = self.relu(self.fc1(x))
            x = self.relu(self.fc2(x))
            return self.fc3(x)

    return LeNet5()


def _batches(n):
    rng = np.random.default_rng(0)
    return [(np.clip(rng.normal(0.0, 1.0, (32, 1, 32, 32)), -0.4, 2.8).astype(np.float32),
             rng.integers(0, 10, 32).astype(np.int32)) for _ in range(n)]


def lenet_step_cases(ms):
    nn = ms.nn
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_seed(1)
    net = _lenet(ms)
    batches = _batches(2)
    x, y = ms.Tensor(batches[0][0]), ms.Tensor(batches[0][1])
    out = {}
    h = x
    for name in ("conv1", "relu", "max_pool2d", "conv2", "relu", "max_pool2d", "flatten", "fc1", "relu", "fc2",
                 "relu", "fc3"):
        h = getattr(net, name)(h)
        out[f"forward/{len(out):02d}_{name}"] = _summary(h.asnumpy())
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    loss, grads = ms.value_and_grad(nn.WithLossCell(net, loss_fn), None, net.trainable_params())(x, y)
    out["loss"] = _summary(loss.asnumpy())
    for p, g in zip(net.trainable_params(), grads):
        out["grad/" + p.name] = _summary(g.asnumpy())
    opt = nn.Momentum(net.trainable_params(), 0.01, 0.9, weight_decay=1e-4)
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss_fn), opt)
    step.set_train()
    for i, (bx, by) in enumerate(batches):
        out[f"step{i}/loss"] = _summary(step(ms.Tensor(bx), ms.Tensor(by)).asnumpy())
        for p in net.trainable_params():
            out[f"step{i}/{p.name}"] = _summary(p.asnumpy())
    return out
