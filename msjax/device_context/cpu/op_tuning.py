"""``mindspore.device_context.cpu.op_tuning``: the CPU kernels' thread count.

Differs from MindSpore: XLA sizes its own CPU thread pool when the backend
starts, so the number is validated like MindSpore's (same errors, set once) and
recorded in ``SETTINGS``; it does not change how many threads XLA uses.
"""
from __future__ import annotations

from ..._core.argcheck import check_arg_types

SETTINGS = {}   # what the script asked for: name -> value


def threads_num(num):
    """``mindspore.device_context.cpu.op_tuning.threads_num``: threads for the CPU
    kernels (recorded; see the module's docstring). Can be set once."""
    check_arg_types({"num": num}, {"num": int})
    if "threads_num" in SETTINGS:
        raise RuntimeError("The 'threads_num' can not be set repeatedly.")
    if isinstance(num, bool):
        raise TypeError(f"The 'num' must be int and must > 0, but got '{num}' with type 'bool'.")
    if num <= 0:
        raise ValueError(f"The 'num' must be int and must > 0, but got '{num}' with type 'int'.")
    SETTINGS["threads_num"] = num
