"""Issue 24's golden pipelines for the random draws: the model zoo's ResNet18 CIFAR-10
training pipeline (``official/cv/ResNet/src/dataset.py``: ``create_dataset1``) and an
ImageNet-style one (``create_dataset2`` with ``RandomResizedCrop`` after ``Decode``),
under ``set_seed(1)``, over synthetic files written here. ``ms`` is ``mindspore`` or
``msjax``; only numpy, hashlib and Pillow are imported, so MindSpore 2.10 records
(``record_random_draws.py``) and msjax replays (``tests/test_random_draws.py``) the
same files. Batches are summarised by the SHA-256 of their bytes and a few values."""
import hashlib
import importlib
import io
import os

import numpy as np

N_CIFAR = 10000        # MindSpore reads CIFAR-10 files of exactly 10000 records
WORKERS = 2            # the zoo's get_num_parallel_workers(8) on a 2-core machine


def _mix(n, salt):
    """``n`` pseudo-random bytes from integer arithmetic (identical in every numpy)."""
    x = (np.arange(n, dtype=np.uint64) + np.uint64(salt)) * np.uint64(0x9E3779B97F4A7C15)
    x ^= x >> np.uint64(29)
    x *= np.uint64(0xBF58476D1CE4E5B9)
    x ^= x >> np.uint64(32)
    return (x & np.uint64(0xFF)).astype(np.uint8)


def write_cifar10(root):
    """``root/data_batch_1.bin``: 10000 records of a label byte and a 32x32x3 CHW image."""
    os.makedirs(root, exist_ok=True)
    # noise of 101 records repeated, each record shifted by its index, over smooth gradients
    # (crops and flips change the pixels a lot)
    rec = np.resize(_mix(101 * 3073, 1).reshape(101, 3073), (N_CIFAR, 3073))
    idx = np.arange(N_CIFAR, dtype=np.uint16)
    rec[:, 0] = (rec[:, 0].astype(np.uint16) + idx) % 10
    yy, xx = np.mgrid[0:32, 0:32]
    ramp = ((yy * 5 + xx * 3) % 256).astype(np.uint16)
    pix = rec[:, 1:].reshape(N_CIFAR, 3, 32, 32) // 4 + ramp + (idx * 7)[:, None, None, None]
    rec[:, 1:] = (pix % 256).astype(np.uint8).reshape(N_CIFAR, 3072)
    rec.tofile(os.path.join(root, "data_batch_1.bin"))
    return root


def write_image_folder(root, classes=3, per_class=8):
    """``root/class_k/img_j.png``: lossless images of assorted sizes (36..99 pixels a side),
    so that every decoder gives the same pixels."""
    from PIL import Image
    for k in range(classes):
        os.makedirs(os.path.join(root, f"class_{k}"), exist_ok=True)
        for j in range(per_class):
            salt = 1000 * k + j
            h, w = 36 + int(_mix(1, salt)[0]) % 64, 36 + int(_mix(1, salt + 500)[0]) % 64
            img = _mix(h * w * 3, salt * 7919).reshape(h, w, 3) // 2
            yy, xx = np.mgrid[0:h, 0:w]
            img = (img + ((yy * 3 + xx * 2 + salt)[..., None] % 128)).astype(np.uint8)
            buf = io.BytesIO()
            Image.fromarray(img).save(buf, format="PNG")
            with open(os.path.join(root, f"class_{k}", f"img_{j}.png"), "wb") as f:
                f.write(buf.getvalue())
    return root


def cifar10_resnet18(ms, path, batch_size=32, image_size=224, workers=WORKERS):
    """``create_dataset1(path, do_train=True, batch_size, train_image_size=image_size)`` of
    the zoo's ResNet, one device, ``get_num_parallel_workers`` giving ``workers``."""
    ds = importlib.import_module(ms.__name__ + ".dataset")
    data_set = ds.Cifar10Dataset(path, num_parallel_workers=workers, shuffle=True)
    trans = [
        ds.vision.RandomCrop((32, 32), (4, 4, 4, 4)),
        ds.vision.RandomHorizontalFlip(prob=0.5),
        ds.vision.Resize((image_size, image_size)),
        ds.vision.Rescale(1.0 / 255.0, 0.0),
        ds.vision.Normalize([0.4914, 0.4822, 0.4465], [0.2023, 0.1994, 0.2010]),
        ds.vision.HWC2CHW(),
    ]
    type_cast_op = ds.transforms.transforms.TypeCast(ms.int32)
    data_set = data_set.map(operations=type_cast_op, input_columns="label", num_parallel_workers=workers)
    data_set = data_set.map(operations=trans, input_columns="image", num_parallel_workers=workers)
    return data_set.batch(batch_size, drop_remainder=True)


def imagenet_style(ms, path, batch_size=4, image_size=64, workers=WORKERS, decode_crop=False):
    """``create_dataset2``'s training pipeline (one device): ``Decode`` +
    ``RandomResizedCrop`` (or the zoo's own ``RandomCropDecodeResize`` with
    ``decode_crop``), ``RandomHorizontalFlip``, then ``Normalize`` and ``HWC2CHW`` in a
    second map, the label cast, and the batch."""
    ds = importlib.import_module(ms.__name__ + ".dataset")
    data_set = ds.ImageFolderDataset(path, num_parallel_workers=workers, shuffle=True)
    mean = [0.485 * 255, 0.456 * 255, 0.406 * 255]
    std = [0.229 * 255, 0.224 * 255, 0.225 * 255]
    if decode_crop:
        trans = [ds.vision.RandomCropDecodeResize(image_size, scale=(0.08, 1.0), ratio=(0.75, 1.333))]
    else:
        trans = [ds.vision.Decode(), ds.vision.RandomResizedCrop(image_size, scale=(0.08, 1.0), ratio=(0.75, 1.333))]
    trans.append(ds.vision.RandomHorizontalFlip(prob=0.5))
    trans_norm = [ds.vision.Normalize(mean=mean, std=std), ds.vision.HWC2CHW()]
    type_cast_op = ds.transforms.transforms.TypeCast(ms.int32)
    data_set = data_set.map(operations=trans, input_columns="image", num_parallel_workers=workers)
    data_set = data_set.map(operations=trans_norm, input_columns="image", num_parallel_workers=workers)
    data_set = data_set.map(operations=type_cast_op, input_columns="label", num_parallel_workers=workers)
    return data_set.batch(batch_size, drop_remainder=True)


def summary(data_set, batches=3, epochs=1):
    """The first ``batches`` batches of each epoch: per column its dtype, shape, SHA-256 and
    its first values (exact floats)."""
    it = data_set.create_tuple_iterator(output_numpy=True, num_epochs=epochs)
    out = []
    for e in range(epochs):
        for b, row in enumerate(it):
            if b < batches:
                out.append([{"dtype": str(a.dtype), "shape": list(a.shape),
                             "sha256": hashlib.sha256(np.ascontiguousarray(a).tobytes()).hexdigest(),
                             "head": [float(v) for v in a.reshape(-1)[:4]]} for a in row])
            if e == epochs - 1 and b + 1 >= batches:
                break                      # the last epoch need not run to its end
    return out


def _offsets(rows):
    """(top, left) of each crop of a 10x10 image whose pixel (y, x) is 10 * y + x."""
    return [[int(r[0, 0, 0]) // 10, int(r[0, 0, 0]) % 10] for r in rows]


def _boxes(rows):
    """(top, left, height, width) of each crop of an image whose channels 0 and 1 hold the
    row and column (nearest-neighbour resizing keeps them)."""
    return [[int(r[..., 0].min()), int(r[..., 1].min()), int(r[..., 0].max()) - int(r[..., 0].min()) + 1,
             int(r[..., 1].max()) - int(r[..., 1].min()) + 1] for r in rows]


def _draws(ms, images, ops, workers, epochs, read):
    ds = importlib.import_module(ms.__name__ + ".dataset")
    d = ds.NumpySlicesDataset({"image": images}, shuffle=False)
    d = d.map(ops, input_columns="image", num_parallel_workers=workers)
    it = d.create_tuple_iterator(output_numpy=True, num_epochs=epochs)
    return [read([r[0] for r in it]) for _ in range(epochs)]


def draw_cases(ms, workers=(1, 2, 3, 8)):
    """The random parameters themselves, read off the outputs: crop offsets over 13 rows and
    3 epochs per worker count, flip coins, RandomResizedCrop boxes (the fallback box too)
    and eager calls."""
    V = importlib.import_module(ms.__name__ + ".dataset.vision")
    grid = np.stack([np.arange(100, dtype=np.uint8).reshape(10, 10, 1)] * 13)
    H, W = 41, 50
    pos = np.zeros((H, W, 3), np.uint8)
    pos[..., 0], pos[..., 1] = np.arange(H)[:, None], np.arange(W)[None, :]
    pos = np.stack([pos] * 10)
    flips = lambda rows: " ".join(f"{int(r[0, 0, 0] % 10 == 9)}{int(r[0, 0, 0] // 10 == 9)}"  # noqa: E731
                                  for r in rows)                  # (horizontal, vertical) per row
    out = {}
    for w in workers:
        ms.set_seed(1)
        out[f"crop_w{w}"] = _draws(ms, grid, [V.RandomCrop(4)], w, 3, _offsets)
    ms.set_seed(1)
    out["two_crops_one_map"] = _draws(ms, grid, [V.RandomCrop(8), V.RandomCrop(4)], 2, 1, _offsets)
    ms.set_seed(7)
    out["flip"] = _draws(ms, grid, [V.RandomHorizontalFlip(0.3), V.RandomVerticalFlip()], 2, 2, flips)
    nearest = V.Inter.NEAREST
    for name, op in [("rrc", V.RandomResizedCrop(64, interpolation=nearest)),
                     ("rrc_args", V.RandomResizedCrop((64, 80), scale=(0.5, 0.9), ratio=(0.5, 2.0),
                                                      interpolation=nearest)),
                     ("rrc_fallback", V.RandomResizedCrop(64, scale=(2.0, 3.0), ratio=(0.5, 0.6),
                                                          interpolation=nearest, max_attempts=3))]:
        ms.set_seed(1)
        out[name] = _draws(ms, pos, [op], 2, 1, _boxes)
    ms.set_seed(1)                  # two columns: one draw per row for both
    ds = importlib.import_module(ms.__name__ + ".dataset")
    d = ds.NumpySlicesDataset({"a": grid, "b": grid}, shuffle=False)
    d = d.map([V.RandomCrop(4), V.RandomHorizontalFlip()], input_columns=["a", "b"], num_parallel_workers=2)
    out["two_columns"] = [_offsets(list(r)) for r in d.create_tuple_iterator(output_numpy=True)]
    ms.set_seed(3)
    crop = V.RandomCrop(4)
    out["eager"] = _offsets([crop(grid[0]), crop(grid[0]), V.RandomCrop(4)(grid[0])])
    return out


def cases(ms, tmp):
    """Every recorded pipeline case: name -> summary."""
    ms.set_seed(1)
    cifar = write_cifar10(os.path.join(tmp, "cifar"))
    folder = write_image_folder(os.path.join(tmp, "folder"))
    out = {}
    ms.set_seed(1)
    out["cifar10_resnet18"] = summary(cifar10_resnet18(ms, cifar))
    ms.set_seed(1)
    out["cifar10_resnet18_1worker"] = summary(cifar10_resnet18(ms, cifar, batch_size=8, image_size=32, workers=1))
    ms.set_seed(1)
    out["imagenet_style"] = summary(imagenet_style(ms, folder), batches=3, epochs=2)
    ms.set_seed(1)
    out["imagenet_style_decode_crop"] = summary(imagenet_style(ms, folder, decode_crop=True))
    return out
