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


# ----------------------------------------------------------------- numpy output
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


def all_cases():
    return {k[len("case_"):]: v for k, v in sorted(globals().items()) if k.startswith("case_") and callable(v)}
