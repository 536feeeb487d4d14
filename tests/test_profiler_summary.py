"""``Profiler`` writes a jax.profiler trace (TensorBoard's xplane + Perfetto JSON)
naming MindSpore's cells; ``SummaryRecord``/``SummaryCollector`` write TensorBoard
event files that TensorBoard's own reader (EventAccumulator) reads back."""
import glob
import gzip
import json
import os

import numpy as np
import pytest

import msjax as ms
from msjax import nn
from msjax.profiler import ProfilerAction, schedule


def _trace_names(run):
    with gzip.open(os.path.join(run, "perfetto_trace.json.gz")) as f:
        events = json.load(f)["traceEvents"]
    return {e.get("name") for e in events if isinstance(e, dict)}


def test_profiler_trace_names_cells(tmp_path):
    net = nn.SequentialCell([nn.Dense(4, 3), nn.ReLU()])
    x = ms.Tensor(np.ones((2, 4), np.float32))
    prof = ms.Profiler(output_path=str(tmp_path / "prof"))
    net(x)
    prof.stop()
    prof.analyse()
    assert len(prof.runs) == 1
    run = prof.runs[0]
    (xplane,) = glob.glob(os.path.join(run, "*.xplane.pb"))     # what TensorBoard's profile plugin opens
    from jax.profiler import ProfileData
    events = {ev.name for plane in ProfileData.from_file(xplane).planes for line in plane.lines
              for ev in line.events}
    assert {"SequentialCell", "Dense", "ReLU"} <= events
    assert {"SequentialCell", "Dense", "ReLU"} <= _trace_names(run)     # the Perfetto JSON
    net(x)                                                      # not recording any more
    assert not ms._core.profiling.active()


def test_schedule_matches_mindspore_rule():
    s = schedule(wait=1, warmup=1, active=2, repeat=1, skip_first=1)
    A = ProfilerAction
    assert [s(i) for i in range(7)] == [A.NONE, A.NONE, A.WARM_UP, A.RECORD, A.RECORD_AND_SAVE, A.NONE, A.NONE]
    with pytest.raises(ValueError):
        schedule(wait=0, active=0)


def test_profile_with_schedule_and_handler(tmp_path):
    seen = []

    class Counting(type(ms.profiler.tensorboard_trace_handler())):
        def __call__(self, prof):
            seen.append(len(prof.runs))
    handler = Counting(str(tmp_path / "tb"))
    net = nn.Dense(2, 2)
    x = ms.Tensor(np.ones((1, 2), np.float32))
    with ms.profiler.profile(schedule=schedule(wait=1, active=1, repeat=2), on_trace_ready=handler) as prof:
        for _ in range(5):
            net(x)
            prof.step()
    assert seen == [1, 2] and len(prof.runs) == 2
    assert all(r.startswith(str(tmp_path / "tb")) for r in prof.runs)


def _events(logdir):
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator
    acc = EventAccumulator(str(logdir), size_guidance={"scalars": 0, "images": 0, "histograms": 0})
    acc.Reload()
    return acc


def test_summary_record_roundtrip(tmp_path):
    pytest.importorskip("tensorboard")
    pytest.importorskip("tensorboardX")
    with ms.SummaryRecord(str(tmp_path)) as rec:
        for step in (1, 2, 3):
            rec.add_value("scalar", "loss", ms.Tensor(np.float32(1.0 / step)))
            rec.record(step)
        img = np.zeros((1, 3, 4, 5), np.float32)
        img[0, 0] = 1.0
        rec.add_value("image", "pic", ms.Tensor(img))
        rec.add_value("histogram", "w", ms.Tensor(np.arange(10, dtype=np.float32)))
        rec.record(4)
        with pytest.raises(NotImplementedError, match="tensor"):
            rec.add_value("tensor", "t", ms.Tensor(np.ones(2)))
    files = os.listdir(tmp_path)
    assert len(files) == 1 and "tfevents" in files[0] and files[0].endswith("_MS")
    acc = _events(tmp_path)
    loss = acc.Scalars("loss")
    assert [e.step for e in loss] == [1, 2, 3]
    assert np.allclose([e.value for e in loss], [1.0, 0.5, 1 / 3])
    (im,) = acc.Images("pic")
    assert (im.step, im.width, im.height) == (4, 5, 4)
    (h,) = acc.Histograms("w")
    assert h.step == 4 and h.histogram_value.num == 10 and h.histogram_value.sum == 45
    assert h.histogram_value.min == 0 and h.histogram_value.max == 9
    with pytest.raises(ValueError, match="closed"):
        rec.record(5)


def test_summary_collector_in_model_train(tmp_path):
    pytest.importorskip("tensorboard")
    pytest.importorskip("tensorboardX")
    ds = ms.dataset.NumpySlicesDataset(
        {"x": np.random.RandomState(0).randn(8, 3).astype(np.float32),
         "y": np.random.RandomState(1).randn(8, 2).astype(np.float32)}, shuffle=False).batch(2)
    net = nn.Dense(3, 2)
    opt = nn.Momentum(net.trainable_params(), 0.05, 0.9)
    model = ms.Model(net, nn.MSELoss(), opt)
    hist = ms.History()
    model.train(2, ds, callbacks=[ms.SummaryCollector(str(tmp_path), collect_freq=2), hist])
    acc = _events(tmp_path)
    loss = acc.Scalars("loss/auto")
    assert [e.step for e in loss] == [1, 2, 4, 6, 8]
    lr = acc.Scalars("learning_rate/auto")
    assert np.allclose([e.value for e in lr], 0.05)
    assert set(acc.Tags()["histograms"]) == {"weight/auto", "bias/auto"}
    assert np.isclose(loss[-1].value, hist.history["net_output"][-1], rtol=1e-5)


class _SummaryNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(3, 2, weight_init=ms.Tensor(np.array([[0.5, -1.0, 0.25], [1.5, 0.2, -0.75]], np.float32)),
                           bias_init="zeros")
        self.scalar = ms.ops.ScalarSummary()
        self.hist = ms.ops.HistogramSummary()

    def construct(self, x):
        y = self.fc(x)
        self.scalar("y_mean", y.mean())
        self.hist("y", y)
        return y


@pytest.mark.parametrize("graph", [False, True], ids=["pynative", "graph"])
def test_summary_operators_in_a_network(tmp_path, graph):
    """ops.ScalarSummary/HistogramSummary in construct reach the event file through
    SummaryCollector, compiled or not; the first step's value is the untrained net's."""
    pytest.importorskip("tensorboard")
    pytest.importorskip("tensorboardX")
    x = np.random.RandomState(0).randn(8, 3).astype(np.float32)
    y = np.random.RandomState(1).randn(8, 2).astype(np.float32)
    data = ms.dataset.NumpySlicesDataset({"x": x, "y": y}, shuffle=False).batch(4)
    net = _SummaryNet()
    first = float(net(ms.Tensor(x[:4])).asnumpy().mean())
    ms.set_context(mode=ms.GRAPH_MODE if graph else ms.PYNATIVE_MODE)
    model = ms.Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.1))
    model.train(2, data, callbacks=[ms.SummaryCollector(str(tmp_path), collect_freq=1)])
    acc = _events(tmp_path)
    means = acc.Scalars("y_mean")
    assert [e.step for e in means] == [1, 2, 3, 4]
    assert np.isclose(means[0].value, first, rtol=1e-6)
    assert len({round(e.value, 6) for e in means}) == 4          # the weights changed between steps
    hist = acc.Histograms("y")
    assert [h.step for h in hist] == [1, 2, 3, 4] and all(h.histogram_value.num == 8 for h in hist)
    with pytest.raises(NotImplementedError, match="TensorSummary"):
        ms.ops.TensorSummary()
