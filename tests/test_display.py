"""Jupyter displays: a Cell's parameter table (``_repr_html_``; its text stays
MindSpore's ``repr``) and ``LossCurve``'s picture."""
import numpy as np
import pytest

import msjax as ms
from msjax import nn


def test_cell_html_lists_parameters():
    net = nn.SequentialCell([nn.Dense(3, 4), nn.ReLU(), nn.Dense(4, 2, has_bias=False)])
    net[0].bias.requires_grad = False
    html = net._repr_html_()
    assert "SequentialCell</b>: 3 parameters, 24 values (20 trainable)" in html
    for name, shape, count in (("0.weight", "[4, 3]", "12"), ("0.bias", "[4]", "4"), ("2.weight", "[2, 4]", "8")):
        assert f"<td style='text-align:left'>{name}</td><td>{shape}</td><td>Float32</td>" \
               f"<td style='text-align:right'>{count}</td>" in html
    assert repr(net).startswith("SequentialCell(")          # the text form is unchanged


def test_loss_curve_records_and_draws():
    pytest.importorskip("matplotlib")
    data = ms.dataset.NumpySlicesDataset({"x": np.ones((6, 2), np.float32), "y": np.zeros((6, 1), np.float32)},
                                         shuffle=False).batch(2)
    net = nn.Dense(2, 1)
    curve = ms.train.LossCurve()
    hist = ms.History()
    ms.Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.1)).train(2, data, callbacks=[curve, hist])
    assert curve.steps == [1, 2, 3, 4, 5, 6] and curve.epochs == [1, 1, 1, 2, 2, 2]
    assert np.isclose(curve.losses[2], hist.history["net_output"][0]) and curve.losses[-1] < curve.losses[0]
    png = curve._repr_png_()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 1000
    fig = curve.figure()
    assert list(np.asarray(fig.axes[0].lines[0].get_ydata(), float)) == curve.losses
