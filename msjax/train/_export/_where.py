"""Where a traced operation came from, and its MindSpore name: the writers' error messages.

The MINDIR and ONNX writers trace the network with ``jax.make_jaxpr`` and write each JAX
primitive of the trace. When one has no form in the format, the user should hear which
MindSpore layer or operator is the cause and which line of their ``construct`` called it, not
the JAX primitive. The writers trace with ``tracing_scopes()`` open (the Profiler's named
scopes: each Cell call pushes its class name onto JAX's name stack), so every equation of the
trace carries the Cells it ran in (``source_info.name_stack``: ``Net/Generator/Conv2dTranspose``)
and the Python stack that created it (``source_info.traceback``), whose innermost frame
outside msjax, JAX and the standard library is the user's line.

``Unsupported`` is the error a rule raises (a ``RuntimeError``, MindSpore's type for an op it
cannot export); the walking emitter gives it the equation's location with ``locate`` and the
writer's message is built once, by ``message``.
"""
from __future__ import annotations

import contextlib
import linecache
import os
import sysconfig

import jax

from ..._core import profiling, rng

__all__ = ["Unsupported", "Where", "locate", "ms_op", "tracing_scopes"]

_MSJAX = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_SKIP = tuple(os.path.join(os.path.realpath(p), "") for p in
              {_MSJAX, os.path.dirname(os.path.abspath(jax.__file__)),
               os.path.dirname(os.path.dirname(os.path.abspath(jax.__file__))) + os.sep + "jaxlib",
               sysconfig.get_paths()["stdlib"], sysconfig.get_paths()["purelib"] + os.sep + "jaxlib"})

# JAX primitive -> the MindSpore operator computing it (the name a message uses)
_MS_OPS = {
    "rev": "ReverseV2", "reduce_window_sum": "AvgPool", "reduce_window_max": "MaxPool",
    "reduce_window_min": "MinPool", "reduce_window": "Pool", "conv_general_dilated": "Conv2D",
    "scan": "While", "while": "While", "cond": "Switch", "random_bits": "UniformReal",
    "random_seed": "UniformReal", "random_wrap": "UniformReal", "random_unwrap": "UniformReal",
    "threefry2x32": "UniformReal", "erf_inv": "Erfinv", "lgamma": "Lgamma", "digamma": "Digamma",
    "cumsum": "CumSum", "cumprod": "CumProd", "cummax": "Cummax", "cummin": "Cummin",
    "cumlogsumexp": "LogCumSumExp", "atan2": "Atan2", "div": "Div", "rem": "Mod", "pad": "PadV3",
    "gather": "GatherNd", "scatter": "TensorScatterUpdate", "scatter-add": "TensorScatterAdd",
    "scatter_add": "TensorScatterAdd", "scatter-mul": "TensorScatterMul", "scatter_mul": "TensorScatterMul",
    "scatter-min": "TensorScatterMin", "scatter_min": "TensorScatterMin", "scatter-max": "TensorScatterMax",
    "scatter_max": "TensorScatterMax", "dynamic_slice": "Slice", "dynamic_update_slice": "TensorScatterUpdate",
    "sort": "Sort", "top_k": "TopK", "argmax": "Argmax", "argmin": "Argmin", "iota": "Range",
    "select_n": "Select", "clamp": "ClipByValue", "dot_general": "MatMul", "reshape": "Reshape",
    "broadcast_in_dim": "BroadcastTo", "convert_element_type": "Cast", "concatenate": "Concat",
    "slice": "StridedSlice", "split": "Split", "transpose": "Transpose", "squeeze": "Squeeze",
    "expand_dims": "ExpandDims", "reduce_sum": "ReduceSum", "reduce_max": "ReduceMax", "reduce_min": "ReduceMin",
    "reduce_prod": "ReduceProd", "reduce_and": "ReduceAll", "reduce_or": "ReduceAny", "and": "BitwiseAnd",
    "or": "BitwiseOr", "xor": "BitwiseXor", "not": "Invert", "shift_left": "LeftShift",
    "shift_right_logical": "RightShift", "shift_right_arithmetic": "RightShift",
    "population_count": "PopulationCount", "integer_pow": "Pow", "logistic": "Sigmoid", "exp2": "Exp2",
    "is_finite": "IsFinite", "nextafter": "NextAfter", "igamma": "Igamma", "igammac": "Igammac",
    "bessel_i0e": "BesselI0e", "bessel_i1e": "BesselI1e", "polygamma": "Polygamma", "zeta": "Zeta",
    "regularized_incomplete_beta": "Betainc", "cholesky": "Cholesky", "triangular_solve": "MatrixTriangularSolve",
    "lu": "Lu", "qr": "Qr", "eigh": "Eigh", "svd": "Svd", "fft": "FFT", "ffi_call": "Custom",
    "pure_callback": "PyFunc", "io_callback": "PyFunc", "debug_callback": "Print", "stack": "Stack",
}


def ms_op(prim: str) -> str:
    """The MindSpore operator a JAX primitive computes (CamelCase of an unlisted one)."""
    return _MS_OPS.get(prim) or "".join(p[:1].upper() + p[1:] for p in prim.replace("-", "_").split("_"))


@contextlib.contextmanager
def tracing_scopes():
    """Open while tracing for export: each Cell (and Primitive) call names a JAX scope, so the
    trace's equations know the Cells they ran in. The global RNG key's Parameter is made first:
    created by a random op inside the trace, it would live only there (and stay broken after)."""
    rng.key_param()
    profiling.set_active(True)
    try:
        yield
    finally:
        profiling.set_active(False)


class Where:
    """An equation's origin: ``layers`` (the Cell classes it ran in, outermost first) and the
    user's ``file``, ``line`` and source ``code``."""

    __slots__ = ("layers", "file", "line", "code")

    def __init__(self, layers=(), file=None, line=None, code=""):
        self.layers, self.file, self.line, self.code = tuple(layers), file, line, code

    def inside(self, inner):
        """``inner`` (an equation of a nested jaxpr) seen from this one: its scopes appended,
        its user line where it has one, else this one's."""
        if inner.file is None:
            return Where(self.layers + inner.layers, self.file, self.line, self.code)
        return Where(self.layers + inner.layers, inner.file, inner.line, inner.code)

    @property
    def layer(self):
        return self.layers[-1] if self.layers else None

    def describe(self):
        """``in 'Conv2dTranspose' (Net/Conv2dTranspose), at net.py:12: `return self.up(x)```."""
        parts = []
        if self.layers:
            parts.append(f"in '{self.layers[-1]}' ({'/'.join(self.layers)})")
        if self.file is not None:
            code = f": `{self.code}`" if self.code else ""
            parts.append(f"at {self.file}:{self.line}{code}")
        return ", ".join(parts)


def locate(eqn) -> Where:
    """The Cells and the user line of one jaxpr equation."""
    info = eqn.source_info
    layers = []
    for seg in str(getattr(info, "name_stack", "") or "").split("/"):
        if not seg or "(" in seg:         # transform markers (jvp(...), transpose(...)) end the Cell path
            if layers:
                break
            continue
        layers.append(seg)
    frame = _user_frame(getattr(info, "traceback", None))
    if frame is None:
        return Where(layers)
    return Where(layers, frame.file_name, frame.line_num, linecache.getline(frame.file_name, frame.line_num).strip())


def _user_frame(traceback):
    if traceback is None:
        return None
    for frame in traceback.frames:        # innermost first
        path = os.path.realpath(frame.file_name)
        if not path.startswith(_SKIP) and not frame.file_name.startswith("<"):
            return frame
    return None


class Unsupported(RuntimeError):
    """An operation a writer has no form for: ``prim`` (the JAX primitive, for the emitter), the
    MindSpore operator ``op``, ``detail`` and, once the emitter knows it, ``where``. ``fmt(op,
    detail, where)`` is the writer's message (``where`` is None until located)."""

    def __init__(self, prim, detail, fmt):
        self.prim, self.op, self.detail, self.where, self._fmt = prim, ms_op(prim), detail, None, fmt
        super().__init__(fmt(self.op, detail, None))

    def located(self, parents):
        """Give the error the location of the equation chain ``parents`` (outermost first),
        once: the innermost emitter that sees it."""
        if self.where is None:
            where = Where()
            for eqn in parents:
                where = where.inside(locate(eqn))
            self.where = where
            self.args = (self._fmt(self.op, self.detail, where),)
        return self
