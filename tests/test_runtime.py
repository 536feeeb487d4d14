"""``mindspore.runtime`` streams and events on XLA (msjax/runtime): MindSpore 2.10's
CPU build cannot run them (``Event()`` raises there), so their documented
behaviour is checked here; settings and memory queries are golden cases."""
import json
import os

import numpy as np
import pytest

import msjax as ms
from msjax import runtime as rt


def test_every_name_of_mindspore_runtime():
    tree = json.load(open(os.path.join(os.path.dirname(ms.__file__), "_data", "mindspore_tree.json")))
    names = [n for n in tree["modules"]["mindspore.runtime"][1] if not n.startswith("_")]
    assert sorted(names) == rt.__all__
    for n in names:
        assert getattr(ms, n) is getattr(rt, n)   # mindspore.X is mindspore.runtime.X


def test_streams_are_xla_stream():
    s = rt.Stream(priority=1)
    assert rt.current_stream() is rt.default_stream() and s == rt.default_stream()
    with rt.StreamCtx(s):
        assert rt.current_stream() is s
        x = ms.Tensor(np.ones((64, 64), np.float32)) @ ms.Tensor(np.ones((64, 64), np.float32))
    assert rt.current_stream() is rt.default_stream()
    s.synchronize()
    assert s.query() and float(x.asnumpy()[0, 0]) == 64.0
    with pytest.raises(TypeError, match="should be Stream"):
        rt.StreamCtx(1)
    with pytest.raises(TypeError, match="should be Stream"):
        rt.set_cur_stream(1)
    with pytest.raises(TypeError, match="'priority' must be int"):
        rt.Stream(priority=1.5)


def test_event_timing_and_query():
    start, end = rt.Event(enable_timing=True), rt.Event(enable_timing=True)
    start.record()
    y = ms.ops.matmul(ms.Tensor(np.ones((128, 128), np.float32)), ms.Tensor(np.ones((128, 128), np.float32)))
    end.record()
    end.synchronize()
    assert end.query() and start.elapsed_time(end) >= 0.0 and float(y.asnumpy()[0, 0]) == 128.0
    e = rt.current_stream().record_event()
    assert isinstance(e, rt.Event) and e.query()
    with pytest.raises(RuntimeError, match="enable_timing=True"):
        rt.Event().elapsed_time(end)
    with pytest.raises(TypeError, match="'enable_timing' must be a bool"):
        rt.Event(enable_timing=1)
    with pytest.raises(TypeError, match="should be Stream"):
        rt.Event().record(1)


def test_limits_and_launch_blocking():
    s = rt.Stream()
    with rt.StreamLimitCtx(s, cube_num=4, vector_num=8):
        assert rt.get_stream_limit(s) == {"cube_core_num": 4, "vector_core_num": 8}
    assert rt.get_stream_limit(s) == {"cube_core_num": -1, "vector_core_num": -1}
    rt.set_device_limit(0, 2, 3)
    assert rt.get_device_limit(0) == {"cube_core_num": 2, "vector_core_num": 3}
    rt.launch_blocking()
    try:
        assert ms.get_context("pynative_synchronize") is True
    finally:
        ms.set_context(pynative_synchronize=False)


def test_allocator_features_raise():
    with pytest.raises(RuntimeError, match="PluggableAllocator.*not supported by msjax"):
        rt.PluggableAllocator("x.so", "a", "f")
    with pytest.raises(RuntimeError, match="memory_replay.*not supported by msjax"):
        rt.memory_replay("trace.json")


def test_hal_is_runtimes_deprecated_name():
    """``mindspore.hal``'s streams, events and memory statistics are ``mindspore.runtime``'s (its
    device queries, absent from runtime, stay unsupported); found by MindSpore's
    tests/st/pynative/grad/test_auto_grad.py."""
    import msjax.hal as hal
    from msjax import runtime
    assert hal.max_memory_allocated is runtime.max_memory_allocated and hal.Event is runtime.Event
    assert hal.max_memory_allocated() >= 0
    with pytest.raises(AttributeError, match="does not support `mindspore.hal.device_count`"):
        hal.device_count()


def test_hal_first_import_in_a_fresh_process():
    """``msjax/hal`` is a folder without ``__init__.py`` (it holds contiguous_tensors_handle.py):
    imported first, it must still be the re-export package, not Python's namespace package
    (which has none of runtime's names: CI failed on the test above run alone)."""
    import subprocess
    import sys
    code = ("import msjax.hal as h, msjax.runtime as r\n"
            "from msjax.hal.contiguous_tensors_handle import ContiguousTensorsHandle\n"
            "assert h.Event is r.Event and h.max_memory_allocated is r.max_memory_allocated\n")
    subprocess.run([sys.executable, "-c", code], check=True)
