"""Train LeNet5 on MNIST-format data with ``mindspore.Model`` -- the model zoo's
LeNet training script, runnable as is on MindSpore or on msjax::

    python -m msjax run examples/train_lenet.py        # msjax (JAX/XLA)
    python examples/train_lenet.py                     # real MindSpore

No download: unless ``--data_path`` points to a directory holding the MNIST idx
files, a small MNIST-format dataset of synthetic digits (seven-segment glyphs with
random shifts, stroke widths and noise) is written in the real idx format first.
The run trains with ``Model.train`` and ``LossMonitor``/``ModelCheckpoint`` (plus a
progress bar where the framework has one), reloads the last checkpoint into a fresh
network and reports its accuracy on the test split.
"""
import argparse
import os
import struct
import shutil
import tempfile
import time

import numpy as np

import mindspore as ms
import mindspore.dataset as ds
import mindspore.dataset.transforms as C
import mindspore.dataset.vision as CV
from mindspore import nn
from mindspore.common.initializer import Normal
from mindspore.dataset.vision import Inter
from mindspore.train import Accuracy, CheckpointConfig, LossMonitor, Model, ModelCheckpoint

try:  # msjax's progress bar; MindSpore itself has none
    from mindspore.train import ProgressBar
except ImportError:
    ProgressBar = None


# --------------------------------------------------------------------------
# a small MNIST-format dataset (idx files) of synthetic digits
# --------------------------------------------------------------------------
_SEGMENTS = {  # seven-segment encoding: a b c d e f g
    0: "abcdef", 1: "bc", 2: "abdeg", 3: "abcdg", 4: "bcfg", 5: "acdfg", 6: "acdefg", 7: "abc", 8: "abcdefg",
    9: "abcdfg"}


def _glyph(digit, rng):
    """A 28x28 uint8 image of ``digit``: seven-segment strokes, randomly placed."""
    img = np.zeros((28, 28), np.float32)
    h, w = rng.integers(16, 20), rng.integers(9, 13)
    top, left = rng.integers(3, 28 - h - 2), rng.integers(5, 28 - w - 4)
    t = 3
    mid = top + h // 2
    boxes = {"a": (top, top + t, left, left + w), "d": (top + h - t, top + h, left, left + w),
             "g": (mid - t // 2, mid - t // 2 + t, left, left + w),
             "f": (top, mid, left, left + t), "b": (top, mid, left + w - t, left + w),
             "e": (mid, top + h, left, left + t), "c": (mid, top + h, left + w - t, left + w)}
    for s in _SEGMENTS[digit]:
        y0, y1, x0, x1 = boxes[s]
        img[y0:y1, x0:x1] = rng.uniform(0.7, 1.0)
    img += rng.normal(0, 0.08, img.shape)
    return (np.clip(img, 0, 1) * 255).astype(np.uint8)


def _write_idx(path, array):
    with open(path, "wb") as f:
        f.write(struct.pack(">HBB", 0, 0x08, array.ndim))
        f.write(struct.pack(">" + "I" * array.ndim, *array.shape))
        f.write(array.astype(np.uint8).tobytes())


def make_mnist_format_data(path, num_train=3072, num_test=512, seed=0):
    """Write train/t10k idx files of synthetic digits into ``path``."""
    rng = np.random.default_rng(seed)
    os.makedirs(path, exist_ok=True)
    for prefix, n in (("train", num_train), ("t10k", num_test)):
        labels = rng.integers(0, 10, n)
        images = np.stack([_glyph(int(d), rng) for d in labels])
        _write_idx(os.path.join(path, f"{prefix}-images-idx3-ubyte"), images)
        _write_idx(os.path.join(path, f"{prefix}-labels-idx1-ubyte"), labels)


# --------------------------------------------------------------------------
# the model zoo's dataset pipeline and network
# --------------------------------------------------------------------------
def create_dataset(data_path, usage="train", batch_size=32, repeat_size=1, num_parallel_workers=1):
    mnist_ds = ds.MnistDataset(data_path, usage=usage)
    resize_height, resize_width = 32, 32
    rescale = 1.0 / 255.0
    shift = 0.0
    rescale_nml = 1 / 0.3081
    shift_nml = -1 * 0.1307 / 0.3081

    resize_op = CV.Resize((resize_height, resize_width), interpolation=Inter.LINEAR)
    rescale_nml_op = CV.Rescale(rescale_nml, shift_nml)
    rescale_op = CV.Rescale(rescale, shift)
    hwc2chw_op = CV.HWC2CHW()
    type_cast_op = C.TypeCast(ms.int32)

    mnist_ds = mnist_ds.map(operations=type_cast_op, input_columns="label",
                            num_parallel_workers=num_parallel_workers)
    mnist_ds = mnist_ds.map(operations=[resize_op, rescale_op, rescale_nml_op, hwc2chw_op],
                            input_columns="image", num_parallel_workers=num_parallel_workers)
    buffer_size = 10000
    mnist_ds = mnist_ds.shuffle(buffer_size=buffer_size)
    mnist_ds = mnist_ds.batch(batch_size, drop_remainder=True)
    mnist_ds = mnist_ds.repeat(repeat_size)
    return mnist_ds


class LeNet5(nn.Cell):
    """LeNet-5 for 32x32 single-channel images."""

    def __init__(self, num_class=10, num_channel=1):
        super(LeNet5, self).__init__()
        self.conv1 = nn.Conv2d(num_channel, 6, 5, pad_mode="valid")
        self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid")
        self.fc1 = nn.Dense(16 * 5 * 5, 120, weight_init=Normal(0.02))
        self.fc2 = nn.Dense(120, 84, weight_init=Normal(0.02))
        self.fc3 = nn.Dense(84, num_class, weight_init=Normal(0.02))
        self.relu = nn.ReLU()
        self.max_pool2d = nn.MaxPool2d(kernel_size=2, stride=2)
        self.flatten = nn.Flatten()

    def construct(self, x):
        x = self.max_pool2d(self.relu(self.conv1(x)))
        x = self.max_pool2d(self.relu(self.conv2(x)))
        x = self.flatten(x)
        x = self.relu(self.fc1(x))
        x = self.relu(self.fc2(x))
        x = self.fc3(x)
        return x


def main():
    parser = argparse.ArgumentParser(description="Train LeNet5 on MNIST-format data")
    parser.add_argument("--data_path", default=None, help="directory with the MNIST idx files (default: generate)")
    parser.add_argument("--ckpt_path", default=None, help="where checkpoints go (default: a temporary directory)")
    parser.add_argument("--epoch_size", type=int, default=5)
    parser.add_argument("--batch_size", type=int, default=32)
    parser.add_argument("--lr", type=float, default=0.01)   # the zoo's; 0.05 diverges now and then
    parser.add_argument("--momentum", type=float, default=0.9)
    parser.add_argument("--mode", choices=["graph", "pynative"], default="graph")
    parser.add_argument("--num_train", type=int, default=3072, help="synthetic training images")
    parser.add_argument("--num_test", type=int, default=512, help="synthetic test images")
    args = parser.parse_args()

    ms.set_context(mode=ms.GRAPH_MODE if args.mode == "graph" else ms.PYNATIVE_MODE)
    ms.set_seed(1)
    work = tempfile.mkdtemp(prefix="lenet_")
    try:
        data_path = args.data_path
        if data_path is None:
            data_path = os.path.join(work, "MNIST_Data")
            make_mnist_format_data(data_path, args.num_train, args.num_test)
            print(f"Wrote a synthetic MNIST-format dataset to {data_path}")
        ckpt_path = args.ckpt_path or os.path.join(work, "ckpt")

        ds_train = create_dataset(data_path, "train", args.batch_size)
        network = LeNet5(10)
        net_loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
        net_opt = nn.Momentum(network.trainable_params(), args.lr, args.momentum)
        config_ck = CheckpointConfig(save_checkpoint_steps=ds_train.get_dataset_size(), keep_checkpoint_max=10)
        ckpoint_cb = ModelCheckpoint(prefix="checkpoint_lenet", directory=ckpt_path, config=config_ck)
        callbacks = [ckpoint_cb, LossMonitor(ds_train.get_dataset_size() // 4)]
        if ProgressBar is not None:
            callbacks.append(ProgressBar())
        model = Model(network, net_loss, net_opt, metrics={"Accuracy": Accuracy()})

        print("============== Starting Training ==============")
        start = time.time()
        model.train(args.epoch_size, ds_train, callbacks=callbacks)
        print(f"Training took {time.time() - start:.1f} s; last checkpoint {ckpoint_cb.latest_ckpt_file_name}"
              + ("" if args.ckpt_path else " (a temporary directory, removed at exit; --ckpt_path keeps them)"))

        print("============== Starting Testing ==============")
        eval_net = LeNet5(10)
        param_dict = ms.load_checkpoint(ckpoint_cb.latest_ckpt_file_name)
        ms.load_param_into_net(eval_net, param_dict)
        eval_model = Model(eval_net, net_loss, metrics={"Accuracy": Accuracy()})
        ds_eval = create_dataset(data_path, "test", args.batch_size)
        acc = eval_model.eval(ds_eval)
        print("============== {} ==============".format({k: float(v) for k, v in acc.items()}))
    finally:   # the generated data and checkpoints are this run's own: nothing left in the temp dir
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
