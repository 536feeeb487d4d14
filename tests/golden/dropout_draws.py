"""Issue 33's Dropout draws, run the same way under MindSpore 2.10 and msjax.

``dropout_cases(ms)`` (``ms`` is ``mindspore`` or ``msjax``) returns ``{case: record}``: the
masks of ``nn.Dropout`` layers under ``set_seed`` (call after call, two layers, a second input
shape, negative inputs, a larger tensor) as SHA-256 of the output bytes plus the kept count, and
the losses of a small net with Dropout trained 10 steps. Only numpy and hashlib are imported.
"""
import hashlib

import numpy as np


def _rec(t):
    a = np.ascontiguousarray(t.asnumpy())
    return {"sha256": hashlib.sha256(a.tobytes()).hexdigest()[:32], "kept": int((a != 0).sum()),
            "head": [float(v) for v in a.reshape(-1)[:4]]}


def _masks(ms, call):
    nn = ms.nn
    ms.set_seed(1)
    d1, d2, d3 = nn.Dropout(p=0.5), nn.Dropout(p=0.3), nn.Dropout(keep_prob=0.9)
    for d in (d1, d2, d3):
        d.set_train(True)
    x = ms.Tensor(np.linspace(-2, 2, 40, dtype=np.float32).reshape(2, 20))
    y = ms.Tensor(np.ones((3, 20), np.float32))
    big = ms.Tensor(np.ones((48, 100), np.float32))
    out = {}
    for i in range(3):
        out[f"d1_x_{i}"] = _rec(call(d1, x))
    out["d2_x"] = _rec(call(d2, x))
    out["d1_y"] = _rec(call(d1, y))
    out["d1_x_3"] = _rec(call(d1, x))
    out["d3_big"] = _rec(call(d3, big))
    out["d3_big_1"] = _rec(call(d3, big))
    return out


def _train(ms, steps):
    nn = ms.nn
    ms.set_seed(3)

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc1 = nn.Dense(20, 32)
            self.relu = nn.ReLU()
            self.drop = nn.Dropout(p=0.3)
            self.fc2 = nn.Dense(32, 4)

        def construct(self, x):
            return self.fc2(self.drop(self.relu(self.fc1(x))))

    net = Net()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), nn.Momentum(net.trainable_params(), 0.1, 0.9))
    step.set_train(True)
    x = ms.Tensor(np.random.randn(16, 20).astype(np.float32))
    label = ms.Tensor(np.random.randint(0, 4, (16,)).astype(np.int32))
    return [float(step(x, label).asnumpy()) for _ in range(steps)]


def dropout_cases(ms, jit=False, steps=10):
    """The masks (called directly, or through ``ms.jit`` with ``jit``) and ``steps`` training losses."""
    call = (lambda cell, t: cell(t))
    if jit:
        call = ms.jit(lambda cell, t: cell(t))
    return {"masks": _masks(ms, call), "train_losses": _train(ms, steps)}
