"""Random vision augmentations by their distributions and invariants (the pinned-range forms
are checked against MindSpore 2.10 in the golden suite ``dataset_tail``)."""
import numpy as np
import pytest

import msjax.dataset as ds
from msjax.dataset import transforms as T
from msjax.dataset import vision as V
from msjax.dataset.vision import augment as A


def _img(seed=0, h=16, w=20):
    return np.random.default_rng(seed).integers(0, 256, (h, w, 3), dtype=np.uint8)


def _eager(op, *args, n, first_seed=0):
    """``op(*args)`` under ``n`` seeds: an eager call draws from a fresh engine seeded with the
    dataset seed (MindSpore's), so the same seed gives the same draw every call."""
    out = []
    for k in range(n):
        ds.config.set_seed(first_seed + k)
        out.append(op(*args))
    return out


def test_random_color_adjust_draws_inside_its_range():
    ds.config.set_seed(3)
    img = _img()
    lo, hi = A.adjust_brightness(img, 0.5), A.adjust_brightness(img, 1.5)
    outs = _eager(V.RandomColorAdjust(brightness=0.5), img, n=200)
    for o in outs:
        assert np.all(o >= lo) and np.all(o <= hi)
    means = np.array([o.mean() for o in outs])
    # factor ~ U(0.5, 1.5): the mean brightness spreads over most of [lo.mean(), hi.mean()]
    assert means.min() < lo.mean() + 0.15 * (hi.mean() - lo.mean())
    assert means.max() > hi.mean() - 0.25 * (hi.mean() - lo.mean())
    assert np.array_equal(V.RandomColorAdjust()(img), img)       # identity ranges are skipped


def test_random_posterize_solarize_ranges():
    ds.config.set_seed(4)
    img = _img()
    seen = {int(np.unpackbits(o.reshape(-1, 1), axis=1)[:, -(8 - 2):].any(0).sum())
            for o in _eager(V.RandomPosterize((2, 4)), img, n=60)}
    assert len(seen) >= 2
    for _ in range(30):
        out = V.RandomSolarize((100, 100))(img)
        np.testing.assert_array_equal(out, A.solarize(img, 100, 100))


def test_cutout_patches():
    ds.config.set_seed(5)
    img = np.full((20, 24, 3), 7, np.uint8)
    areas = []
    for out in _eager(V.CutOut(6), img, n=300):
        zero = (out == 0).all(axis=2)
        assert set(np.unique(out)) <= {0, 7}
        rows, cols = np.nonzero(zero)
        if len(rows):
            assert rows.max() - rows.min() < 6 and cols.max() - cols.min() < 6
        areas.append(zero.sum())
    areas = np.array(areas)
    assert areas.max() == 36 and (areas < 36).any()     # patches may hang over the border
    chw = V.CutOut(4, num_patches=3, is_hwc=False)(np.full((3, 10, 10), 9, np.uint8))
    assert (chw == 0).all(axis=0).sum() > 0
    with pytest.raises(RuntimeError, match="box size is too large"):
        V.CutOut(30)(img)


def test_mixup_batch_mixes_images_and_labels_alike():
    ds.config.set_seed(6)
    imgs = np.stack([np.full((4, 4, 3), 10 * i, np.float32) for i in range(6)])
    labels = np.eye(6, dtype=np.float32)
    lams = []
    for seed in range(200):        # an eager call draws from a fresh engine seeded GetSeed(): vary the seed
        ds.config.set_seed(seed)
        out, lab = V.MixUpBatch(alpha=0.5)(imgs, labels)
        np.testing.assert_allclose(lab.sum(1), 1, rtol=1e-6)
        # each image is lam*own + (1-lam)*other, as its label says
        np.testing.assert_allclose(out[:, 0, 0, 0], lab @ (10 * np.arange(6, dtype=np.float32)), rtol=1e-5,
                                   atol=1e-4)
        lams.append(lab[0, 0] if lab[0, 0] > 0 else np.nan)
    lams = np.array(lams)
    lams = lams[~np.isnan(lams)]
    # Beta(0.5, 0.5) is U-shaped: many draws near 0 or 1
    assert ((lams < 0.15) | (lams > 0.85)).mean() > 0.3


def test_cutmix_batch_label_is_pasted_area():
    ds.config.set_seed(7)
    imgs = np.stack([np.full((3, 8, 8), i, np.uint8) for i in range(5)])      # NCHW
    labels = np.eye(5, dtype=np.float32)
    out, lab = V.CutMixBatch(V.ImageBatchFormat.NCHW, alpha=1.0, prob=1.0)(imgs, labels)
    for i in range(5):
        own = (out[i, 0] == i).mean()
        assert lab[i, i] == pytest.approx(own) or lab[i].max() == 1.0
        np.testing.assert_allclose(lab[i].sum(), 1, rtol=1e-6)
    same, _ = V.CutMixBatch(V.ImageBatchFormat.NHWC, prob=0.0)(imgs.transpose(0, 2, 3, 1), labels)
    np.testing.assert_array_equal(same, imgs.transpose(0, 2, 3, 1))


def test_random_select_subpolicy_probabilities():
    ds.config.set_seed(8)
    img = _img()
    policy = [[(V.Invert(), 1.0)], [(V.Equalize(), 0.0), (V.Posterize(1), 0.5)]]
    inv, post, same = A.posterize(img, 8), A.posterize(img, 1), 0
    counts = {"invert": 0, "post": 0, "same": 0}
    for out in _eager(V.RandomSelectSubpolicy(policy), img, n=400):
        if np.array_equal(out, 255 - img):
            counts["invert"] += 1
        elif np.array_equal(out, post):
            counts["post"] += 1
        else:
            assert np.array_equal(out, inv)
            counts["same"] += 1
    assert 150 < counts["invert"] < 250 and 60 < counts["post"] < 140 and 60 < counts["same"] < 140


def test_random_apply_choice_in_a_pipeline():
    ds.config.set_seed(9)
    data = np.stack([_img(i) for i in range(40)])
    d = ds.NumpySlicesDataset({"image": data}, shuffle=False)
    d = d.map(T.RandomChoice([V.Invert(), V.Equalize()]), "image")
    d = d.map(T.RandomApply([V.RandomColorAdjust(contrast=(0.5, 0.5))], prob=0.5), "image")
    kinds = set()
    for src, (out,) in zip(data, d.create_tuple_iterator(output_numpy=True)):
        cands = {"inv": 255 - src, "eq": A.equalize(src)}
        for name, c in list(cands.items()):
            cands[name + "+c"] = A.adjust_contrast(c, 0.5)
        match = [k for k, c in cands.items() if np.array_equal(out, c)]
        assert match
        kinds.update(match)
    assert {"inv", "eq", "inv+c", "eq+c"} <= kinds


def test_pil_in_pil_out():
    from PIL import Image
    img = Image.fromarray(_img())
    out = V.RandomColorAdjust(brightness=(1.2, 1.2))(V.Resize((10, 12))(img))
    assert isinstance(out, Image.Image) and out.size == (12, 10)
    assert isinstance(V.Normalize([0, 0, 0], [1, 1, 1])(_img()), np.ndarray)


def test_rand_augment_one_op_is_one_of_its_operations():
    ds.config.set_seed(10)
    img = _img(3, 24, 28)
    H, W = img.shape[:2]
    cands = []
    for name in V.RandAugment._OPS:
        mags, signed = A._magnitudes(name, 31, H, W)
        for sign in ((1, -1) if signed else (1,)):
            mag = sign * mags[9] if len(mags) > 1 else mags[0]
            cands.append(A._apply_named(img, name, mag, V.Inter.NEAREST, (0, 0, 0), (0, 0, 0)))
    hit = set()
    for out in _eager(V.RandAugment(num_ops=1), img, n=120):
        match = [i for i, c in enumerate(cands) if np.array_equal(out, c)]
        assert match
        hit.add(match[0])
    assert len(hit) >= 10
    with pytest.raises(ValueError, match="magnitude"):
        V.RandAugment(magnitude=31)


def test_auto_augment_applies_a_policy_pair():
    ds.config.set_seed(11)
    img = _img(4, 24, 28)
    changed = sum(not np.array_equal(out, img) for out in _eager(V.AutoAugment(V.AutoAugmentPolicy.IMAGENET), img, n=60))
    assert 30 < changed < 60     # some pairs apply nothing (probabilities < 1)
    with pytest.raises(TypeError, match="AutoAugmentPolicy"):
        V.AutoAugment("imagenet")


def test_slice_patches_as_mindspore():
    """SlicePatches (MindSpore's dataset_slice sample): values recorded with MindSpore 2.10."""
    from msjax.dataset import vision as v
    x = np.arange(30, dtype=np.uint8).reshape(5, 6)
    out = v.SlicePatches(2, 4, fill_value=9)(x)        # PAD: bottom/right, row by row
    assert len(out) == 8 and all(o.shape == (3, 2) for o in out)
    np.testing.assert_array_equal(out[2], [[4, 5], [10, 11], [16, 17]])
    np.testing.assert_array_equal(out[5], [[20, 21], [26, 27], [9, 9]])
    assert [o.shape for o in v.SlicePatches(2, 4, v.SliceMode.DROP)(np.zeros((5, 6, 3)))] == [(2, 1, 3)] * 8
    chw = np.arange(28 * 28, dtype=np.float32).reshape(1, 28, 28)   # taken for HWC, as MindSpore
    out = v.SlicePatches(1, 4)(chw)
    assert [o.shape for o in out] == [(1, 7, 28)] * 4 and out[1][0, 0, 0] == 196
    assert isinstance(v.SlicePatches()(x), np.ndarray)
    with pytest.raises(ValueError, match="num_height is not within"):
        v.SlicePatches(0, 1)
    with pytest.raises(TypeError, match="slice_mode"):
        v.SlicePatches(1, 1, "pad")
    with pytest.raises(ValueError, match="fill_value"):
        v.SlicePatches(1, 1, fill_value=256)
    with pytest.raises(RuntimeError, match="rank: 4"):
        v.SlicePatches(2, 2)(np.zeros((2, 2, 2, 2)))
