"""Issue 24's golden cases for the random draws of the remaining random transforms (colour
adjustments, rotations, affine warps, CutOut, the policy and selection operations, the batch
mixers, the random operations on PIL images), under ``set_seed``: each operation in a ``map`` over small synthetic images with 1
and 2 workers over 2 epochs, and called eagerly. ``ms`` is ``mindspore`` or ``msjax``; only
numpy and hashlib are imported, so MindSpore 2.10 records (``record_random_draws.py``) and
msjax replays (``tests/test_random_draws_more.py``) the same cases. Each output row is
summarised by the first 16 hex digits of its SHA-256 (bit for bit)."""
import hashlib
import importlib

import numpy as np

from random_draws_pipelines import _mix

N_ROWS = 10


def images(n=N_ROWS, h=12, w=16, salt=5):
    """``n`` RGB uint8 images: noise over gradients, different in every row."""
    yy, xx = np.mgrid[0:h, 0:w]
    noise = _mix(n * h * w * 3, salt).reshape(n, h, w, 3) // 3
    ramp = (yy * 9 + xx * 5)[None, ..., None] + np.arange(n)[:, None, None, None] * 17 + np.arange(3) * 40
    return ((noise + ramp) % 256).astype(np.uint8)


def _digest(a):
    a = np.ascontiguousarray(a)
    return hashlib.sha256(str(a.dtype).encode() + str(a.shape).encode() + a.tobytes()).hexdigest()[:16]


def op_lists(ms):
    """name -> a function making the operations of the case (fresh objects for every run)."""
    V = importlib.import_module(ms.__name__ + ".dataset.vision")
    T = importlib.import_module(ms.__name__ + ".dataset.transforms")
    Inter = V.Inter
    return {
        # 1. the colour and geometry operations
        "color_adjust_bcs": lambda: [V.RandomColorAdjust(0.4, 0.4, 0.4)],
        "color_adjust_all": lambda: [V.RandomColorAdjust((0.5, 1.5), (0.6, 1.4), (0.7, 1.3), (-0.2, 0.2))],
        "color_adjust_brightness": lambda: [V.RandomColorAdjust(brightness=(0.3, 1.7))],
        "color_adjust_contrast_hue": lambda: [V.RandomColorAdjust(contrast=(0.5, 1.5), hue=0.1)],
        "rotation": lambda: [V.RandomRotation(30)],
        "rotation_range_expand": lambda: [V.RandomRotation((10, 350), Inter.BILINEAR, expand=True, fill_value=(9, 99, 199))],
        "cutout": lambda: [V.CutOut(4, num_patches=3)],
        "cutout_chw": lambda: [V.HWC2CHW(), V.CutOut(5, num_patches=2, is_hwc=False)],
        "random_color": lambda: [V.RandomColor((0.1, 1.9))],
        "random_sharpness": lambda: [V.RandomSharpness((0.1, 1.9))],
        "random_posterize": lambda: [V.RandomPosterize((1, 8))],
        "random_solarize": lambda: [V.RandomSolarize((0, 255))],
        "random_affine": lambda: [V.RandomAffine(15, translate=(-0.1, 0.2), scale=(0.8, 1.2), shear=10)],
        "random_affine_degrees": lambda: [V.RandomAffine((-30, 30), resample=Inter.BILINEAR)],
        "random_affine_shear4": lambda: [V.RandomAffine(0, translate=(0.1, 0.2, -0.3, 0.1), shear=(-5, 5, 2, 8))],
        "chain": lambda: [V.RandomColorAdjust(0.4, 0.4, 0.4), V.RandomRotation(20), V.CutOut(3),
                          V.RandomPosterize((4, 8))],
        # 2. policies and random selection
        "auto_augment_imagenet": lambda: [V.AutoAugment()],
        "auto_augment_cifar10": lambda: [V.AutoAugment(V.AutoAugmentPolicy.CIFAR10)],
        "auto_augment_svhn": lambda: [V.AutoAugment(V.AutoAugmentPolicy.SVHN, Inter.BILINEAR, 7)],
        "auto_augment_imagenet_fill": lambda: [V.AutoAugment(V.AutoAugmentPolicy.IMAGENET, Inter.BILINEAR,
                                                             (10, 100, 200))],
        "rand_augment": lambda: [V.RandAugment()],
        "rand_augment_fill": lambda: [V.RandAugment(3, 20, fill_value=(10, 100, 200))],
        "rand_augment_args": lambda: [V.RandAugment(num_ops=3, magnitude=5, num_magnitude_bins=11)],
        "select_subpolicy": lambda: [V.RandomSelectSubpolicy([
            [(V.RandomRotation(30), 0.5), (V.RandomColor(), 0.8)],
            [(V.RandomCrop(8), 0.6), (V.Resize((12, 16)), 1.0)],
            [(V.RandomPosterize((2, 6)), 0.7), (V.RandomSolarize((50, 200)), 0.4)]])],
        "random_apply": lambda: [T.RandomApply([V.RandomCrop(8), V.RandomHorizontalFlip(), V.Resize((12, 16))], 0.5)],
        "random_choice": lambda: [T.RandomChoice([V.RandomCrop((12, 16), padding=2), V.RandomVerticalFlip(),
                                                   V.Invert(), V.RandomPosterize((1, 3))])],
        "random_order": lambda: [T.RandomOrder([V.RandomCrop((12, 16), padding=2), V.Invert(),
                                                V.RandomRotation(40)])],
    }


def pil_op_lists(ms):
    """name -> the operations of a case on PIL images (``ToPIL`` first): MindSpore 2.10 runs the
    random operations' Python implementations there, drawing from Python's ``random``."""
    V = importlib.import_module(ms.__name__ + ".dataset.vision")
    Inter = V.Inter
    return {
        "pil_hflip": lambda: [V.ToPIL(), V.RandomHorizontalFlip()],
        "pil_vflip": lambda: [V.ToPIL(), V.RandomVerticalFlip(0.3)],
        "pil_crop": lambda: [V.ToPIL(), V.RandomCrop(8, padding=2)],
        "pil_crop_pad_if_needed": lambda: [V.ToPIL(), V.RandomCrop((14, 9), pad_if_needed=True, fill_value=7,
                                                                   padding_mode=V.Border.EDGE)],
        "pil_resized_crop": lambda: [V.ToPIL(), V.RandomResizedCrop((8, 10))],
        "pil_resized_crop_args": lambda: [V.ToPIL(), V.RandomResizedCrop(9, (0.5, 0.9), (0.5, 2.0), Inter.NEAREST,
                                                                         3)],
        "pil_rotation": lambda: [V.ToPIL(), V.RandomRotation(30, Inter.BILINEAR)],
        "pil_rotation_expand": lambda: [V.ToPIL(), V.RandomRotation((10, 80), expand=True, fill_value=(9, 99, 199))],
        "pil_color_adjust": lambda: [V.ToPIL(), V.RandomColorAdjust(0.4, 0.4, 0.4, 0.1)],
        "pil_color_adjust_hue": lambda: [V.ToPIL(), V.RandomColorAdjust(hue=(-0.5, 0.3))],
        "pil_random_color": lambda: [V.ToPIL(), V.RandomColor((0.1, 1.9))],
        "pil_random_sharpness": lambda: [V.ToPIL(), V.RandomSharpness((0.2, 1.8))],
        "pil_chain": lambda: [V.ToPIL(), V.RandomHorizontalFlip(), V.RandomCrop(10, padding=1),
                              V.RandomColorAdjust(0.3, 0.3, 0.3, 0.05), V.RandomRotation(15)],
    }


# Python-implemented in MindSpore (Python's ``random``, shared by the map's worker threads:
# their draws depend on thread scheduling with several workers), recorded with one worker
PYTHON_OPS = {"random_order"}


def _rows(ms, ops, workers, epochs, imgs):
    ds = importlib.import_module(ms.__name__ + ".dataset")
    d = ds.NumpySlicesDataset({"image": imgs}, shuffle=False)
    d = d.map(ops, input_columns="image", num_parallel_workers=workers)
    it = d.create_tuple_iterator(output_numpy=True, num_epochs=epochs)
    return [[_digest(r[0]) for r in it] for _ in range(epochs)]


def _batches(ms, op, workers, epochs, layout="u8"):
    """A batch mixer after ``batch(4)``: images and one-hot labels of 10 classes; ``layout``
    "u8" (uint8 HWC, float labels), "f32_chw" (float32 CHW images, int32 labels)."""
    ds = importlib.import_module(ms.__name__ + ".dataset")
    imgs = images(12)
    labels = np.eye(10, dtype=np.float32)[np.arange(12) * 7 % 10]
    if layout == "f32_chw":
        imgs = imgs.transpose(0, 3, 1, 2).astype(np.float32) * np.float32(0.37)
        labels = labels.astype(np.int32)
    d = ds.NumpySlicesDataset({"image": imgs, "label": labels}, shuffle=False).batch(4)
    d = d.map([op], input_columns=["image", "label"], num_parallel_workers=workers)
    it = d.create_tuple_iterator(output_numpy=True, num_epochs=epochs)
    return [[[_digest(r[0]), _digest(r[1])] for r in it] for _ in range(epochs)]


def _mixers(ms):
    V = importlib.import_module(ms.__name__ + ".dataset.vision")
    return {"mixup_batch": lambda: V.MixUpBatch(),
            "mixup_batch_alpha": lambda: V.MixUpBatch(0.4),
            "cutmix_batch": lambda: V.CutMixBatch(V.ImageBatchFormat.NHWC),
            "cutmix_batch_args": lambda: V.CutMixBatch(V.ImageBatchFormat.NHWC, 2.0, 0.6),
            "mixup_batch_f32_chw": lambda: V.MixUpBatch(0.3),
            "cutmix_batch_f32_chw": lambda: V.CutMixBatch(V.ImageBatchFormat.NCHW, 0.5, 0.8)}


def op_cases(ms, workers=(1, 2), epochs=2, names=None):
    """name -> {"w1": [epoch rows], "w2": ..., and for one operation on images "eager": [calls
    on two images]}."""
    imgs = images()
    makers = dict(op_lists(ms), **pil_op_lists(ms))
    runs = {name: (make, lambda ops, w: _rows(ms, ops, w, epochs, imgs)) for name, make in makers.items()}
    runs.update({name: (make, lambda op, w, layout=("f32_chw" if name.endswith("f32_chw") else "u8"):
                        _batches(ms, op, w, epochs, layout)) for name, make in _mixers(ms).items()})
    out = {}
    for name, (make, run) in runs.items():
        if names is not None and name not in names:
            continue
        case = {}
        for w in ((1,) if name in PYTHON_OPS or name.startswith("pil_") else workers):
            ms.set_seed(1)
            case[f"w{w}"] = run(make(), w)
        ms.set_seed(3)
        ops = make()
        if isinstance(ops, list) and len(ops) == 1:
            case["eager"] = [_digest(ops[0](imgs[0])), _digest(ops[0](imgs[1]))]
        elif name.startswith("pil_") and len(ops) == 2:      # [ToPIL(), op]: the op on PIL images
            case["eager"] = [_digest(np.asarray(ops[1](ops[0](imgs[k])))) for k in range(3)]
        out[name] = case
    return out
