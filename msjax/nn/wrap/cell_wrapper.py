"""Training wrappers (``mindspore.nn.wrap.cell_wrapper``): ``WithLossCell``,
``WithEvalCell``, ``WithGradCell``, ``ForwardValueAndGrad``, ``TrainOneStepCell``,
``ParameterUpdate``, ``GradAccumulationCell``, ``PipelineCell``, ``MicroBatchInterleaved``,
``VirtualDatasetCellTriple``.

``TrainOneStepCell`` computes the loss and the gradients in one forward/backward
pass, seeding the backward pass with ``sens`` (differentiating ``loss * sens``
gives exactly the cotangent ``fill(loss.shape, sens)``), reduces them (the
identity on one device), and runs the optimizer. In GRAPH_MODE the whole call
(forward, backward, optimizer update) is one ``jax.jit`` function traced once per
input signature, with the buffers of the Parameters it writes (weights,
optimizer state) donated; in PYNATIVE_MODE the gradient function and the
optimizer step are each compiled once.
"""
from __future__ import annotations

import inspect
import os
from types import FunctionType, MethodType

import jax.numpy as jnp

from ..._core import context, state
from ...communication import _runtime as distributed
from ...communication import _sharded
from ..._core import dtype as mstype
from ..._core.grad import GradOperation, value_and_grad
from ...parallel._context import ParallelMode, get_device_num, get_gradients_mean, get_parallel_mode
from ..._core.parameter import Parameter, ParameterTuple
from ..._core.tensor import Tensor, to_array, wrap
from ..._core.transforms import StatefulFunction, to_tensors
from ...common._cell_cache import cell_function
from ...ops._impl.state import assign
from ..cell import Cell
from ._graceful_exit import ExitByRequest
from .grad_reducer import DistributedGradReducer
from .pipeline import GradAccumulationCell, MicroBatchInterleaved, PipelineCell  # noqa: F401

__all__ = ["WithLossCell", "WithEvalCell", "WithGradCell", "ForwardValueAndGrad", "TrainOneStepCell",
           "ParameterUpdate", "GradAccumulationCell", "PipelineCell", "MicroBatchInterleaved",
           "VirtualDatasetCellTriple", "GetNextSingleOp"]


def _arr(x):
    return x._data if isinstance(x, Tensor) else to_array(x)


def _get_attr_from_cell(dst, src):
    """MindSpore's ``Cell._get_attr_from_cell``: keep the wrapped network's AMP level."""
    if hasattr(src, "_amp_level"):
        object.__setattr__(dst, "_amp_level", src._amp_level)


class _Identity(Cell):
    """``nn.Identity`` for the reducers (returns its input)."""

    def construct(self, x):
        return x


def _fn_key(fn):
    if inspect.ismethod(fn):
        return ("m", id(fn.__self__), fn.__func__)
    return ("f", id(fn))


class CachedGradOperation(GradOperation):
    """``ops.GradOperation`` whose gradient functions are cached per (network,
    weights): ``self.grad(self.network, weights)(...)`` inside a ``construct`` then
    reuses one compiled gradient in PYNATIVE_MODE instead of building a new one
    each step."""

    def __init__(self, get_all=False, get_by_list=False, sens_param=False):
        super().__init__(get_all=get_all, get_by_list=get_by_list, sens_param=sens_param)
        self._fns = {}

    def __call__(self, fn, weights=None):
        wkey = None if weights is None else (
            tuple(id(w) for w in weights) if isinstance(weights, (list, tuple)) else id(weights))
        key = (_fn_key(fn), wkey)
        hit = self._fns.get(key)
        if hit is None:
            hit = self._fns[key] = (fn, weights, super().__call__(fn, weights))
        return hit[2]

    def __deepcopy__(self, memo):      # the cache is keyed by ids: a copy starts without it
        return CachedGradOperation(self.get_all, self.get_by_list, self.sens_param)


class WithLossCell(Cell):
    """``nn.WithLossCell(backbone, loss_fn)``: ``loss_fn(backbone(data), label)``."""

    def __init__(self, backbone, loss_fn):
        super().__init__(auto_prefix=False)
        self._backbone = backbone
        self._loss_fn = loss_fn
        _get_attr_from_cell(self, backbone)

    def construct(self, data, label):
        out = self._backbone(data)
        return self._loss_fn(out, label)

    @property
    def backbone_network(self):
        return self._backbone


class WithEvalCell(Cell):
    """``nn.WithEvalCell(network, loss_fn, add_cast_fp32=False)``: returns ``(loss, outputs, label)``."""

    def __init__(self, network, loss_fn, add_cast_fp32=False):
        super().__init__(auto_prefix=False)
        self._network = network
        self._loss_fn = loss_fn
        if not isinstance(add_cast_fp32, bool):
            raise TypeError(f"For 'WithEvalCell', the type of 'add_cast_fp32' should be 'bool', "
                            f"but got type '{type(add_cast_fp32).__name__}'.")
        self.add_cast_fp32 = add_cast_fp32
        _get_attr_from_cell(self, network)

    def construct(self, data, label):
        outputs = self._network(data)
        if self.add_cast_fp32:
            label = wrap(_arr(label).astype(jnp.float32)) if jnp.issubdtype(_arr(label).dtype, jnp.floating) \
                else label
            outputs = wrap(_arr(outputs).astype(jnp.float32))
        loss = self._loss_fn(outputs, label)
        return loss, outputs, label


class WithGradCell(Cell):
    """``nn.WithGradCell(network, loss_fn=None, sens=None)``: the gradients of the
    (network + loss) with respect to its trainable weights."""

    def __init__(self, network, loss_fn=None, sens=None):
        super().__init__(auto_prefix=False)
        self.network = network
        self.loss_fn = loss_fn
        self.weights = ParameterTuple(network.trainable_params())
        self.grad = CachedGradOperation(get_by_list=True, sens_param=(sens is not None))
        self.sens = sens
        self.network_with_loss = network if loss_fn is None else WithLossCell(self.network, self.loss_fn)
        self.network_with_loss.set_train()
        _get_attr_from_cell(self, network)

    def construct(self, *inputs):
        weights = self.weights
        if self.sens is None:
            return self.grad(self.network_with_loss, weights)(*inputs)
        return self.grad(self.network_with_loss, weights)(*inputs, self.sens)


class ForwardValueAndGrad(Cell):
    """``nn.ForwardValueAndGrad(network, weights=None, get_all=False, get_by_list=False, sens_param=False)``:
    returns ``(loss, grads)``."""

    def __init__(self, network, weights=None, get_all=False, get_by_list=False, sens_param=False):
        super().__init__(auto_prefix=False)
        if not isinstance(network, (Cell, FunctionType, MethodType)):
            raise TypeError("For 'ForwardValueAndGrad', the argument 'network' must be cell, function type or "
                            f"method type, but got '{type(network)}'")
        if not isinstance(get_all, bool):
            raise TypeError(f"For 'ForwardValueAndGrad', the type of 'get_all' must be bool, but got "
                            f"'{type(get_all)}'")
        if not isinstance(get_by_list, bool):
            raise TypeError(f"For 'ForwardValueAndGrad', the type of 'get_by_list' must be bool, "
                            f"but got '{type(get_by_list)}'")
        if get_by_list and not isinstance(weights, (ParameterTuple, tuple, list)):
            raise TypeError("For 'ForwardValueAndGrad', when 'get_by_list' is set to True, the argument 'weights' "
                            f"must be Parameters array, but got '{type(weights)}'")
        self.network = network
        if isinstance(network, Cell):
            self.network.set_grad()
        self.weights = weights
        self.get_all = get_all
        self.get_by_list = get_by_list
        self.sens_param = sens_param
        self.grad = CachedGradOperation(get_all=get_all, get_by_list=get_by_list, sens_param=sens_param)
        _get_attr_from_cell(self, network)

    def construct(self, *inputs):
        grad_inputs = inputs
        if self.sens_param:
            inputs = inputs[:-1]
        loss = self.network(*inputs)
        if self.get_by_list:
            grads = self.grad(self.network, self.weights)(*grad_inputs)
        else:
            grads = self.grad(self.network)(*grad_inputs)
        return loss, grads


class TrainOneStepCell(Cell):
    """``nn.TrainOneStepCell(network, optimizer, sens=None, return_grad=False)``: one
    training step (forward, backward seeded with ``sens``, gradient reduction,
    optimizer update); returns the loss (and ``{name: grad}`` with ``return_grad``)."""

    def __init__(self, network, optimizer, sens=None, return_grad=False):
        super().__init__(auto_prefix=False)
        self.network = network
        self.network.set_grad()
        self.optimizer = optimizer
        self.weights = self.optimizer.parameters
        self.grad = CachedGradOperation(get_by_list=True, sens_param=True)
        self.grad_no_sens = CachedGradOperation(get_by_list=True)
        self.sens = sens
        if self.sens == 0:
            raise ValueError("The input argument of 'sens' can not be 0.")
        self.sense_flag = True
        if self.sens is None:
            self.sense_flag = False
            self.sens = 1.0
        self.return_grad = return_grad
        if return_grad:
            self.weights_name = [i.name for i in self.optimizer.parameters]
        self.reducer_flag = False
        self.grad_reducer = _Identity()
        self.parallel_mode = get_parallel_mode()
        self.reducer_flag = self.parallel_mode in (ParallelMode.DATA_PARALLEL, ParallelMode.HYBRID_PARALLEL)
        if self.reducer_flag:
            self.mean = get_gradients_mean()
            self.degree = get_device_num()
            self.grad_reducer = DistributedGradReducer(self.weights, self.mean, self.degree)
        self.use_graceful_exit = os.environ.get("MS_ENABLE_GRACEFUL_EXIT") == "1"
        if self.use_graceful_exit:
            self.graceful_exit = ExitByRequest()
            self.exit_param = Parameter(Tensor(False, mstype.bool_), name="graceful_exit")  # set by the reduction
            self.init_param = Parameter(Tensor([0], mstype.int32), name="graceful_init")  # set by OnRequestExit
        _get_attr_from_cell(self, network)
        # loss and gradients in one pass: d(loss * sens)/dw seeds the backward pass with sens
        object.__setattr__(self, "_ms_loss_and_grads",
                           value_and_grad(self._scaled_loss, grad_position=None, weights=self.weights, has_aux=True))

    def __call__(self, *args, **kwargs):
        # GRAPH_MODE: the whole step is one compiled function; the buffers of the
        # Parameters it writes (weights, optimizer state, loss scale) are donated.
        # DATA_PARALLEL on several devices: compiled in PyNative too (the gradient
        # all-reduce happens inside the one compiled step, distributed.spmd_call); so is a
        # semi-auto/auto-parallel step (partitioned by XLA, communication._sharded)
        if (context.is_graph_mode() or (self.reducer_flag and distributed.data_parallel_active())
                or _sharded.auto_parallel_active()) \
                and not state.frames:
            sf = cell_function(self, "train_step", lambda: StatefulFunction(self.construct, donate=True))
            return to_tensors(sf(*args, **kwargs))
        return super().__call__(*args, **kwargs)

    def _scaled_loss(self, sens, *inputs):
        loss = self.network(*inputs)
        la = _arr(loss)
        return wrap(la * _arr(sens).astype(la.dtype)), loss

    def _loss_and_grads(self, sens, *inputs):
        (_, loss), grads = self._ms_loss_and_grads(sens, *inputs)
        return loss, grads

    def construct(self, *inputs):
        loss, grads = self._loss_and_grads(Tensor(self.sens, mstype.float32), *inputs)
        grads = self.grad_reducer(grads)
        if self.use_graceful_exit:
            grads = self.graceful_exit.exit_by_request(grads, self.init_param, self.exit_param)
        self.optimizer(grads)
        if self.return_grad:
            return loss, {name: g for name, g in zip(self.weights_name, grads)}
        return loss


class ParameterUpdate(Cell):
    """``nn.ParameterUpdate(param)``: ``construct(x)`` assigns ``x`` to ``param``."""

    def __init__(self, param):
        super().__init__(auto_prefix=False)
        if not isinstance(param, Parameter):
            raise TypeError(f"For 'ParameterUpdate', 'param' must be 'Parameter', but got {type(param)}.")
        self._param = param

    def construct(self, x):
        assign(self._param, x)      # MindSpore's Assign: same shape, cast to the Parameter's dtype
        return x


class VirtualDatasetCellTriple(Cell):
    """``nn.VirtualDatasetCellTriple(backbone)`` (deprecated): calls ``backbone(a, b, c)``."""

    def __init__(self, backbone):
        super().__init__(auto_prefix=False)
        self._backbone = backbone
        _get_attr_from_cell(self, backbone)

    def construct(self, a, b, c):
        return self._backbone(a, b, c)


class GetNextSingleOp(Cell):
    """``nn.GetNextSingleOp``: reads MindSpore's device data queue, which msjax does not have."""

    __ms_unsupported__ = True

    def __init__(self, dataset_types, dataset_shapes, queue_name):
        super().__init__()
        raise RuntimeError("msjax has no device data queue ('GetNext'); iterate the dataset in Python and pass "
                           "the batches to the network.")


class _VirtualDatasetCell(Cell):
    """MindSpore's ``_VirtualDatasetCell(backbone)``: feeds ``backbone`` through
    ``_VirtualDataset`` (the data-parallel to model-parallel layout switch of
    semi-auto-parallel; the identity on msjax). Parameter names are the backbone's."""

    def __init__(self, backbone):
        super().__init__(auto_prefix=False)
        from ...ops.operations import _VirtualDataset
        self._backbone = backbone
        self._virtual_dataset = _VirtualDataset()

    def construct(self, *inputs):
        return self._backbone(*self._virtual_dataset(*inputs))
