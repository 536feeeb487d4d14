"""``set_context(enable_compile_cache=True)``: JAX's persistent cache serves a new process."""
import os
import textwrap

import pytest

import msjax as ms
from msjax._core import compile_cache

SCRIPT = textwrap.dedent("""
    import sys
    import jax
    import numpy as np
    hits = []
    jax.monitoring.register_event_listener(
        lambda name, **kw: hits.append(name) if name.endswith("cache_hits") else None)
    import mindspore as ms
    from mindspore import nn
    ms.set_context(mode=ms.GRAPH_MODE, enable_compile_cache=True, compile_cache_path=sys.argv[1])
    ms.set_seed(1)
    net = nn.Dense(4, 2)
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()),
                               nn.Momentum(net.trainable_params(), 0.1, 0.9))
    loss = step(ms.Tensor(np.ones((3, 4), np.float32)), ms.Tensor(np.zeros((3, 2), np.float32)))
    print("HITS", len(hits), "LOSS", float(loss))
""")


def _run(preloaded, tmp_path, cache):
    script = tmp_path / "step.py"
    script.write_text(SCRIPT)
    # JAX's persistent cache alone (the front-end cache would answer before it)
    env = dict(os.environ, MS_COMPILER_CACHE_ENABLE="0", MSJAX_FRONTEND_CACHE="0")
    rc, stdout, stderr = preloaded.run(["run", str(script), str(cache)], os.getcwd(), env, 300)
    assert rc == 0, stderr.decode()[-2000:]
    line = [ln for ln in stdout.decode().splitlines() if ln.startswith("HITS")][-1].split()
    return int(line[1]), float(line[3])


def test_second_process_loads_compiled_step_from_cache(preloaded, tmp_path):
    cache = tmp_path / "cache"
    hits1, loss1 = _run(preloaded, tmp_path, cache)
    entries = set(os.listdir(cache))
    assert hits1 == 0 and entries, "the first process compiles and fills the cache"
    hits2, loss2 = _run(preloaded, tmp_path, cache)
    assert hits2 > 0, "the second process loads executables from the cache"
    assert set(os.listdir(cache)) == entries, "nothing is compiled anew"
    assert loss2 == loss1


def test_set_context_switches_jax_cache(tmp_path):
    import jax
    try:
        ms.set_context(compile_cache_path=str(tmp_path / "c"))
        assert compile_cache.active_path() is None, "a path alone does not turn the cache on"
        ms.set_context(enable_compile_cache=True)
        assert jax.config.jax_compilation_cache_dir == str((tmp_path / "c").resolve())
        assert ms.get_context("enable_compile_cache") is True
        ms.set_context(enable_compile_cache=False)
        assert compile_cache.active_path() is None and jax.config.jax_compilation_cache_dir is None
    finally:
        ms.set_context(enable_compile_cache=None, compile_cache_path="")   # the defaults


def test_default_directory(monkeypatch, tmp_path):
    monkeypatch.setenv("MSJAX_CACHE_DIR", str(tmp_path))
    assert compile_cache.default_path() == os.path.join(str(tmp_path), "xla")


def test_enable_compile_cache_type_checked():
    with pytest.raises(TypeError):
        ms.set_context(enable_compile_cache="yes")


def test_numpy_data_and_the_random_key_compile_nothing():
    """A new process's first step compiles (or loads from the cache) only the step:
    Tensors and initialized Parameters from NumPy are copied to the device, and the
    global random key is made on the host, without a compiled program each."""
    import jax
    import numpy as np
    from msjax._core import rng
    from msjax.common.initializer import Normal, initializer

    compiles = []

    def listener(name, secs, **kw):
        if name == "/jax/core/compile/backend_compile_duration":
            compiles.append(secs)

    jax.monitoring.register_event_duration_secs_listener(listener)
    try:
        a = np.arange(77 * 3, dtype=np.float32).reshape(77, 3)     # shapes no other test uses
        t = ms.Tensor(a)
        a[0, 0] = -1.0
        p = ms.Parameter(initializer(Normal(), (79, 5), ms.float32), name="p")
        keys = [rng._initial_key(s) for s in (0, 12345, 2 ** 40 + 7)]
    finally:
        jax.monitoring.unregister_event_duration_listener(listener)
    assert compiles == []
    assert t.asnumpy()[0, 0] == 0.0, "the Tensor holds a copy of the array"
    assert p.shape == (79, 5) and p.dtype == ms.float32
    for s, k in zip((0, 12345, 2 ** 40 + 7), keys):
        np.testing.assert_array_equal(k, jax.random.key_data(jax.random.PRNGKey(s)))
        assert k.dtype == jax.random.key_data(jax.random.PRNGKey(s)).dtype
