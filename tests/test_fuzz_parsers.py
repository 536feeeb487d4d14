"""Mutation fuzzing of the file parsers (.ckpt, safetensors, MindRecord and its index,
strategy files, distributed checkpoints): every mutated file loads or raises the
exception type MindSpore 2.10 raises for a corrupt file of that kind, with a message,
within a time limit per case (tests/fuzzing.py). A few hundred mutations per format
here; ``MSJAX_FUZZ_N=10000`` runs more. MindIR is not read by msjax (``load_mindir``
raises), so it has no parser to fuzz."""
import json
import os
import struct
import time

import numpy as np
import pytest

import msjax as ms
import fuzzing

N = int(os.environ.get("MSJAX_FUZZ_N", "300"))
RECORDED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "fuzz_errors_mindspore.json")


@pytest.mark.parametrize("fmt", fuzzing.FORMATS)
def test_mutated_files_load_or_raise_mindspore_exception(fmt, tmp_path):
    seed = tmp_path / "valid"
    seed.mkdir()
    fuzzing.SEEDS[fmt](str(seed))
    fuzzing.load(fmt, str(seed))                       # the unmutated files load
    counts, failures, _ = fuzzing.run(fmt, str(tmp_path / "fuzz"), N)
    assert not failures, "\n\n".join(f"{how}\n{detail}" for how, detail in failures[:5])
    assert sum(counts.values()) == N and set(counts) - {"load"}, counts


def test_allowed_exception_types_are_those_mindspore_raises():
    recorded = json.load(open(RECORDED))
    for fmt, allowed in fuzzing.ALLOWED.items():
        ms_types = {c for ex in recorded[fmt]["examples"].values() for c in ex["mro"]}
        for t in allowed:
            assert t.__name__ in ms_types, (fmt, t, sorted(ms_types))


def test_the_harness_reports_a_leaked_exception_and_a_hang(tmp_path, monkeypatch):
    real = fuzzing.load

    def leaky(fmt, d, ms=None):
        real(fmt, d, ms)
        raise IndexError("list index out of range")
    monkeypatch.setattr(fuzzing, "load", leaky)
    _, failures, _ = fuzzing.run("ckpt", str(tmp_path / "a"), 5)
    assert failures and "IndexError" in failures[0][1]

    monkeypatch.setattr(fuzzing, "load", lambda fmt, d, ms=None: time.sleep(5))
    _, failures, secs = fuzzing.run("ckpt", str(tmp_path / "b"), 1, limit=0.3)
    assert failures and "limit" in failures[0][1] and secs < 4


@pytest.mark.parametrize("values", [np.arange(6, dtype=np.float32), np.array([-1.5, 2 ** 20], np.float64)])
def test_crc_check_detects_every_single_bit_flip(tmp_path, values):
    good = str(tmp_path / "good.ckpt")
    ms.save_checkpoint([{"name": "w", "data": ms.Tensor(values)},
                        {"name": "s", "data": ms.Tensor(np.array([3], np.int32))}], good, crc_check=True)
    data = open(good, "rb").read()
    assert data[-17:-10] == b"crc_num"
    bad = str(tmp_path / "bad.ckpt")
    for i in range(len(data) * 8):
        b = bytearray(data)
        b[i // 8] ^= 1 << (i % 8)
        with open(bad, "wb") as f:
            f.write(b)
        with pytest.raises(ValueError):
            ms.load_checkpoint(bad, crc_check=True)
    assert set(ms.load_checkpoint(good, crc_check=True)) == {"w", "s"}


# the leaks the fuzzer found, one each
def _mindrecord(tmp_path):
    return fuzzing.SEEDS["mindrecord"](str(tmp_path))[0]


def _read_all(path):
    reader = ms.mindrecord.FileReader(path)
    try:
        return list(reader.get_next())
    finally:
        reader.close()


def test_mindrecord_row_length_beyond_the_file_is_a_runtime_error(tmp_path):
    path = _mindrecord(tmp_path)
    data = bytearray(open(path, "rb").read())
    header = json.loads(data[8:8 + struct.unpack("<Q", data[:8])[0]])
    first_page = header["header_size"]                 # page 0: the first row's 8-byte length
    data[first_page:first_page + 8] = struct.pack("<Q", 2 ** 62)
    os.chmod(path, 0o600)
    open(path, "wb").write(bytes(data))
    with pytest.raises(RuntimeError, match="beyond the end of the file"):
        _read_all(path)


def test_mindrecord_corrupt_header_and_index_are_runtime_errors(tmp_path):
    path = _mindrecord(tmp_path)
    data = open(path, "rb").read()
    os.chmod(path, 0o600)
    open(path, "wb").write(data[:8] + data[8:40].replace(b"header_size", b"header_sizE") + data[40:])
    with pytest.raises(RuntimeError, match="header_size or page_size"):
        _read_all(path)
    open(path, "wb").write(data)
    db = path + ".db"
    os.chmod(db, 0o600)
    open(db, "wb").write(open(db, "rb").read()[:1000])
    with pytest.raises(RuntimeError, match="meta file"):
        _read_all(path)


def test_strategy_layout_out_of_range_and_malformed_json_are_value_errors(tmp_path):
    from msjax.parallel._strategy_file import ParallelStrategyMap
    msg = ParallelStrategyMap(current_stage=0)
    item = msg.parallel_layout_item.add(param_name="w")
    item.parallel_layouts.dev_matrix.add().dim.extend([2])
    item.parallel_layouts.tensor_map.add().dim.extend([3, -1])      # axis 3 of a 1-axis device matrix
    item.parallel_layouts.field = item.parallel_layouts.opt_weight_shard_step = 0
    item.parallel_layouts.opt_weight_shard_size = 0
    path = str(tmp_path / "s.ckpt")
    open(path, "wb").write(msg.SerializeToString())
    with pytest.raises(ValueError, match="Convert layout strategy to list failed"):
        ms.rank_list_for_transform(0, path, path)
    item.parallel_layouts.tensor_map[0].dim[0] = 0
    item.parallel_layouts.dev_matrix[0].dim[0] = 2 ** 31                # no job has 2**31 devices
    open(path, "wb").write(msg.SerializeToString())
    with pytest.raises(ValueError, match="devices"):
        ms.rank_list_for_transform(0, path, path)
    js = str(tmp_path / "s.json")
    open(js, "w").write(json.dumps({"parallel_layout_item": {"w": {"dev_matrix": [2]}}}))
    with pytest.raises(ValueError, match="not a valid JSON strategy file"):
        ms.build_searched_strategy(js)
