"""Metrics: input forms, accumulation across updates, and their use by Model (values
are checked against MindSpore by the golden ``model`` suite)."""
import numpy as np
import pytest

import msjax as ms
from msjax import nn

PRED = np.array([[0.1, 0.8, 0.1], [0.6, 0.3, 0.1], [0.2, 0.2, 0.6], [0.5, 0.4, 0.1]], np.float32)
LABEL = np.array([1, 0, 1, 1], np.int32)


@pytest.mark.parametrize("convert", [lambda a: a, lambda a: a.tolist(), ms.Tensor])
def test_input_forms(convert):
    m = nn.Accuracy()
    m.update(convert(PRED), convert(LABEL))
    assert m.eval() == 0.5


def test_accumulates_until_clear():
    m = nn.Accuracy()
    m.update(PRED[:2], LABEL[:2])
    m.update(PRED[2:], LABEL[2:])
    assert m.eval() == 0.5
    m.clear()
    with pytest.raises(RuntimeError, match="number of samples is 0"):
        m.eval()
    assert nn.Accuracy()(PRED, LABEL) == 0.5        # __call__: clear, update, eval


def test_class_number_must_not_change():
    m = nn.Precision()
    m.update(PRED, LABEL)
    with pytest.raises(ValueError, match="class number not match"):
        m.update(np.zeros((2, 4), np.float32), np.array([0, 1]))


def test_confusion_matrix_accumulates():
    m = nn.ConfusionMatrix(3)
    m.update(PRED, LABEL)
    m.update(PRED, LABEL)
    assert m.eval().sum() == 8 and m.eval()[1, 1] == 2


def test_result_types_follow_mindspore():
    acc = nn.Accuracy()(PRED, LABEL)
    assert isinstance(acc, np.float64)
    p = nn.Precision()
    p.update(PRED, LABEL)
    assert p.eval().dtype == np.float64 and isinstance(p.eval(average=True), np.float64)
    with pytest.raises(TypeError):
        p.eval(average=1)


def test_top_level_and_nn_exports():
    assert ms.Accuracy is nn.Accuracy is ms.train.Accuracy
    assert ms.get_metric_fn("acc").__class__ is nn.Accuracy
    assert "top_5_accuracy" in ms.names()


def test_model_eval_with_metric_set_and_eval_indexes():
    net = nn.Dense(3, 3)
    net.weight.set_data(ms.Tensor(np.eye(3, dtype=np.float32)))
    net.bias.set_data(ms.Tensor(np.zeros(3, np.float32)))
    data = ms.dataset.NumpySlicesDataset({"x": PRED, "y": LABEL}, shuffle=False).batch(2)
    model = ms.Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True), metrics={"acc", "loss"})
    res = model.eval(data)
    assert set(res) == {"acc", "loss"} and res["acc"] == 0.5

    class Eval(nn.Cell):
        def __init__(self, net):
            super().__init__()
            self.net = net

        def construct(self, x, y):
            return self.net(x), y

    model = ms.Model(net, eval_network=Eval(net), metrics={"acc": nn.Accuracy()})
    assert model.eval(data)["acc"] == 0.5
