"""Evaluate a classifier checkpoint written by train.py on ``eval.csv``: predicted
labels from ``Model.predict``, accuracy over the whole file.

    python -m msjax run eval.py [--checkpoint_file_path=classifier-1_16.ckpt]
"""
import os
import sys

import numpy as np

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(_HERE))

from mindspore import context, Model  # noqa: E402

from model_utils.config import get_config  # noqa: E402
from model_utils.utils import load_checkpoint_strictly  # noqa: E402
from src.bert_model import BertCLS, BertConfig  # noqa: E402
from src.dataset import create_classification_dataset  # noqa: E402

config = get_config(os.path.join(_HERE, "bert_classifier_config.yaml"))


def do_eval():
    context.set_context(mode=context.GRAPH_MODE if config.mode == "GRAPH" else context.PYNATIVE_MODE,
                        device_target=config.device_target)
    data_path = config.data_path or os.path.join(os.path.abspath(config.output_dir), "data_text")
    dataset = create_classification_dataset(os.path.join(data_path, "eval.csv"), os.path.join(data_path, "vocab.txt"),
                                            config.batch_size, config.seq_length, do_shuffle=False)
    net_cfg = BertConfig(config.vocab_size, config.seq_length, config.hidden_size, config.num_hidden_layers,
                         config.num_attention_heads, config.intermediate_size, config.hidden_dropout_prob)
    netwithloss = BertCLS(net_cfg, config.num_class)
    ckpt = load_checkpoint_strictly(netwithloss, config)
    net = netwithloss.bert
    net.set_train(False)
    model = Model(net)
    correct = total = 0
    for data in dataset.create_dict_iterator(num_epochs=1):
        logits = model.predict(data["input_ids"], data["input_mask"], data["segment_ids"])
        pred = np.argmax(logits.asnumpy(), axis=-1)
        correct += int((pred == data["label_ids"].asnumpy()).sum())
        total += pred.shape[0]
    print(f"result: {{'acc': {correct / total}}} ({correct}/{total}) ckpt={ckpt}", flush=True)


if __name__ == "__main__":
    do_eval()
