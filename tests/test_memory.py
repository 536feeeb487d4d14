"""Memory that returns (issue 26): dropping the last reference to a Cell, a
TrainOneStepCell, a GradOperation, an ``ms.jit`` function or a function given to
``ops.vjp``/``ops.jvp`` frees it and its compiled functions, and building, training,
differentiating and dropping many small nets keeps RSS flat after warm-up.

CI builds ``MSJAX_MEMORY_NETS`` (default 6) small MLPs; the issue's count of LeNet5s:

    MSJAX_MEMORY_NETS=300 MSJAX_MEMORY_NET=lenet python -m pytest tests/test_memory.py -q -p no:xdist
    python tests/test_memory.py 300 lenet       # the RSS after each net, for the notes
"""
import gc
import os
import subprocess
import sys
import time
import weakref

import numpy as np
import pytest

import msjax as ms
from msjax import Tensor, nn, ops

NETS = int(os.environ.get("MSJAX_MEMORY_NETS", "6"))
NET = os.environ.get("MSJAX_MEMORY_NET", "mlp")
WARM_UP = 25
Y = np.eye(10, dtype=np.float32)[[3, 7]]


def lenet5():
    """LeNet5's layers (32x32 single-channel input, 10 classes)."""
    return nn.SequentialCell([nn.Conv2d(1, 6, 5, pad_mode="valid"), nn.ReLU(), nn.MaxPool2d(2, 2),
                              nn.Conv2d(6, 16, 5, pad_mode="valid"), nn.ReLU(), nn.MaxPool2d(2, 2), nn.Flatten(),
                              nn.Dense(400, 120), nn.ReLU(), nn.Dense(120, 84), nn.ReLU(), nn.Dense(84, 10)])


class MLP(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(16, 8)
        self.fc2 = nn.Dense(8, 10)
        self.relu = nn.ReLU()

    def construct(self, x):
        return self.fc2(self.relu(self.fc1(x)))


def use_and_drop(kind="mlp"):
    """Build a net, train one step, differentiate it every way, compile a jit function
    over it; return weak references to everything made."""
    shape = (2, 1, 32, 32) if kind == "lenet" else (2, 16)
    X = np.random.RandomState(0).randn(*shape).astype(np.float32)
    x, y = Tensor(X), Tensor(Y)
    net = lenet5() if kind == "lenet" else MLP()
    loss = nn.WithLossCell(net, nn.MSELoss())
    opt = nn.Momentum(net.trainable_params(), 0.01, 0.9)
    step = nn.TrainOneStepCell(loss, opt)
    step(x, y)
    grad = ops.GradOperation(get_by_list=True)(loss, opt.parameters)
    grad(x, y)
    ms.value_and_grad(loss, None, opt.parameters)(x, y)

    @ms.jit
    def double(a):
        return net(a) * 2
    double(x)
    ops.vjp(net, x)
    ops.jvp(net, x, Tensor(np.ones_like(X)))
    return [weakref.ref(o) for o in (net, loss, opt, step, grad, double)]


def rss_mb():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2 ** 20


def rss_after_each(n, kind=NET):
    out = []
    for _ in range(n):
        use_and_drop(kind)
        gc.collect()
        out.append(rss_mb())
    return out


@pytest.fixture(params=[ms.GRAPH_MODE, ms.PYNATIVE_MODE], ids=["graph", "pynative"])
def mode(request):
    old = ms.get_context("mode")
    ms.set_context(mode=request.param)
    yield request.param
    ms.set_context(mode=old)


def test_dropped_cells_and_their_compiled_functions_are_collected(mode):
    refs = use_and_drop()
    gc.collect()
    alive = [type(r()).__name__ for r in refs if r() is not None]
    assert not alive, alive


def test_the_import_leaves_the_collector_on_and_its_objects_frozen():
    """``import msjax`` pauses Python's cyclic collector while it runs and moves what it made to
    the permanent generation (msjax/__init__.py): the collector is on again afterwards, collects a
    cycle made later, and the import's modules are among the frozen objects."""
    assert gc.isenabled()
    assert gc.get_freeze_count() > 100_000

    class Node:
        pass

    a, b = Node(), Node()
    a.other, b.other = b, a
    ref = weakref.ref(a)
    del a, b
    gc.collect()
    assert ref() is None


def test_a_failed_import_leaves_the_collector_on():
    """An import inside the package's body that raises (here JAX's, the first one, which keeps the
    test cheap) must not leave the collector paused: the body runs in a ``try`` whose ``finally``
    restores it."""
    code = (
        "import gc, importlib.abc, sys\n"
        "class Fail(importlib.abc.MetaPathFinder):\n"
        "    def find_spec(self, name, path, target=None):\n"
        "        if name == 'jax':\n"
        "            raise ImportError('refused by the test')\n"
        "sys.meta_path.insert(0, Fail())\n"
        "try:\n"
        "    import msjax\n"
        "except ImportError as e:\n"
        "    print('failed:', e)\n"
        "print('enabled:', gc.isenabled())\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split("\n")[:2] == ["failed: refused by the test", "enabled: True"], out.stdout


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="RSS from /proc")
def test_rss_stays_flat_over_many_nets():
    rss = rss_after_each(NETS)
    warm_up = min(WARM_UP, NETS // 2)
    warm = rss[warm_up - 1]
    # the bound: 50 MB from net 25 to net 300; fewer nets get the same bound per
    # net, but at least 10 MB (RSS noise)
    assert rss[-1] - warm <= max(10, 50 * (NETS - warm_up) / 275), (warm, rss[-1])


if __name__ == "__main__" and os.path.exists("/proc/self/statm"):
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    t0 = time.perf_counter()
    values = rss_after_each(count, sys.argv[2] if len(sys.argv) > 2 else "lenet")
    print(f"{count} nets in {time.perf_counter() - t0:.0f} s; RSS (MB) after net 1: {values[0]:.1f}, "
          f"{WARM_UP}: {values[WARM_UP - 1]:.1f}, {count}: {values[-1]:.1f}; growth after warm-up "
          f"{values[-1] - values[WARM_UP - 1]:+.1f} MB")
    print("every 25th:", " ".join(f"{v:.1f}" for v in values[24::25]))
