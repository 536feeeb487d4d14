"""MindRecord files cross with MindSpore 2.10 both ways.

Fixtures (``tests/fixtures/mindrecord``, recorded by ``record_mindrecord.py`` under
MindSpore and ``make_msjax_files.py`` under msjax): ``ms/*`` files written by
MindSpore, ``msjax/*`` files written by msjax, ``readback.json`` what MindSpore's
``FileReader`` and ``MindDataset`` read from both, ``layouts.json`` digests of 12
MindSpore-written files whose rows fill pages in many ways, ``save.json`` the file
MindSpore's ``Dataset.save`` writes.
"""
import json
import os
import shutil
import sys

import numpy as np
import pytest

import msjax.dataset as ds
from msjax import mindrecord
from msjax.mindrecord import FileReader, FileWriter

HERE = os.path.join(os.path.dirname(__file__), "fixtures", "mindrecord")
sys.path.insert(0, HERE)
import record_mindrecord as rec  # noqa: E402
import rows  # noqa: E402

with open(os.path.join(HERE, "readback.json")) as _f:
    READBACK = json.load(_f)


def _read_msjax(path):
    out = {}
    r = FileReader(path)
    out["file_reader"] = [{k: rec.encode(v) for k, v in row.items()} for row in r.get_next()]
    out["schema"] = r.schema()
    r.close()
    d = ds.MindDataset(path, shuffle=False)
    out["columns"] = d.get_col_names()
    out["mind_dataset"] = [{k: rec.encode(v) for k, v in row.items()}
                           for row in d.create_dict_iterator(output_numpy=True)]
    first = out["columns"][0]
    out["shards"] = [[rec.encode(row[first]) for row in ds.MindDataset(
        path, columns_list=[first], shuffle=False, num_shards=3, shard_id=s).create_dict_iterator(
            output_numpy=True)] for s in range(3)]
    return out


@pytest.mark.parametrize("name", [n for n in READBACK if n.startswith("ms/")])
def test_mindspore_written_files_read_row_for_row(name):
    """A file MindSpore wrote reads in msjax exactly as MindSpore reads it: FileReader rows
    (values and Python types), MindDataset rows (dtype, shape, values), columns, sharding."""
    got = _read_msjax(os.path.join(HERE, name))
    want = READBACK[name]
    for key in ("schema", "columns", "shards", "mind_dataset", "file_reader"):
        assert got[key] == want[key], key


@pytest.mark.parametrize("name", [n for n in READBACK if n.startswith("msjax/")])
def test_msjax_written_files_read_in_mindspore(name):
    """MindSpore read the committed msjax-written files (readback.json) as msjax reads them."""
    got = _read_msjax(os.path.join(HERE, name))
    want = READBACK[name]
    for key in ("schema", "columns", "shards", "mind_dataset", "file_reader"):
        assert got[key] == want[key], key


def test_mindspore_read_back_msjax_rows():
    """What MindSpore read from msjax's files is the rows msjax was given."""
    got = READBACK["msjax/mixed.mindrecord"]["file_reader"]
    for row, src in zip(got, rows.mixed_rows()):
        assert row["file_name"]["v"] == src["file_name"] and row["label"]["v"] == src["label"]
        assert row["big"]["v"] == src["big"]
        assert row["ids"]["values"] == src["ids"].tolist() and row["mask"]["values"] == src["mask"].tolist()
        assert row["data"] == rec.encode(src["data"])
        np.testing.assert_allclose(row["mat"]["values"], src["mat"].reshape(-1))
    par = READBACK["msjax/parallel.mindrecord0"]["file_reader"] + READBACK["msjax/parallel.mindrecord1"][
        "file_reader"]
    assert [r["id"]["v"] for r in par] == [r["id"] for r in rows.shard_rows(13)]


def test_msjax_rewrites_its_fixtures_byte_for_byte(tmp_path):
    """msjax still writes the files MindSpore read (deterministic ones: single shard, parallel mode)."""
    import make_msjax_files
    make_msjax_files.write(str(tmp_path))
    for name in ("mixed.mindrecord", "parallel.mindrecord0", "parallel.mindrecord1"):
        with open(tmp_path / name, "rb") as f, open(os.path.join(HERE, "msjax", name), "rb") as g:
            assert f.read() == g.read(), name
        assert rec.db_rows(str(tmp_path / name) + ".db") == rec.db_rows(os.path.join(HERE, "msjax", name) + ".db")


def test_single_shard_files_are_mindspores_bytes(tmp_path):
    """For the same rows msjax writes MindSpore's bytes and index: the fixtures and 12 layouts
    (rows of random sizes over 2-5 calls: blob pages, raw pages, row groups) recorded from MindSpore."""
    with open(os.path.join(HERE, "layouts.json")) as f:
        want = json.load(f)
    assert rec.write_layouts(str(tmp_path), FileWriter) == want
    for name, schema, calls, desc, index in (
            ("mixed.mindrecord", rows.MIXED_SCHEMA, [rows.mixed_rows()], "mixed", ["file_name", "label"]),
            ("pages.mindrecord", rows.PAGES_SCHEMA, rows.pages_calls(), None, None),
            ("blob.mindrecord", rows.BLOB_SCHEMA, [rows.blob_rows()], "blob only", None)):
        path = str(tmp_path / name)
        w = FileWriter(path, overwrite=True)
        w.set_header_size(1 << 14)
        w.set_page_size(1 << 15)
        w.add_schema(schema, desc)
        if index:
            w.add_index(index)
        for call in calls:
            w.write_raw_data(call)
        w.commit()
        assert rec.file_digest(path) == rec.file_digest(os.path.join(HERE, "ms", name)), name


def test_dataset_save_writes_mindspores_file(tmp_path):
    """Dataset.save of the same pipeline writes the file MindSpore's save wrote (casts, schema,
    index) byte for byte, and MindDataset reads the rows back."""
    with open(os.path.join(HERE, "save.json")) as f:
        want = json.load(f)
    names, data = rows.save_columns()
    path = str(tmp_path / "_save.mindrecord")
    ds.GeneratorDataset(lambda: iter(data), names, shuffle=False).save(path)
    with open(path, "rb") as f:
        blob = f.read()
    assert len(blob) == want["size"]
    assert rec.nonzero_runs(blob) == want["runs"]
    assert rec.db_rows(path + ".db") == want["db"]
    back = list(ds.MindDataset(path, shuffle=False).create_tuple_iterator(output_numpy=True))
    assert len(back) == 4
    np.testing.assert_array_equal(back[2][2], np.arange(3, dtype=np.int32))   # uint8 saved as int32
    assert back[1][6].dtype == np.int32 and int(back[1][6]) == 0               # bool saved as int32
    with pytest.raises(RuntimeError, match="already exist"):
        ds.GeneratorDataset(lambda: iter(data), names, shuffle=False).save(path)


def _write(path, n=40, shard_num=1, calls=1, page=1 << 15):
    w = FileWriter(path, shard_num=shard_num, overwrite=True)
    w.set_header_size(1 << 14)
    w.set_page_size(page)
    w.add_schema({"id": {"type": "int64"}, "img": {"type": "bytes"}, "vec": {"type": "int32", "shape": [-1]}})
    src = [{"id": i, "img": bytes([i % 256]) * (500 + 37 * i), "vec": np.arange(i % 7, dtype=np.int32) * (-1) ** i}
           for i in range(n)]
    step = -(-n // calls)
    for k in range(0, n, step):
        w.write_raw_data(src[k:k + step])
    w.commit()
    return src


def test_round_trip_shards_pages_and_append(tmp_path):
    """Multi-shard, multi-call files read back every row once; open_for_append adds rows."""
    path = str(tmp_path / "rt.mindrecord")
    src = _write(path, n=60, shard_num=3, calls=4)
    got = {r["id"]: r for r in FileReader(path + "0").get_next()}
    assert sorted(got) == list(range(60))
    for s in src:
        assert got[s["id"]]["img"] == s["img"]
        np.testing.assert_array_equal(got[s["id"]]["vec"], s["vec"])
    assert FileReader(path + "1").len() == 60       # any shard loads the whole set
    assert FileReader([path + "1"]).len() < 60      # a list loads exactly those files
    w = FileWriter.open_for_append(path + "0")
    with pytest.raises(RuntimeError, match="too small to save a blob row"):
        w.write_raw_data([{"id": 99, "img": b"x" * 40000, "vec": np.array([1], np.int32)}])
    w.write_raw_data([{"id": 100 + i, "img": b"x" * 20000, "vec": np.array([i], np.int32)} for i in range(3)])
    w.commit()
    ids = sorted(r["id"] for r in FileReader(path + "2").get_next())
    assert ids == list(range(60)) + [100, 101, 102]
    assert ds.MindDataset(path + "0").get_dataset_size() == 63


def test_mind_dataset_pipeline_shuffle_sampler_padding(tmp_path):
    path = str(tmp_path / "p.mindrecord")
    _write(path, n=30)
    d = ds.MindDataset(path, columns_list=["id", "vec"], shuffle=True)
    ds.config.set_seed(5)
    ids = [int(r[0]) for r in d.create_tuple_iterator(output_numpy=True)]
    assert sorted(ids) == list(range(30)) and ids != list(range(30))
    d = ds.MindDataset(path, columns_list=["id"], sampler=ds.SubsetRandomSampler([3, 5, 7]))
    assert sorted(int(r[0]) for r in d.create_tuple_iterator(output_numpy=True)) == [3, 5, 7]
    d = ds.MindDataset(path, columns_list=["id"], shuffle=False, num_samples=4)
    assert [int(r[0]) for r in d.create_tuple_iterator(output_numpy=True)] == [0, 1, 2, 3]
    shards = [[int(r[0]) for r in ds.MindDataset(path, columns_list=["id"], shuffle=False, num_shards=4, shard_id=s,
                                                  padded_sample={"id": -1}, num_padded=2)
               .create_tuple_iterator(output_numpy=True)] for s in range(4)]
    assert sorted(sum(shards, [])) == [-1, -1] + list(range(30)) and {len(s) for s in shards} == {8}
    d = ds.MindDataset(path, columns_list=["id", "vec"], shuffle=False).map(lambda v: v * 2, "vec")
    d = d.padded_batch(4, pad_info={"vec": ([None], 0)})
    first = next(d.create_dict_iterator(output_numpy=True))
    assert first["id"].tolist() == [0, 1, 2, 3] and first["vec"].shape == (4, 3)
    with pytest.raises(RuntimeError, match="divisible"):
        ds.MindDataset(path, shuffle=False, num_shards=4, shard_id=0, padded_sample={"id": -1, "img": b"",
                                                                                       "vec": np.zeros(0)},
                       num_padded=1)
    with pytest.raises(RuntimeError, match="column name"):
        ds.MindDataset(path, columns_list=["nope"])


def test_writer_errors_as_mindspore(tmp_path):
    path = str(tmp_path / "e.mindrecord")
    w = FileWriter(path)
    with pytest.raises(RuntimeError, match="header size: 100 should be in range"):
        w.set_header_size(100)
    with pytest.raises(RuntimeError, match="page size 32770 should be divided by four"):
        w.set_page_size(32770)
    with pytest.raises(mindrecord.MRMInvalidSchemaError, match="should be composed of"):
        w.add_schema({"a-b": {"type": "int32"}})
    with pytest.raises(mindrecord.MRMInvalidSchemaError, match="illegal attribute 'bytes'"):
        w.add_schema({"a": {"type": "bytes", "shape": [2]}})
    w.add_schema({"a": {"type": "int32"}, "b": {"type": "bytes"}})
    with pytest.raises(mindrecord.MRMAddSchemaError):
        w.add_schema({"a": {"type": "int32"}})
    with pytest.raises(mindrecord.MRMDefineIndexError, match="not primitive type"):
        w.add_index(["b"])
    with pytest.raises(mindrecord.ParamTypeError, match="'index_fields' expect list type"):
        w.add_index("a")
    with pytest.raises(mindrecord.ParamTypeError, match="'raw_data' expect list type"):
        w.write_raw_data({"a": 1})
    with pytest.raises(RuntimeError, match="no valid data"):
        w.write_raw_data([{"a": 1.5, "b": b"x"}])
    w.write_raw_data([{"a": 1.5, "b": b"x"}, {"a": 2, "b": b"y"}])     # the bad row is dropped
    w.commit()
    with pytest.raises(RuntimeError, match="flushed MindRecord files"):
        w.write_raw_data([{"a": 2, "b": b"y"}])
    assert list(FileReader(path).get_next()) == [{"a": 2, "b": b"y"}]
    with pytest.raises(RuntimeError, match="already exist"):
        _rewrite(path)
    with pytest.raises(mindrecord.ParamValueError, match="shard_num's value: 0"):
        FileWriter(path, shard_num=0)
    with pytest.raises(mindrecord.ParamValueError, match="File name should not contains"):
        FileWriter(str(tmp_path / "x?.mindrecord"))
    with pytest.raises(RuntimeError, match="is not exists"):
        FileReader(str(tmp_path / "missing.mindrecord"))
    # a renamed file no longer matches its index
    shutil.copy(path, str(tmp_path / "r.mindrecord"))
    shutil.copy(path + ".db", str(tmp_path / "r.mindrecord.db"))
    with pytest.raises(RuntimeError, match="renamed"):
        FileReader([str(tmp_path / "r.mindrecord")]).len()
    with pytest.raises(NotImplementedError, match="encrypted"):
        mindrecord.set_enc_key("0123456789012345")


def _rewrite(path):
    w = FileWriter(path)
    w.add_schema({"a": {"type": "int32"}})
    w.write_raw_data([{"a": 1}])


def test_compression_codec_edges():
    from msjax.mindrecord import _codec
    for vals, size in (([], 4), ([0, -1, 127, -128, 128, -129, 32767, -32768, 32768, 2 ** 31 - 1, -2 ** 31], 4),
                       ([2 ** 31, -2 ** 31 - 1, 2 ** 62, -2 ** 63], 8)):
        arr = np.array(vals, np.int32 if size == 4 else np.int64)
        packed = _codec.compress_ints(arr.tobytes(), size)
        assert _codec.decompress_ints(packed, size) == arr.tobytes()
    packed = _codec.compress_ints(np.array([1, -200, 70000, 3], np.int32).tobytes(), 4)
    assert packed.hex() == "00000004" "18" "01" "38ff" "70110100" "03"    # MindSpore's bytes (fixture blob row 0)


def test_mind_dataset_files_and_infile_shuffle(tmp_path):
    from msjax.dataset import Shuffle
    path = str(tmp_path / "f.mindrecord")
    w = FileWriter(path, shard_num=3, overwrite=True)
    w.add_schema({"id": {"type": "int64"}})
    for k in range(3):          # parallel mode: shard k holds rows 10k..10k+4
        w.write_raw_data([{"id": 10 * k + i} for i in range(5)], parallel_writer=True)
    w.commit()
    files = [path + str(k) for k in range(3)]
    ds.config.set_seed(2)
    seen_files, seen_rows = set(), set()
    it_files = ds.MindDataset(files, shuffle=Shuffle.FILES).create_tuple_iterator(num_epochs=8, output_numpy=True)
    it_in = ds.MindDataset(files, shuffle=Shuffle.INFILE).create_tuple_iterator(num_epochs=8, output_numpy=True)
    for _ in range(8):      # a new order each epoch
        ids = [int(r[0]) for r in it_files]
        blocks = [ids[i:i + 5] for i in range(0, 15, 5)]
        assert all(b == list(range(b[0], b[0] + 5)) for b in blocks)     # each file's rows in order
        seen_files.add(tuple(b[0] for b in blocks))
        ids = [int(r[0]) for r in it_in]
        assert [sorted(ids[i:i + 5]) for i in range(0, 15, 5)] == [list(range(10 * k, 10 * k + 5)) for k in range(3)]
        seen_rows.add(tuple(ids))
    assert len(seen_files) > 1 and len(seen_rows) > 1
    parts = [[int(r[0]) for r in ds.MindDataset(files, shuffle=Shuffle.INFILE, num_shards=2, shard_id=s)
              .create_tuple_iterator(output_numpy=True)] for s in range(2)]
    assert len(parts[0]) == len(parts[1]) == 8 and set(parts[0] + parts[1]) == set(range(5)) | set(
        range(10, 15)) | set(range(20, 25))
    with pytest.raises(ValueError, match="cannot be specified at the same time"):
        ds.MindDataset(files, shuffle=Shuffle.FILES, num_samples=3)
