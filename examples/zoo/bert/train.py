"""Fine-tune a small BERT-style encoder for sentence classification, in the style
of the model zoo's BERT ``run_classifier.py``: a network with its loss wrapped in
``TrainOneStepWithLossScaleCell`` with a dynamic loss scale, AdamWeightDecay with a
warm-up/polynomial-decay schedule, trained by ``Model``.

    python -m msjax run train.py [--mode=PYNATIVE] [--data_path=dir_with_vocab_and_csv]
"""
import functools
import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(_HERE))

from mindspore import context, nn, Model, set_seed  # noqa: E402
from mindspore.nn.wrap.loss_scale import DynamicLossScaleUpdateCell, TrainOneStepWithLossScaleCell  # noqa: E402
from mindspore.train.callback import CheckpointConfig, LossMonitor, ModelCheckpoint, TimeMonitor  # noqa: E402

from model_utils.config import get_config  # noqa: E402
from model_utils.synthetic import write_text_classification  # noqa: E402
from model_utils.utils import checkpoint_dir, prepare_data  # noqa: E402
from src.bert_model import BertCLS, BertConfig, BertLearningRate  # noqa: E402
from src.dataset import create_classification_dataset  # noqa: E402

config = get_config(os.path.join(_HERE, "bert_classifier_config.yaml"))
set_seed(1)


def bert_net_cfg():
    return BertConfig(config.vocab_size, config.seq_length, config.hidden_size, config.num_hidden_layers,
                      config.num_attention_heads, config.intermediate_size, config.hidden_dropout_prob)


def do_train():
    context.set_context(mode=context.GRAPH_MODE if config.mode == "GRAPH" else context.PYNATIVE_MODE,
                        device_target=config.device_target)
    writer = functools.partial(write_text_classification, num_classes=config.num_class,
                               num_train=config.num_train, num_eval=config.num_eval, vocab_size=config.vocab_size)
    data_path = prepare_data(config, writer, "text")
    dataset = create_classification_dataset(os.path.join(data_path, "train.csv"),
                                            os.path.join(data_path, "vocab.txt"), config.batch_size,
                                            config.seq_length)
    steps_per_epoch = dataset.get_dataset_size()

    netwithloss = BertCLS(bert_net_cfg(), config.num_class)
    lr_schedule = BertLearningRate(config.learning_rate, config.end_learning_rate, config.warmup_steps,
                                   steps_per_epoch * config.epoch_size, config.power)
    params = netwithloss.trainable_params()
    no_decay = ("layernorm", "norm", "bias")   # LayerNorm gamma/beta and biases keep their values
    decay = [p for p in params if not any(k in p.name.lower() for k in no_decay)]
    other = [p for p in params if any(k in p.name.lower() for k in no_decay)]
    group_params = [{"params": decay, "weight_decay": config.weight_decay}, {"params": other, "weight_decay": 0.0}]
    optimizer = nn.AdamWeightDecay(group_params, lr_schedule, eps=config.eps)

    update_cell = DynamicLossScaleUpdateCell(loss_scale_value=config.loss_scale_value,
                                             scale_factor=config.scale_factor, scale_window=config.scale_window)
    netwithgrads = TrainOneStepWithLossScaleCell(netwithloss, optimizer, scale_sense=update_cell)
    model = Model(netwithgrads)

    ckpt_config = CheckpointConfig(save_checkpoint_steps=config.save_checkpoint_steps,
                                   keep_checkpoint_max=config.keep_checkpoint_max)
    ckpt_cb = ModelCheckpoint(prefix="classifier", directory=checkpoint_dir(config), config=ckpt_config)
    callbacks = [TimeMonitor(steps_per_epoch), LossMonitor(), ckpt_cb]
    print(f"============== training bert classifier: {steps_per_epoch} steps per epoch, mode {config.mode} "
          "==============", flush=True)
    model.train(config.epoch_size, dataset, callbacks=callbacks, dataset_sink_mode=False)
    print(f"============== checkpoint: {ckpt_cb.latest_ckpt_file_name} ==============", flush=True)


if __name__ == "__main__":
    do_train()
