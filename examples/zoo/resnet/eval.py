"""Evaluate a ResNet18 checkpoint written by train.py on the CIFAR-10 test file.

    python -m msjax run eval.py [--checkpoint_file_path=resnet18-1_8.ckpt]
"""
import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(_HERE))

from mindspore import context, nn, Model  # noqa: E402

from model_utils.config import get_config  # noqa: E402
from model_utils.synthetic import write_cifar10_bin  # noqa: E402
from model_utils.utils import load_checkpoint_strictly, prepare_data  # noqa: E402
from model_utils.cifar10 import create_dataset  # noqa: E402
from src.resnet import resnet18  # noqa: E402

config = get_config(os.path.join(_HERE, "resnet18_cifar10_config.yaml"))


def eval_net():
    context.set_context(mode=context.GRAPH_MODE if config.mode == "GRAPH" else context.PYNATIVE_MODE,
                        device_target=config.device_target)
    data_path = prepare_data(config, write_cifar10_bin, "cifar10")
    dataset = create_dataset(data_path, do_train=False, batch_size=config.batch_size,
                             num_samples=config.eval_num_samples, image_size=config.image_size)
    net = resnet18(config.class_num, config.base_channels)
    ckpt = load_checkpoint_strictly(net, config)
    net.set_train(False)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    model = Model(net, loss_fn=loss, metrics={"top_1_accuracy", "loss"})
    res = model.eval(dataset, dataset_sink_mode=False)
    print(f"result: {res} ckpt={ckpt}", flush=True)


if __name__ == "__main__":
    eval_net()
