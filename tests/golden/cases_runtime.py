"""Golden cases for ``mindspore.runtime`` on MindSpore 2.10's CPU build: the
settings' checks and the memory queries (zeros on CPU).  Streams and events do
not work on MindSpore's CPU build (``Event()`` raises, ``current_stream()`` is
None): tests/test_runtime.py checks msjax's documented behaviour instead."""
from importlib import import_module


def _rt(ms):
    """``ms.runtime``, with msjax's set-once settings forgotten: MindSpore records
    each case in a fresh process, msjax replays them in one."""
    rt = import_module(ms.__name__ + ".runtime")
    for mod in ("executor", "memory"):
        getattr(getattr(rt, mod, None), "SETTINGS", {}).clear()
    return rt


def case_names(ms):
    return sorted(n for n in _rt(ms).__all__)


def case_err_dispatch_threads_num_twice(ms):
    rt = _rt(ms)
    rt.dispatch_threads_num(4)
    rt.dispatch_threads_num(2)


def case_err_dispatch_threads_num_type(ms):
    _rt(ms).dispatch_threads_num("4")


def case_err_dispatch_threads_num_value(ms):
    _rt(ms).dispatch_threads_num(-1)


def case_set_cpu_affinity(ms):
    return _rt(ms).set_cpu_affinity(True)


def case_set_cpu_affinity_list(ms):
    return _rt(ms).set_cpu_affinity(True, ["0-1"])


def case_err_set_cpu_affinity_twice(ms):
    rt = _rt(ms)
    rt.set_cpu_affinity(False)
    rt.set_cpu_affinity(False)


def case_err_set_cpu_affinity_list_type(ms):
    _rt(ms).set_cpu_affinity(True, "0-1")


def case_set_kernel_launch_group(ms):
    return _rt(ms).set_kernel_launch_group(thread_num=2, kernel_group_num=4)


def case_err_set_kernel_launch_group_value(ms):
    _rt(ms).set_kernel_launch_group(thread_num=0)


def case_err_set_kernel_launch_group_divisible(ms):
    _rt(ms).set_kernel_launch_group(thread_num=3, kernel_group_num=8)


def case_err_set_kernel_launch_group_twice(ms):
    rt = _rt(ms)
    rt.set_kernel_launch_group()
    rt.set_kernel_launch_group()


def case_set_kernel_launch_capture(ms):
    return _rt(ms).set_kernel_launch_capture(True)


def case_err_set_kernel_launch_capture_skip(ms):
    _rt(ms).set_kernel_launch_capture(True, op_capture_skip="MatMul")


def case_set_memory(ms):
    return _rt(ms).set_memory(init_size="1GB", increase_size="1GB", max_size="4GB", optimize_level="O1")


def case_err_set_memory_format(ms):
    _rt(ms).set_memory(max_size="4G")


def case_err_set_memory_zero(ms):
    _rt(ms).set_memory(max_size="0GB")


def case_err_set_memory_level(ms):
    _rt(ms).set_memory(optimize_level="O3")


def case_err_set_memory_twice(ms):
    rt = _rt(ms)
    rt.set_memory()
    rt.set_memory()


def case_memory_queries(ms):
    rt = _rt(ms)
    return [rt.memory_allocated(), rt.max_memory_allocated(), rt.memory_reserved(), rt.max_memory_reserved(),
            rt.empty_cache(), rt.reset_peak_memory_stats(), rt.reset_max_memory_allocated(),
            rt.reset_max_memory_reserved()]


def case_memory_stats(ms):
    return _rt(ms).memory_stats()


def case_synchronize(ms):
    x = ms.Tensor([1.0, 2.0], ms.float32) * 2
    _rt(ms).synchronize()
    return x


def _cpu(ms):
    """``ms.device_context.cpu``, with msjax's set-once thread count forgotten (see ``_rt``)."""
    cpu = import_module(ms.__name__ + ".device_context.cpu")
    getattr(import_module(ms.__name__ + ".device_context.cpu.op_tuning"), "SETTINGS", {}).clear()
    return cpu


def case_device_context_cpu(ms):
    cpu = _cpu(ms)
    return cpu.is_available(), cpu.device_count(), cpu.op_tuning.threads_num(2)


def case_err_threads_num_twice(ms):
    cpu = _cpu(ms)
    cpu.op_tuning.threads_num(4)
    cpu.op_tuning.threads_num(2)


def case_err_threads_num_type(ms):
    _cpu(ms).op_tuning.threads_num(1.5)


def case_err_threads_num_bool(ms):
    _cpu(ms).op_tuning.threads_num(True)


def case_err_threads_num_value(ms):
    _cpu(ms).op_tuning.threads_num(0)


def case_ascend_not_available(ms):
    return import_module(ms.__name__ + ".device_context.ascend").is_available()


def case_err_ascend_device_count(ms):
    import_module(ms.__name__ + ".device_context.ascend").device_count()


def all_cases():
    return {k[len("case_"):]: v for k, v in sorted(globals().items()) if k.startswith("case_") and callable(v)}
