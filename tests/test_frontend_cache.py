"""The front-end compile cache: a new process runs a stored step without tracing it,
and anything that changes the traced program (the script, a Cell attribute, a
global the network reads, the command line) makes it trace again."""
import os
import sys
import textwrap

import numpy as np
import pytest

import msjax as ms
from msjax import nn, ops
from msjax.common import _frontend_cache as frontend_cache

SCRIPT = textwrap.dedent("""
    import sys
    import numpy as np
    import mindspore as ms
    from mindspore import nn, ops
    from msjax._core import transforms

    with open(sys.argv[2]) as f:          # the command line stays the same: the file changes
        SCALE, SHIFT, KEEP = f.read().split()

    class Config:
        shift = float(SHIFT)

    config = Config()

    class Net(nn.Cell):
        def __init__(self, scale):
            super().__init__()
            self.conv = nn.Conv2d(1, 1, 1, has_bias=False, weight_init="ones")   # msjax's native kernels
            self.fc = nn.Dense(4, 2)
            self.scale = scale
            self.sum = ops.ReduceSum(keep_dims=KEEP == "keep")
            self.eye = ms.Tensor(np.eye(4, dtype=np.float32))

        def construct(self, x):
            x = self.conv(x.reshape(3, 1, 2, 2)).reshape(3, 4)
            x = ops.matmul(x, ops.cholesky(ops.matmul(x.T, x) + self.eye))   # jaxlib's LAPACK kernels
            return self.sum(self.fc(x) * self.scale + config.shift, 1)

    ms.set_context(mode=ms.GRAPH_MODE, enable_compile_cache=True, compile_cache_path=sys.argv[1])
    ms.set_seed(1)
    net = Net(float(SCALE))
    loss = nn.WithLossCell(net, nn.MSELoss())
    step = nn.TrainOneStepCell(loss, nn.Momentum(net.trainable_params(), 0.05, 0.9))
    x = ms.Tensor(np.linspace(-1, 1, 12, dtype=np.float32).reshape(3, 4))
    y = ms.Tensor(np.zeros((3,), np.float32))
    losses = [float(step(x, y)) for _ in range(3)]
    out = net(x).asnumpy()
    print("RESULT", transforms.TRACES[0], repr(losses), repr(out.ravel().tolist()), repr(net.fc.weight.asnumpy().sum()))
""")


def _run(preloaded, script, cache, *config, env=None):
    cfg = script.parent / "config.txt"
    cfg.write_text(" ".join(config))
    env = dict(os.environ, MS_COMPILER_CACHE_ENABLE="0", MSJAX_CACHE_KEY_DIR=str(script.parent / "key"), **(env or {}))
    rc, stdout, stderr = preloaded.run(["run", str(script), str(cache), str(cfg)], os.getcwd(), env, 300)
    stdout, stderr = stdout.decode(), stderr.decode()
    assert rc == 0, stderr[-3000:]
    assert "UntrustedCacheWarning" not in stderr, stderr[-3000:]
    line = [ln for ln in stdout.splitlines() if ln.startswith("RESULT")][-1].split(" ", 2)
    return int(line[1]), line[2]


@pytest.fixture
def script(tmp_path):
    path = tmp_path / "train.py"
    path.write_text(SCRIPT)
    return path


def _entries(cache):
    d = cache / frontend_cache.SUBDIR
    return sorted(os.listdir(d)) if d.exists() else []


def test_second_process_runs_the_stored_step_without_tracing(preloaded, script, tmp_path):
    """Also with a convolution on msjax's native FFI kernels (registered before the stored
    executable is loaded: the second process has not traced a convolution) and a Cholesky
    factorisation on jaxlib's LAPACK kernels (their table filled before the first call)."""
    cache = tmp_path / "cache"
    traces1, result1 = _run(preloaded, script, cache, "2.0", "0.5", "keep")
    assert traces1 >= 2 and len(_entries(cache)) >= 2, "training step and forward traced and stored"
    traces2, result2 = _run(preloaded, script, cache, "2.0", "0.5", "keep")
    assert traces2 == 0, "nothing traced: every signature came from the front-end cache"
    assert result2 == result1, "same losses, outputs and trained weights (the donated step updates Parameters)"
    traces3, result3 = _run(preloaded, script, cache, "2.0", "0.5", "keep", env={"MSJAX_FRONTEND_CACHE": "0"})
    assert traces3 == traces1 and result3 == result1


def test_a_changed_configuration_or_script_traces_again(preloaded, script, tmp_path):
    """Each change (a float attribute of the Cell, a global config object construct reads,
    a Primitive's attribute, an edit of the script) traces again, and gives what a process
    with an empty cache gives; one stored run serves as the base of all of them."""
    cache = tmp_path / "cache"
    _run(preloaded, script, cache, "2.0", "0.5", "keep")
    for args in [("3.0", "0.5", "keep"), ("2.0", "-0.5", "keep"), ("2.0", "0.5", "drop")]:
        traces, result = _run(preloaded, script, cache, *args)
        fresh = _run(preloaded, script, tmp_path / f"fresh{args}", *args)
        assert traces > 0 and (traces, result) == fresh, args
    script.write_text(SCRIPT.replace("self.fc(x) * self.scale", "self.fc(x) * self.scale * 2"))
    traces, result = _run(preloaded, script, cache, "2.0", "0.5", "keep")
    assert traces > 0 and (traces, result) == _run(preloaded, script, tmp_path / "fresh-edited", "2.0", "0.5", "keep")


# ---------------------------------------------------------------------------
# descriptions (in process)
# ---------------------------------------------------------------------------
def test_describe_tensors_by_value_parameters_by_signature():
    d = frontend_cache.describe
    a = ms.Tensor(np.ones((2, 2), np.float32))
    assert d(a) == d(ms.Tensor(np.ones((2, 2), np.float32)))
    assert d(a) != d(ms.Tensor(np.zeros((2, 2), np.float32))), "a constant Tensor's values are in the program"
    p = ms.Parameter(ms.Tensor(np.ones(3, np.float32)), name="w")
    q = ms.Parameter(ms.Tensor(np.zeros(3, np.float32)), name="w")
    assert d(p) == d(q), "a Parameter is an input: its value is not part of the key"
    assert d(ops.ReduceSum(keep_dims=True)) != d(ops.ReduceSum(keep_dims=False))
    assert d(nn.Dense(2, 3)) == d(nn.Dense(2, 3)), "Cells are described one by one, not inside attributes"


def test_unstable_values_make_no_fingerprint():
    class Opaque:
        pass

    net = nn.Dense(2, 2)
    key = ("static", Opaque())     # shown by its address: cannot be compared across processes
    assert frontend_cache.fingerprint(net.construct, None, key, net.trainable_params(), [net]) is None
    fp = frontend_cache.fingerprint(net.construct, None, ("static", 3), net.trainable_params(), [net])
    assert isinstance(fp, str) and len(fp) == 64
    assert fp == frontend_cache.fingerprint(net.construct, None, ("static", 3), net.trainable_params(), [net])
    assert fp != frontend_cache.fingerprint(net.construct, None, ("static", 4), net.trainable_params(), [net])


def test_a_damaged_entry_is_ignored(tmp_path, monkeypatch):
    from msjax._core import compile_cache
    monkeypatch.setenv("MSJAX_CACHE_KEY_DIR", str(tmp_path / "key"))
    try:
        ms.set_context(enable_compile_cache=True, compile_cache_path=str(tmp_path / "c"))
        d = tmp_path / "c" / frontend_cache.SUBDIR
        d.mkdir(mode=0o700)
        (d / ("0" * 64 + ".pkl")).write_bytes(b"not a pickle")
        (d / ("0" * 64 + ".pkl")).chmod(0o600)
        with pytest.warns(UserWarning, match="not an authenticated msjax entry"):
            assert frontend_cache.load("0" * 64) is None
        assert compile_cache.active_path() == str((tmp_path / "c").resolve())
    finally:
        ms.set_context(enable_compile_cache=None, compile_cache_path="")


def test_a_module_whose_file_is_gone_is_described_by_its_code(tmp_path, monkeypatch):
    (tmp_path / "gone_helpers.py").write_text("def f(a):\n    return a + 1\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import gone_helpers
    try:
        (tmp_path / "gone_helpers.py").unlink()
        net = nn.Dense(2, 2)
        fp = frontend_cache.fingerprint(net.construct, None, ("static", 3), net.trainable_params(), [net])
        assert fp is not None
        gone_helpers.f.__code__ = (lambda a: a + 2).__code__      # other code in memory: another key
        assert frontend_cache.fingerprint(net.construct, None, ("static", 3), net.trainable_params(), [net]) != fp
    finally:
        sys.modules.pop("gone_helpers", None)


def test_a_jupyter_kernels_connection_file_is_not_configuration(monkeypatch):
    net = nn.Dense(2, 2)

    def fp():
        return frontend_cache.fingerprint(net.construct, None, ("static", 3), net.trainable_params(), [net])

    monkeypatch.setattr(sys, "argv", ["/x/ipykernel_launcher.py", "-f", "/run/kernel-1.json"])
    first = fp()
    monkeypatch.setattr(sys, "argv", ["/x/ipykernel_launcher.py", "-f", "/run/kernel-2.json"])
    assert fp() == first
    monkeypatch.setattr(sys, "argv", ["train.py", "--lr", "0.1"])
    second = fp()
    monkeypatch.setattr(sys, "argv", ["train.py", "--lr", "0.2"])
    assert fp() != second, "a script's command line is configuration"
