"""Random state: ``ms.set_seed`` and the JAX key that random ops draw from
(initializers draw from NumPy's global generator, as MindSpore's do).

The JAX key lives in a Parameter (``key_param()``), so every transform threads
it like any other state: a random op inside a compiled or differentiated
function splits the key and writes the new one back, and the next call draws
fresh numbers. Differences from MindSpore: the bit streams differ (same seed,
different numbers); reproducibility under one seed holds.
"""
from __future__ import annotations

import os

import numpy as np

_seed = None
_key = None
EXTRA = []      # more random state every transform threads (MindSpore's CPU kernels' engines: ops/_impl)


def set_seed(seed):
    global _seed
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise TypeError(f"The argument 'seed' must be type of int, but got {type(seed)}.")
    if seed < 0:
        raise ValueError(f"The argument 'seed' must be greater than or equal to 0, but got {seed}.")
    _seed = seed
    if _key is not None:
        _key.set_data(_initial_key(seed))


def get_seed():
    return _seed


def _initial_key(seed):
    import jax
    if seed is None:
        seed = int.from_bytes(os.urandom(4), "little")
    if 0 <= seed < 2 ** 63 and jax.config.jax_enable_x64 and jax.config.jax_default_prng_impl == "threefry2x32":
        # jax.random.PRNGKey(seed)'s key data (threefry: the seed's high and low 32
        # bits), made on the host: PRNGKey compiles two small programs, which a
        # new process would pay for on its first random op or training step
        return jax.device_put(np.array([seed >> 32, seed & 0xFFFFFFFF], np.uint32))
    return jax.random.key_data(jax.random.PRNGKey(seed))


def key_param():
    """The Parameter holding the global JAX key (created on first use)."""
    global _key
    if _key is None:
        from .parameter import Parameter
        _key = Parameter(_initial_key(_seed), name="_msjax_rng_key", requires_grad=False)
    return _key


def next_key(generator=None):
    """A fresh JAX key; the global key (or ``generator``'s) advances (inside a transform too)."""
    import jax
    p = key_param() if generator is None else generator._key_param()
    new, sub = jax.random.split(jax.random.wrap_key_data(p._data))
    p._data = jax.random.key_data(new)
    return sub


# ---------------------------------------------------------------------------
# mindspore.Generator / default_generator (MindSpore 2.10's generator API)
# ---------------------------------------------------------------------------
def _as_int64(seed):
    return (int(seed) + 2 ** 63) % 2 ** 64 - 2 ** 63


class Generator:
    """``mindspore.Generator``: a seed and the JAX key random ops draw from.

    MindSpore's state is 16 UInt8 bytes (seed and offset, each Int64). msjax keeps
    the same shape and dtype: the first 8 bytes hold the seed (Int64), the last 8
    the JAX threefry key data, so ``set_state(get_state())`` restores the stream.
    ``default_generator`` draws from the global key that ``ms.set_seed`` seeds and
    that every random op uses; a new ``Generator()`` has its own key (seed 0), used by
    the ops that take ``generator=`` (``Tensor.uniform_``/``normal_``/``random_``/``bernoulli``)."""

    def __init__(self):
        self._seed = 0
        self._param = None

    def _key_param(self):
        if self._param is None:
            from .parameter import Parameter
            self._param = Parameter(_initial_key(self._seed), name="_msjax_generator_key", requires_grad=False)
        return self._param

    def _reseed(self, seed):
        self._seed = _as_int64(seed)
        self._key_param().set_data(_initial_key(self._seed))

    def manual_seed(self, seed):
        if not isinstance(seed, int):
            raise TypeError("Seed must be an integer.")
        self._reseed(seed)
        return self

    def seed(self):
        new = int.from_bytes(os.urandom(4), "little")
        self._reseed(new)
        return self._seed

    def initial_seed(self):
        return self._seed

    def _step(self, step):
        """MindSpore's private ``Generator._step(step)``: its Philox kernels' ``(seed, offset)``, the
        offset then advanced by ``step``. msjax's generator has no offset to give: its random ops split
        a JAX key (the state holds the seed and that key), so this raises ``NotImplementedError`` rather
        than return an offset no op reads."""
        raise NotImplementedError(
            "msjax's Generator has no (seed, offset) pair to step: its random ops draw from a JAX key, "
            "which get_state()/set_state() save and restore with the seed. Generator._step (MindSpore's "
            "private Philox offset) is not supported; see docs/differences.md, 'Generator'.")

    def get_state(self):
        from .tensor import Tensor
        key = np.asarray(self._key_param()._data, np.uint32)
        data = np.frombuffer(np.int64(self._seed).tobytes() + key.tobytes(), np.uint8)
        if data.size != 16:
            raise RuntimeError(f"msjax's generator state holds 16 bytes; the JAX key has {key.nbytes}.")
        return Tensor(data.copy())

    def set_state(self, state):
        from .tensor import Tensor
        from . import dtype as mstype
        if not isinstance(state, Tensor):
            raise RuntimeError("Invalid tensor input: State")
        if state.dtype != mstype.uint8:
            raise RuntimeError(f"State data type must be UInt8, but got {state.dtype}")
        if state.size != 16:
            raise RuntimeError(f"State data size must be {16}, but got {state.size}")
        raw = np.asarray(state._data, np.uint8).reshape(-1).tobytes()
        self._seed = int(np.frombuffer(raw[:8], np.int64)[0])
        import jax.numpy as jnp
        self._key_param().set_data(jnp.asarray(np.frombuffer(raw[8:], np.uint32).copy()))


class _DefaultGenerator(Generator):
    """The default generator: its key is the global key (``key_param()``)."""

    def _key_param(self):
        return key_param()


default_generator = _DefaultGenerator()


def seed():
    """``mindspore.seed``: reseed the default generator with a random number; returns it."""
    return default_generator.seed()


def manual_seed(seed):  # noqa: F811  (MindSpore's parameter name)
    """``mindspore.manual_seed``: seed the default generator (the key random ops draw
    from); returns the generator, as MindSpore 2.10 does."""
    return default_generator.manual_seed(seed)


def initial_seed():
    """``mindspore.initial_seed``: the default generator's seed (0 until ``manual_seed``)."""
    return default_generator.initial_seed()


def get_rng_state():
    """``mindspore.get_rng_state``: the default generator's state, a UInt8 Tensor of 16 bytes."""
    return default_generator.get_state()


def set_rng_state(state):
    """``mindspore.set_rng_state``: restore the default generator's state."""
    default_generator.set_state(state)
