"""Float32 matrix products on oneDNN's matmul primitive (msjax's native kernels,
``msjax/ops/_native/conv_dnnl.cc``), as MindSpore 2.10's ``MatMul`` CPU kernel computes them.

MindSpore's CPU ``MatMul`` calls oneDNN's matmul (``gemm:jit:f32``) on row-major buffers, a
transposed operand given by its strides; its gradients are ``MatMul``s again
(``dx = dout @ w``, ``dw = dout.T @ x`` for ``nn.Dense``'s ``x @ w.T``). XLA:CPU's dot sums in
another order, so a LeNet5's ``fc1`` output differed from MindSpore's in the last bit for 3,208 of
its 3,840 values. A float16 ``MatMul`` is the same float32 product of the operands widened, rounded
to float16 once (GCN's ``add_flags_recursive(fp16=True)`` product over 2,708 nodes: XLA's float16
dot gave 173 of 43,328 values 1 ulp from MindSpore's, oneDNN's none). :func:`matmul` runs every pass
through the same primitive with the same transposes, so ``nn.Dense`` gives MindSpore's values bit for
bit on the same machine. Unlike the convolutions (``conv_dnnl.cc``: one current thread), the matmul's
gemm runs on oneDNN's threads, as MindSpore's ``MatMul`` does: a long sum (K = 1,024) split over two
threads gives the bits MindSpore 2.10 recorded on two threads (``tests/test_matmul_fp16_bits.py``).

:func:`usable` says when: the CPU backend, the native kernels loaded, float32 or float16 2-D operands of one dtype with no
empty axis, outside forward-mode traces (the passes are a ``jax.custom_vjp``), and not while the
exporters trace (``conv_lowering.forced("xla")``: MindIR/ONNX want a ``MatMul`` node).
``MSJAX_CPU_KERNELS=0`` keeps XLA's dot, as it keeps XLA's convolution.
"""
from __future__ import annotations

import functools
import os

import jax
import jax.numpy as jnp
import numpy as np

from ..._core import state
from . import conv_lowering, conv_onednn


def native_usable():
    """Whether a trace may call msjax's native CPU kernels now: the CPU backend, the kernels loaded,
    not a forward-mode trace, not an exporter's trace, not ``MSJAX_CPU_KERNELS=0``."""
    return (state.FORWARD_MODE[0] == 0 and os.environ.get(conv_lowering.KERNELS_ENV, "1") != "0"
            and conv_lowering.setting() == "auto" and jax.default_backend() == "cpu"
            and conv_onednn.backend() == "ffi")


def usable(a, b):
    """Whether ``matmul(a, b, ...)`` may run on oneDNN (see the module docstring)."""
    return (a.dtype == b.dtype and a.dtype in (jnp.float32, jnp.float16) and a.ndim == 2 and b.ndim == 2
            and 0 not in a.shape and 0 not in b.shape and native_usable())


def _call(a, b, ta, tb):
    m = a.shape[1] if ta else a.shape[0]
    n = b.shape[0] if tb else b.shape[1]
    out = jax.ffi.ffi_call("msjax_matmul", jax.ShapeDtypeStruct((m, n), jnp.float32), vmap_method="sequential")(
        a.astype(jnp.float32), b.astype(jnp.float32), transpose_a=np.int64(ta), transpose_b=np.int64(tb))
    return out.astype(a.dtype)


@functools.partial(jax.custom_vjp, nondiff_argnums=(2, 3))
def matmul(a, b, ta=False, tb=False):
    """``op(a) @ op(b)`` with ``op(m) = m.T`` where ``ta`` / ``tb``; each gradient is such a product."""
    return _call(a, b, ta, tb)


def _fwd(a, b, ta, tb):
    return matmul(a, b, ta, tb), (a, b)


def _bwd(ta, tb, res, g):
    a, b = res
    if not ta:
        da = matmul(g, b, False, not tb)          # g @ op(b).T
    else:
        da = matmul(b, g, tb, True)               # (g @ op(b).T).T = op(b) @ g.T
    if not tb:
        db = matmul(a, g, not ta, False)          # op(a).T @ g
    else:
        db = matmul(g, a, True, ta)               # (op(a).T @ g).T = g.T @ op(a)
    return da, db


matmul.defvjp(_fwd, _bwd)
