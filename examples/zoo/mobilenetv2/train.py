"""Train MobileNetV2 on an ImageFolder tree of JPEG files, in the model zoo's style.

    python -m msjax run train.py [--mode=PYNATIVE] [--data_path=/path/to/imagefolder_root]

``data_path`` holds ``train/`` and ``eval/`` ImageFolder trees; without it a small
synthetic set of JPEG files is written first.
"""
import functools
import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(_HERE))

from mindspore import context, nn, Model, Tensor, set_seed  # noqa: E402
from mindspore.train.callback import CheckpointConfig, LossMonitor, ModelCheckpoint, TimeMonitor  # noqa: E402
from mindspore.train.loss_scale_manager import FixedLossScaleManager  # noqa: E402

from model_utils.config import get_config  # noqa: E402
from model_utils.synthetic import write_image_folder  # noqa: E402
from model_utils.utils import checkpoint_dir, prepare_data, warmup_cosine_lr  # noqa: E402
from src.dataset import create_dataset  # noqa: E402
from src.loss import CrossEntropySmooth  # noqa: E402
from src.mobilenetv2 import MobileNetV2  # noqa: E402

config = get_config(os.path.join(_HERE, "mobilenetv2_config.yaml"))
set_seed(1)


def define_net():
    stem_stride = 1 if config.image_size <= 64 else 2
    return MobileNetV2(config.num_classes, config.width_mult, stem_stride=stem_stride)


def train_net():
    context.set_context(mode=context.GRAPH_MODE if config.mode == "GRAPH" else context.PYNATIVE_MODE,
                        device_target=config.device_target)
    writer = functools.partial(write_image_folder, num_classes=config.num_classes,
                               per_class=config.images_per_class)
    data_path = prepare_data(config, writer, "imagefolder")
    dataset = create_dataset(os.path.join(data_path, "train"), True, config.batch_size, config.image_size)
    step_size = dataset.get_dataset_size()

    net = define_net()
    lr = Tensor(warmup_cosine_lr(config.lr_max / 10, config.lr_max, config.warmup_steps,
                                 config.epoch_size * step_size))
    opt = nn.Momentum(net.trainable_params(), lr, config.momentum, config.weight_decay, config.loss_scale)
    loss = CrossEntropySmooth(config.num_classes, config.label_smooth)
    loss_scale = FixedLossScaleManager(config.loss_scale, drop_overflow_update=False)
    model = Model(net, loss_fn=loss, optimizer=opt, loss_scale_manager=loss_scale, metrics={"acc"},
                  amp_level=config.amp_level)

    config_ck = CheckpointConfig(save_checkpoint_steps=config.save_checkpoint_steps,
                                 keep_checkpoint_max=config.keep_checkpoint_max)
    ckpt_cb = ModelCheckpoint(prefix="mobilenetv2", directory=checkpoint_dir(config), config=config_ck)
    callbacks = [TimeMonitor(data_size=step_size), LossMonitor(), ckpt_cb]
    print(f"============== training mobilenetv2: {step_size} steps per epoch, mode {config.mode} ==============",
          flush=True)
    model.train(config.epoch_size, dataset, callbacks=callbacks, dataset_sink_mode=False)
    print(f"============== checkpoint: {ckpt_cb.latest_ckpt_file_name} ==============", flush=True)


if __name__ == "__main__":
    train_net()
