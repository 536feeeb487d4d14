"""One float32 LSTM layer in one direction on msjax's native CPU kernel (``msjax/ops/_native/lstm_dnnl.cc``,
``MsjaxLstmForward``): oneDNN's ``lstm_forward`` configured as MindSpore 2.10's CPU ``LSTM`` kernel
configures it, so ``nn.LSTM`` (each direction of each layer), ``ops.LSTM`` and the MindIR reader's ``LSTM``
node compute MindSpore's values bit for bit (``tests/test_lstm_bits.py``, recorded by
``tests/golden/record_lstm_bits.py``). XLA's formula was up to 9e-8 away (251,847 of the 276,480 values of
CTPN's BiLSTM output differed in their last bits): oneDNN sums the gate products in its own order
(the input product for all steps at once, then the recurrent one per step, the bias in its post-GEMM).

:func:`usable`: float32 operands of positive size and the conditions of ``matmul_onednn.native_usable``
(the CPU backend, the kernels loaded, outside forward-mode and exporters' traces, ``MSJAX_CPU_KERNELS``
not 0); otherwise the caller keeps its XLA formula. The gradient is that formula's (``custom_jvp``:
the tangents of ``reference``), not MindSpore's ``LSTMGrad`` kernel (oneDNN's ``lstm_backward``), so
gradients can differ from MindSpore's in the last bits as before.
"""
from __future__ import annotations

import jax
import jax.numpy as jnp

from . import matmul_onednn


def usable(*arrays):
    """Whether the native kernel may compute an LSTM of these operands, the sequence first (see the module
    docstring)."""
    return all(a.dtype == jnp.float32 for a in arrays) and arrays[0].size > 0 and matmul_onednn.native_usable()


def _ffi(x, h0, c0, w_ih, w_hh, bias):
    t, n, _ = x.shape
    h = w_hh.shape[1]
    shapes = (jax.ShapeDtypeStruct((t, n, h), jnp.float32), jax.ShapeDtypeStruct((n, h), jnp.float32),
              jax.ShapeDtypeStruct((n, h), jnp.float32))
    return tuple(jax.ffi.ffi_call("msjax_lstm_forward", shapes, vmap_method="sequential")(
        x, h0, c0, w_ih, w_hh, bias))


def lstm(reference, x, h0, c0, w_ih, w_hh, b_ih=None, b_hh=None):
    """``(y (T, N, H), h_n (N, H), c_n (N, H))`` of the LSTM over time-major ``x`` (T, N, I) from ``h0``,
    ``c0`` (N, H) with MindSpore's weights ``w_ih`` (4H, I), ``w_hh`` (4H, H), gates i, f, g, o; the
    kernel's bias is ``b_ih + b_hh`` summed in float32 (as MindSpore's ``nn.LSTM`` packs it for its CPU
    kernel; ``b_hh`` may be None: ``b_ih`` alone; no bias: zeros). ``reference`` takes the same arguments
    and gives the gradient."""
    args = tuple(a for a in (x, h0, c0, w_ih, w_hh, b_ih, b_hh) if a is not None)

    @jax.custom_jvp
    def kernel(*args):
        bias = jnp.zeros((w_ih.shape[0],), jnp.float32) if b_ih is None else args[5]
        if b_hh is not None:
            bias = bias + args[6]
        return _ffi(*args[:5], bias)

    @kernel.defjvp
    def _jvp(primals, tangents):
        return kernel(*primals), jax.jvp(_call(reference, b_ih, b_hh), primals, tangents)[1]

    return kernel(*args)


def _call(reference, b_ih, b_hh):
    """``reference`` on the packed arguments (the Nones put back)."""
    def run(*args):
        full = list(args[:5]) + [args[5] if b_ih is not None else None]
        full.append(args[5 + (b_ih is not None)] if b_hh is not None else None)
        return tuple(reference(*full))
    return run
