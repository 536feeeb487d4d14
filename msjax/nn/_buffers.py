"""A Cell's buffers and its ``state_dict``: MindSpore 2.10's ``Cell.register_buffer``/``get_buffer``/
``named_buffers``/``buffers``, ``_Buffer`` (``mindspore.common.parameter._Buffer``), ``Cell.state_dict``/
``load_state_dict`` and their four hook registrations (``CellState``, a base of ``Cell``).

A buffer is a Tensor that is part of a Cell's state but not a Parameter (not trained, not in
``parameters_dict``). A Cell keeps them in ``_buffers`` (name -> Tensor, in registration order) and reads
them as attributes. Difference from MindSpore: a compiled ``construct`` reads a buffer as a constant of
the graph (assigning a new Tensor to it between calls is seen by the next call)."""
from __future__ import annotations

import collections
import itertools
from collections import OrderedDict
from collections.abc import Mapping

from .._core.hooks import HookHandle
from .._core.parameter import Parameter
from .._core.tensor import Tensor

_EXTRA_STATE_KEY_SUFFIX = "_extra_state"

_IncompatibleKeys = collections.namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])
_IncompatibleKeys.__repr__ = lambda self: ("<All keys matched successfully>" if not self.missing_keys and
                                           not self.unexpected_keys else
                                           f"_IncompatibleKeys(missing_keys={self.missing_keys}, "
                                           f"unexpected_keys={self.unexpected_keys})")


class _BufferMeta(type(Tensor)):
    def __instancecheck__(cls, instance):
        if cls is _Buffer and isinstance(instance, Tensor) and getattr(instance, "_is_buffer", False):
            return True
        return super().__instancecheck__(instance)


class _Buffer(Tensor, metaclass=_BufferMeta):
    """``_Buffer(data, *, persistent=True)``: ``data`` with its gradient stopped, marked as a buffer (a
    Tensor, not an instance of this class, as MindSpore's); assigned to a Cell attribute it is registered
    with ``register_buffer``."""

    def __new__(cls, data, *, persistent=True):
        if data is None:
            raise ValueError('For create Buffer, input data should not be None')
        if not isinstance(data, Tensor):
            raise TypeError('For create Buffer, type of input data should be Tensor')
        from ..ops import stop_gradient
        t = stop_gradient(data)
        t._is_buffer = True
        t.persistent = persistent
        return t


def _add_hook(cell, name, hook):
    """Keep ``hook`` in the Cell's ordered dict ``name``; the handle that removes it."""
    hooks = cell.__dict__.get(name)
    if hooks is None:
        hooks = OrderedDict()
        object.__setattr__(cell, name, hooks)
    handle = HookHandle(hooks)
    hooks[handle.handle_id] = hook
    return handle


class CellState:
    """The buffer and state-dict methods of ``nn.Cell``."""

    @property
    def _non_persistent_buffers_set(self):
        s = self.__dict__.get("_ms_non_persistent")
        if s is None:
            s = set()
            object.__setattr__(self, "_ms_non_persistent", s)
        return s

    def register_buffer(self, name, tensor, persistent=True):
        """Add the buffer ``name`` (a Tensor, or None: left out of ``state_dict``)."""
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Cell.__init__() call")
        if not isinstance(name, str):
            raise TypeError(f"buffer name should be a string.But got this type: {type(name)}")
        if "." in name:
            raise KeyError('buffer name can\'t contain "."')
        if name == "":
            raise KeyError('buffer name can\'t be empty string ""')
        if hasattr(self, name) and name not in self._buffers:
            raise KeyError(f"attribute '{name}' already exists")
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(f"cannot assign '{type(tensor)}' object to buffer '{name}' "
                            "(mindspore Tensor or None required)")
        if tensor is not None:
            tensor._is_buffer = True
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def get_sub_cell(self, target):
        """The sub-Cell at the dotted path ``target`` ("" is this Cell)."""
        if target == "":
            return self
        cell = self
        for item in target.split("."):
            if not hasattr(cell, item):
                raise AttributeError(type(cell).__name__ + " has no attribute `" + item + "`")
            cell = getattr(cell, item)
            if not getattr(cell, "_ms_is_cell", False):
                raise AttributeError("`" + item + "` is not an nn.Cell")
        return cell

    def get_buffer(self, target):
        """The buffer at the dotted path ``target`` (``"sub_net.buffer_1"``)."""
        cell_path, _, buffer_name = target.rpartition(".")
        cell = self.get_sub_cell(cell_path)
        if not hasattr(cell, buffer_name):
            raise AttributeError(type(cell).__name__ + " has no attribute `" + buffer_name + "`")
        buffer = getattr(cell, buffer_name)
        if buffer_name not in cell._buffers:
            raise AttributeError("`" + buffer_name + "` is not a buffer")
        return buffer

    def named_buffers(self, prefix="", recurse=True, remove_duplicate=True):
        """(name, buffer) pairs: this Cell's buffers, then its sub-Cells' (``sub.name``)."""
        cells = self.cells_and_names(name_prefix=prefix) if recurse else [(prefix, self)]
        seen = set()
        for cell_name, cell in cells:
            for name, buf in cell.__dict__.get("_buffers", {}).items():
                if buf is None or (remove_duplicate and id(buf) in seen):
                    continue
                if remove_duplicate:
                    seen.add(id(buf))
                yield (cell_name + "." + name if cell_name else name), buf

    def buffers(self, recurse=True):
        """The buffers of ``named_buffers``."""
        for _, buf in self.named_buffers(recurse=recurse):
            yield buf

    # --- state_dict ---------------------------------------------------------------------------
    def register_state_dict_pre_hook(self, hook):
        """``hook(cell, prefix, keep_vars)`` before ``state_dict``; returns a handle."""
        return _add_hook(self, "_ms_state_dict_pre_hooks", hook)

    def register_state_dict_post_hook(self, hook):
        """``hook(cell, state_dict, prefix, local_metadata)`` after ``state_dict``; returns a handle."""
        return _add_hook(self, "_ms_state_dict_hooks", hook)

    def register_load_state_dict_pre_hook(self, hook):
        """``hook(cell, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs)``
        before this Cell's entries are loaded; returns a handle."""
        return _add_hook(self, "_ms_load_state_dict_pre_hooks", hook)

    def register_load_state_dict_post_hook(self, hook):
        """``hook(cell, incompatible_keys)`` after ``load_state_dict``; returns a handle."""
        return _add_hook(self, "_ms_load_state_dict_post_hooks", hook)

    def get_extra_state(self):
        """Extra state for ``state_dict`` (a subclass overrides it with ``set_extra_state``)."""
        raise RuntimeError("Reached a code path in Cell.get_extra_state() that should never be called.")

    def set_extra_state(self, state):
        """Restores what ``get_extra_state`` returned."""
        raise RuntimeError("Reached a code path in Cell.set_extra_state() that should never be called.")

    def _state_params(self):
        return [(k, v) for k, v in self._own_params() if isinstance(v, Parameter)]

    def _save_to_state_dict(self, destination, prefix, keep_vars):
        for name, param in self._state_params():
            destination[prefix + name] = param
        for name, buf in self._buffers.items():
            if buf is not None and name not in self._non_persistent_buffers_set:
                destination[prefix + name] = buf
        if type(self).get_extra_state is not CellState.get_extra_state:
            destination[prefix + _EXTRA_STATE_KEY_SUFFIX] = self.get_extra_state()

    def state_dict(self, *args, destination=None, prefix="", keep_vars=False):
        """An ordered dict of this Cell's Parameters and persistent buffers by dotted name, sub-Cells'
        after each Cell's own."""
        if args:
            if destination is None:
                destination = args[0]
            if len(args) > 1 and prefix == "":
                prefix = args[1]
            if len(args) > 2 and keep_vars is False:
                keep_vars = args[2]
        if destination is not None and not isinstance(destination, dict):
            raise TypeError(f"The type of destination must be OrderedDict, but got {type(destination)}")
        if not isinstance(prefix, str):
            raise TypeError(f"The type of prefix must be string, but got {type(prefix)}")
        if not isinstance(keep_vars, bool):
            raise TypeError(f"The type of keep_vars must be bool, but got {type(keep_vars)}")
        if destination is None:
            destination = OrderedDict()
            destination._metadata = OrderedDict()
        local_metadata = {}
        if hasattr(destination, "_metadata"):
            destination._metadata[prefix[:-1]] = local_metadata
        for hook in list(self.__dict__.get("_ms_state_dict_pre_hooks", {}).values()):
            hook(self, prefix, keep_vars)
        self._save_to_state_dict(destination, prefix, keep_vars)
        for name, cell in self._own_cells():
            cell.state_dict(destination=destination, prefix=prefix + name + ".", keep_vars=keep_vars)
        for hook in list(self.__dict__.get("_ms_state_dict_hooks", {}).values()):
            if hook(self, destination, prefix, local_metadata) is not None:
                raise RuntimeError("state_dict post-hook must return None")
        return destination

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                              error_msgs):
        for hook in list(self.__dict__.get("_ms_load_state_dict_pre_hooks", {}).values()):
            hook(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs)
        persistent = {k: v for k, v in self._buffers.items() if k not in self._non_persistent_buffers_set}
        local_state = {k: v for k, v in itertools.chain(self._state_params(), persistent.items()) if v is not None}
        for name, param in local_state.items():
            key = prefix + name
            if key not in state_dict:
                if strict:
                    missing_keys.append(key)
                continue
            value = state_dict[key]
            if not isinstance(value, Tensor):
                error_msgs.append(f'While copying the parameter named "{key}", expected Tensor or Tensor-like '
                                  f"object from checkpoint but received {type(value)}")
                continue
            if value.shape != param.shape:
                error_msgs.append(f"size mismatch for {key}: copying a param with shape {value.shape} from "
                                  f"checkpoint, the shape in current model is {param.shape}.")
                continue
            param.assign_value(Tensor(value.asnumpy(), dtype=param.dtype))
        extra_key = prefix + _EXTRA_STATE_KEY_SUFFIX
        if type(self).set_extra_state is not CellState.set_extra_state:
            if extra_key in state_dict:
                self.set_extra_state(state_dict[extra_key])
            elif strict:
                missing_keys.append(extra_key)
        elif strict and extra_key in state_dict:
            unexpected_keys.append(extra_key)
        if strict:
            cells = dict(self._own_cells())
            for key in state_dict.keys():
                if key.startswith(prefix) and key != extra_key:
                    head = key[len(prefix):].split(".", 1)
                    if (len(head) > 1 and head[0] not in cells) or (len(head) == 1 and head[0] not in local_state):
                        unexpected_keys.append(key)

    def load_state_dict(self, state_dict, strict=True):
        """Copy ``state_dict``'s values into this Cell's Parameters and buffers; returns
        ``(missing_keys, unexpected_keys)``; RuntimeError lists what did not match when ``strict``."""
        if not isinstance(state_dict, Mapping):
            raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")
        missing_keys, unexpected_keys, error_msgs = [], [], []
        metadata = getattr(state_dict, "_metadata", None)
        state_dict = OrderedDict(state_dict)
        if metadata is not None:
            state_dict._metadata = metadata

        def load(cell, local_state_dict, prefix=""):
            local_metadata = {} if metadata is None else metadata.get(prefix[:-1], {})
            cell._load_from_state_dict(local_state_dict, prefix, local_metadata, True, missing_keys,
                                       unexpected_keys, error_msgs)
            for name, child in cell._own_cells():
                child_prefix = prefix + name + "."
                load(child, {k: v for k, v in local_state_dict.items() if k.startswith(child_prefix)}, child_prefix)
            keys = _IncompatibleKeys(missing_keys, unexpected_keys)
            for hook in list(cell.__dict__.get("_ms_load_state_dict_post_hooks", {}).values()):
                if hook(cell, keys) is not None:
                    raise RuntimeError("Hooks registered with ``register_load_state_dict_post_hook`` are not"
                                       "expected to return new values, if incompatible_keys need to be modified,"
                                       "it should be done inplace.")

        load(self, state_dict)
        if strict:
            if unexpected_keys:
                error_msgs.insert(0, "Unexpected key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in unexpected_keys)))
            if missing_keys:
                error_msgs.insert(0, "Missing key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in missing_keys)))
        if error_msgs:
            raise RuntimeError("Error(s) in loading state_dict for {}:\n\t{}".format(
                type(self).__name__, "\n\t".join(error_msgs)))
        return _IncompatibleKeys(missing_keys, unexpected_keys)
