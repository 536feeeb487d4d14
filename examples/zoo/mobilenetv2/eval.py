"""Evaluate a MobileNetV2 checkpoint written by train.py on the ``eval/`` ImageFolder tree.

    python -m msjax run eval.py [--checkpoint_file_path=mobilenetv2-1_6.ckpt]
"""
import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(_HERE))

from mindspore import context, nn, Model  # noqa: E402

from model_utils.config import get_config  # noqa: E402
from model_utils.utils import load_checkpoint_strictly  # noqa: E402
from src.dataset import create_dataset  # noqa: E402
from src.mobilenetv2 import MobileNetV2  # noqa: E402

config = get_config(os.path.join(_HERE, "mobilenetv2_config.yaml"))


def eval_net():
    context.set_context(mode=context.GRAPH_MODE if config.mode == "GRAPH" else context.PYNATIVE_MODE,
                        device_target=config.device_target)
    data_path = config.data_path or os.path.join(os.path.abspath(config.output_dir), "data_imagefolder")
    dataset = create_dataset(os.path.join(data_path, "eval"), False, config.batch_size, config.image_size)
    net = MobileNetV2(config.num_classes, config.width_mult, stem_stride=1 if config.image_size <= 64 else 2)
    ckpt = load_checkpoint_strictly(net, config)
    net.set_train(False)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    model = Model(net, loss_fn=loss, metrics={"acc", "loss"})
    res = model.eval(dataset, dataset_sink_mode=False)
    print(f"result: {res} ckpt={ckpt}", flush=True)


if __name__ == "__main__":
    eval_net()
