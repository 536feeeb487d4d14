"""``mindspore._extends``: ``cell_attr_register``, the decorator built-in Cells'
``__init__`` use to record their arguments in ``cell_init_args``."""
from __future__ import annotations

import inspect
from functools import wraps

__all__ = ["cell_attr_register"]


def cell_attr_register(fn=None, attrs=None):
    """Decorate a Cell's ``__init__``: after it runs, ``self.cell_init_args`` is the
    class name followed by the call's arguments (or the attributes named by ``attrs``,
    a name or a list of names), as in MindSpore."""
    def wrap_cell(init):
        @wraps(init)
        def deco(self, *args, **kwargs):
            values = []
            if attrs is None:
                bound = inspect.signature(init).bind(self, *args, **kwargs).arguments
                del bound["self"]
                values = bound.values()
            init(self, *args, **kwargs)
            if attrs is None:
                pass
            elif isinstance(attrs, list):
                for item in attrs:
                    if not isinstance(item, str):
                        raise ValueError("attr must be a string")
                    if hasattr(self, item):
                        values.append(getattr(self, item))
            elif isinstance(attrs, str):
                if hasattr(self, attrs):
                    values = getattr(self, attrs)
            else:
                raise ValueError("attrs must be list or string")
            self.cell_init_args = type(self).__name__ + str(values)
        return deco
    return wrap_cell(fn) if fn is not None else wrap_cell
