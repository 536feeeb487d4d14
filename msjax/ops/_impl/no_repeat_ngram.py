"""``ops.NoRepeatNGram(ngram_size=1)(state_seq, log_probs)`` (a Primitive MindSpore 2.10 keeps as
deprecated): in beam search, the words that would repeat an n-gram of ``state_seq`` get the lowest
``log_probs`` value, ``-max`` of the dtype (MindSpore's CPU kernel's). A word is banned when the
``ngram_size - 1`` words before it in some window of ``state_seq`` equal the sequence's last
``ngram_size - 1`` words. Checks and messages as MindSpore's; a banned word outside ``[0, vocab)``
raises its ValueError where the words are known (not inside a compiled step, where it is ignored).
MindSpore's PyNative reports that error and the RuntimeError of an ``ngram_size`` equal to the
sequence's length asynchronously (at a later call); msjax raises them at the call itself.
"""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from ..._core.registry import op
from ..._core.tensor import Tensor
from ._util import wrap

_P = "For primitive[NoRepeatNGram]"


def _check(ngram_size=1):
    if isinstance(ngram_size, bool) or not isinstance(ngram_size, int):
        raise TypeError(f"For 'NoRepeatNGram', the type of 'ngram_size' should be 'int', but got type "
                        f"'{type(ngram_size).__name__}'.")
    if ngram_size < 1:
        raise ValueError(f"For 'NoRepeatNGram', the 'ngram_size' must be int and must >= 1, but got "
                         f"'{ngram_size}' with type 'int'.")


def _inputs(state_seq, log_probs, n):
    seq, logp = state_seq._data, log_probs._data
    if seq.dtype != jnp.int32:
        raise TypeError(f"{_P}, the input argument[seq_type] must be a type of {{Tensor[Int32]}}, but got "
                        f"Tensor[{state_seq.dtype}].")
    if logp.dtype not in (jnp.float16, jnp.float32, jnp.float64):
        raise TypeError(f"{_P}, the input argument[log_types] must be a type of {{Tensor[Float16], "
                        f"Tensor[Float32], Tensor[Float64]}}, but got Tensor[{log_probs.dtype}].")
    for name, a in (("state_seq", seq), ("log_probs", logp)):
        if a.ndim != 3:
            raise ValueError(f"{_P}, the rank of {name} must be equal to 3, but got {a.ndim}.")
    for i in (0, 1):
        if seq.shape[i] != logp.shape[i]:
            raise ValueError(f"{_P}, the state_seq shape[{i}] must be equal to log_probs shape[{i}] which is "
                             f"{logp.shape[i]} , but got {seq.shape[i]}.")
    m = seq.shape[2]
    if n > m:
        raise ValueError(f"{_P}, the ngram_size must be less than or equal to state_seq shape[2] + 1 which is "
                         f"{m} , but got {n}.")
    if n == m:
        raise RuntimeError("Param ngram_size is illegal")
    return seq, logp


def _banned(seq, n, vocab):
    """(batch, beam, vocab) mask of the words that would repeat an n-gram, and the banned words."""
    m = seq.shape[-1]
    starts = np.arange(m - n + 1)
    prev = seq[..., starts[:, None] + np.arange(n - 1)]             # (..., windows, n - 1)
    match = jnp.all(prev == seq[..., None, m - n + 1:], axis=-1)    # (..., windows)
    words = seq[..., starts + n - 1]
    mask = jnp.any((words[..., None] == jnp.arange(vocab)) & match[..., None], axis=-2)
    return mask, words, match


@op("prim_no_repeat_ngram", primitive="NoRepeatNGram", prim_args=("ngram_size",), family="nn", prim_check=_check)
def _prim_no_repeat_ngram(state_seq, log_probs, ngram_size=1):
    """``ops.NoRepeatNGram(ngram_size)(state_seq, log_probs)``: ``log_probs`` with the words that would
    repeat an n-gram set to the dtype's lowest finite value."""
    for name, t in (("state_seq", state_seq), ("log_probs", log_probs)):
        if not isinstance(t, Tensor):
            raise TypeError(f"{_P}, the input argument[{name}] must be a Tensor, but got {type(t).__name__}.")
    seq, logp = _inputs(state_seq, log_probs, ngram_size)
    vocab = logp.shape[2]
    mask, words, match = _banned(seq, ngram_size, vocab)
    if not isinstance(words, jax.core.Tracer):
        bad = np.asarray(match) & ((np.asarray(words) < 0) | (np.asarray(words) >= vocab))
        if bad.any():
            raise ValueError(f"For NoRepeatNGram, the id in the state input is not valid. Please make the value in "
                             f"the state_seq in the valid range between [0,{vocab}).")
    low = jnp.asarray(-jnp.finfo(logp.dtype).max, logp.dtype)
    return wrap(jnp.where(mask, low, logp))
