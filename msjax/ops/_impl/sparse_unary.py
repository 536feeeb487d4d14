"""``ops.csr_<op>`` / ``ops.coo_<op>``: MindSpore's element-wise functions on a ``CSRTensor`` or
``COOTensor``: the dense op applied to the stored values, the sparsity pattern kept (so
``csr_cos`` leaves the implicit zeros zero, as MindSpore's do).
"""
from __future__ import annotations

from ..._core.registry import OPS, op

_UNARY = ("abs", "acos", "acosh", "asin", "asinh", "atan", "atanh", "ceil", "cos", "cosh", "exp", "expm1",
          "floor", "inv", "isfinite", "isinf", "isnan", "log", "log1p", "neg", "relu", "relu6", "round",
          "sigmoid", "sin", "sinh", "softsign", "sqrt", "square", "tan", "tanh")


def _sparse_unary(kind, name):
    def fn(x):
        from ...common.sparse_tensor import COOTensor, CSRTensor
        cls = CSRTensor if kind == "csr" else COOTensor
        if not isinstance(x, cls):
            raise TypeError(f"For '{kind}_{name}', the input must be a {cls.__name__}, but got {type(x).__name__}.")
        values = OPS[name].fn(x.values)
        if kind == "csr":
            return CSRTensor(x.indptr, x.indices, values, x.shape)
        return COOTensor(x.indices, values, x.shape)
    fn.__name__ = fn.__qualname__ = f"{kind}_{name}"
    fn.__doc__ = f"``ops.{kind}_{name}(x)``: ``ops.{name}`` on ``x``'s values, same indices and shape."
    return op(f"{kind}_{name}", family="sparse")(fn)


for _kind in ("csr", "coo"):
    for _name in _UNARY:
        globals()[f"{_kind}_{_name}"] = _sparse_unary(_kind, _name)
