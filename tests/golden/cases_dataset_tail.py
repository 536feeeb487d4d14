"""Golden cases for the dataset long tail (issue 11): deterministic vision augmentations
on a fixed image (random ones with their ranges pinned), text and audio transforms,
Python-object columns, per_batch_map, sync_wait, iterable GeneratorDataset options
and MindRecord through MindDataset. ``ms`` is ``mindspore`` or ``msjax``; only numpy
(and Pillow, to make PNG bytes) is imported."""
import importlib
import io
import os
import tempfile

import numpy as np


def _ds(ms):
    return importlib.import_module(ms.__name__ + ".dataset")


def _v(ms):
    return importlib.import_module(ms.__name__ + ".dataset.vision")


def _t(ms):
    return importlib.import_module(ms.__name__ + ".dataset.transforms")


def _img():
    rng = np.random.default_rng(0)
    yy, xx = np.mgrid[0:12, 0:16]
    return np.stack([(xx * 15 + yy * 9) % 256, (yy * 21) % 200 + 20, rng.integers(0, 256, (12, 16))],
                    -1).astype(np.uint8)


def _low():
    return (_img() // 3 + 40).astype(np.uint8)


def _rows(d):
    return [list(r) for r in d.create_tuple_iterator(output_numpy=True)]


# ----------------------------------------------------------------- vision, deterministic
def case_invert(ms):
    return _v(ms).Invert()(_img())


def case_equalize(ms):
    return [_v(ms).Equalize()(_img()), _v(ms).Equalize()(_low())]


def case_autocontrast(ms):
    V = _v(ms)
    return [V.AutoContrast()(_low()), V.AutoContrast(cutoff=10.0)(_low()), V.AutoContrast(ignore=[40, 41])(_low())]


def case_posterize_solarize(ms):
    V = _v(ms)
    return [V.RandomPosterize((3, 3))(_img()), V.Solarize((50, 150))(_img()), V.Solarize(100)(_img())]


def case_adjust_brightness_contrast(ms):
    V = _v(ms)
    return [V.AdjustBrightness(0.8)(_img()), V.AdjustContrast(1.3)(_img()), V.AdjustContrast(0.55)(_img())]


def case_adjust_saturation_sharpness(ms):
    V = _v(ms)
    return [V.AdjustSaturation(1.9)(_img()), V.AdjustSaturation(0.3)(_img()), V.AdjustSharpness(2.0)(_img()),
            V.AdjustSharpness(0.2)(_img())]


def case_random_color_adjust_pinned(ms):
    V = _v(ms)
    return [V.RandomColorAdjust(brightness=(1.37, 1.37))(_img()), V.RandomColorAdjust(contrast=(1.7, 1.7))(_img()),
            V.RandomColorAdjust(saturation=(1.6, 1.6))(_img())]


def case_random_color_sharpness_pinned(ms):
    V = _v(ms)
    return [V.RandomColor((0.4, 0.4))(_img()), V.RandomSharpness((1.8, 1.8))(_img())]


def case_random_affine_pinned(ms):
    V = _v(ms)
    return [V.RandomAffine(degrees=0, shear=(12.0, 12.0))(_img()),
            V.RandomAffine(degrees=0, translate=(0.25, 0.25))(_img()),
            V.RandomAffine(degrees=(30, 30))(_img()), V.RandomAffine(degrees=0, shear=(0, 0, 9, 9))(_img()),
            V.RandomAffine(degrees=0, scale=(1.5, 1.5))(_img())]


def case_pad_centercrop_totensor(ms):
    V = _v(ms)
    return [V.Pad([1, 2, 3, 4], fill_value=7)(_img()), V.CenterCrop((10, 12))(_img()),
            V.ToTensor()(_img())[:, :2, :3]]


def case_decode_png(ms):
    from PIL import Image
    buf = io.BytesIO()
    Image.fromarray(_img()).save(buf, "PNG")
    return _v(ms).Decode()(np.frombuffer(buf.getvalue(), np.uint8))


def case_decode_jpeg(ms):
    from PIL import Image
    rng = np.random.default_rng(0)
    yy, xx = np.mgrid[0:24, 0:32]
    img = np.stack([(xx * 8) % 256, (yy * 10) % 256, rng.integers(0, 256, (24, 32))], -1).astype(np.uint8)
    buf = io.BytesIO()
    Image.fromarray(img).save(buf, "JPEG", quality=85)
    out = _v(ms).Decode()(np.frombuffer(buf.getvalue(), np.uint8))
    return [out.shape, out.dtype.name, int(out.astype(np.int64).sum()), out[::5, ::7]]


def case_pil_in_pil_out(ms):
    from PIL import Image
    V = _v(ms)
    img = Image.fromarray(_img())
    out = V.Pad(3)(V.CenterCrop((6, 8))(img))
    return [type(out).__name__, list(out.size), np.asarray(out)]


def case_py_transforms_util_rotate(ms):
    from PIL import Image
    util = importlib.import_module(ms.__name__ + ".dataset.vision.py_transforms_util")
    inter = _v(ms).Inter
    img = Image.fromarray(_img())
    return [np.asarray(util.rotate(img, 30, inter.BILINEAR, False, None, 7)),
            list(util.rotate(img, 90, inter.NEAREST, True, None, 0).size), util.is_pil(img),
            util.augment_error_message]


def case_equalize_bad_channels(ms):
    return _v(ms).Equalize()(np.zeros((4, 4, 2), np.uint8))


def case_random_color_adjust_bad_hue(ms):
    return _v(ms).RandomColorAdjust(hue=0.7)


# ----------------------------------------------------------------- transforms, text, audio
def case_transforms_eager(ms):
    T = _t(ms)
    return [T.Fill(0)(np.array([1, 2, 3])), T.OneHot(num_classes=5)(np.array(2)), T.Slice(slice(1, 3))(np.arange(5)),
            T.PadEnd([5], pad_value=-1)(np.arange(3)), T.Concatenate(0, np.array([9]))(np.arange(2)),
            list(T.Duplicate()(np.arange(2))), T.TypeCast(np.float16)(np.arange(3))]


def case_text_tokenize_to_number(ms):
    text = importlib.import_module(ms.__name__ + ".dataset.text")
    toks = text.UnicodeCharTokenizer()("Welcome !")
    with_off = text.UnicodeCharTokenizer(with_offsets=True)("añb")
    return [toks, list(with_off), text.ToNumber(ms.int32)(["123456", "-7"]), text.ToNumber(ms.float32)(["1.5"])]


def case_text_to_number_bad(ms):
    text = importlib.import_module(ms.__name__ + ".dataset.text")
    return text.ToNumber(ms.int8)(["300"])


def case_audio_bass_biquad(ms):
    audio = importlib.import_module(ms.__name__ + ".dataset.audio")
    t = np.arange(64, dtype=np.float32) / 16000
    wave = (np.sin(2 * np.pi * 440 * t) * 0.5).astype(np.float32)
    return [audio.BassBiquad(16000, 10.0)(wave), audio.TrebleBiquad(16000, -6.0)(wave)]


# ----------------------------------------------------------------- pipelines
def case_dict_columns(ms):
    ds = _ds(ms)

    def gen():
        for i in range(3):
            yield {"number": i, "square": i ** 2}, i

    def make():
        return ds.GeneratorDataset(gen, ["col1", "col2"], shuffle=False)

    plain = [dict(r) for r in make().create_dict_iterator(num_epochs=1, output_numpy=True)]
    batched = [dict(r) for r in make().batch(3).create_dict_iterator(num_epochs=1, output_numpy=True)]
    mapped = [dict(r) for r in make().map(lambda c: {"orig": c, "sq": c * c}, input_columns=["col2"])
              .create_dict_iterator(num_epochs=1, output_numpy=True)]
    return [plain, batched, mapped]


def case_per_batch_map_dict(ms):
    ds = _ds(ms)

    def f(col1, info):
        return {"orig": col1, "index": np.arange(3)}, {"copied": col1}

    d = ds.GeneratorDataset(lambda: iter(range(6)), ["col1"], shuffle=False)
    d = d.batch(batch_size=3, per_batch_map=f, output_columns=["col1", "col2"])
    return [d.get_dataset_size(), [dict(r) for r in d.create_dict_iterator(num_epochs=1, output_numpy=True)]]


def case_per_batch_map_row_count_error(ms):
    ds = _ds(ms)
    d = ds.GeneratorDataset(lambda: iter(range(6)), ["a"], shuffle=False)
    return _rows(d.batch(3, per_batch_map=lambda a, info: (a[:2],)))


def case_per_batch_map_changes_values(ms):
    ds = _ds(ms)
    d = ds.NumpySlicesDataset({"a": np.arange(7), "b": np.arange(7) * 10}, shuffle=False)
    d = d.batch(3, per_batch_map=lambda a, b, info: ([x * 2 for x in a], [y + info.get_batch_num() for y in b]))
    return [d.get_dataset_size(), _rows(d)]


def case_sync_wait(ms):
    ds = _ds(ms)
    state = {"k": 0}

    def update(data):
        state["k"] = data

    d = ds.NumpySlicesDataset([1, 2, 3], shuffle=False).sync_wait(condition_name="p", callback=update)
    d = d.map(operations=[lambda x: np.array(x + 100 * state["k"])])
    out = []
    it = d.create_tuple_iterator(num_epochs=2, output_numpy=True)
    step = 0
    for _ in range(2):
        for row in it:
            out.append(int(row[0]))
            step += 1
            d.sync_update(condition_name="p", data=step)
    return out


def case_sync_update_unknown(ms):
    ds = _ds(ms)
    d = ds.NumpySlicesDataset([1, 2], shuffle=False).sync_wait(condition_name="p")
    return d.sync_update(condition_name="q")


class _Iterable:
    def __iter__(self):
        return iter(range(8))


def case_generator_iterable_shuffle(ms):
    ds = _ds(ms)
    d = ds.GeneratorDataset(_Iterable(), ["a"], shuffle=True)
    d2 = ds.GeneratorDataset(_Iterable(), ["a"], shuffle=True, num_samples=3)
    return [_rows(d), d.get_dataset_size(), _rows(d2)]


def case_generator_iterable_sampler_error(ms):
    ds = _ds(ms)
    return ds.GeneratorDataset(_Iterable(), ["a"], sampler=ds.SequentialSampler())


def case_padded_batch(ms):
    ds = _ds(ms)

    def make():
        return ds.GeneratorDataset(lambda: (np.arange(i + 1, dtype=np.int32) for i in range(5)), ["x"], shuffle=False)

    return [_rows(make().padded_batch(2, pad_info={"x": ([4], -1)})), _rows(make().padded_batch(3, pad_info={}))]


def case_bucket_batch_by_length(ms):
    ds = _ds(ms)
    d = ds.GeneratorDataset(lambda: (np.arange(n, dtype=np.int32) for n in [1, 5, 2, 6, 3, 1, 7]), ["x"],
                            shuffle=False)
    d = d.bucket_batch_by_length(["x"], [3, 6], [2, 2, 2], pad_info={"x": (None, 0)})
    return _rows(d)


def case_sequence_sampler(ms):
    ds = _ds(ms)

    class Seq:
        def __getitem__(self, i):
            return [3, 0, 3, 1][i]

        def __len__(self):
            return 4

    return [str(x[0]) for x in _rows(ds.NumpySlicesDataset(list("abcd"), ["d"], sampler=Seq()))]


def case_mind_dataset_roundtrip(ms):
    ds = _ds(ms)
    mr = importlib.import_module(ms.__name__ + ".mindrecord")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "t.mindrecord")
        w = mr.FileWriter(path, shard_num=1, overwrite=True)
        w.add_schema({"file_name": {"type": "string"}, "label": {"type": "int32"},
                      "data": {"type": "int32", "shape": [-1]}}, "test_schema")
        for i in range(4):
            w.write_raw_data([{"file_name": f"{i}.jpg", "label": i, "data": np.array([i] * (i + 1), np.int32)}])
        w.commit()
        d = ds.MindDataset(path, shuffle=False)
        rows = [dict(r) for r in d.create_dict_iterator(output_numpy=True)]
        shard = _rows(ds.MindDataset(path, columns_list=["label"], shuffle=False, num_shards=3, shard_id=2))
        saved = os.path.join(tmp, "s.mindrecord")
        d.map(lambda x: x * 2, "data").save(saved)
        back = [dict(r) for r in ds.MindDataset(saved, shuffle=False).create_dict_iterator(output_numpy=True)]
        return [d.get_col_names(), rows, shard, back]


def case_decode_mindrecord_bytes(ms):
    """A MindRecord ``bytes`` field reaches map as a (1,) bytes array; Decode reads it (SSD's
    pipeline), as it reads raw ``bytes``; other arrays than 1-D are refused."""
    from PIL import Image
    ds, V = _ds(ms), _v(ms)
    mr = importlib.import_module(ms.__name__ + ".mindrecord")
    pngs = []
    for img in (_img(), _low()[:7, :5]):
        buf = io.BytesIO()
        Image.fromarray(img).save(buf, "PNG")
        pngs.append(buf.getvalue())
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "img.mindrecord")
        w = mr.FileWriter(path, shard_num=1, overwrite=True)
        w.add_schema({"img_id": {"type": "int32"}, "image": {"type": "bytes"}}, "img_schema")
        w.write_raw_data([{"img_id": i, "image": b} for i, b in enumerate(pngs)])
        w.commit()
        raw = [r[0] for r in _rows(ds.MindDataset(path, ["image"], shuffle=False))]
        decoded = _rows(ds.MindDataset(path, shuffle=False).map(V.Decode(), input_columns=["image"]))
    errors = []
    for bad in (np.zeros((2, 3), np.uint8), np.array(["abc"])):
        try:
            V.Decode()(bad)
        except TypeError as e:
            errors.append(type(e).__name__)
    def brief(a):
        return [a.shape, a.dtype.name, int(a.astype(np.int64).sum()), a[::5, ::4, 1]]
    return [[(r.dtype.kind, r.shape) for r in raw], [brief(r[0]) for r in decoded], brief(V.Decode()(pngs[1])),
            brief(V.Decode()(np.array([pngs[0]]))), errors]


# ----------------------------------------------------------------- seeded orders (MindSpore's random streams)
def _epochs(d, n=3):
    it = d.create_tuple_iterator(num_epochs=n, output_numpy=True)
    return [[int(r[0]) for r in it] for _ in range(n)]


def _seeded(ms, seed, fn):
    ds = _ds(ms)
    old = ds.config.get_seed()
    ds.config.set_seed(seed)
    try:
        return fn(ds)
    finally:
        ds.config.set_seed(old)


def case_seeded_random_samplers(ms):
    def run(ds):
        def on(sampler, n=12):
            return _epochs(ds.NumpySlicesDataset({"a": np.arange(n) * 3}, sampler=sampler))
        return [on(ds.RandomSampler()), on(ds.RandomSampler(num_samples=5), 9),
                on(ds.RandomSampler(replacement=True)), on(ds.RandomSampler(replacement=True, num_samples=30), 7),
                on(ds.SubsetRandomSampler([11, 0, 4, 7, 2, 9, 5])), on(ds.SubsetRandomSampler([3, 8, 1, 6], 3)),
                _epochs(ds.NumpySlicesDataset({"a": np.arange(13)}, shuffle=True)),
                _epochs(ds.GeneratorDataset([(np.array(i),) for i in range(7)], ["a"]), 2)]
    return _seeded(ms, 777, run)


def case_seeded_weighted_distributed_samplers(ms):
    def run(ds):
        def on(sampler, n=9):
            return _epochs(ds.NumpySlicesDataset({"a": np.arange(n)}, sampler=sampler), 2)
        return [on(ds.WeightedRandomSampler([0.2, 0.0, 1.5, 0.7, 0.1], num_samples=7)),
                on(ds.WeightedRandomSampler([0.3, 0.9, 0.4, 2.0, 0.5, 0.6], num_samples=4, replacement=False)),
                on(ds.WeightedRandomSampler([1.0, 2.0])), on(ds.DistributedSampler(4, 3)),
                on(ds.DistributedSampler(2, 0, num_samples=3), 11),
                _epochs(ds.NumpySlicesDataset({"a": np.arange(10)}, num_shards=3, shard_id=1), 2)]
    return _seeded(ms, 4242, run)


def case_distributed_sampler_default_seed(ms):
    # without a seed set, MindSpore's DistributedSampler still shuffles with 5489 + 1
    def run(ds):
        return [_epochs(ds.NumpySlicesDataset({"a": np.arange(14)}, sampler=ds.DistributedSampler(3, 2)), 2),
                _epochs(ds.NumpySlicesDataset({"a": np.arange(9)}, num_shards=2, shard_id=1), 2)]
    return _seeded(ms, 5489, run)


def case_seeded_large_shuffle(ms):
    # more than 65535 rows: std::shuffle draws one swap position per number
    def run(ds):
        d = ds.NumpySlicesDataset({"a": np.arange(70001)})
        it = d.create_tuple_iterator(num_epochs=2, output_numpy=True)
        return [[int(r[0]) for r in it][:8] for _ in range(2)]
    return _seeded(ms, 9, run)


def case_seeded_shuffle_buffer_split_concat(ms):
    def run(ds):
        def src(n, start=0, **kw):
            return ds.NumpySlicesDataset({"a": np.arange(start, start + n)}, **kw)

        def gen():
            for i in range(9):
                yield (np.array(i * 10),)
        out = [_epochs(src(11, shuffle=False).shuffle(3)), _epochs(src(6, shuffle=False).shuffle(50), 2)]
        out += [[_epochs(x, 2) for x in src(10, shuffle=False).split([0.6, 0.4])],
                [_epochs(x, 1) for x in src(8, shuffle=False).split([5, 3])],
                [_epochs(x, 1) for x in src(8, shuffle=False).map(lambda a: a + 1).split([0.5, 0.5])],
                [_epochs(x, 1) for x in ds.GeneratorDataset(gen, ["a"]).split([4, 5])],
                _epochs(src(4).concat(src(3, 100)), 1), _epochs(src(5).zip(ds.NumpySlicesDataset(
                    {"b": np.arange(5)})).project(["a"]), 1)]
        return out
    return _seeded(ms, 31, run)


def case_seeded_pk_sampler(ms):
    import struct

    def run(ds):
        with tempfile.TemporaryDirectory() as tmp:
            n = 30
            labels = np.array([(i * 5) % 4 for i in range(n)], np.uint8)
            imgs = np.zeros((n, 28, 28), np.uint8)
            imgs[:, 0, 0] = np.arange(n)
            with open(os.path.join(tmp, "train-images-idx3-ubyte"), "wb") as f:
                f.write(struct.pack(">IIII", 2051, n, 28, 28) + imgs.tobytes())
            with open(os.path.join(tmp, "train-labels-idx1-ubyte"), "wb") as f:
                f.write(struct.pack(">II", 2049, n) + labels.tobytes())

            def on(sampler):
                d = ds.MnistDataset(tmp, usage="train", sampler=sampler)
                it = d.create_tuple_iterator(num_epochs=2, output_numpy=True)
                return [[(int(r[0][0, 0, 0]), int(r[1])) for r in it] for _ in range(2)]
            return [on(ds.PKSampler(3)), on(ds.PKSampler(2, shuffle=True)), on(ds.PKSampler(2, num_samples=5)),
                    on(ds.RandomSampler(replacement=True, num_samples=6))]
    return _seeded(ms, 2024, run)


def case_pk_sampler_generator_error(ms):
    ds = _ds(ms)
    return ds.NumpySlicesDataset({"a": np.arange(4)}, sampler=ds.PKSampler(2))


def case_weighted_sampler_too_many_weights(ms):
    ds = _ds(ms)
    return _rows(ds.NumpySlicesDataset({"a": np.arange(3)}, sampler=ds.WeightedRandomSampler([1.0] * 5)))


# ----------------------------------------------------------------- numpy output, PIL resize
def case_int64_numpy_output_repr(ms):
    ds = _ds(ms)

    def gen():
        for i in range(2):
            yield {"k": i, "v": np.array([i, 2 * i])}, i, np.array(i, np.uint64), np.array(i + 0.5)

    def make():
        return ds.GeneratorDataset(gen, ["d", "i", "u", "f"], shuffle=False)
    rows = [repr(dict(r)) for r in make().create_dict_iterator(num_epochs=1, output_numpy=True)]
    rows += [repr(dict(r)) for r in make().batch(2).create_dict_iterator(num_epochs=1, output_numpy=True)]
    slices = [repr(r) for r in ds.NumpySlicesDataset({"a": np.arange(3)}, shuffle=False)
              .create_tuple_iterator(num_epochs=1, output_numpy=True)]
    return rows + slices


def case_pil_resize(ms):
    from PIL import Image
    V = _v(ms)
    rng = np.random.default_rng(5)
    wide = Image.fromarray(rng.integers(0, 256, (20, 33, 3), dtype=np.uint8))
    tall = Image.fromarray(rng.integers(0, 256, (31, 14), dtype=np.uint8))
    outs = [V.Resize(13)(wide), V.Resize((9, 25))(wide), V.Resize(8, V.Inter.NEAREST)(tall),
            V.Resize(18, V.Inter.BICUBIC)(tall), V.Resize((12, 12), V.Inter.ANTIALIAS)(wide), V.Resize(14)(tall)]
    return [[type(o).__name__, list(o.size), np.asarray(o)] for o in outs]


def case_pil_resize_area_error(ms):
    from PIL import Image
    V = _v(ms)
    return V.Resize(5, V.Inter.AREA)(Image.fromarray(np.zeros((8, 8, 3), np.uint8)))


def all_cases():
    return {k[len("case_"):]: v for k, v in sorted(globals().items()) if k.startswith("case_") and callable(v)}


def case_python_sampler_passes(ms):
    """A sampler whose ``__iter__`` reseeds each pass (DeepSpeech2's): MindSpore calls ``__iter__``
    twice while building a GeneratorDataset from a plain iterable and not in get_dataset_size when
    ``__len__`` gives the count, so the epochs' orders are those of the 3rd and 4th passes."""
    ds = ms.dataset
    out = []
    for base in (object, ds.Sampler):
        class Reseeding(base):
            def __init__(self):
                if base is not object:
                    super().__init__()
                self.passes = 0

            def __iter__(self):
                self.passes += 1
                return iter(np.random.RandomState(self.passes).permutation(6).tolist())

            def __len__(self):
                return 6
        s = Reseeding()
        d = ds.GeneratorDataset([(np.array([i]),) for i in range(6)], ["x"], sampler=s)
        built = s.passes
        size = d.get_dataset_size()
        sized = s.passes
        it = d.create_tuple_iterator(num_epochs=2, output_numpy=True)
        epochs = [[int(x[0][0]) for x in it] for _ in range(2)]
        out.append([built, size, sized, epochs])
    return out
