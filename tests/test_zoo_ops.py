"""The ops.operations Primitives added for the model zoo (``bench/zoo/rank_ops.py``), compared with
MindSpore 2.10 CPU outputs recorded by ``tests/fixtures/record_zoo_ops.py`` (the same case
functions run on msjax here)."""
from __future__ import annotations

import importlib.util
import os
import types

import numpy as np
import pytest

import msjax as ms
from msjax import Parameter, Tensor, ops
from msjax.ops import operations as P

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("record_zoo_ops", os.path.join(HERE, "fixtures", "record_zoo_ops.py"))
rec = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(rec)
GOLDEN = np.load(os.path.join(HERE, "fixtures", "zoo_ops_golden.npz"))


def _namespace():
    from msjax import _compat
    _compat.install()
    import mindspore.ops.operations._inner_ops as inner   # the zoo's spelling
    return types.SimpleNamespace(ms=ms, ops=ops, P=P, inner=inner, T=Tensor, Param=Parameter)


@pytest.mark.parametrize("name", sorted(rec.CASES))
def test_matches_mindspore(name):
    got = rec.flatten(rec.CASES[name](_namespace(), np.random.default_rng(0)))
    keys = sorted((k for k in GOLDEN.files if k.split("/")[0] == name), key=lambda k: int(k.split("/")[1]))
    assert len(got) == len(keys), f"{name}: {len(got)} outputs, MindSpore recorded {len(keys)}"
    rtol, atol = rec.TOL.get(name, (1e-5, 1e-6))
    for k, g in zip(keys, got):
        want = GOLDEN[k]
        assert g.shape == want.shape, f"{k}: shape {g.shape} != {want.shape}"
        assert g.dtype == want.dtype, f"{k}: dtype {g.dtype} != {want.dtype}"
        np.testing.assert_allclose(g.astype(np.float64) if g.dtype != bool else g, want, rtol=rtol, atol=atol,
                                   err_msg=k, equal_nan=True)
