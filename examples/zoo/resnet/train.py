"""Train ResNet18 on CIFAR-10 (binary version), written in the model zoo's style.

    python -m msjax run train.py [--mode=PYNATIVE] [--data_path=/path/to/cifar-10-batches-bin]
    python -m msjax launch --worker_num=2 --local_worker_num=2 --join=True train.py --run_distribute=True
    python train.py ...        # the same script on MindSpore (msrun ... train.py --run_distribute=True)

Without ``--data_path`` a synthetic CIFAR-10 set is written first (real .bin format).
"""
import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(_HERE))

from mindspore import context, nn, Model, Tensor, set_seed  # noqa: E402
from mindspore.communication.management import get_group_size, get_rank, init  # noqa: E402
from mindspore.context import ParallelMode  # noqa: E402
from mindspore.train.callback import CheckpointConfig, LossMonitor, ModelCheckpoint, TimeMonitor  # noqa: E402
from mindspore.train.loss_scale_manager import FixedLossScaleManager  # noqa: E402

from model_utils.config import get_config  # noqa: E402
from model_utils.synthetic import write_cifar10_bin  # noqa: E402
from model_utils.utils import checkpoint_dir, prepare_data, warmup_cosine_lr  # noqa: E402
from model_utils.cifar10 import create_dataset  # noqa: E402
from src.resnet import resnet18  # noqa: E402

config = get_config(os.path.join(_HERE, "resnet18_cifar10_config.yaml"))
set_seed(1)


def group_params(net, weight_decay):
    """Weight decay on conv/dense weights only, not on BatchNorm's gamma/beta or biases."""
    params = net.trainable_params()
    no_decay = [p for p in params if "beta" in p.name or "gamma" in p.name or "bias" in p.name]
    decay = [p for p in params if not ("beta" in p.name or "gamma" in p.name or "bias" in p.name)]
    return [{"params": decay, "weight_decay": weight_decay}, {"params": no_decay},
            {"order_params": params}]


def train_net():
    context.set_context(mode=context.GRAPH_MODE if config.mode == "GRAPH" else context.PYNATIVE_MODE,
                        device_target=config.device_target)
    rank_id, device_num = 0, 1
    if config.run_distribute:
        init()
        rank_id, device_num = get_rank(), get_group_size()
        context.set_auto_parallel_context(device_num=device_num, parallel_mode=ParallelMode.DATA_PARALLEL,
                                          gradients_mean=True)
    data_path = prepare_data(config, write_cifar10_bin, "cifar10")
    dataset = create_dataset(data_path, do_train=True, batch_size=config.batch_size,
                             num_samples=config.num_samples, image_size=config.image_size,
                             device_num=device_num, rank_id=rank_id)
    step_size = dataset.get_dataset_size()

    net = resnet18(config.class_num, config.base_channels)
    lr = Tensor(warmup_cosine_lr(config.lr_init, config.lr_max, config.warmup_steps,
                                 config.epoch_size * step_size))
    opt = nn.Momentum(group_params(net, config.weight_decay), lr, config.momentum, loss_scale=config.loss_scale)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    loss_scale = FixedLossScaleManager(config.loss_scale, drop_overflow_update=False)
    model = Model(net, loss_fn=loss, optimizer=opt, loss_scale_manager=loss_scale, metrics={"acc"},
                  amp_level=config.amp_level)

    config_ck = CheckpointConfig(save_checkpoint_steps=config.save_checkpoint_steps,
                                 keep_checkpoint_max=config.keep_checkpoint_max)
    ckpt_dir = checkpoint_dir(config)
    if config.run_distribute:
        ckpt_dir = os.path.join(ckpt_dir, "ckpt_" + str(rank_id))
    ckpt_cb = ModelCheckpoint(prefix="resnet18", directory=ckpt_dir, config=config_ck)
    callbacks = [TimeMonitor(data_size=step_size), LossMonitor(), ckpt_cb]
    print(f"============== training resnet18: {step_size} steps per epoch, mode {config.mode} ==============",
          flush=True)
    model.train(config.epoch_size, dataset, callbacks=callbacks, dataset_sink_mode=False)
    print(f"============== checkpoint: {ckpt_cb.latest_ckpt_file_name} ==============", flush=True)


if __name__ == "__main__":
    train_net()
