"""Train VGG16 on CIFAR-10 (binary version) with mixed precision, in the model zoo's style.

    python -m msjax run train.py [--mode=PYNATIVE] [--amp_level=O0]

Without ``--data_path`` a synthetic CIFAR-10 set is written first (real .bin format).
"""
import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(_HERE))

from mindspore import context, nn, Model, set_seed  # noqa: E402
from mindspore.nn.metrics import Accuracy  # noqa: E402
from mindspore.train.callback import CheckpointConfig, LossMonitor, ModelCheckpoint, TimeMonitor  # noqa: E402
from mindspore.train.loss_scale_manager import FixedLossScaleManager  # noqa: E402

from model_utils.cifar10 import create_dataset  # noqa: E402
from model_utils.config import get_config  # noqa: E402
from model_utils.synthetic import write_cifar10_bin  # noqa: E402
from model_utils.utils import checkpoint_dir, prepare_data  # noqa: E402
from src.vgg import vgg16  # noqa: E402

config = get_config(os.path.join(_HERE, "vgg16_cifar10_config.yaml"))
set_seed(1)


def train_net():
    context.set_context(mode=context.GRAPH_MODE if config.mode == "GRAPH" else context.PYNATIVE_MODE,
                        device_target=config.device_target)
    data_path = prepare_data(config, write_cifar10_bin, "cifar10")
    dataset = create_dataset(data_path, do_train=True, batch_size=config.batch_size,
                             num_samples=config.num_samples)
    step_size = dataset.get_dataset_size()

    net = vgg16(config.num_classes, config.width_div, config.hidden, config.dropout)
    lr = nn.piecewise_constant_lr([step_size * config.epoch_size // 2, step_size * config.epoch_size],
                                  [config.lr, config.lr * 0.1])
    opt = nn.Momentum(net.trainable_params(), lr, config.momentum, config.weight_decay, config.loss_scale)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    loss_scale = FixedLossScaleManager(config.loss_scale, drop_overflow_update=False)
    model = Model(net, loss_fn=loss, optimizer=opt, loss_scale_manager=loss_scale,
                  metrics={"acc": Accuracy()}, amp_level=config.amp_level)

    config_ck = CheckpointConfig(save_checkpoint_steps=config.save_checkpoint_steps,
                                 keep_checkpoint_max=config.keep_checkpoint_max)
    ckpt_cb = ModelCheckpoint(prefix="vgg16", directory=checkpoint_dir(config), config=config_ck)
    callbacks = [TimeMonitor(data_size=step_size), LossMonitor(), ckpt_cb]
    print(f"============== training vgg16: {step_size} steps per epoch, mode {config.mode}, "
          f"amp_level {config.amp_level} ==============", flush=True)
    model.train(config.epoch_size, dataset, callbacks=callbacks, dataset_sink_mode=False)
    print(f"============== checkpoint: {ckpt_cb.latest_ckpt_file_name} ==============", flush=True)


if __name__ == "__main__":
    train_net()
