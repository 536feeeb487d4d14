"""Module paths and helpers that official/research model-zoo code reaches for, in the
zoo's own style (``mindspore-ai/models``), resolved to msjax's behaviour."""
import subprocess
import sys
import textwrap

import jax
import pytest


def test_pynative_executor_sync_waits_for_every_live_array(monkeypatch):
    """research/3d/DeepLM's solver calls ``_pynative_executor.sync()`` to time its steps."""
    from msjax.common.api import _pynative_executor
    waited = []

    class Pending:
        def __init__(self, i):
            self.i = i

        def block_until_ready(self):
            waited.append(self.i)

    monkeypatch.setattr(jax, "live_arrays", lambda: [Pending(0), Pending(1)])
    _pynative_executor.sync()
    assert waited == [0, 1]


def test_pynative_executor_other_methods_name_themselves():
    from msjax.common.api import _pynative_executor
    with pytest.raises(AttributeError, match=r"_pynative_executor\.new_graph"):
        _pynative_executor.new_graph


def test_pynative_executor_from_the_zoo_import_line(tmp_path):
    script = tmp_path / "solver.py"
    script.write_text(textwrap.dedent("""
        import time
        import numpy as np
        import mindspore as ms
        from mindspore import ops
        from mindspore.common.api import _pynative_executor
        x = ms.Tensor(np.ones((64, 64), np.float32))
        t = time.time()
        y = ops.matmul(x, x)
        _pynative_executor.sync()
        print("sum", float(y.sum().asnumpy()), time.time() - t >= 0)
    """))
    out = subprocess.run([sys.executable, "-m", "msjax", "run", str(script)], capture_output=True, text=True,
                         cwd=tmp_path, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "sum 262144.0 True" in out.stdout
