"""Small synthetic data sets for running MindSpore's model zoo (``mindspore-ai/models``)
unmodified, in the on-disk formats its scripts read.

* CIFAR-10 binary version: one ``data_batch_1.bin`` of 10,000 records (MindSpore's
  ``Cifar10Dataset`` insists on 10,000 records per file), linked into the folder layouts
  ResNet (``<dir>/data_batch_1.bin``) and VGG16 (``<dir>/cifar-10-batches-bin/``) expect;
* an ImageFolder tree of JPEG files (``<dir>/train/<class>/<n>.jpg``, MobileNetV2);
* a tab-separated parallel corpus with a ``vocab.txt`` (``<s>``, ``</s>``, ``<unk>`` first)
  that the Transformer's own ``create_data.py`` turns into MindRecord files.

The image writers are those of ``examples/zoo/model_utils/synthetic.py`` (one place).
"""
import os
import sys

import numpy as np

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(_HERE, "..", "..", "examples", "zoo"))
from model_utils.synthetic import write_cifar10_bin, write_image_folder  # noqa: E402


def cifar10(root):
    """``root/cifar10/data_batch_1.bin`` (+ ``test_batch.bin``) and the two layouts."""
    src = write_cifar10_bin(os.path.join(root, "cifar10"))
    resnet = os.path.join(root, "cifar_resnet")
    vgg = os.path.join(root, "cifar_vgg", "cifar-10-batches-bin")
    for d in (resnet, vgg):
        os.makedirs(d, exist_ok=True)
        link = os.path.join(d, "data_batch_1.bin")
        if not os.path.exists(link):
            os.symlink(os.path.join(src, "data_batch_1.bin"), link)
    return resnet, os.path.dirname(vgg)


def image_folder(root, num_classes=4, per_class=32, size=48):
    path = os.path.join(root, "imagefolder")
    if not os.path.isdir(os.path.join(path, "train")):
        write_image_folder(path, num_classes=num_classes, per_class=per_class, size=size)
    return path


def parallel_corpus(root, pairs=256, vocab=60, seed=0):
    """``root/corpus/train.tok.clean.bpe.en-de`` (``source<TAB>target`` lines of 4 to 14
    words; the target is the source with each word mapped by a fixed permutation) and
    ``root/corpus/vocab.bpe.32000``. Returns (input file, vocab file)."""
    path = os.path.join(root, "corpus")
    os.makedirs(path, exist_ok=True)
    rng = np.random.default_rng(seed)
    words = [f"w{i}" for i in range(vocab)]
    perm = rng.permutation(vocab)
    vocab_file = os.path.join(path, "vocab.bpe.32000")
    with open(vocab_file, "w") as f:
        f.write("\n".join(["<s>", "</s>", "<unk>"] + words) + "\n")
    text = os.path.join(path, "train.tok.clean.bpe.en-de")
    with open(text, "w") as f:
        for _ in range(pairs):
            ids = rng.integers(0, vocab, int(rng.integers(4, 15)))
            f.write(" ".join(words[i] for i in ids) + "\t" + " ".join(words[perm[i]] for i in ids) + "\n")
    return text, vocab_file, vocab + 3
