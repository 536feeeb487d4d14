"""msjax.dataset beyond the golden cases: random order semantics, parallel workers,
error reporting, the file readers on tiny files, iterator mechanics."""
import os
import struct
import threading
import time

import numpy as np
import pytest

import msjax as ms
import msjax.dataset as ds
import msjax.dataset.transforms as T
import msjax.dataset.vision as V


def _ids(dataset, **kw):
    return [int(r[0]) for r in dataset.create_tuple_iterator(output_numpy=True, **kw)]


def _slices(n=20, **kw):
    return ds.NumpySlicesDataset({"a": np.arange(n)}, **kw)


@pytest.fixture(autouse=True)
def _reset_seed():
    old = ds.config.get_seed()
    yield
    ds.config._state["seed"] = old


# ---------------------------------------------------------------------------
# shuffling and seeds
# ---------------------------------------------------------------------------
def test_default_generator_shuffles_random_access_source():
    ds.config.set_seed(1)
    order = _ids(ds.GeneratorDataset([(np.array(i),) for i in range(30)], ["a"]))
    assert sorted(order) == list(range(30)) and order != list(range(30))


def test_seed_reproduces_orders_and_epochs_differ():
    def run():
        ds.config.set_seed(7)
        d = _slices(30).shuffle(8)
        it = d.create_tuple_iterator(output_numpy=True, num_epochs=2)
        return [int(r[0]) for r in it], [int(r[0]) for r in it]
    a1, a2 = run()
    b1, b2 = run()
    assert (a1, a2) == (b1, b2)
    assert a1 != a2
    assert sorted(a1) == sorted(a2) == list(range(30))


def test_global_set_seed_seeds_the_pipeline():
    ms.set_seed(3)
    a = _ids(_slices(25, shuffle=True))
    ms.set_seed(3)
    b = _ids(_slices(25, shuffle=True))
    assert a == b and ds.config.get_seed() == 3


def test_unseeded_pipelines_differ():
    ds.config._state["seed"] = ds.config.DEFAULT_SEED
    orders = {tuple(_ids(_slices(40, shuffle=True))) for _ in range(4)}
    assert len(orders) > 1


def test_shuffle_buffer_is_local():
    """A buffer of 2 can move a row at most one place earlier than its position."""
    ds.config.set_seed(5)
    order = _ids(_slices(50, shuffle=False).shuffle(2))
    assert sorted(order) == list(range(50)) and order != list(range(50))
    assert all(order.index(i) >= i - 1 for i in range(50))


def test_random_sampler_with_replacement_distribution():
    ds.config.set_seed(11)
    d = _slices(5000, sampler=ds.RandomSampler(replacement=True))
    ids = np.asarray(_ids(d))
    counts = np.bincount(ids // 1000, minlength=5)
    assert counts.sum() == 5000 and counts.min() > 850 and len(set(ids.tolist())) < 4000
    # as in MindSpore, num_samples beyond the rows is cut to the rows
    assert len(_ids(_slices(5, sampler=ds.RandomSampler(replacement=True, num_samples=50)))) == 5


def test_weighted_sampler_follows_weights():
    ds.config.set_seed(2)
    d = _slices(4000, sampler=ds.WeightedRandomSampler([0.0, 1.0, 3.0], num_samples=4000))
    counts = np.bincount(_ids(d), minlength=3)
    assert counts[0] == 0 and counts.sum() == 4000 and 2.6 < counts[2] / counts[1] < 3.4


def test_std_engines_follow_the_cpp_standard():
    """The engines behind MindSpore's samplers and shuffle buffer: the C++ standard fixes the
    10000th output of a default-constructed std::mt19937 and std::mt19937_64."""
    from msjax.dataset import _stdrandom as std
    for engine, expected in ((std.MT19937, 4123659995), (std.MT19937_64, 9981545732273789042)):
        g = engine(5489)
        for _ in range(9999):
            g()
        assert g() == expected
    g, h = std.MT19937(3), std.MT19937(3)
    assert h.peek(700).tolist() == [g() for _ in range(700)]     # block draws see the same stream
    # n * n beyond 32 bits: one swap position per number, drawn in blocks; seed 3 has
    # rejected draws (redrawn) among the first 70000
    n = 70000
    ids = std.shuffle(list(range(n)), std.MT19937(3))
    g, ref = std.MT19937(3), list(range(n))
    for i in range(1, n):
        j = std.uniform_int(g, 0, i)
        ref[i], ref[j] = ref[j], ref[i]
    assert ids == ref and sorted(ids) == list(range(n))


def test_distributed_shuffled_shards_cover_all_rows():
    ds.config.set_seed(9)
    shards = [_ids(_slices(10, num_shards=3, shard_id=i, shuffle=True)) for i in range(3)]
    assert all(len(s) == 4 for s in shards)
    assert set().union(*shards) == set(range(10))


def test_random_transforms_reproducible():
    img = np.arange(10 * 12 * 3, dtype=np.uint8).reshape(10, 12, 3)
    ds.config.set_seed(4)
    a = [V.RandomCrop(5)(img) for _ in range(3)]
    # as in MindSpore, an eager call builds its op afresh: with a seed set every call draws alike
    assert all((x == a[0]).all() for x in a)
    ds.config.set_seed(4)
    b = [V.RandomCrop(5)(img) for _ in range(3)]
    assert all((x == y).all() for x, y in zip(a, b))

    def flips():
        d = ds.NumpySlicesDataset({"image": np.stack([img] * 60)}, shuffle=False)
        d = d.map(V.RandomHorizontalFlip(0.5), input_columns="image")
        return [bool((r[0] != img).any()) for r in d.create_tuple_iterator(output_numpy=True)]
    first = flips()
    assert 10 < sum(first) < 50 and flips() == first


# ---------------------------------------------------------------------------
# workers
# ---------------------------------------------------------------------------
class _Slow:
    def __init__(self, n, delay):
        self.n, self.delay = n, delay
        self.threads = set()

    def __getitem__(self, i):
        self.threads.add(threading.get_ident())
        time.sleep(self.delay)
        return (np.array(i),)

    def __len__(self):
        return self.n


def test_parallel_source_workers_run_concurrently_and_keep_order():
    workers = min(2, os.cpu_count() or 1)
    if workers < 2:
        pytest.skip("needs two CPUs")
    src = _Slow(16, 0.05)        # threads: the source records them (processes: test_generator_multiprocessing)
    d = ds.GeneratorDataset(src, ["a"], shuffle=False, num_parallel_workers=workers, python_multiprocessing=False)
    t = time.time()
    out = _ids(d)
    elapsed = time.time() - t
    assert out == list(range(16))
    assert len(src.threads) >= 2
    assert elapsed < 16 * 0.05 * 0.8


def test_parallel_map_keeps_order():
    workers = min(2, os.cpu_count() or 1)

    def slow(x):
        time.sleep(0.002 * (int(x) % 3))
        return x * 2
    d = _slices(30, shuffle=False).map(slow, input_columns="a", num_parallel_workers=workers)
    assert _ids(d) == [2 * i for i in range(30)]


def test_num_parallel_workers_bounds():
    with pytest.raises(ValueError, match="num_parallel_workers"):
        ds.GeneratorDataset([(1,)], ["a"], num_parallel_workers=(os.cpu_count() or 1) + 1)


# ---------------------------------------------------------------------------
# errors
# ---------------------------------------------------------------------------
def test_raising_source_names_sample_index_and_chains():
    class Src:
        def __getitem__(self, i):
            if i == 3:
                raise KeyError("broken")
            return (np.array(i),)

        def __len__(self):
            return 6
    with pytest.raises(RuntimeError, match="sample index 3") as info:
        _ids(ds.GeneratorDataset(Src(), ["a"], shuffle=False))
    assert isinstance(info.value.__cause__, KeyError)


def test_raising_generator_names_sample_index():
    def gen():
        yield (np.array(0),)
        yield (np.array(1),)
        raise ValueError("stop here")
    with pytest.raises(RuntimeError, match="sample index 2.*ValueError: stop here"):
        _ids(ds.GeneratorDataset(gen, ["a"]))


def test_raising_map_names_row():
    d = _slices(5, shuffle=False).map(lambda x: 1 // (int(x) - 2), input_columns="a")
    with pytest.raises(RuntimeError, match="row 2.*ZeroDivisionError"):
        _ids(d)


def test_iterable_source_keeps_order_with_shuffle_and_rejects_sampler():
    def gen():
        yield from ((i,) for i in range(5))
    # MindSpore 2.10 accepts shuffle=True for a source without __getitem__ and keeps its order
    d = ds.GeneratorDataset(gen, ["a"], shuffle=True)
    assert [int(r[0]) for r in d.create_tuple_iterator(output_numpy=True)] == [0, 1, 2, 3, 4]
    with pytest.raises(ValueError):
        ds.GeneratorDataset(gen, ["a"], sampler=ds.SequentialSampler())


def test_break_early_does_not_hang():
    d = _slices(2000, shuffle=False).batch(2)
    for i, _ in enumerate(d.create_tuple_iterator()):
        if i == 3:
            break
    assert _ids(_slices(3, shuffle=False)) == [0, 1, 2]


# ---------------------------------------------------------------------------
# iterators
# ---------------------------------------------------------------------------
def test_iterator_types_and_dict_columns():
    d = ds.NumpySlicesDataset({"x": np.ones((4, 2), np.float32), "y": np.arange(4)}, shuffle=False).batch(2)
    row = next(iter(d))
    assert isinstance(row, list) and all(isinstance(t, ms.Tensor) for t in row)
    assert row[0].dtype == ms.float32 and row[1].dtype == ms.int64 and row[0].shape == (2, 2)
    drow = next(d.create_dict_iterator(output_numpy=True))
    assert list(drow) == ["x", "y"] and isinstance(drow["x"], np.ndarray)
    cols = next(d.create_tuple_iterator(columns=["y"], output_numpy=True))
    assert len(cols) == 1 and cols[0].tolist() == [0, 1]


def test_generator_dataset_size_counts_generator_once_per_call():
    calls = []

    def gen():
        calls.append(1)
        for i in range(7):
            yield (np.array(i),)
    d = ds.GeneratorDataset(gen, ["a"])
    assert d.get_dataset_size() == 7
    assert d.batch(3).get_dataset_size() == 3
    assert d.batch(3, drop_remainder=True).get_dataset_size() == 2


def test_seed_003_generator_dataset_parameter_table():
    """Every parameter of the notebook's GeneratorDataset table."""
    class MyDataset:
        def __init__(self, n):
            self.data = [np.zeros((3, 4, 5), np.float32) + i for i in range(n)]
            self.label = [np.ones(1, np.int32) * i for i in range(n)]

        def __len__(self):
            return len(self.data)

        def __getitem__(self, idx):
            return self.data[idx], self.label[idx]

    src = MyDataset(12)
    d = ds.GeneratorDataset(src, column_names=["data", "label"], column_types=[ms.float32, ms.int32],
                            num_samples=6, num_parallel_workers=1, shuffle=False, num_shards=2, shard_id=1)
    labels = [int(r[1][0]) for r in d.create_tuple_iterator(output_numpy=True)]
    assert labels == [1, 3, 5, 7, 9, 11][:len(labels)] and d.get_dataset_size() == len(labels) == 6
    d = ds.GeneratorDataset(src, ["data", "label"], sampler=ds.SubsetSampler([4, 2]))
    assert [int(r[1][0]) for r in d.create_tuple_iterator(output_numpy=True)] == [4, 2]
    d = ds.GeneratorDataset(src, ["data", "label"], shuffle=True, num_samples=5)
    assert d.get_dataset_size() == 5
    batch = next(ds.GeneratorDataset(src, ["data", "label"], shuffle=False).batch(4).create_dict_iterator())
    assert batch["data"].shape == (4, 3, 4, 5) and batch["label"].shape == (4, 1)


def test_batch_sampler_and_collate_fn():
    src = [(np.array([i, i]),) for i in range(6)]
    d = ds.GeneratorDataset(src, ["a"], batch_sampler=[[0, 1], [2, 3, 4], [5]])
    assert [r[0].shape for r in d.create_tuple_iterator(output_numpy=True)] == [(2, 2), (3, 2), (1, 2)]
    d = ds.GeneratorDataset(src, ["s"], batch_sampler=[[0, 1], [2, 3]],
                            collate_fn=lambda items: (np.array(sum(int(x[0][0]) for x in items)),))
    assert _ids(d) == [1, 5]


def test_split_and_project_rename_errors():
    a, b = _slices(10, shuffle=False).split([0.7, 0.3], randomize=False)
    assert _ids(a) == list(range(7)) and _ids(b) == [7, 8, 9]
    with pytest.raises(RuntimeError):
        _slices(3).project(["nope"]).get_col_names()


# ---------------------------------------------------------------------------
# readers
# ---------------------------------------------------------------------------
def _write_idx(path, arr):
    with open(path, "wb") as f:
        f.write(struct.pack(">HBB", 0, 0x08, arr.ndim))
        f.write(struct.pack(">" + "I" * arr.ndim, *arr.shape))
        f.write(arr.astype(np.uint8).tobytes())


def test_mnist_and_fashion_mnist(tmp_path):
    rs = np.random.RandomState(0)
    imgs, labels = rs.randint(0, 256, (5, 28, 28)), rs.randint(0, 10, 5)
    _write_idx(tmp_path / "train-images-idx3-ubyte", imgs)
    _write_idx(tmp_path / "train-labels-idx1-ubyte", labels)
    for cls in (ds.MnistDataset, ds.FashionMnistDataset):
        rows = list(cls(str(tmp_path), usage="train", shuffle=False).create_dict_iterator(output_numpy=True))
        assert len(rows) == 5
        assert rows[2]["image"].shape == (28, 28, 1) and rows[2]["image"].dtype == np.uint8
        assert (rows[2]["image"][:, :, 0] == imgs[2]).all()
        assert rows[2]["label"].dtype == np.uint32 and int(rows[2]["label"]) == labels[2]
    assert ds.MnistDataset(str(tmp_path), usage="test").get_dataset_size() == 0


def test_mnist_truncated_file(tmp_path):
    _write_idx(tmp_path / "train-images-idx3-ubyte", np.zeros((3, 28, 28)))
    _write_idx(tmp_path / "train-labels-idx1-ubyte", np.zeros(3))
    with open(tmp_path / "train-images-idx3-ubyte", "r+b") as f:
        f.truncate(100)
    with pytest.raises(RuntimeError, match="truncated"):
        ds.MnistDataset(str(tmp_path)).get_dataset_size()


def test_cifar10_and_cifar100(tmp_path):
    rs = np.random.RandomState(1)
    c10 = tmp_path / "c10"
    c10.mkdir()
    recs = {}
    for name in ("data_batch_1.bin", "data_batch_2.bin", "test_batch.bin"):
        r = np.zeros((10000, 3073), np.uint8)  # MindSpore reads 10000 records per file
        r[:3] = rs.randint(0, 256, (3, 3073))
        r[:, 0] %= 10
        (c10 / name).write_bytes(r.tobytes())
        recs[name] = r
    tr = ds.Cifar10Dataset(str(c10), usage="train", shuffle=False)
    rows = list(tr.skip(9997).take(6).create_dict_iterator(output_numpy=True))
    assert tr.get_dataset_size() == 20000 and ds.Cifar10Dataset(str(c10)).get_dataset_size() == 30000
    first = recs["data_batch_1.bin"][0]
    row0 = next(tr.create_dict_iterator(output_numpy=True))
    assert (row0["image"] == first[1:].reshape(3, 32, 32).transpose(1, 2, 0)).all()
    assert row0["image"].shape == (32, 32, 3) and row0["label"].dtype == np.uint32
    assert [int(r["label"]) for r in rows][3:] == recs["data_batch_2.bin"][:3, 0].tolist()
    c100 = tmp_path / "c100"
    c100.mkdir()
    r = rs.randint(0, 100, (2, 3074)).astype(np.uint8)
    (c100 / "train.bin").write_bytes(r.tobytes())
    d = ds.Cifar100Dataset(str(c100), usage="train", shuffle=False)
    row = next(d.create_dict_iterator(output_numpy=True))
    assert d.get_col_names() == ["image", "coarse_label", "fine_label"]
    assert int(row["coarse_label"]) == r[0, 0] and int(row["fine_label"]) == r[0, 1]
    (c10 / "test_batch.bin").write_bytes(b"\x00" * 100)
    with pytest.raises(RuntimeError, match="10000 records"):
        ds.Cifar10Dataset(str(c10), usage="test").get_dataset_size()


def test_image_folder_and_fake_images(tmp_path):
    for cls, n in (("cat", 2), ("dog", 3)):
        (tmp_path / cls).mkdir()
        for i in range(n):
            (tmp_path / cls / f"{i}.jpg").write_bytes(bytes([i, 1, 2, 3]))
    d = ds.ImageFolderDataset(str(tmp_path), shuffle=False)
    rows = list(d.create_dict_iterator(output_numpy=True))
    assert [int(r["label"]) for r in rows] == [0, 0, 1, 1, 1]
    assert rows[1]["image"].tolist() == [1, 1, 2, 3] and rows[0]["label"].dtype == np.int32
    assert d.get_class_indexing() == {"cat": 0, "dog": 1} and d.num_classes() == 2
    f = ds.FakeImageDataset(num_images=4, image_size=(5, 6, 3), num_classes=3, base_seed=1, shuffle=False)
    rows = list(f.create_dict_iterator(output_numpy=True))
    again = list(f.create_dict_iterator(output_numpy=True))
    assert rows[0]["image"].shape == (5, 6, 3) and all((a["image"] == b["image"]).all() for a, b in zip(rows, again))


def test_mind_dataset_missing_file_is_a_clear_error():
    # MindDataset itself: tests/test_mindrecord.py
    with pytest.raises(ValueError, match="x.mindrecord does not exist"):
        ds.MindDataset("x.mindrecord")


def test_transforms_eager_on_tensor():
    out = T.TypeCast(ms.float32)(ms.Tensor(np.array([1, 2], np.int32)))
    assert out.dtype == np.float32
    assert V.HWC2CHW()(np.zeros((2, 3, 4), np.uint8)).shape == (4, 2, 3)


def test_uniform_int_wider_than_the_engine_is_libstdcxx():
    """A 64-bit range drawn with the 32-bit engine: the values g++'s
    std::uniform_int_distribution<unsigned long long>(0, 10**13) gives with std::mt19937(5)."""
    from msjax.dataset._stdrandom import MT19937, uniform_int
    g = MT19937(5)
    assert [uniform_int(g, 0, 10**13) for _ in range(5)] == [
        2220735088846, 8709469234877, 2067441507446, 9191141730377, 4883763593956]
