"""``mindspore.runtime.executor``: how work is launched.

XLA owns its thread pools and dispatch: the settings are validated like
MindSpore's (same errors, set-once rules) and recorded in ``SETTINGS``; they do
not change how XLA runs.  ``launch_blocking`` is the exception: it turns on
``pynative_synchronize``, recorded in the context.
"""
from __future__ import annotations

import re

from .._core import context
from .._core.argcheck import check_arg_types

SETTINGS = {}   # what the script asked for: name -> value


def launch_blocking():
    """``mindspore.runtime.launch_blocking``: run ops synchronously, so an error
    points at its line. Sets ``get_context('pynative_synchronize')``."""
    context._set_one("pynative_synchronize", True)     # not set_context: no deprecation warning


def dispatch_threads_num(threads_num):
    """``mindspore.runtime.dispatch_threads_num``: the runtime's dispatch threads
    (recorded; XLA sizes its own pools). Can be set once."""
    check_arg_types({"threads_num": threads_num}, {"threads_num": int})
    if "dispatch_threads_num" in SETTINGS:
        raise RuntimeError("The 'dispatch_threads_num' can not be set repeatedly.")
    if isinstance(threads_num, bool) or threads_num <= 0:
        raise ValueError(f"The 'threads_num' must be int and must > 0, but got '{threads_num}' with type "
                         f"'{type(threads_num).__name__}'.")
    SETTINGS["dispatch_threads_num"] = threads_num


_RANGES = re.compile(r"^(\d+-\d+|\d+)(,(\d+-\d+|\d+))*$")


def set_cpu_affinity(enable_affinity, affinity_cpu_list=None, module_to_cpu_dict=None, bind_file=None):
    """``mindspore.runtime.set_cpu_affinity``: bind runtime threads to CPU cores
    (validated and recorded; msjax does not pin XLA's threads). Can be set once."""
    if "cpu_affinity" in SETTINGS:
        raise RuntimeError("The 'mindspore.runtime.set_cpu_affinity' cannot be set repeatedly.")
    SETTINGS["cpu_affinity"] = None
    if not enable_affinity:
        return
    if affinity_cpu_list is not None:
        if not isinstance(affinity_cpu_list, list):
            raise TypeError(f"The parameter '{affinity_cpu_list}' must be list, but got {type(affinity_cpu_list)}")
        for cpu_range in affinity_cpu_list:
            if not isinstance(cpu_range, str):
                raise ValueError(f"CPU range '{cpu_range}' in '{affinity_cpu_list}' should be a string.")
            if not _RANGES.match(cpu_range):
                raise ValueError(f"CPU range '{cpu_range}' in '{affinity_cpu_list}' should be in format "
                                 "'cpuidX-cpuidY' or 'cpuidX,cpuidY,cpuidZ'.")
    if module_to_cpu_dict is not None:
        if not isinstance(module_to_cpu_dict, dict):
            raise TypeError(f"The parameter '{module_to_cpu_dict}' must be dict, but got {type(module_to_cpu_dict)}")
        for module_name, cpus in module_to_cpu_dict.items():
            if not isinstance(cpus, list):
                raise ValueError(f"The value of module_to_cpu_dict: {cpus} should be a list.")
            for cpu in cpus:
                if not isinstance(cpu, int) or cpu < 0:
                    raise ValueError(f"CPU index '{cpu}' for module '{module_name}' in '{cpus}' "
                                     "should be a non-negative integer.")
    SETTINGS["cpu_affinity"] = {"affinity_cpu_list": affinity_cpu_list, "module_to_cpu_dict": module_to_cpu_dict,
                                "bind_file": bind_file}


def set_kernel_launch_group(thread_num=2, kernel_group_num=8):
    """``mindspore.runtime.set_kernel_launch_group``: parallel kernel launch groups
    (validated and recorded). Can be set once, not with kernel launch capture."""
    check_arg_types({"thread_num": thread_num, "kernel_group_num": kernel_group_num},
                    {"thread_num": int, "kernel_group_num": int})
    if "kernel_launch_group" in SETTINGS:
        raise RuntimeError("The 'kernel_launch_group' can not be set repeatedly.")
    if SETTINGS.get("kernel_launch_capture", (False,))[0]:
        raise RuntimeError("The kernel launch group and kernel launch capture can not be set together")
    if thread_num < 1:
        raise ValueError(f"The value of thread_num should be at least 1, but got {thread_num}")
    if kernel_group_num < 1:
        raise ValueError(f"The value of kernel_group_num should be at least 1, but got {kernel_group_num}")
    if kernel_group_num % thread_num:
        raise ValueError(f"Invalid parameter value, kernel_group_num: {kernel_group_num} cannot "
                         f"be evenly divisible by thread_num: {thread_num}")
    SETTINGS["kernel_launch_group"] = (thread_num, kernel_group_num)


def set_kernel_launch_capture(enable_capture_graph, op_capture_skip=None):
    """``mindspore.runtime.set_kernel_launch_capture``: capture op dispatch into a
    graph (recorded; ``ms.jit``/GRAPH_MODE is msjax's captured dispatch)."""
    check_arg_types({"enable_capture_graph": enable_capture_graph}, {"enable_capture_graph": bool})
    if "kernel_launch_group" in SETTINGS:
        raise RuntimeError("The kernel launch group and kernel launch capture can not be set together")
    op_capture_skip = [] if op_capture_skip is None else op_capture_skip
    if not isinstance(op_capture_skip, list):
        raise TypeError("op_capture_skip must be a list")
    SETTINGS["kernel_launch_capture"] = (enable_capture_graph, op_capture_skip)
