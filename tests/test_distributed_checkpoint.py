"""Distributed checkpoints: per-rank slices, strategy files, merging and transforming
(msjax/parallel/checkpoint_transform.py, _layout.py, _strategy_file.py).

Per-rank slices are cut by hand with NumPy for 8-rank layouts; MindSpore 2.10's view
of msjax's files is in tests/fixtures/distributed_ckpt_mindspore.json (recorded by
tests/fixtures/record_distributed_ckpt.py)."""
import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import msjax as ms
from msjax import Parameter, Tensor, nn, ops
from msjax.parallel._layout import make_layout, merge_slices, slice_for_rank
from msjax.parallel._strategy_file import ParallelStrategyMap, file_descriptor, save_strategy_file, strategy_layouts

FIX = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")
sys.path.insert(0, FIX)
import record_distributed_ckpt as rec  # noqa: E402

RNG = np.random.RandomState(3)
W = RNG.randn(784, 512).astype(np.float32)
B = RNG.randn(512).astype(np.float32)
# weight rows over device-matrix axis 1 (the 2), columns over axis 0 (the 4): MindSpore counts from the right
TRAIN = {"w": ((2, 4), (1, 0)), "b": ((2, 4), (0,))}
OTHER = {"w": ((4, 2), (-1, 0), 2), "b": ((8,), (0,))}       # columns in 2, rows cut by the optimizer in 2
FULL = {"w": W, "b": B}


def _cut(layouts, name, rank):
    lay = layouts[name]
    return slice_for_rank(FULL[name], lay[0], lay[1], rank, *lay[2:])


def _write_ranks(root, layouts, ranks=8, extra=True):
    """Each rank's .ckpt of its slices (and a step counter no strategy mentions)."""
    files = []
    for r in range(ranks):
        items = [{"name": k, "data": Tensor(_cut(layouts, k, r))} for k in layouts]
        if extra:
            items.append({"name": "global_step", "data": Tensor(np.array([7], np.int32))})
        path = os.path.join(root, f"rank_{r}", "net.ckpt")
        ms.save_checkpoint(items, path)
        files.append(path)
    return files


class Linear(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.zeros((784, 512), np.float32)), name="w")
        self.b = Parameter(Tensor(np.zeros((512,), np.float32)), name="b")

    def construct(self, x):
        return ops.matmul(x, self.w) + self.b


@pytest.fixture
def train(tmp_path):
    strategy = save_strategy_file(str(tmp_path / "train_strategy.ckpt"), TRAIN)
    return strategy, _write_ranks(str(tmp_path / "src"), TRAIN)


# ---------------------------------------------------------------------------
# layouts
# ---------------------------------------------------------------------------
def test_tensor_map_counts_device_matrix_axes_from_the_right():
    for r in range(8):
        i, j = divmod(r, 4)                              # rank r sits at (r // 4, r % 4) of the (2, 4) matrix
        assert np.array_equal(_cut(TRAIN, "w", r), W[i * 392:(i + 1) * 392, j * 128:(j + 1) * 128])
        assert np.array_equal(_cut(TRAIN, "b", r), B[j * 128:(j + 1) * 128])
    # -1: not split; the first axis of (2, 4) repeats the data of tensor map (0,)
    assert np.array_equal(slice_for_rank(W, (2, 4), (-1, -1), 5), W)


def test_optimizer_shard_cuts_the_first_dimension_of_each_piece():
    # (4, 2) with columns over the 2: axis 0 repeats 4 times; an optimizer shard of 2 takes its low part
    pieces = {r: _cut(OTHER, "w", r) for r in range(8)}
    assert all(p.shape == (392, 256) for p in pieces.values())
    for r, p in pieces.items():
        a, c = divmod(r, 2)
        assert np.array_equal(p, W[(a % 2) * 392:(a % 2 + 1) * 392, c * 256:(c + 1) * 256])
    assert make_layout(*OTHER["w"]).opt_shard_step == 2
    assert np.array_equal(merge_slices(pieces, make_layout(*OTHER["w"])), W)
    assert np.array_equal(merge_slices({0: pieces[0], 1: pieces[1], 2: pieces[2], 3: pieces[3]},
                                       make_layout(*OTHER["w"])), W)
    with pytest.raises(ValueError, match="rank 2 is missing"):
        merge_slices({0: pieces[0], 1: pieces[1], 3: pieces[3]}, make_layout(*OTHER["w"]))


def test_layout_errors():
    with pytest.raises(ValueError, match="device-matrix axes counted from the right"):
        make_layout((2, 4), (2, 0))
    with pytest.raises(ValueError, match="twice"):
        make_layout((2, 4), (0, 0))
    with pytest.raises(ValueError, match="cannot sharding opt_shard"):
        make_layout((2, 4), (1, 0), 2)
    with pytest.raises(ValueError, match="can not be split into 4 parts"):
        slice_for_rank(np.zeros((6, 6)), (2, 4), (1, 0), 0)
    with pytest.raises(ValueError, match="out of the device matrix"):
        slice_for_rank(W, (2, 4), (1, 0), 8)


# ---------------------------------------------------------------------------
# strategy files
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["s.ckpt", "s.json"])
def test_strategy_file_round_trip(tmp_path, name):
    path = save_strategy_file(str(tmp_path / "sub" / name), {**OTHER, "a": ((2, 2, 2), ((2, 1), -1))})
    strategy = ms.build_searched_strategy(path)
    assert sorted(strategy) == ["a", "b", "w"]
    w = strategy["w"]
    assert (list(w.dev_matrix[0].dim), list(w.tensor_map[0].dim)) == ([4, 2], [-1, 0])
    assert (w.opt_weight_shard_size, w.opt_weight_shard_step, w.field) == (2, 2, 0)
    assert [list(m.dim) for m in strategy["a"].tensor_map] == [[2, 1], [-1]]    # one TensorMap per dimension
    assert strategy_layouts(strategy)["a"][0].tensor_map == ((2, 1), -1)


def test_strategy_schema_matches_mindspore_descriptor():
    from google.protobuf import descriptor_pb2
    theirs = descriptor_pb2.FileDescriptorProto()
    with open(os.path.join(FIX, "ms_strategy_descriptor.bin"), "rb") as f:
        theirs.ParseFromString(f.read())

    def shape(fd, prefix):
        return {m.name: [(f.name, f.number, f.label, f.type, f.type_name.replace(prefix, ".")) for f in m.field]
                for m in fd.message_type}
    assert shape(file_descriptor(), ".msjax.straspb.") == shape(theirs, ".mindspore.straspb.")


def test_build_searched_strategy_errors(tmp_path):
    with pytest.raises(TypeError, match="'strategy_filename' should be string"):
        ms.build_searched_strategy(3)
    with pytest.raises(ValueError, match="no such strategy file"):
        ms.build_searched_strategy(str(tmp_path / "none.ckpt"))
    (tmp_path / "empty.ckpt").write_bytes(b"")
    with pytest.raises(ValueError, match="should not be empty"):
        ms.build_searched_strategy(str(tmp_path / "empty.ckpt"))
    (tmp_path / "bad.ckpt").write_bytes(b"\xff\xff\xff garbage")
    with pytest.raises(TypeError, match="one of json or protobuf"):
        ms.build_searched_strategy(str(tmp_path / "bad.ckpt"))
    assert ms.build_searched_strategy(None) is None


# ---------------------------------------------------------------------------
# merge_sliced_parameter, load_distributed_checkpoint
# ---------------------------------------------------------------------------
def test_merge_sliced_parameter_with_strategy(train):
    strategy_file, files = train
    strategy = ms.build_searched_strategy(strategy_file)
    for name in ("w", "b"):
        sliced = [ms.load_checkpoint(f)[name] for f in files]
        merged = ms.merge_sliced_parameter(sliced, strategy)
        assert merged.name == name and np.array_equal(merged.asnumpy(), FULL[name])
    sliced = [ms.load_checkpoint(f)["w"] for f in files]
    with pytest.raises(ValueError, match="should be equal to device_count. The length of 'sliced_parameters' is 7"):
        ms.merge_sliced_parameter(sliced[:7], strategy)
    with pytest.raises(KeyError, match="parameter name zz should be a key"):
        ms.merge_sliced_parameter([Parameter(Tensor(np.ones(2, np.float32)), "zz")], strategy)
    with pytest.raises(TypeError, match="'strategy' should be dict"):
        ms.merge_sliced_parameter(sliced, [1])
    with pytest.raises(ValueError, match="please make sure that 'strategy' is correct"):
        ms.merge_sliced_parameter(sliced, {"w": 3})
    uneven = sliced[:7] + [Parameter(Tensor(np.ones((391, 128), np.float32)), "w")]
    with pytest.raises(ValueError, match="should be the same when slice manner is even"):
        ms.merge_sliced_parameter(uneven, strategy)


def test_load_distributed_checkpoint_into_a_standalone_net(train):
    strategy_file, files = train
    net = Linear()
    x = RNG.randn(2, 784).astype(np.float32)
    assert ms.load_distributed_checkpoint(net, files, None, strategy_file) is True    # global_step: not in net
    assert np.array_equal(net.w.asnumpy(), W) and np.array_equal(net.b.asnumpy(), B)
    np.testing.assert_allclose(net(Tensor(x)).asnumpy(), x @ W + B, rtol=1e-4, atol=1e-4)


def test_load_distributed_checkpoint_warns_of_parameters_it_can_not_load(train, tmp_path, ms_log):
    """MindSpore logs these warnings (``logger.warning``), as msjax does."""
    strategy_file, files = train
    net = Linear()
    net.extra = Parameter(Tensor(np.ones(3, np.float32)), name="extra")
    ms.load_distributed_checkpoint(net, files, None, strategy_file)
    assert any("['extra'] parameters in network are not in the slice strategy" in r.getMessage() for r in ms_log)
    only_w = save_strategy_file(str(tmp_path / "w_and_c.ckpt"), {"w": TRAIN["w"], "c": ((8,), (-1,))})
    net = Linear()
    net.c = Parameter(Tensor(np.ones(3, np.float32)), name="c")
    ms_log.clear()
    ms.load_distributed_checkpoint(net, files, None, only_w)
    assert any("['c'] parameters in network and slice strategy but not in the " in r.getMessage() for r in ms_log)
    assert np.array_equal(net.w.asnumpy(), W) and not net.b.asnumpy().any()


def test_load_distributed_checkpoint_reads_the_context_strategy(train):
    strategy_file, files = train
    ms.set_auto_parallel_context(strategy_ckpt_load_file=strategy_file)
    try:
        net = Linear()
        ms.load_distributed_checkpoint(net, files, {"w": [[2, 4], [1, 0], [], 0], "b": [[8], [0], [], 0]})
    finally:
        ms.reset_auto_parallel_context()
    assert np.array_equal(net.w.asnumpy(), W)


def test_load_distributed_checkpoint_errors(train, tmp_path):
    strategy_file, files = train
    with pytest.raises(ValueError, match="'network' must be isinstance of"):
        ms.load_distributed_checkpoint(3, files)
    with pytest.raises(ValueError, match="make sure the a.ckpt at index 0 is a valid checkpoint file"):
        ms.load_distributed_checkpoint(Linear(), ["a.ckpt"])
    with pytest.raises(TypeError):
        ms.load_distributed_checkpoint(Linear(), None)
    with pytest.raises(ValueError, match="no such strategy file: \\."):
        ms.load_distributed_checkpoint(Linear(), files)          # no train strategy anywhere
    with pytest.raises(ValueError, match="length of 'checkpoint_filenames' is 1 and the device count is 8"):
        ms.load_distributed_checkpoint(Linear(), files[:1], None, strategy_file)
    with pytest.raises(ValueError, match="'predict_strategy' must be isinstance of"):
        ms.load_distributed_checkpoint(Linear(), files, 3, strategy_file)
    with pytest.raises(ValueError, match="the first four elements must be dev_matrix"):
        ms.load_distributed_checkpoint(Linear(), files, {"w": [[1], [1]]}, strategy_file)
    with pytest.raises(ValueError, match="must be 'ckpt' or 'safetensors', but got x"):
        ms.load_distributed_checkpoint(Linear(), files, None, strategy_file, format="x")
    with pytest.raises(ValueError, match="'dec_key' must be isinstance of"):
        ms.load_distributed_checkpoint(Linear(), files, None, strategy_file, dec_key=3)


# ---------------------------------------------------------------------------
# transform_checkpoints, transform_checkpoint_by_rank, rank_list_for_transform
# ---------------------------------------------------------------------------
def _read(path):
    return {k: v.asnumpy() for k, v in ms.load_checkpoint(path).items()}


def test_transform_to_standalone_to_another_layout_and_back(train, tmp_path):
    strategy_file, _ = train
    src = str(tmp_path / "src")
    other = save_strategy_file(str(tmp_path / "other.ckpt"), OTHER)
    ms.transform_checkpoints(src, str(tmp_path / "one"), "one_", strategy_file, None)
    assert os.listdir(tmp_path / "one") == ["rank_0"]
    one = _read(str(tmp_path / "one" / "rank_0" / "one_0.ckpt"))
    assert np.array_equal(one["w"], W) and np.array_equal(one["b"], B) and one["global_step"].tolist() == [7]
    ms.transform_checkpoints(src, str(tmp_path / "other"), "o", strategy_file, other)
    for r in range(8):
        got = _read(str(tmp_path / "other" / f"rank_{r}" / f"o{r}.ckpt"))
        assert np.array_equal(got["w"], _cut(OTHER, "w", r)) and np.array_equal(got["b"], _cut(OTHER, "b", r))
    ms.transform_checkpoints(str(tmp_path / "other"), str(tmp_path / "back"), "net", other, strategy_file)
    for r in range(8):
        got = _read(str(tmp_path / "back" / f"rank_{r}" / f"net{r}.ckpt"))
        assert np.array_equal(got["w"], _cut(TRAIN, "w", r)) and np.array_equal(got["b"], _cut(TRAIN, "b", r))
    # stand-alone files to a layout (no source strategy)
    ms.transform_checkpoints(str(tmp_path / "one"), str(tmp_path / "cut"), "c", None, other)
    assert np.array_equal(_read(str(tmp_path / "cut" / "rank_5" / "c5.ckpt"))["w"], _cut(OTHER, "w", 5))


def test_transform_checkpoint_by_rank_with_its_rank_list(train, tmp_path):
    strategy_file, files = train
    other = save_strategy_file(str(tmp_path / "other.ckpt"), OTHER)
    for r in (0, 5):
        needed = ms.rank_list_for_transform(r, strategy_file, other)
        assert needed == sorted(needed, reverse=True) and len(needed) < 8
        out = str(tmp_path / f"by_rank{r}.ckpt")
        ms.transform_checkpoint_by_rank(r, {s: files[s] for s in needed}, out, strategy_file, other)
        got = _read(out)
        assert np.array_equal(got["w"], _cut(OTHER, "w", r)) and np.array_equal(got["b"], _cut(OTHER, "b", r))
    # rank 0's piece of w (rows 0:392, columns 0:256) lies on ranks 0 and 1, its b[0:64] on rank 0
    assert ms.rank_list_for_transform(0, strategy_file, other) == [1, 0]
    assert ms.rank_list_for_transform(0, strategy_file, None) == [7, 6, 5, 4, 3, 2, 1, 0]
    assert ms.rank_list_for_transform(3, None, other) == [0]
    with pytest.raises(ValueError, match="The checkpoint file of rank 1 is missing"):
        ms.transform_checkpoint_by_rank(0, {0: files[0]}, str(tmp_path / "x.ckpt"), strategy_file, other)


def test_transform_errors(train, tmp_path):
    strategy_file, files = train
    src = str(tmp_path / "src")
    with pytest.raises(ValueError, match="'src_checkpoints_dir' can not be empty"):
        ms.transform_checkpoints(str(tmp_path / "none"), str(tmp_path / "out"), "x")
    with pytest.raises(ValueError, match="'output_format' can not be 'safetensors'"):
        ms.transform_checkpoints(src, str(tmp_path / "out"), "x", output_format="safetensors")
    with pytest.raises(TypeError, match="The ckpt_prefix should be a str"):
        ms.transform_checkpoints(src, str(tmp_path / "out"), 3)
    with pytest.raises(ValueError, match="The director of src_strategy_file: /nonexist is not exists"):
        ms.transform_checkpoints(src, str(tmp_path / "out"), "x", "/nonexist/a.ckpt")
    with pytest.raises(ValueError, match="None of the parameters in checkpoint file are in either"):
        ms.transform_checkpoints(src, str(tmp_path / "out"), "x", None, None)
    os.remove(files[1])
    os.rmdir(os.path.dirname(files[1]))
    with pytest.raises(ValueError, match="rank1 is needed for converting rank0's checkpoint, but it is missing"):
        ms.transform_checkpoints(src, str(tmp_path / "out"), "x", strategy_file, None)
    with pytest.raises(TypeError, match="The rank_id should be a int"):
        ms.rank_list_for_transform(0.5, strategy_file)
    with pytest.raises(TypeError, match="'strategy_filename' should be string"):
        ms.rank_list_for_transform(0, 3)
    with pytest.raises(RuntimeError, match="Rank 9 is not in the current stage"):
        ms.rank_list_for_transform(9, strategy_file, None)
    with pytest.raises(IndexError):
        ms.rank_list_for_transform(9, strategy_file, strategy_file)
    with pytest.raises(TypeError, match="checkpoint_files_map should be a dict"):
        ms.transform_checkpoint_by_rank(0, [], "a.ckpt")
    with pytest.raises(TypeError, match="The rank_id should be a int"):
        ms.transform_checkpoint_by_rank(0.1, {}, "a.ckpt")
    with pytest.raises(TypeError, match="save_checkpoint_file_name should be a str"):
        ms.transform_checkpoint_by_rank(0, {}, 3)
    with pytest.raises(ValueError, match="a.ck should end with .ckpt"):
        ms.transform_checkpoint_by_rank(0, {}, "a.ck")
    with pytest.raises(ValueError, match="Checkpoint file /nonexist.ckpt in rank 0 not exits"):
        ms.transform_checkpoint_by_rank(0, {0: "/nonexist.ckpt"}, "a.ckpt")
    with pytest.raises(NotADirectoryError, match="is not a directory"):
        ms.merge_pipeline_strategys(str(tmp_path / "none"), str(tmp_path / "m.ckpt"))
    with pytest.raises(TypeError, match="The ckpt_file_dir should be a str"):
        ms.load_segmented_checkpoints(3)


def test_pipeline_strategies_merge_as_mindspore_merges_them(tmp_path):
    for stage, layouts in enumerate(rec.STAGES):
        save_strategy_file(str(tmp_path / "stages" / f"stage{stage}.ckpt"), layouts, stage=stage)
    merged = str(tmp_path / "merged.ckpt")
    ms.merge_pipeline_strategys(str(tmp_path / "stages"), merged)

    def items(path):     # MindSpore merges the files in glob order, msjax in sorted order
        msg = ParallelStrategyMap()
        with open(path, "rb") as f:
            msg.ParseFromString(f.read())
        return (msg.current_stage, sorted(i.SerializeToString() for i in msg.parallel_strategy_item),
                sorted(i.SerializeToString() for i in msg.parallel_layout_item))
    assert items(merged) == items(os.path.join(FIX, "ms_merged_pipeline_strategy.ckpt"))
    layouts = strategy_layouts(ms.build_searched_strategy(merged))
    assert {k: s for k, (_, s) in layouts.items()} == {"w1": 0, "b1": 0, "w2": 1, "b2": 1}


def test_transform_pipeline_stages_to_one_device_and_back(tmp_path):
    params, _ = rec.values()
    for stage, layouts in enumerate(rec.STAGES):
        save_strategy_file(str(tmp_path / "stages" / f"stage{stage}.ckpt"), layouts, stage=stage)
        for local in range(4):              # ranks 0-3 hold stage 0's parameters, ranks 4-7 stage 1's
            items = [{"name": k, "data": Tensor(slice_for_rank(params[k], lay[0], lay[1], local))}
                     for k, lay in layouts.items()]
            ms.save_checkpoint(items, str(tmp_path / "src" / f"rank_{stage * 4 + local}" / "p.ckpt"))
    merged = str(tmp_path / "merged.ckpt")
    ms.merge_pipeline_strategys(str(tmp_path / "stages"), merged)
    assert ms.rank_list_for_transform(0, merged, None) == [7, 6, 5, 4, 3, 2, 1, 0]
    ms.transform_checkpoints(str(tmp_path / "src"), str(tmp_path / "one"), "one", merged, None)
    one = _read(str(tmp_path / "one" / "rank_0" / "one0.ckpt"))
    assert sorted(one) == sorted(params) and all(np.array_equal(one[k], v) for k, v in params.items())
    ms.transform_checkpoints(str(tmp_path / "one"), str(tmp_path / "back"), "p", None, merged)
    for r in range(8):
        got = _read(str(tmp_path / "back" / f"rank_{r}" / f"p{r}.ckpt"))
        layouts = rec.STAGES[r // 4]
        assert sorted(got) == sorted(layouts)
        for k, lay in layouts.items():
            assert np.array_equal(got[k], slice_for_rank(params[k], lay[0], lay[1], r % 4))
    assert ms.rank_list_for_transform(6, merged, merged) == [6]


def test_load_segmented_checkpoints(train, tmp_path):
    strategy_file, files = train
    ms.transform_checkpoints(str(tmp_path / "src"), str(tmp_path / "one"), "one", strategy_file, None)
    got = ms.load_segmented_checkpoints(str(tmp_path / "one" / "rank_0"))
    assert sorted(got) == ["b", "global_step", "w"]


# ---------------------------------------------------------------------------
# MindSpore 2.10 on msjax's files (tests/fixtures/record_distributed_ckpt.py)
# ---------------------------------------------------------------------------
def test_mindspore_reads_msjax_distributed_checkpoints_as_msjax_does(tmp_path):
    with open(os.path.join(FIX, "distributed_ckpt_mindspore.json")) as f:
        ref = json.load(f)
    d = str(tmp_path)
    rec.write(d)
    params, x = rec.values()
    assert all(np.array_equal(np.float32(ref["params"][k]), v) for k, v in params.items())
    strategy = ms.build_searched_strategy(os.path.join(d, "train.ckpt"))
    assert {k: {"dev_matrix": list(v.dev_matrix[0].dim), "tensor_map": list(v.tensor_map[0].dim),
                "opt_weight_shard_size": v.opt_weight_shard_size, "opt_weight_shard_step": v.opt_weight_shard_step}
            for k, v in strategy.items()} == ref["strategy"]
    files = [os.path.join(d, f"rank_{r}", "net.ckpt") for r in range(rec.RANKS)]
    for k, merged in ref["merge_sliced_parameter"].items():
        mine = ms.merge_sliced_parameter([ms.load_checkpoint(f)[k] for f in files], strategy)
        assert np.array_equal(mine.asnumpy(), np.float32(merged))

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            for k, s in rec.SHAPES.items():
                setattr(self, k, Parameter(Tensor(np.zeros(s, np.float32)), name=k))

        def construct(self, x):
            return ops.matmul(ops.relu(ops.matmul(x, self.w1) + self.b1), self.w2) + self.b2

    net = Net()
    ms.load_distributed_checkpoint(net, files, None, os.path.join(d, "train.ckpt"))
    for k, p in net.parameters_and_names():
        assert np.array_equal(p.asnumpy(), np.float32(ref["loaded"][k])), k
    np.testing.assert_allclose(net(Tensor(x)).asnumpy(), np.float32(ref["output"]), rtol=1e-5, atol=1e-5)
    for name, dst in (("transformed_standalone", None), ("transformed_dst", os.path.join(d, "dst.ckpt"))):
        ms.transform_checkpoints(d, os.path.join(d, name), "t", os.path.join(d, "train.ckpt"), dst)
        for r, theirs in ref[name].items():
            mine = _read(os.path.join(d, name, f"rank_{r}", f"t{r}.ckpt"))
            assert sorted(mine) == sorted(theirs)
            for k, v in theirs.items():
                assert np.array_equal(mine[k], np.asarray(v, mine[k].dtype)), (name, r, k)
    # MindSpore's (larger) rank lists work for msjax's transform_checkpoint_by_rank
    for r, needed in ref["rank_list_for_transform"].items():
        out = os.path.join(d, f"by_rank{r}.ckpt")
        ms.transform_checkpoint_by_rank(int(r), {s: files[s] for s in needed}, out, os.path.join(d, "train.ckpt"),
                                        os.path.join(d, "dst.ckpt"))
        assert all(np.array_equal(v, np.float32(ref["transformed_dst"][r][k])) for k, v in _read(out).items())


# ---------------------------------------------------------------------------
# sharded jax Arrays (8 host devices, in a subprocess)
# ---------------------------------------------------------------------------
SHARDED = textwrap.dedent("""
    import os, sys, numpy as np, jax
    from jax.sharding import Mesh, NamedSharding, PartitionSpec as P
    import msjax as ms
    from msjax import nn, Parameter, Tensor
    from msjax.parallel._layout import _layout_of, rank_checkpoint_params, slice_for_rank
    from msjax.parallel._strategy_file import save_strategy_file
    assert jax.device_count() == 8
    d = sys.argv[1]
    mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("dp", "mp"))
    W = np.arange(16 * 8, dtype=np.float32).reshape(16, 8)
    B = np.arange(8, dtype=np.float32)
    put = lambda a, spec: jax.device_put(a, NamedSharding(mesh, spec))
    assert _layout_of(put(W, P("dp", "mp"))) == ((2, 4), (1, 0))
    assert _layout_of(put(W, P(None, ("dp", "mp")))) == ((2, 4), (-1, (1, 0)))
    assert _layout_of(put(B, P("mp"))) == ((2, 4), (0,))
    assert _layout_of(jax.numpy.asarray(B)) == ((1,), (-1,))

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = Parameter(Tensor(put(W, P("dp", "mp"))), name="w")
            self.b = Parameter(Tensor(put(B, P("mp"))), name="b")

        def construct(self, x):
            return x

    net = Net()
    strategy = save_strategy_file(os.path.join(d, "s.ckpt"), {p.name: p for p in net.get_parameters()})
    files = []
    for r in range(8):
        pieces = rank_checkpoint_params(net, r)
        assert np.array_equal(pieces["w"], slice_for_rank(W, (2, 4), (1, 0), r))
        assert np.array_equal(pieces["b"], slice_for_rank(B, (2, 4), (0,), r))
        files.append(os.path.join(d, f"rank{r}.ckpt"))
        ms.save_checkpoint([{"name": k, "data": Tensor(v)} for k, v in pieces.items()], files[-1])
    fresh = Net()
    fresh.w.set_data(Tensor(put(np.zeros_like(W), P(None, "mp"))))
    ms.load_distributed_checkpoint(fresh, files, None, strategy)
    assert np.array_equal(fresh.w.asnumpy(), W) and np.array_equal(fresh.b.asnumpy(), B)
    from msjax._core.tensor import to_array
    assert to_array(fresh.w).sharding.spec == P(None, "mp"), to_array(fresh.w).sharding

    # a Parameter placed by semi-auto parallel (MatMul's strategy cuts w's rows in 4: MindSpore's device
    # matrix (2, 4, 1), tensor map (1, -1); msjax's mesh of prime axes coalesces to the same (2, 4), (0, -1))
    from msjax import ops
    from msjax.parallel.auto_parallel import AutoParallel

    class MatMulNet(nn.Cell):
        def __init__(self, strategy=None):
            super().__init__()
            self.w = Parameter(Tensor(W.T.copy()), name="w")
            self.mm = ops.MatMul().shard(strategy) if strategy else ops.MatMul()

        def construct(self, x):
            return self.mm(x, self.w)

    net = MatMulNet(((2, 4), (4, 1)))
    x = Tensor(np.ones((8, 8), np.float32))
    AutoParallel(net, parallel_mode="semi_auto")(x)
    assert _layout_of(to_array(net.w)) == ((2, 4), (0, -1))
    net.step = Parameter(Tensor(np.array([3], np.int32)), name="step")    # on one device: repeated on all 8
    strategy = save_strategy_file(os.path.join(d, "mm.ckpt"), {"w": net.w, "step": net.step})
    assert list(ms.build_searched_strategy(strategy)["step"].dev_matrix[0].dim) == [8]
    files = []
    for r in range(8):
        files.append(os.path.join(d, f"mm{r}.ckpt"))
        ms.save_checkpoint([{"name": k, "data": Tensor(v)} for k, v in rank_checkpoint_params(net, r).items()],
                           files[-1])
    assert ms.load_checkpoint(files[5])["w"].shape == (2, 16) and ms.load_checkpoint(files[5])["step"] == 3
    alone = MatMulNet()
    alone.w.set_data(Tensor(np.zeros_like(W.T)))
    ms.load_distributed_checkpoint(alone, files, None, strategy)
    assert np.array_equal(alone.w.asnumpy(), W.T)
    print("OK")
""")


def test_sharded_parameters_give_layouts_pieces_and_load_back(tmp_path):
    env = dict(os.environ, XLA_FLAGS="--xla_force_host_platform_device_count=8", JAX_PLATFORMS="cpu")
    done = subprocess.run([sys.executable, "-c", SHARDED, str(tmp_path)], capture_output=True, text=True,
                          timeout=300, env=env)
    assert done.returncode == 0 and done.stdout.strip().endswith("OK"), done.stderr[-3000:]
