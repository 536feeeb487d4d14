"""``SparseSoftmaxCrossEntropyWithLogits`` on msjax's native CPU kernel
(``msjax/ops/_native/conv_dnnl.cc``, ``MsjaxSparseSoftmaxXent``): MindSpore 2.10's CPU kernel's
arithmetic, so ``nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean')`` (the main job's
loss) and its gradient give MindSpore's values bit for bit.

MindSpore's kernel takes its softmax from nnacl: its own exp (a degree-5 polynomial after
``x = n ln2 + r``, one form in 8- and 4-lane vector blocks and another in the scalar tail), the
exponentials summed lane-wise then lane by lane, ``1 / sum`` multiplied in; the loss is
``-sum(log p[label])`` in float, row after row, divided by the batch; the gradient is
``p / B`` with ``1 / B`` subtracted at the label, times the incoming gradient. XLA's softmax
and log differ in the last bits. The arithmetic was fitted to MindSpore 2.10's outputs on this
machine (x86-64 with AVX2: rows of 10, 12, 24, 100 and 1,001 classes bit for bit; an AVX-512 build
of MindSpore would take 16-lane blocks, and its ARM builds other code).

:func:`usable`: float32 logits, the CPU backend, the native kernels loaded, outside forward-mode
traces and exporters' traces; ``MSJAX_CPU_KERNELS=0`` keeps the XLA formula.
"""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from . import matmul_onednn


def usable(x):
    """Whether the native kernel may compute this loss (see the module docstring)."""
    return x.dtype == jnp.float32 and x.ndim >= 1 and x.size > 0 and matmul_onednn.native_usable()


def _call(x, t, is_grad):
    shape = x.shape if is_grad else ()
    return jax.ffi.ffi_call("msjax_sparse_softmax_xent", jax.ShapeDtypeStruct(shape, jnp.float32),
                            vmap_method="sequential")(x, t, is_grad=np.int64(is_grad))


def _formula_grad(x, t):
    return (jax.nn.softmax(x, axis=-1) - jax.nn.one_hot(t, x.shape[-1], dtype=x.dtype)) / t.size


@jax.custom_vjp
def _grad(x, t):
    return _call(x, t, True)


def _grad_bwd(res, ct):
    x, t = res
    return jax.vjp(lambda x_: _formula_grad(x_, t), x)[1](ct)[0], None


_grad.defvjp(lambda x, t: (_grad(x, t), (x, t)), _grad_bwd)


@jax.custom_vjp
def _loss(x, t):
    return _call(x, t, False)


def _loss_bwd(res, ct):
    x, t = res
    return _grad(x, t) * ct, None     # MindSpore's bprop: the is_grad kernel times dout


_loss.defvjp(lambda x, t: (_loss(x, t), (x, t)), _loss_bwd)


def sparse_softmax_xent(x, t, is_grad):
    """The batch-mean loss of float32 ``x`` (..., C) against class indices ``t`` (...), or with
    ``is_grad`` its gradient w.r.t. ``x``."""
    c = x.shape[-1]
    x2, t2 = jnp.reshape(x, (-1, c)), jnp.reshape(t, (-1,)).astype(jnp.int32)
    if is_grad:
        return jnp.reshape(_grad(x2, t2), x.shape)
    return _loss(x2, t2)
