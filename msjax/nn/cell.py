"""``nn.Cell``: MindSpore's Cell as a Flax NNX Module.

A Cell is an ``nnx.Module`` (``pytree=False``), so ``nnx.state(cell, nnx.Param)``
returns its Parameters as a pytree and ``nnx.split``/``merge`` round-trip. The
MindSpore side keeps its own bookkeeping: Parameters and sub-Cells in attribute
order, parameter names prefixed by the attribute path when a Cell is assigned
(``fc.weight``; ``0.weight`` inside a SequentialCell), ``training`` flags.

Calling a Cell runs ``construct``. In GRAPH_MODE a top-level call is compiled
with ``jax.jit`` (through ``_core.transforms``); in PYNATIVE_MODE it runs op by op.
A Cell defining ``bprop(self, *inputs, out, dout)`` is differentiated through it
(``_core.custom_grad``, GRAPH_MODE's rules in both modes); ``set_inputs`` declares
input signatures that calls are checked against (``_set_inputs``).

Hooks (``register_forward_pre_hook``, ``register_forward_hook``,
``register_backward_pre_hook``, ``register_backward_hook``) run in MindSpore's
order in both modes (``_core.hooks``). Differences from MindSpore: ``construct`` is plain Python, traced by JAX in GRAPH_MODE, so
data-dependent Python control flow makes that Cell run without compilation.
"""
from __future__ import annotations

import copy
import functools
import re
import types
from collections import OrderedDict

from flax import nnx

import jax
import numpy as np

from .._core import context, custom_grad, hooks, profiling, state
from .._core import dtype as mstype
from .._core.parameter import Parameter, ParameterTuple, _is_parameter_generated, is_default_name
from .._core.tensor import Tensor
from .._core.transforms import StatefulFunction, to_tensors
from ..common import _cell_cache
from ..common._compile import trace_only
from ..common import _graph_source, _recompute
from ..parallel import _stages
from . import _set_inputs, _shard
from ._buffers import CellState

__all__ = ["Cell"]



def _traced_tensor(value):
    return type(value) is Tensor and state.is_tracer(value._data)


class Cell(CellState, nnx.Module, pytree=False):
    """Base class of all layers and networks (``mindspore.nn.Cell``)."""

    _ms_is_cell = True
    _scope = None   # MindSpore's name scope of the Cell's ops (unread here; a CellDict key cannot take the name)

    def __init_subclass__(cls, pytree=False, **kwargs):
        super().__init_subclass__(pytree=pytree, **kwargs)

    def __init__(self, auto_prefix=True, flags=None):
        object.__setattr__(self, "_auto_prefix", auto_prefix)
        object.__setattr__(self, "training", False)
        object.__setattr__(self, "requires_grad", False)
        object.__setattr__(self, "_ms_hooks", [])
        object.__setattr__(self, "_buffers", {})
        object.__setattr__(self, "_ms_in_trace", bool(state.frames))   # a Cell local to a traced call
        if flags:
            for k, v in flags.items():
                object.__setattr__(self, k, v)
        _cell_cache.register(self)     # mindspore.common.api.cells_compile_cache[id(self)]

    def __deepcopy__(self, memo):
        """Python's deep copy, one memo for the whole Cell, as MindSpore copies Cells: what
        is shared stays shared in the copy (an optimizer's Parameters are the copied
        network's), and helpers naming a Cell (gradient functions, bound methods) name the
        copy. NNX's own deepcopy (split, then merge) copies such helpers apart from the
        graph. A copy is not registered in ``cells_compile_cache`` (nor is MindSpore's)."""
        new = object.__new__(type(self))
        memo[id(self)] = new
        for k, v in vars(self).items():
            if k == "_pytree__state":       # NNX's per-object trace state: a fresh one
                v = type(v)()
            elif k != "_pytree__nodes":
                v = copy.deepcopy(v, memo)
            object.__setattr__(new, k, v)
        return new

    # NNX checks that a Module is not mutated from another trace level; msjax's
    # swap frame owns that guarantee for Parameters, and construct may set plain
    # attributes inside a trace as MindSpore allows.
    def _check_valid_context(self, error_msg):
        return None

    # --- attributes ----------------------------------------------------------
    def __setattr__(self, name, value):
        buffers = self.__dict__.get("_buffers")
        if getattr(value, "_is_buffer", False) and isinstance(value, Tensor):
            self.__dict__.pop(name, None)
            self.register_buffer(name, value, getattr(value, "persistent", True))
            return
        if buffers is not None and name in buffers:
            if value is not None:
                raise TypeError(f"Buffer '{name}' already exists in network, "
                                f"can not assign this type: '{type(value)}' as a buffer.")
            buffers[name] = None
            return
        if type(value) in (int, float, bool) and state.frames and state.compiled() and \
                isinstance(self.__dict__.get(name), Parameter):
            value = Tensor(value)    # MindSpore's graph assigns a number to a Parameter (PyNative: TypeError)
        if isinstance(value, (Parameter, Cell)) or name in self.__dict__.get("_ms_slots", ()):
            self._check_slot(name, value)
        if isinstance(value, Tensor) and not isinstance(value, Parameter) and \
                isinstance(self.__dict__.get(name), Parameter):
            # MindSpore: a Tensor assigned to a Parameter's name becomes its data (cast to
            # the Parameter's dtype); inside ms.jit/GRAPH_MODE, an Assign
            param = self.__dict__[name]
            param.set_data(Tensor(state.written(param, value._data)) if state.frames else value)
            return
        if state.frames and _traced_tensor(value) and not self.__dict__.get("_ms_in_trace"):
            self._set_traced_tensor(name, value)
            return
        if isinstance(value, Parameter):
            if is_default_name(value.name):
                value.name = name
        elif isinstance(value, Cell):
            if self.__dict__.get("_auto_prefix", True) and not name.startswith("_"):
                value.update_parameters_name(name + ".")
        elif isinstance(value, ParameterTuple):
            # MindSpore registers the members under their names now; a prefix given to
            # them later (this Cell assigned in a parent) does not change those keys
            keys = self.__dict__.get("_ms_tuple_keys")
            if keys is None:
                keys = {}
                object.__setattr__(self, "_ms_tuple_keys", keys)
            for p in dict.fromkeys(value):      # a generated name becomes 'Parameter$<n>', n counted per Cell
                if _is_parameter_generated(p.name):
                    n = self.__dict__.get("_ms_tuple_id", 1)
                    object.__setattr__(self, "_ms_tuple_id", n + 1)
                    p.name = f"Parameter${n}"
            keys[name] = tuple(p.name for p in value)
        elif name == "training":
            object.__setattr__(self, name, value)
            return
        super().__setattr__(name, value)

    def _set_traced_tensor(self, name, value):
        """A Tensor computed inside ``ms.jit``/GRAPH_MODE/a gradient assigned to an attribute: the
        attribute's Tensor (a new one of the value's shape and dtype unless it has them) takes
        the value as transform state, so after the call it holds the computed value, as
        MindSpore's graph leaves it (not a traced value)."""
        cur = self.__dict__.get(name)
        if not (type(cur) is Tensor and cur.shape == value.shape and cur.dtype == value.dtype):
            with jax.ensure_compile_time_eval():    # a concrete value, not one of the trace
                cur = Tensor(np.zeros(value.shape, mstype.to_np(value.dtype)))
            super().__setattr__(name, cur)
        for r in state.recorders:       # the transforms learn it as state (as a Parameter written)
            r.writes[id(cur)] = cur
        state.frames[0].adopt(cur)      # kept through inner frames (a jit function inlined in a graph)
        cur._data = value._data

    def _check_slot(self, name, value):
        """MindSpore's rules for Parameter and Cell attributes: only after ``Cell.__init__``,
        and a name that held a Parameter (or a Cell) takes another one, a Tensor (for a
        Parameter) or ``None``, nothing else, even after ``None``; ``del`` frees the name."""
        if "_auto_prefix" not in self.__dict__:
            if isinstance(value, Parameter):
                raise AttributeError("For 'insert_param_to_cell', please call Cell.__init__() firstly.")
            raise AttributeError(f"The '{type(self).__name__}' object has no attribute '_auto_prefix'.")
        slots = self.__dict__.get("_ms_slots")
        if slots is None:
            slots = {}
            object.__setattr__(self, "_ms_slots", slots)
        kind = slots.get(name)
        if kind == "param" and not isinstance(value, (Parameter, Tensor)) and value is not None:
            if isinstance(value, Cell):
                raise KeyError(f"For 'insert_child_to_cell', the {name} child cell already exists in the network."
                               f"Cannot insert another child cell with the same name.")
            raise TypeError(f"Parameter '{name}' already exists in network, can not assign this type: "
                            f"'{type(value)}' as a parameter.")
        if kind == "cell" and not isinstance(value, Cell) and value is not None:
            if isinstance(value, Parameter):
                raise KeyError(f"For 'insert_param_to_cell', the {name} parameter already exists in the network."
                               f"Cannot insert another parameter with the same name.")
            raise TypeError(f"Sub cell '{name}' already exists in network, can not assign this type: "
                            f"'{type(value)}' as a cell.")
        if isinstance(value, Parameter):
            slots[name] = "param"
        elif isinstance(value, Cell):
            slots[name] = "cell"

    def __getattr__(self, name):
        """A missing attribute: MindSpore's wording; in a compiled graph its ``ClassMember`` one (its
        message then adds its C++ stack and the graph's source line, which msjax leaves out)."""
        buffers = self.__dict__.get("_buffers")
        if buffers is not None and name in buffers:
            return buffers[name]
        text = f"The '{type(self).__name__}' object has no attribute '{name}'."
        if state.frames and state.compiled() and not name.startswith("__"):
            text = (f"ClassMember: 'Namespace:{type(self).__module__}..<{type(self).__name__}::{id(self)}>' "
                    f"object has no attribute '{name}'")
        raise AttributeError(text, name=name, obj=self)

    def __delattr__(self, name):
        slots = self.__dict__.get("_ms_slots")
        if slots:
            slots.pop(name, None)
        buffers = self.__dict__.get("_buffers")
        if buffers is not None and name in buffers:
            del buffers[name]
            return
        super().__delattr__(name)

    def check_names(self):
        """Raise ``ValueError`` when two Parameters of the Cell share a name (compiling checks it)."""
        names = set()
        for attr, p in self.parameters_and_names():
            if p.name in names:
                raise ValueError(f"The value of {attr} is {p}, its name '{p.name}' already exists. "
                                 f"Please set a unique name for the parameter.")
            names.add(p.name)

    def update_parameters_name(self, prefix="", recurse=True):
        """Names every Parameter ``prefix`` + its attribute path, as MindSpore does
        (a Parameter created as ``name='custom'`` at ``self.c`` becomes ``'<prefix>c'``)."""
        for name, p in self.parameters_and_names(expand=recurse):
            p.name = prefix + name

    def _own_params(self):
        """Parameter attributes by attribute name, members of ParameterTuple attributes by
        their names when assigned (MindSpore's ``_params`` keys)."""
        keys = self.__dict__.get("_ms_tuple_keys", {})
        out = []
        for k, v in vars(self).items():
            if isinstance(v, Parameter):
                out.append((k, v))
            elif isinstance(v, ParameterTuple):
                names = keys.get(k)
                out.extend(zip(names if names is not None and len(names) == len(v) else [p.name for p in v], v))
        return out

    @property
    def _params(self):
        """MindSpore's ``Cell._params``: the Cell's own Parameters by key. A new OrderedDict on
        each read (in MindSpore it is the Cell's store; here changing it changes nothing)."""
        return OrderedDict(self._own_params())

    def _own_cells(self):
        return [(k, v) for k, v in vars(self).items() if isinstance(v, Cell)]

    def insert_param_to_cell(self, param_name, param, check_name_contain_dot=True):
        if not isinstance(param_name, str):
            raise TypeError(f"For 'insert_param_to_cell', the type of parameter 'param_name' must be str, "
                            f"but got {type(param_name)}.")
        if not param_name:
            raise KeyError("For 'insert_param_to_cell', the argument 'param_name' should not be None.")
        if check_name_contain_dot and "." in param_name:
            raise KeyError(f"For 'insert_param_to_cell', the argument 'param_name' should not contain '.'")
        if hasattr(self, param_name) and not isinstance(getattr(self, param_name), Parameter):
            raise KeyError(f"For 'insert_param_to_cell', the {param_name} parameter already exists in the network."
                           f"Cannot insert another parameter with the same name.")
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(f"For 'insert_param_to_cell', the argument 'param' must be 'Parameter' if not None, "
                            f"but got {type(param)}.")
        if isinstance(param, Parameter) and is_default_name(param.name):
            param.name = param_name
        setattr(self, param_name, param)

    def insert_child_to_cell(self, child_name, child_cell):
        if not child_name or "." in child_name:
            raise KeyError(f"For 'insert_child_to_cell', the argument 'child_name' should not be None or "
                           f"contain '.', but got {child_name}.")
        if child_cell is not None and not isinstance(child_cell, Cell):
            raise TypeError(f"For 'insert_child_to_cell', the argument 'child_cell' must be 'Cell' if not None, "
                            f"but got {type(child_cell)}.")
        setattr(self, child_name, child_cell)

    # --- traversal ------------------------------------------------------------------
    def cells_and_names(self, cells=None, name_prefix=""):
        seen = set() if cells is None else cells
        if id(self) not in seen:
            seen.add(id(self))
            yield name_prefix, self
        for name, cell in self._own_cells():
            if id(cell) in seen:
                continue
            prefix = f"{name_prefix}.{name}" if name_prefix else name
            yield from cell.cells_and_names(seen, prefix)

    def parameters_and_names(self, name_prefix="", expand=True):
        seen = set()
        cells = self.cells_and_names(name_prefix=name_prefix) if expand else [(name_prefix, self)]
        for cell_name, cell in cells:
            for pname, p in cell._own_params():
                if id(p) in seen:
                    continue
                seen.add(id(p))
                yield (f"{cell_name}.{pname}" if cell_name else pname), p

    def get_parameters(self, expand=True):
        for _, p in self.parameters_and_names(expand=expand):
            yield p

    def _ms_hidden_state(self):
        """Parameters that compiled steps thread but that are not the Cells' parameters (not
        saved or trained): a Dropout's random engines (``_ms_hidden`` of this Cell and below)."""
        return [p for _, c in self.cells_and_names() for p in c.__dict__.get("_ms_hidden", ())]

    def trainable_params(self, recurse=True):
        return [p for p in self.get_parameters(expand=recurse) if p.requires_grad]

    def untrainable_params(self, recurse=True):
        return [p for p in self.get_parameters(expand=recurse) if not p.requires_grad]

    def parameters_dict(self, recurse=True):
        return OrderedDict((p.name, p) for p in self.get_parameters(expand=recurse))

    def name_cells(self):
        return OrderedDict(self._own_cells())

    def cells(self):
        return [c for _, c in self._own_cells()]

    def apply(self, fn):
        """Call ``fn`` on every sub-Cell (depth first), then on this Cell; returns this Cell."""
        for cell in self.cells():
            cell.apply(fn)
        fn(self)
        return self

    # --- modes ----------------------------------------------------------------------
    def set_train(self, mode=True):
        object.__setattr__(self, "_ms_phase", "train" if mode else "predict")
        for _, cell in self.cells_and_names():
            object.__setattr__(cell, "training", bool(mode))
        return self

    def set_grad(self, requires_grad=True):
        object.__setattr__(self, "requires_grad", requires_grad)
        return self

    def set_jit_config(self, jit_config):
        """``Cell.set_jit_config(JitConfig(...))``: the options are kept (``jit_config_dict``), as
        MindSpore keeps them for its compiler; XLA decides how to compile. Set once: a second
        call warns and is ignored, as in MindSpore."""
        if self.__dict__.get("_jit_config_dict"):
            from .. import log
            log.warning("For Cell, jit config can only be set once, ignore this setting.")
        else:
            object.__setattr__(self, "_jit_config_dict", jit_config.jit_config_dict)

    @property
    def jit_config_dict(self):
        """The options given to ``set_jit_config`` (``{}`` before)."""
        return self.__dict__.get("_jit_config_dict", {})

    @property
    def phase(self):
        """``'train'`` for a new Cell, ``'train'``/``'predict'`` after ``set_train``, or what
        was assigned (MindSpore uses it to name compiled graphs; msjax only keeps it)."""
        return self.__dict__.get("_ms_phase", "train")

    @phase.setter
    def phase(self, value):
        if not isinstance(value, str):
            raise TypeError(f"For 'Cell', the property 'phase' must be string type, but got type {type(value)}.")
        object.__setattr__(self, "_ms_phase", value)

    @property
    def compile_cache(self):
        """The phases msjax compiled for this Cell (one per argument signature and kind:
        its GRAPH_MODE call, a training step...); ``clear()`` drops the compiled functions
        (``msjax.common._cell_cache``)."""
        return _cell_cache.compile_cache(self)

    @property
    def pipeline_stage(self):
        """The pipeline stage this Cell runs on (``nn.wrap.pipeline``); unset until assigned."""
        if "_pipeline_stage" not in self.__dict__:
            raise AttributeError(f"The '{type(self).__name__}' object has no attribute 'pipeline_stage'.")
        return self.__dict__["_pipeline_stage"]

    @pipeline_stage.setter
    def pipeline_stage(self, value):
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(f"For 'Cell', the property 'pipeline_stage' must be int type, but got type : "
                            f"{type(value)}")
        if value < 0:
            raise ValueError(f"For 'Cell', the property 'pipeline_stage' can not be less than 0, but got {value}")
        object.__setattr__(self, "_pipeline_stage", value)

    @property
    def pipeline_segment(self):
        """The pipeline segment of this Cell (MindSpore's zero-bubble-V scheduler; recorded only)."""
        if "_pipeline_segment" not in self.__dict__:
            raise AttributeError(f"The '{type(self).__name__}' object has no attribute 'pipeline_segment'.")
        return self.__dict__["_pipeline_segment"]

    @pipeline_segment.setter
    def pipeline_segment(self, value):
        # MindSpore's messages name the context argument here
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError("For 'context.set_auto_parallel_context', the argument 'pipeline_stages' must be int "
                            f"type, but got type : {type(value)}")
        if value < 0:
            raise ValueError("For 'context.set_auto_parallel_context', the argument 'pipeline_stages' can not be "
                             f"less than 0, but got {value}")
        object.__setattr__(self, "_pipeline_segment", value)

    def set_inputs(self, *inputs, **kwargs):
        """Declare the inputs' signature; ``Tensor(shape=[None, 3], dtype=...)`` marks dynamic
        dimensions (``Tensor(shape=None, dtype=...)`` a dynamic rank). Keyword arguments
        declare some inputs by name. Later calls are checked against it (see ``_set_inputs``)."""
        object.__setattr__(self, "_ms_dynamic_inputs", _set_inputs.declare(self, inputs, kwargs))

    def get_inputs(self):
        """The inputs given to ``set_inputs`` (None if it was not called)."""
        declared = self.__dict__.get("_ms_dynamic_inputs")
        if isinstance(declared, dict):
            return tuple(declared[k] for k in sorted(declared))
        return declared

    @property
    def _dynamic_shape_inputs(self):
        """MindSpore's private store of ``set_inputs`` (its tests' gradient helpers read it): ``get_inputs()``."""
        return self.get_inputs()

    # --- calling --------------------------------------------------------------------
    def construct(self, *args, **kwargs):
        raise AttributeError(f"For '{type(self).__name__}', the method 'construct' is not defined.")

    def __call__(self, *args, **kwargs):
        try:
            if profiling.active():      # a Profiler is recording: name this cell's ops in the trace
                # (a graph writer may label the Cell with MindSpore's scope name: ``network-WithLossCell``)
                with profiling.scope(self.__dict__.get("_ms_scope_label") or type(self).__name__):
                    return self._ms_call(*args, **kwargs)
            return self._ms_call(*args, **kwargs)
        except TypeError as e:      # an op inside met shapes that do not broadcast
            err = _broadcast_value_error(e)
            if err is None:
                raise
            raise err from e

    def _ms_call(self, *args, **kwargs):
        if "_auto_prefix" not in self.__dict__:
            raise AttributeError(f"The '{type(self).__name__}' object does not inherit attribute from 'cell'. "
                                 f"Please use 'super().__init__()'.")
        declared = self.__dict__.get("_ms_dynamic_inputs")
        if declared is not None and context.is_graph_mode() and not state.frames:
            # Cell.set_inputs declares a compiled call's inputs: MindSpore checks a GRAPH_MODE
            # call against it, not a PyNative one nor a call being differentiated
            _set_inputs.check(declared, args, kwargs)
        if "_ms_float_dtype" in self.__dict__:   # to_float: mixed precision (msjax.amp)
            from ._precision import precision_call
            return precision_call(self, args, kwargs)
        if state.frames and getattr(type(self), "bprop", None) is not None:
            # a custom backward rule: differentiated through bprop (jax.custom_vjp in the core);
            # the Cell's hooks see bprop's gradients, as MindSpore's do
            params = list(self.get_parameters())

            def with_bprop(*a, **k):
                return custom_grad.call_with_bprop(self, self.construct, self.bprop, a, k, params)
            h = self.__dict__.get("_ms_cell_hooks")
            return hooks.run_cell(self, h, with_bprop, args, kwargs) if h else with_bprop(*args, **kwargs)
        if context.is_graph_mode() and not state.frames:
            # one compiled call; the buffers of the Parameters it writes are donated (a custom train
            # cell's weights and optimizer moments, BatchNorm's statistics), as TrainOneStepCell's
            fn = _cell_cache.cell_function(self, "construct", lambda: StatefulFunction(self._graph_construct(args), donate=True))
            return to_tensors(fn(*args, **kwargs))
        if state.frames and state.compiled():     # called inside a graph: read as the graph is
            return self._graph_construct(args)(*args, **kwargs)
        out = self._ms_construct(*args, **kwargs)
        if getattr(type(self), "bprop", None) is not None:   # MindSpore's custom-bprop node makes new outputs
            fresh = lambda o: Tensor(o._data) if isinstance(o, Tensor) and any(o is a for a in args) else o  # noqa: E731
            out = tuple(fresh(o) for o in out) if isinstance(out, tuple) else fresh(out)
        return out

    def _graph_construct(self, args):
        """``_ms_construct`` with ``construct`` as MindSpore's graph compiler reads it (GRAPH_MODE:
        its refusals and graph-only syntax, ``msjax.common._graph_source``)."""
        construct = type(self).construct
        if "construct" in self.__dict__ or hasattr(construct, "__ms_jit__"):    # ms.jit reads its own
            return self._ms_construct
        read = _graph_source.graph_function(construct, (self,) + tuple(args))
        return self._ms_construct if read is construct else \
            functools.partial(self._ms_construct, _ms_read_construct=types.MethodType(read, self))

    def _ms_construct(self, *args, _ms_read_construct=None, **kwargs):
        """``construct`` with this Cell's hooks, strategies (``shard``) and recompute, if any."""
        h = self.__dict__.get("_ms_cell_hooks")
        construct = _ms_read_construct or self.construct
        if "_ms_shard" in self.__dict__:     # Cell.shard: strategies in a semi-auto/auto-parallel step
            construct = functools.partial(_shard.run_sharded, self, construct)
        if "_ms_recompute" in self.__dict__ and state.frames:    # Cell.recompute: jax.checkpoint
            construct = functools.partial(_recompute.recomputed, self, construct)
        stage = self.__dict__.get("_pipeline_stage")
        if stage is not None and _stages.active():      # a pipeline step is traced: mark the stage
            construct = functools.partial(_in_stage, stage, construct)
        if h:
            return hooks.run_cell(self, h, construct, args, kwargs)
        return construct(*args, **kwargs)

    # --- hooks ------------------------------------------------------------------------
    def _ms_hook_set(self):
        h = self.__dict__.get("_ms_cell_hooks")
        if h is None:
            h = hooks.CellHooks()
            object.__setattr__(self, "_ms_cell_hooks", h)
        return h

    def register_forward_pre_hook(self, hook_fn, *, prepend=False, with_kwargs=False):
        """``hook_fn(cell, args)`` (``(cell, args, kwargs)`` with ``with_kwargs``) runs before
        ``construct``; a non-None return replaces the inputs. Returns a handle whose
        ``remove()`` takes the hook off."""
        return self._ms_hook_set().add("forward_pre", hook_fn, prepend=prepend, with_kwargs=with_kwargs)

    def register_forward_hook(self, hook_fn, *, prepend=False, with_kwargs=False, always_call=False):
        """``hook_fn(cell, args, output)`` (``(cell, args, kwargs, output)`` with
        ``with_kwargs``) runs after ``construct``; a non-None return replaces the output.
        With ``always_call`` it also runs (output ``None``) when ``construct`` raises."""
        return self._ms_hook_set().add("forward", hook_fn, prepend=prepend, with_kwargs=with_kwargs,
                                       always_call=always_call)

    def register_backward_pre_hook(self, hook_fn):
        """``hook_fn(cell, grad_output)`` sees the gradient reaching the Cell's output (a
        tuple) in the backward pass; a non-None return (a tuple) replaces it."""
        return self._ms_hook_set().add("backward_pre", hook_fn)

    def register_backward_hook(self, hook_fn):
        """``hook_fn(cell, grad_input, grad_output)`` runs once the gradients of the Cell's
        inputs are known; a non-None return (a tuple) replaces ``grad_input``."""
        return self._ms_hook_set().add("backward", hook_fn)

    def to_float(self, dst_type):
        """Run this cell and its sub-cells with ``dst_type`` (float16/bfloat16/float32) inputs
        and Parameters; the Parameters keep their own type (see ``msjax.amp``)."""
        from ._precision import cell_to_float
        return cell_to_float(self, dst_type)

    # --- text ------------------------------------------------------------------------
    def extend_repr(self):
        return ""

    def __repr__(self):
        extra = self.extend_repr()
        children = self._own_cells()
        if not children:
            return f"{type(self).__name__}({extra})"
        lines = [f"{type(self).__name__}("]
        if extra:
            lines.append("  " + extra.replace("\n", "\n  "))
        for name, cell in children:
            child = repr(cell).replace("\n", "\n  ")
            lines.append(f"  ({name}): {child}")
        lines.append(")")
        return "\n".join(lines)

    __str__ = __repr__

    def _repr_html_(self):
        """Jupyter: the parameter table (name, shape, dtype, count, trainable)."""
        from ._cell_display import cell_html
        return cell_html(self)

    def __hash__(self):
        return id(self)

    def __eq__(self, other):
        return self is other

    # --- misc MindSpore API --------------------------------------------------------------
    def init_parameters_data(self, auto_parallel_mode=False):
        return {p.name: p for p in self.get_parameters()}

    def compile(self, *args, **kwargs):
        """Compile the Cell for these inputs without running it: shape, dtype and argument
        errors are raised here, as MindSpore's graph compile raises them; no Parameter changes."""
        self.check_names()
        trace_only(self, args, kwargs)

    def recompute(self, **kwargs):
        """Recompute this Cell's activations in the backward pass (``jax.checkpoint``,
        ``common/_recompute.py``); MindSpore's communication options are accepted."""
        object.__setattr__(self, "_ms_recompute", True)
        return self

    def set_comm_fusion(self, fusion_type, recurse=True):
        """Gradient communication fusion groups of the trainable Parameters (``param.comm_fusion``):
        recorded as MindSpore does; XLA schedules and combines the collectives itself."""
        if fusion_type is not None and (isinstance(fusion_type, bool) or not isinstance(fusion_type, int)):
            raise TypeError(f"For '{type(self).__name__}', the type of 'fusion_type' should be one of "
                            f"['NoneType', 'int'], but got '{type(fusion_type).__name__}'.")
        for param in self.trainable_params(recurse):
            param.comm_fusion = fusion_type
        return self

    def shard(self, in_strategy, out_strategy=None, parameter_plan=None, device="Ascend", level=0):
        """Strategies for this Cell's inputs, outputs and Parameters (see ``nn/_shard.py``)."""
        return _shard.cell_shard(self, in_strategy, out_strategy, parameter_plan, device, level)

    def add_flags(self, **flags):
        """Set ``flags`` as attributes; ``fp16``/``fp32``/``bf16=True`` also make the cell compute in
        that type, as ``to_float`` does (MindSpore's mixed-precision flag)."""
        for k, v in flags.items():
            object.__setattr__(self, k, v)
        if any(flags.get(k) for k in ("fp16", "fp32", "bf16")):
            from ._precision import precision_flags
            precision_flags(self, flags)
        return self

    def add_flags_recursive(self, **flags):
        for _, cell in self.cells_and_names():
            cell.add_flags(**flags)
        return self


_JAX_BROADCAST = re.compile(r"^(\w+) got incompatible shapes for broadcasting: (\([^)]*\)), (\([^)]*\))")


def _broadcast_value_error(e):
    """JAX's ``TypeError`` for operands whose shapes do not broadcast (raised by an op a
    Cell's construct runs, e.g. a loss's arithmetic) as MindSpore's ``ValueError``; None
    for any other TypeError."""
    m = _JAX_BROADCAST.match(str(e))
    if m is None:
        return None
    x, y = ([int(d) for d in re.findall(r"\d+", g)] for g in (m.group(2), m.group(3)))
    return ValueError(f"For '{m.group(1)}', input.shape and other.shape need to broadcast, but got "
                      f"input.shape = {x} and other.shape = {y}.")


def _in_stage(stage, construct, *args, **kwargs):
    with _stages.stage_scope(stage):
        return construct(*args, **kwargs)
