"""``Generator._step`` (MindSpore's private Philox offset) raises NotImplementedError with a note; the
state round trip it would serve works on msjax's JAX-key generator (docs/differences.md, 'Generator')."""
import numpy as np
import pytest

import msjax as ms


@pytest.mark.parametrize("gen", [lambda: ms.Generator().manual_seed(5), lambda: ms.default_generator])
def test_step_not_supported(gen):
    with pytest.raises(NotImplementedError, match="no \\(seed, offset\\) pair"):
        gen()._step(ms.Tensor(1, ms.int64))


def test_state_restores_draws():
    g = ms.Generator().manual_seed(5)
    state = g.get_state()
    first = ms.Tensor(np.zeros(6, np.float32)).uniform_(generator=g).asnumpy().copy()
    second = ms.Tensor(np.zeros(6, np.float32)).uniform_(generator=g).asnumpy()
    g.set_state(state)
    again = ms.Tensor(np.zeros(6, np.float32)).uniform_(generator=g).asnumpy()
    np.testing.assert_array_equal(first, again)
    assert not np.array_equal(first, second)
    assert g.initial_seed() == 5
