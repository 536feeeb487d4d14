"""``mindspore.common.hook_handle``: the handles hook registrations return (defined
in ``msjax._core.hooks``)."""
from .._core.hooks import HookHandle, _TensorHookHandle  # noqa: F401

__all__ = ["HookHandle"]
