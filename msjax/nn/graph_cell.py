"""``nn.GraphCell``: runs a graph loaded from MindIR (``mindspore.load``) as one compiled
function.

The graph's weights become the Cell's Parameters (named as in the exported network,
``'fc.weight'``); calling the Cell runs the graph's interpreter (msjax ops, see
``msjax.train._export.mindir_reader``) under ``ms.jit``: one XLA program per input signature,
the Parameters passed to it as arguments (``params_init`` or ``set_data`` change the weights
without recompiling; GraphCells of one loaded graph share its compiled programs).

Differences from MindSpore: an input whose dtype differs from the exported one raises
``RuntimeError`` naming the input (MindSpore re-infers the graph and fails, or not, inside
the first op that rejects it); other shapes run where the graph's ops accept them, as in
MindSpore. An op failing on the given inputs raises ``RuntimeError`` naming the primitive and
the MindIR node.
"""
from __future__ import annotations

from .._core.jit import jit
from .._core.parameter import Parameter, ParameterTuple
from .._core.tensor import Tensor
from ..ops._impl._util import shape_text
from .cell import Cell

__all__ = ["GraphCell"]


class GraphCell(Cell):
    """``nn.GraphCell(graph, params_init=None, obf_random_seed=None)``: a Cell running a graph
    loaded by ``mindspore.load``."""

    def __init__(self, graph, params_init=None, obf_random_seed=None):
        super().__init__(auto_prefix=True)
        if obf_random_seed is not None:
            raise NotImplementedError("Dynamic structure obfuscation is not supported now.")
        if not getattr(graph, "_ms_mindir_graph", False):
            raise TypeError(f"For 'GraphCell', the argument 'graph' must be a FuncGraph loaded from MindIR, "
                            f"but got type {type(graph)}.")
        self.graph = graph
        params_init = {} if params_init is None else params_init
        if not isinstance(params_init, dict):
            raise TypeError(f"For 'GraphCell', the argument 'params_init' must be a dict, but got {type(params_init)}.")
        for name, value in params_init.items():
            if not isinstance(name, str) or not isinstance(value, Tensor):
                raise TypeError("For 'GraphCell', the key of the 'params_init' must be str, "
                                "and the value must be Tensor or Parameter, "
                                f"but got the key type: {type(name)}, and the value type: {type(value)}")
        params = []
        for name, value in graph.params.items():
            p = Parameter(Tensor(value), name=name)
            new = params_init.get(name)
            if new is not None:
                if tuple(new.shape) != tuple(p.shape) or new.dtype != p.dtype:
                    raise ValueError(
                        "Only support update parameter by Tensor or Parameter with same shape and dtype as it. "
                        f"The parameter '{name}' has shape {shape_text(p.shape)} and dtype {p.dtype}, but got the "
                        f"update value with shape {shape_text(new.shape)} and dtype {new.dtype}.")
                p.set_data(new)
            params.append(p)
        self._graph_params = ParameterTuple(params)

    def _check_inputs(self, inputs):
        specs = self.graph.inputs
        if len(inputs) != len(specs):
            raise RuntimeError(f"The input number of parameters is not Compatible.\nMindir:{len(specs)} inputs: "
                               f"{len(inputs)} FuncGraph:{self.graph.name}\n"
                               "For more details, please refer to the FAQ at https://www.mindspore.cn.")
        for i, (x, (name, _, dtype)) in enumerate(zip(inputs, specs)):
            if not isinstance(x, Tensor):
                raise RuntimeError(f"For 'GraphCell', the input[{i}] '{name}' should be a Tensor, but got {type(x)}.")
            if dtype is not None and x.dtype != dtype:
                raise RuntimeError(f"For 'GraphCell', the input[{i}] '{name}' was exported as Tensor[{dtype}], "
                                   f"but got Tensor[{x.dtype}].")

    def construct(self, *inputs):
        self._check_inputs(inputs)
        return _compiled(self.graph)(tuple(self._graph_params), *inputs)


def _compiled(graph):
    """The graph's interpreter under ``ms.jit``, kept on the graph: every GraphCell of one graph
    shares its compiled programs (one per input signature); the weights are arguments."""
    fn = graph.__dict__.get("_ms_compiled")
    if fn is None:
        names = list(graph.params)

        def run(params, *inputs):
            return graph.run(dict(zip(names, params)), inputs)
        fn = graph.__dict__["_ms_compiled"] = jit(run)
    return fn
