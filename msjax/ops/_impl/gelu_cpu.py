"""The tanh-form ``GeLU`` (``ops.GeLU``, ``nn.GELU()``, ``ops.gelu(x, 'tanh')``) on msjax's native CPU
kernel (``msjax/ops/_native/gelu.cc``, ``MsjaxGeluTanh``): MindSpore 2.10's CPU ``GeLU`` arithmetic,
bit for bit (``tests/test_gelu_bits.py``, recorded by ``tests/golden/record_gelu_bits.py``).

MindSpore's kernel computes ``x * (1 + tanhf(0.7978845608 * (x + 0.044715 * x * x * x))) / 2`` step by
step in float32 with the C library's ``tanhf``; a float16 input is computed so in float32 and rounded
once. XLA's float32 ``tanh`` is its own polynomial: before this kernel 35 % of random float32 inputs
and 367 of the 63,488 finite float16 values came out 1 ulp from MindSpore's (the census's float16 BERT
parted from MindSpore's run of msjax's file at its first ``GeLU``).

The kernel computes ``tanhf`` as vector code (``msjax/ops/_native/tanhf_vec.h``: glibc 2.36's ``tanhf``, fdlibm's
on ``expm1f``, eight lanes at a time with AVX2, else four; branch-free, the C source's float operations in its
order), 5.5x less CPU than a ``tanhf`` call a value (65 against 357 us of CPU for a ``(64, 256)`` block under
load; XLA's own tanh-form GeLU, other bits: 16 us; ``bench/gelu_native.py``). Its bits are the C library's
``tanhf``'s for all 2^32 float inputs on this code's glibc (``bench/tanhf_exhaustive.cc``). Once per process
the kernel compares it with the process's own ``tanhf`` on the float patterns around every branch and
reduction boundary; where any differs (another C library: glibc 2.41 made ``tanhf`` correctly rounded) and
under ``MSJAX_GELU_LIBM=1`` it calls the C library's ``tanhf`` a value at a time, MindSpore's way
(``tests/test_gelu_native.py``). Difference from MindSpore: none in the bits; MindSpore's kernel always calls
the C library a value at a time.

:func:`usable`: float32/float16 input and the conditions of ``matmul_onednn.native_usable`` (the CPU
backend, the kernels loaded, outside forward-mode and exporters' traces, ``MSJAX_CPU_KERNELS`` not 0);
otherwise the caller keeps XLA's formula. The gradient is that formula's (MindSpore's ``GeLUGrad`` is
its own kernel, not modelled here).

In a sharded program (semi-auto/auto parallel, a pipeline stage) the kernel runs on each device's
shard in the input's layout (``custom_partitioning``: the kernel is element-wise, so the bits are
the unsharded call's); an opaque custom call would make XLA gather the whole input onto every
device and compute it there (two all-gathers and the full GeLU per device in each column-parallel
MLP: a 2-stage ``bench/pipeline_parallel.py`` forward took 3x the hand-written JAX one's time).
"""
from __future__ import annotations

import jax
import jax.numpy as jnp
from jax.experimental.custom_partitioning import custom_partitioning

from . import matmul_onednn


def usable(x):
    """Whether the native kernel may compute the tanh-form GeLU of ``x`` (see the module docstring)."""
    return x.dtype in (jnp.float32, jnp.float16) and x.size > 0 and matmul_onednn.native_usable()


def gelu_tanh(x, reference):
    """MindSpore's CPU ``GeLU`` of ``x``; ``reference(x)`` gives the gradient."""
    @jax.custom_jvp
    def kernel(x):
        return _elementwise(x.astype(jnp.float32)).astype(x.dtype)

    @kernel.defjvp
    def _jvp(primals, tangents):
        return kernel(*primals), jax.jvp(reference, primals, tangents)[1]

    return kernel(x)


def _ffi(x):
    return jax.ffi.ffi_call("msjax_gelu_tanh", jax.ShapeDtypeStruct(x.shape, jnp.float32),
                            vmap_method="broadcast_all")(x)


@custom_partitioning
def _native(x):
    """The float32 kernel; partitioned as its operand (element-wise)."""
    return _ffi(x)


def _operand_sharding(mesh, arg_shapes, result_shape):
    return arg_shapes[0].sharding


def _partition(mesh, arg_shapes, result_shape):
    sharding = arg_shapes[0].sharding
    return mesh, _ffi, sharding, (sharding,)


_native.def_partition(infer_sharding_from_operands=_operand_sharding, partition=_partition,
                      sharding_rule="... -> ...")


@jax.custom_batching.custom_vmap
def _elementwise(x):
    """:func:`_native` under ``vmap`` too (element-wise: the batched array is one call's operand)."""
    return _native(x)


@_elementwise.def_vmap
def _batched(axis_size, in_batched, x):
    return _elementwise(x), in_batched[0]
