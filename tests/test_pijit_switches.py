"""PIJit's on/off switch (``mindspore._c_expression.jit_mode_pi_disable``/``jit_mode_pi_enable``): while it
is off a ``jit(capture_mode="bytecode")`` function runs as plain Python, call after call; the AST mode
stays compiled. The numbers are MindSpore's either way (golden case ``st_ops:pijit_switches``)."""
import numpy as np

import msjax as ms
from msjax import _c_expression as cx


def _counting(capture_mode):
    runs = []

    def f(x):
        runs.append(1)
        return x * 2 + 1
    return ms.jit(f, capture_mode=capture_mode), runs


def test_disabled_bytecode_mode_runs_python_each_call():
    g, runs = _counting("bytecode")
    x = ms.Tensor(np.arange(3, dtype=np.float32))
    try:
        assert cx.jit_mode_pi_disable() is False
        for _ in range(3):
            np.testing.assert_array_equal(g(x).asnumpy(), [1, 3, 5])
        assert len(runs) == 3
    finally:
        assert cx.jit_mode_pi_enable() is True
    g(x)
    g(x)
    assert len(runs) == 4   # compiled again: traced once, then the cached program


def test_disabled_switch_leaves_ast_mode_compiled():
    g, runs = _counting("ast")
    x = ms.Tensor(np.ones(2, np.float32))
    try:
        cx.jit_mode_pi_disable()
        g(x)
        g(x)
    finally:
        cx.jit_mode_pi_enable()
    assert len(runs) == 1
