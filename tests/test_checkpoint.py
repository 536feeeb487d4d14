"""Checkpoints in MindSpore's formats: fixtures written by MindSpore 2.10 load into
msjax, msjax writes the bytes MindSpore writes (the ``msjax_saved*`` fixtures were
checked in MindSpore by ``tests/fixtures/check_in_mindspore.py``), saving is atomic,
and bad files raise without touching the network."""
import os
import sys

import numpy as np
import pytest

import msjax as ms
from msjax.train import _checkpoint_files as S
from msjax.train import serialization

FIX = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")
sys.path.insert(0, FIX)

import make_mindspore_ckpt  # noqa: E402
import make_msjax_ckpt  # noqa: E402


def _values(name):
    return dict(np.load(os.path.join(FIX, name)))


@pytest.mark.parametrize("name", ["ms_saved.ckpt", "ms_saved_crc.ckpt"])
def test_mindspore_ckpt_loads(name):
    loaded = ms.load_checkpoint(os.path.join(FIX, name), crc_check=name.endswith("_crc.ckpt"))
    exp = _values("ms_saved_values.npz")
    for k, v in exp.items():
        got = loaded[k]
        assert isinstance(got, ms.Parameter) and got.name == k
        assert got.asnumpy().dtype == v.dtype and got.shape == v.shape and np.array_equal(got.asnumpy(), v), k
    if name == "ms_saved.ckpt":
        assert loaded["note"] == "hello checkpoint"
        assert loaded["epoch_num"].dtype == ms.int64 and int(loaded["epoch_num"].asnumpy()) == 7
        assert loaded["lr"].dtype == ms.float32 and float(loaded["lr"].asnumpy()) == 0.125


def test_mindspore_ckpt_into_msjax_network():
    net = make_mindspore_ckpt.build(ms)
    for p in net.get_parameters():
        p.set_data(ms.Tensor(np.zeros(p.shape, p.asnumpy().dtype)))
    param_not_load, ckpt_not_load = ms.load_param_into_net(net, ms.load_checkpoint(os.path.join(FIX, "ms_saved.ckpt")))
    assert param_not_load == [] and sorted(ckpt_not_load) == ["epoch_num", "lr", "note"]
    exp = _values("ms_saved_values.npz")
    assert np.array_equal(net.conv.weight.asnumpy(), exp["conv.weight"])
    assert net.fc(ms.Tensor(np.ones((1, 3), np.float32))).shape == (1, 2)


def test_mindspore_safetensors_loads():
    loaded = ms.load_checkpoint(os.path.join(FIX, "ms_saved.safetensors"), format="safetensors")
    exp = _values("ms_saved_values.npz")
    assert sorted(loaded) == sorted(exp)
    for k, v in exp.items():
        assert np.array_equal(loaded[k].asnumpy(), v) and loaded[k].asnumpy().dtype == v.dtype


@pytest.mark.parametrize("name,kw", [("ms_saved.ckpt", {}), ("ms_saved_crc.ckpt", {"crc_check": True}),
                                     ("ms_saved.safetensors", {"format": "safetensors"})])
def test_resave_is_byte_identical_to_mindspore(tmp_path, name, kw):
    fmt = kw.get("format", "ckpt")
    loaded = ms.load_checkpoint(os.path.join(FIX, name), format=fmt)
    out = str(tmp_path / ("again." + fmt))
    ms.save_checkpoint(loaded, out, **kw)
    with open(out, "rb") as a, open(os.path.join(FIX, name), "rb") as b:
        assert a.read() == b.read()


def test_msjax_writes_the_checked_fixture_bytes(tmp_path):
    """The committed msjax_saved* files were loaded by MindSpore 2.10; msjax still writes them."""
    net = make_msjax_ckpt.build(ms)
    for name, kw in (("msjax_saved.ckpt", {"append_dict": make_msjax_ckpt.APPEND}),
                     ("msjax_saved_crc.ckpt", {"crc_check": True, "append_dict": make_msjax_ckpt.APPEND}),
                     ("msjax_saved.safetensors", {"format": "safetensors"})):
        out = str(tmp_path / name)
        ms.save_checkpoint(net, out, **kw)
        with open(out, "rb") as a, open(os.path.join(FIX, name), "rb") as b:
            assert a.read() == b.read(), name


def test_roundtrip_all_dtypes(tmp_path):
    net = make_msjax_ckpt.build(ms)
    for fmt in ("ckpt", "safetensors"):
        path = str(tmp_path / ("n." + fmt))
        ms.save_checkpoint(net, path, format=fmt)
        back = ms.load_checkpoint(path, format=fmt)
        for p in net.get_parameters():
            assert back[p.name].dtype == p.dtype and back[p.name].shape == p.shape
            assert np.array_equal(back[p.name].asnumpy().astype(np.float64), p.asnumpy().astype(np.float64))


def test_large_parameter_is_split_and_joined(tmp_path, monkeypatch):
    monkeypatch.setattr(S, "SLICE_SIZE", 64)
    arr = np.arange(100, dtype=np.float32).reshape(25, 4)
    path = str(tmp_path / "big.ckpt")
    ms.save_checkpoint([{"name": "w", "data": ms.Tensor(arr)}], path)
    with open(path, "rb") as f:
        entries = S.decode_entries(f.read())
    assert len(entries) > 1 and all(e[0] == "w" for e in entries)
    assert np.array_equal(ms.load_checkpoint(path)["w"].asnumpy(), arr)


def test_interrupted_save_keeps_previous_file(tmp_path, monkeypatch):
    net = make_msjax_ckpt.build(ms)
    path = str(tmp_path / "keep.ckpt")
    ms.save_checkpoint(net, path)
    with open(path, "rb") as f:
        before = f.read()

    def boom(*a, **k):
        raise KeyboardInterrupt("power cut")
    monkeypatch.setattr(S, "encode_entry", boom)
    with pytest.raises(KeyboardInterrupt):
        ms.save_checkpoint(net, path)
    monkeypatch.undo()
    with open(path, "rb") as f:
        assert f.read() == before
    assert os.listdir(tmp_path) == ["keep.ckpt"]


def _net_and_snapshot():
    net = make_msjax_ckpt.build(ms)
    return net, {p.name: p.asnumpy().copy() for p in net.get_parameters()}


def _unchanged(net, snap):
    return all(np.array_equal(p.asnumpy(), snap[p.name]) for p in net.get_parameters())


def test_truncated_file_raises_and_leaves_net(tmp_path):
    src = make_msjax_ckpt.build(ms)
    for p in src.trainable_params():
        p.set_data(p.value() + 1)
    path = str(tmp_path / "t.ckpt")
    ms.save_checkpoint(src, path)
    with open(path, "rb") as f:
        data = f.read()
    for cut in (len(data) - 3, len(data) // 2, 5):
        os.chmod(path, 0o600)
        with open(path, "wb") as f:
            f.write(data[:cut])
        net, snap = _net_and_snapshot()
        with pytest.raises(ValueError, match="Failed to read the checkpoint file"):
            ms.load_checkpoint(path, net=net)
        assert _unchanged(net, snap)


def test_corrupt_safetensors_raises(tmp_path):
    path = str(tmp_path / "x.safetensors")
    ms.save_checkpoint(make_msjax_ckpt.build(ms), path, format="safetensors")
    with open(path, "rb") as f:
        data = f.read()
    os.chmod(path, 0o600)
    with open(path, "wb") as f:
        f.write(data[:-10])
    with pytest.raises(ValueError, match="corrupted"):
        ms.load_checkpoint(path, format="safetensors")
    with open(path, "wb") as f:
        f.write(b"\xff" * 20)
    with pytest.raises(ValueError, match="corrupted"):
        ms.load_checkpoint(path, format="safetensors")


def test_mismatched_checkpoint_leaves_net_untouched(tmp_path):
    other = make_msjax_ckpt.build(ms)
    params = {p.name: ms.Parameter(ms.Tensor(p.asnumpy()), name=p.name) for p in other.get_parameters()}
    params["fc.weight"] = ms.Parameter(ms.Tensor(np.full((2, 3), 9, np.float32)), name="fc.weight")
    params["fc.bias"] = ms.Parameter(ms.Tensor(np.zeros(7, np.float32)), name="fc.bias")
    net, snap = _net_and_snapshot()
    with pytest.raises(RuntimeError, match="same shape"):
        ms.load_param_into_net(net, params)
    assert _unchanged(net, snap)
    params["fc.bias"] = ms.Parameter(ms.Tensor(np.zeros(2, np.int32)), name="fc.bias")
    with pytest.raises(RuntimeError, match="same type"):
        ms.load_param_into_net(net, params)
    assert _unchanged(net, snap)


def test_crc_detects_corruption(tmp_path):
    path = str(tmp_path / "c.ckpt")
    ms.save_checkpoint(make_msjax_ckpt.build(ms), path, crc_check=True)
    with open(path, "rb") as f:
        data = bytearray(f.read())
    data[30] ^= 0x40
    os.chmod(path, 0o600)
    with open(path, "wb") as f:
        f.write(bytes(data))
    with pytest.raises(ValueError, match="crc"):
        ms.load_checkpoint(path, crc_check=True)


def test_async_save_and_saved_file_is_read_only(tmp_path):
    path = str(tmp_path / "a.ckpt")
    ms.save_checkpoint(make_msjax_ckpt.build(ms), path, async_save=True)
    assert "fc.weight" in ms.load_checkpoint(path)
    assert oct(os.stat(path).st_mode & 0o777) == oct(0o400)


def test_encrypted_checkpoints_are_a_clear_error(tmp_path):
    with pytest.raises(NotImplementedError, match="Encrypted"):
        ms.save_checkpoint(make_msjax_ckpt.build(ms), str(tmp_path / "e.ckpt"), enc_key=b"0123456789abcdef")


def test_conversion_helpers(tmp_path):
    ms.save_checkpoint(make_msjax_ckpt.build(ms), str(tmp_path / "m.ckpt"))
    serialization.ckpt_to_safetensors(str(tmp_path / "m.ckpt"), str(tmp_path / "st"))
    serialization.safetensors_to_ckpt(str(tmp_path / "st" / "m.safetensors"), str(tmp_path / "back"))
    a = ms.load_checkpoint(str(tmp_path / "m.ckpt"))
    b = ms.load_checkpoint(str(tmp_path / "back" / "m.ckpt"))
    assert sorted(a) == sorted(b)
    assert all(np.array_equal(a[k].asnumpy(), b[k].asnumpy()) for k in a)


def test_mindspore_split_layout_loads():
    """MindSpore cuts a parameter over SLICE_SIZE into several same-tag entries (the
    fixture was written by MindSpore 2.10 with its SLICE_SIZE lowered to 1 KB)."""
    path = os.path.join(FIX, "ms_saved_split.ckpt")
    with open(path, "rb") as f:
        tags = [e[0] for e in S.decode_entries(f.read())]
    assert tags.count("w") == 3 and tags.count("i") == 4 and tags.count("h") == 1
    loaded = ms.load_checkpoint(path)
    for k, v in _values("ms_saved_split_values.npz").items():
        assert loaded[k].asnumpy().dtype == v.dtype and np.array_equal(loaded[k].asnumpy(), v), k


def test_split_save_matches_mindspore_bytes(tmp_path, monkeypatch):
    """msjax splits where MindSpore splits (MindSpore's 1 KB there is 1024 bytes here)."""
    monkeypatch.setattr(S, "SLICE_SIZE", 1024)
    vals = _values("ms_saved_split_values.npz")
    out = str(tmp_path / "split.ckpt")
    ms.save_checkpoint([{"name": k, "data": ms.Tensor(vals[k])} for k in ("w", "h", "i")], out)
    with open(out, "rb") as a, open(os.path.join(FIX, "ms_saved_split.ckpt"), "rb") as b:
        assert a.read() == b.read()


def test_schema_matches_mindspore_descriptor():
    """checkpoint.proto as msjax builds it has MindSpore 2.10's messages, fields,
    numbers, labels and types (package names aside)."""
    from google.protobuf import descriptor_pb2
    from msjax.train import _checkpoint_pb
    theirs = descriptor_pb2.FileDescriptorProto()
    with open(os.path.join(FIX, "ms_checkpoint_descriptor.bin"), "rb") as f:
        theirs.ParseFromString(f.read())
    ours = _checkpoint_pb.file_descriptor()

    def shape(fd, prefix):
        out = {}

        def walk(msgs, scope):
            for m in msgs:
                out[scope + m.name] = [(f.name, f.number, f.label, f.type, f.type_name.replace(prefix, "."),
                                        f.HasField("oneof_index")) for f in m.field]
                walk(m.nested_type, scope + m.name + ".")
        walk(fd.message_type, "")
        return out
    assert shape(ours, ".msjax.checkpoint.") == shape(theirs, ".")
    proto = open(os.path.join(os.path.dirname(S.__file__), "checkpoint.proto")).read()
    for name, fields in shape(ours, ".msjax.checkpoint.").items():
        for fname, number, *_ in fields:
            assert f" {fname} = {number};" in proto, (name, fname)


def test_stale_temp_files_of_a_killed_save_are_removed(tmp_path):
    path = tmp_path / "m.ckpt"
    stale = [tmp_path / "m.ckpt.k1l_ed99.tmp", tmp_path / "m.ckpt.abcdefgh.tmp"]
    others = [tmp_path / "other.ckpt.abcdefgh.tmp", tmp_path / "m.ckpt.tmp", tmp_path / "m.ckpt.abc.tmp"]
    for p in stale + others:
        p.write_bytes(b"half a checkpoint")
    ms.save_checkpoint(make_msjax_ckpt.build(ms), str(path))
    assert sorted(os.listdir(tmp_path)) == sorted(["m.ckpt"] + [p.name for p in others])


def test_garbage_ckpt_is_a_clear_error(tmp_path):
    path = str(tmp_path / "g.ckpt")
    for junk in (b"\x0a\xff\xff\xff\xff\x0f" + b"\x00" * 10, b"\x0a\x03\x0a\x01a", b"\x0a\x02\x12\x00"):
        with open(path, "wb") as f:
            f.write(junk)
        with pytest.raises(ValueError, match="Failed to read the checkpoint file .*corrupted"):
            ms.load_checkpoint(path)
        os.remove(path)


def test_ckpt_reads_without_mmap(monkeypatch):
    """Where the file system cannot map files, the reader falls back to reading them."""
    def no_mmap(*a, **k):
        raise OSError("mmap not supported")
    monkeypatch.setattr(S.mmap, "mmap", no_mmap)
    loaded = ms.load_checkpoint(os.path.join(FIX, "ms_saved_crc.ckpt"), crc_check=True)
    exp = _values("ms_saved_values.npz")
    assert all(np.array_equal(loaded[k].asnumpy(), v) for k, v in exp.items())
