"""Small synthetic data sets written in the real on-disk formats, so the example
scripts read them through the same dataset classes as the real data:

* CIFAR-10 binary version (``data_batch_1.bin``, ``test_batch.bin``: records of one
  label byte and 3072 image bytes, 32x32 RGB planes; 10,000 records per file, as
  MindSpore's ``Cifar10Dataset`` requires);
* ImageFolder trees of JPEG files (``<root>/{train,eval}/<class>/<n>.jpg``);
* a text-classification CSV (``label,sentence``) with a BERT-style ``vocab.txt``.

Every class has its own colour/word pattern plus noise, so a few training steps
already lower the loss and lift accuracy above chance.
"""
import os

import numpy as np

CIFAR_RECORDS = 10000


def _class_images(labels, size, rng):
    """uint8 HWC images: a per-class colour and stripe pattern plus noise."""
    palette = np.random.default_rng(1234).integers(30, 226, (10, 3))
    n = len(labels)
    img = rng.normal(0, 25, (n, size, size, 3)) + palette[labels % 10][:, None, None, :]
    stripe = (np.arange(size)[None, :] // 4 + labels[:, None]) % 3 == 0        # (n, size)
    img[:, :, :, :] += 40 * stripe[:, None, :, None]
    return np.clip(img, 0, 255).astype(np.uint8)


def write_cifar10_bin(path, seed=0):
    """``path/data_batch_1.bin`` and ``path/test_batch.bin``, 10,000 records each."""
    os.makedirs(path, exist_ok=True)
    rng = np.random.default_rng(seed)
    for name in ("data_batch_1.bin", "test_batch.bin"):
        labels = rng.integers(0, 10, CIFAR_RECORDS)
        planes = _class_images(labels, 32, rng).transpose(0, 3, 1, 2).reshape(CIFAR_RECORDS, 3072)
        records = np.concatenate([labels[:, None].astype(np.uint8), planes], axis=1)
        records.tofile(os.path.join(path, name))
    return path


def write_image_folder(path, num_classes=4, per_class=16, size=48, seed=0):
    """``path/{train,eval}/class_<k>/<n>.jpg``: ``per_class`` JPEG images of each
    class in each split."""
    from PIL import Image
    rng = np.random.default_rng(seed)
    for split in ("train", "eval"):
        for k in range(num_classes):
            folder = os.path.join(path, split, f"class_{k}")
            os.makedirs(folder, exist_ok=True)
            for i, img in enumerate(_class_images(np.full(per_class, k), size, rng)):
                Image.fromarray(img).save(os.path.join(folder, f"{i:04d}.jpg"), quality=90)
    return path


SPECIAL_TOKENS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]


def write_text_classification(path, num_classes=2, num_train=256, num_eval=64, vocab_size=64, seed=0):
    """``path/vocab.txt`` (one token a line, BERT's special tokens first) and
    ``path/train.csv``/``path/eval.csv`` with a ``label,sentence`` header. Each class
    draws half its words from its own part of the vocabulary."""
    os.makedirs(path, exist_ok=True)
    rng = np.random.default_rng(seed)
    words = [f"w{i}" for i in range(vocab_size - len(SPECIAL_TOKENS))]
    with open(os.path.join(path, "vocab.txt"), "w") as f:
        f.write("\n".join(SPECIAL_TOKENS + words) + "\n")
    groups = np.array_split(np.arange(len(words)), num_classes + 1)   # the last group is shared
    for name, n in (("train.csv", num_train), ("eval.csv", num_eval)):
        with open(os.path.join(path, name), "w") as f:
            f.write("label,sentence\n")
            for _ in range(n):
                label = int(rng.integers(num_classes))
                length = int(rng.integers(6, 14))
                own = rng.choice(groups[label], length // 2)
                shared = rng.choice(groups[-1], length - length // 2)
                tokens = [words[i] for i in rng.permutation(np.concatenate([own, shared]))]
                f.write(f"{label},{' '.join(tokens)}\n")
    return path
