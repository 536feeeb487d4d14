"""Export a ResNet18 checkpoint to MindIR/AIR/ONNX (AIR needs Ascend, in MindSpore too).

The ``.mindir`` file msjax writes loads in MindSpore 2.10 (``ms.load`` + ``nn.GraphCell``)
and back in msjax; see docs/export.md.
"""
import os
import sys

import numpy as np

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(_HERE))

from mindspore import context, Tensor, export, load_checkpoint, load_param_into_net  # noqa: E402

from model_utils.config import get_config  # noqa: E402
from model_utils.utils import latest_checkpoint  # noqa: E402
from src.resnet import resnet18  # noqa: E402

config = get_config(os.path.join(_HERE, "resnet18_cifar10_config.yaml"))


def run_export():
    context.set_context(mode=context.GRAPH_MODE, device_target=config.device_target)
    net = resnet18(config.class_num, config.base_channels)
    load_param_into_net(net, load_checkpoint(latest_checkpoint(config)))
    net.set_train(False)
    x = Tensor(np.zeros([config.batch_size, 3, config.image_size, config.image_size], np.float32))
    print(f"exporting to {config.file_name} ({config.file_format})", flush=True)
    export(net, x, file_name=config.file_name, file_format=config.file_format)


if __name__ == "__main__":
    run_export()
