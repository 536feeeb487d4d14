"""``Parameter``: a Tensor that is also a Flax NNX ``Param``.

Being an ``nnx.Param`` makes a Cell's weights visible to ``nnx.state``,
``nnx.split``/``merge`` and every NNX tool; being a ``Tensor`` makes it usable
wherever MindSpore code uses a Tensor. NNX refuses to mutate a Variable from
another trace level; msjax takes over that safety itself: every transform swaps
values in and restores them in a ``finally`` (see ``state.SwapFrame``), and a
traced value can never stay behind in a Parameter.

Differences from MindSpore: the name is kept in NNX metadata (so it survives
``nnx.split``/``merge``); there is no lazy ``init_data``.
"""
from __future__ import annotations

import itertools

import jax
import jax.numpy as jnp
import numpy as np
from flax import nnx

from . import dtype as mstype
from . import provided, state
from .tensor import Tensor, _MindSporeClass, to_array, wrap

__all__ = ["Parameter", "ParameterTuple", "PARAMETER_NAME_DEFAULT"]

PARAMETER_NAME_DEFAULT = "Parameter"
_counter = itertools.count(1)


def is_default_name(name: str) -> bool:
    """MindSpore names an unnamed Parameter 'Parameter#<n>'; a Cell renames it
    after the attribute it is assigned to."""
    return name == PARAMETER_NAME_DEFAULT or name.startswith(PARAMETER_NAME_DEFAULT + "#")


def _is_parameter_generated(param_name):
    """MindSpore's ``common.parameter._is_parameter_generated``: whether a name is one
    given to an unnamed Parameter ('Parameter#<n>')."""
    if not param_name or not isinstance(param_name, str):
        return False
    return param_name.startswith(PARAMETER_NAME_DEFAULT + "#")


def _initial_array(default_input):
    if hasattr(type(default_input), "_init_array"):     # an Initializer (msjax.common.initializer)
        return default_input._init_array()
    if isinstance(default_input, int) and not isinstance(default_input, bool):
        return to_array(default_input, mstype.int32)    # MindSpore 2.10: Parameter(1) is an Int32 scalar
    if isinstance(default_input, float):
        return to_array(default_input)                  # Float32
    return to_array(default_input)


PARAMETER_NAME_PREFIX_MAX_LEN = 1024


def _checked_name(name):
    """MindSpore's name rule: None or blank gives 'Parameter#<n>', surrounding spaces
    are stripped, at most 1024 characters, anything but a str is a ValueError."""
    if name is None:
        return f"{PARAMETER_NAME_DEFAULT}#{next(_counter)}"
    if not isinstance(name, str):
        raise ValueError(f"The type of the Parameter's name should be 'string' or 'None', but got {type(name)}.")
    name = name.strip()
    if not name:
        return f"{PARAMETER_NAME_DEFAULT}#{next(_counter)}"
    if len(name) > PARAMETER_NAME_PREFIX_MAX_LEN:
        raise ValueError(f"The length of the '{name}' name should be less than {PARAMETER_NAME_PREFIX_MAX_LEN}.")
    return name


def _check_default_input(default_input):
    """MindSpore 2.10's accepted ``default_input``: Tensor, int, float, numpy array,
    list (or an initializer); ``bool`` is a ValueError, anything else a TypeError."""
    if isinstance(default_input, bool):
        raise ValueError("Parameter data can not be `bool`")
    if hasattr(default_input, "_init_array") or isinstance(default_input, jax.Array):
        return      # an initializer; a jax.Array (msjax's own code)
    if not isinstance(default_input, (Tensor, int, float, np.ndarray, list)):
        raise TypeError("The type of the argument 'default_input' must be in ['Tensor', 'int', 'float', "
                        f"'numpy.ndarray', 'list']. But got type {type(default_input)}.")


class Parameter(Tensor, nnx.Param, metaclass=type("_ParameterClass", (_MindSporeClass, type(nnx.Param)), {})):
    """MindSpore's Parameter(default_input, name=None, requires_grad=True, ...)."""

    _ms_path = "mindspore.common.parameter.Parameter"

    init_param = True   # False inside ``nn.utils.no_init_parameters()`` (msjax initialises anyway)

    def __init__(self, default_input, name=None, requires_grad=True, layerwise_parallel=False,
                 parallel_optimizer=True, storage_format="", device=None):
        _check_default_input(default_input)
        name = _checked_name(name)
        for arg, v in (("requires_grad", requires_grad), ("layerwise_parallel", layerwise_parallel),
                       ("parallel_optimizer", parallel_optimizer)):
            if not isinstance(v, bool):
                raise TypeError(f"The argument `{arg}` must be bool type" + ("" if arg == "requires_grad" else "."))
        value = _initial_array(default_input)
        nnx.Param.__init__(self, value, name=name, requires_grad=requires_grad)
        self.parallel_optimizer = parallel_optimizer   # False: optimizer parallel leaves it whole
        if state.frames or state.recorders:   # born inside a transform: local to that call
            state.note_created(self)

    # --- the value slot ----------------------------------------------------------
    def _raw_get(self):
        return object.__getattribute__(self, "_raw_value")

    def _raw_set(self, value):
        object.__setattr__(self, "_raw_value", value)

    @property
    def _data(self):
        if state.recorders:
            state.note_read(self)
        return object.__getattribute__(self, "_raw_value")

    @_data.setter
    def _data(self, value):
        state.note_write(self, value)
        object.__setattr__(self, "_raw_value", value)

    # --- metadata --------------------------------------------------------------------
    @property
    def name(self):
        return self._var_metadata["name"]

    @name.setter
    def name(self, value):
        self._var_metadata["name"] = _checked_name(value)

    @property
    def requires_grad(self):
        return self._var_metadata["requires_grad"]

    @requires_grad.setter
    def requires_grad(self, value):
        if not isinstance(value, bool):
            raise TypeError("The 'requires_grad' should be bool.")
        self._var_metadata["requires_grad"] = value

    @property
    def data(self):
        """The value as a Tensor (MindSpore 2.x prints it as a Tensor)."""
        return wrap(self._data)

    def value(self):
        """The current value as a plain Tensor."""
        return wrap(self._data)

    def set_data(self, data, slice_shape=False):
        """Replace the value. Like MindSpore 2.10, a Tensor of any dtype is cast to the Parameter's
        own; a Python float into a signed-integer Parameter raises ``TypeError`` (a bool or int
        becomes the Parameter's dtype); a different shape is accepted only with the same rank when
        ``slice_shape`` is False and the Parameter is not traced."""
        cur = self._raw_get()
        if isinstance(data, float) and cur.dtype in (jnp.int8, jnp.int16, jnp.int32, jnp.int64):
            raise TypeError(f"Incoming Parameter dtype can not be converted to current dtype implicitly. Current "
                            f"dtype is {mstype.from_np(cur.dtype)}, and incoming is Float. Use .set_dtype(xxx) to "
                            f"change the dtype.")
        new = to_array(data)
        if new.dtype != cur.dtype:
            new = new.astype(cur.dtype)
        self._data = new
        return self

    def assign_value(self, value):
        return self.set_data(value)

    def clone(self, init="same"):
        """A new Parameter with this name; ``init`` other than ``'same'`` gives it
        ``initializer(init, shape, dtype)``'s values."""
        if isinstance(init, str) and init == "same":
            data = self._data
        else:
            data = provided.need("initializer")(init, self.shape, self.dtype)._data
        return Parameter(wrap(data), name=self.name, requires_grad=self.requires_grad)

    def copy(self):
        return self.clone()

    def __deepcopy__(self, memo):
        return self.clone()

    def __reduce__(self):
        return (_rebuild_parameter, (self.asnumpy(), self.name, self.requires_grad))

    @property
    def layerwise_parallel(self):
        return False

    @property
    def sliced(self):
        return False

    @property
    def is_init(self):
        return True

    def init_data(self, *args, **kwargs):
        return self

    def __repr__(self):
        return (f"Parameter (name={self.name}, shape={self.shape}, dtype={self.dtype}, "
                f"requires_grad={self.requires_grad})")

    __str__ = __repr__
    __hash__ = object.__hash__

    def __bool__(self):
        return Tensor.__bool__(self)

    # nnx.Variable defines arithmetic that returns raw arrays; keep Tensor's.
    def __getattr__(self, name):
        meta = object.__getattribute__(self, "_var_metadata")
        if name in meta:
            return meta[name]
        raise AttributeError(f"'Parameter' object has no attribute '{name}'")

    def __setattr__(self, name, value):
        object.__setattr__(self, name, value)


def _rebuild_parameter(array, name, requires_grad):
    return Parameter(array, name=name, requires_grad=requires_grad)


# Tensor's operators come first in the MRO only for names Tensor defines; make
# sure every operator nnx.Variable defines resolves to Tensor's version.
for _name, _attr in list(vars(Tensor).items()):
    if _name.startswith("__") and _name.endswith("__") and callable(_attr) and \
            _name in vars(nnx.Variable) and _name not in vars(Parameter) and \
            _name not in ("__init__", "__init_subclass__", "__getattr__", "__setattr__",
                          "__reduce__", "__deepcopy__", "__copy__"):
        setattr(Parameter, _name, _attr)


class ParameterTuple(tuple):
    """A tuple of Parameters (MindSpore's ``ParameterTuple``). It and its subclasses are JAX
    pytree nodes (one child per Parameter, keyed by index), as NNX takes every tuple to be:
    ``nnx.split``/``state``/``merge`` reach the Parameters of a Cell holding one (an optimizer)."""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        _register_tuple(cls)

    def __new__(cls, iterable):
        items = tuple(iterable)
        seen, ids = set(), set()
        for p in items:
            if not isinstance(p, Parameter):
                raise TypeError(f"ParameterTuple input should be 'Parameter' collection, but got {type(p).__name__}.")
            if id(p) in ids:        # the same Parameter again (a group learning rate shared by several)
                continue
            if p.name in seen:
                raise ValueError(f"its name '{p.name}' already exists. Please set a unique name for the parameter.")
            seen.add(p.name)
            ids.add(id(p))
        return super().__new__(cls, items)

    def clone(self, prefix, init="same"):
        """Every Parameter cloned (``Parameter.clone(init)``) and named ``prefix.name``."""
        clones = [p.clone(init) for p in self]
        for c in clones:
            c.name = f"{prefix}.{c.name}"
        return ParameterTuple(clones)


def _register_tuple(cls):
    jax.tree_util.register_pytree_with_keys(
        cls, lambda t: ([(jax.tree_util.SequenceKey(i), p) for i, p in enumerate(t)], None),
        lambda _, children: tuple.__new__(cls, children),      # no name checks: JAX rebuilds with any leaves
        flatten_func=lambda t: (tuple(t), None))


_register_tuple(ParameterTuple)
