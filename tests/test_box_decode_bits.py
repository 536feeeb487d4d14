"""MindSpore 2.10's CPU ``BoundingBoxDecode`` bit for bit (recorded by tests/golden/record_box_decode.py):
msjax's op in PyNative and compiled, MindSpore's own ``.mindir`` of it loaded by msjax, and msjax's
``.mindir`` (one ``BoundingBoxDecode`` node, which MindSpore's kernel computes) read back; and the
C library's ``expf`` that the kernel calls (``ops/_impl/libm_expf.py``). The census's FasterRCNN
forwards parted here (issue 34)."""
import ctypes
import ctypes.util
import os

import jax
import numpy as np
import pytest

import msjax as ms
from msjax import nn, ops
from msjax.train._mind_ir_pb import ModelProto

REC = np.load(os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "box_decode_mindspore.npz"))
# case -> (max_shape, means, stds, wh_ratio_clip), as recorded
CASES = {k[:-len("_clip")]: (tuple(int(v) for v in REC[k[:-4] + "max_shape"]),
                             tuple(float(v) for v in REC[k[:-4] + "means"]),
                             tuple(float(v) for v in REC[k[:-4] + "stds"]), float(REC[k]))
         for k in REC.files if k.endswith("_clip")}


def _bits_equal(got, want):
    assert got.shape == want.shape and got.dtype == want.dtype == np.float32
    assert np.array_equal(got.view(np.uint32), want.view(np.uint32)), \
        f"{int((got != want).sum())} of {want.size} values differ, largest {np.abs(got - want).max():.3g}"


class Decode(nn.Cell):
    def __init__(self, case):
        super().__init__()
        max_shape, means, stds, clip = CASES[case]
        self.decode = ops.BoundingBoxDecode(max_shape=max_shape, means=means, stds=stds, wh_ratio_clip=clip)

    def construct(self, anchors, deltas):
        return self.decode(anchors, deltas)


def _args(case):
    return ms.Tensor(REC[f"{case}_anchors"]), ms.Tensor(REC[f"{case}_deltas"])


@pytest.mark.parametrize("case", sorted(CASES))
def test_decode_is_mindspores_kernel(case):
    want = REC[f"{case}_pynative"]
    _bits_equal(REC[f"{case}_graph"], want)        # MindSpore: one kernel in both modes and its own file
    _bits_equal(REC[f"{case}_loaded"], want)
    net = Decode(case)
    _bits_equal(net(*_args(case)).asnumpy(), want)
    _bits_equal(ms.jit(net.construct)(*_args(case)).asnumpy(), want)     # XLA would contract a * b + c


@pytest.mark.parametrize("case", ["rcnn", "means"])
def test_written_mindir_is_one_decode_node(case, tmp_path):
    net = Decode(case)
    stem = str(tmp_path / case)
    ms.export(net, *_args(case), file_name=stem, file_format="MINDIR")
    m = ModelProto()
    with open(stem + ".mindir", "rb") as f:
        m.ParseFromString(f.read())
    kinds = [p.op_type for p in m.primitives]
    assert kinds.count("BoundingBoxDecode") == 1 and "Exp" not in kinds, kinds
    prim = next(p for p in m.primitives if p.op_type == "BoundingBoxDecode")
    # MindSpore's loader reads a tuple's floats from ``floats`` (``f`` fails its load)
    means = next(a for a in prim.attribute if a.name == "means")
    assert [v.floats[0] for v in means.values] == pytest.approx(CASES[case][1])
    got = nn.GraphCell(ms.load(stem + ".mindir"))(*_args(case)).asnumpy()
    _bits_equal(got, REC[f"{case}_pynative"])


def _glibc_expf():
    try:
        if not os.confstr("CS_GNU_LIBC_VERSION").startswith("glibc"):
            return None
    except (ValueError, OSError):
        return None
    f = ctypes.CDLL(ctypes.util.find_library("m")).expf
    f.restype, f.argtypes = ctypes.c_float, [ctypes.c_float]
    return f


def test_expf_is_the_c_librarys():
    c_expf = _glibc_expf()
    if c_expf is None:
        pytest.skip("needs glibc's expf")
    from msjax.ops._impl.libm_expf import expf
    rng = np.random.default_rng(0)
    x = np.concatenate([rng.uniform(-87.3, 88.7, 20000), rng.standard_normal(20000) * 1e-3,
                        [0.0, -0.0, 88.72283, 88.7229, 1e30, -1e30, np.inf, -np.inf, np.nan, -87.33654]])
    x = x.astype(np.float32)
    want = np.array([c_expf(float(v)) for v in x], np.float32)
    got = np.asarray(jax.jit(expf)(x))
    same = (got.view(np.uint32) == want.view(np.uint32)) | (np.isnan(got) & np.isnan(want))
    assert same.all(), (x[~same][:5], got[~same][:5], want[~same][:5])
