"""MindSpore's keyword type check (``mindspore._checkparam.args_type_check``):
``None`` always passes, ``bool`` passes for ``int`` (Python's subclassing)."""
from __future__ import annotations


def check_arg_types(kwargs, types):
    """Raise MindSpore's ``TypeError`` for the first ``kwargs`` value that is not
    an instance of its entry in ``types`` (a type or tuple of types)."""
    for name, value in kwargs.items():
        expected = types.get(name)
        if expected is not None and value is not None and not isinstance(value, expected):
            raise TypeError(f"The parameter '{name}' must be {expected}, but got {type(value)}")
