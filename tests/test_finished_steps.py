"""Model.train/Model.eval hand callbacks a finished step (issue 22): JAX dispatches the
compiled step asynchronously, so without a wait ``step_end`` would run while the step still
computes and a callback's timer would measure the dispatch. MindSpore's callbacks see the
step done; a callback that watches steps sees the loss and the updated parameters computed,
one that watches epochs sees the epoch's last step computed at ``epoch_end``."""
import numpy as np

import msjax as ms
import msjax.dataset as ds
from msjax import nn
from msjax.train import model as model_mod


class Wide(nn.Cell):
    """Heavy enough (a few ms a step on a CPU) that an unfinished step is seen as one."""

    def __init__(self):
        super().__init__()
        self.a = nn.Dense(512, 2048)
        self.b = nn.Dense(2048, 2048)
        self.c = nn.Dense(2048, 4)
        self.act = nn.Tanh()

    def construct(self, x):
        return self.c(self.act(self.b(self.act(self.a(x)))))


def _data(n=48, batch=16):
    rs = np.random.RandomState(0)
    return ds.NumpySlicesDataset({"x": rs.randn(n, 512).astype(np.float32),
                                  "y": rs.randint(0, 4, n).astype(np.int32)}, shuffle=False).batch(batch)


class Seen(ms.Callback):
    """Records whether the step's loss and a parameter were computed when a hook ran."""

    def __init__(self, net):
        self.net, self.ready = net, []

    def _state(self, run_context):
        out = run_context.original_args().net_outputs
        loss = out if isinstance(out, ms.Tensor) else out[0]
        return loss._data.is_ready(), self.net.b.weight._data.is_ready()

    def _train(self, run_context):
        self.ready.append(("train",) + self._state(run_context))

    def _eval(self, run_context):
        self.ready.append(("eval",) + self._state(run_context)[:1])


class StepWatcher(Seen):
    def on_train_step_end(self, run_context):
        self._train(run_context)

    def on_eval_step_end(self, run_context):
        self._eval(run_context)


class EpochWatcher(Seen):
    def on_train_epoch_end(self, run_context):
        self._train(run_context)


_MODEL = []


def _model():
    """One model for the file (each test trains it on: compiled once)."""
    if not _MODEL:
        ms.set_seed(1)
        net = Wide()
        loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
        _MODEL.append((net, ms.Model(net, loss, nn.Momentum(net.trainable_params(), 0.01, 0.9), metrics={"loss"})))
    return _MODEL[0]


def test_step_end_sees_a_finished_step():
    net, model = _model()
    cb = StepWatcher(net)
    model.train(2, _data(), callbacks=[cb])
    assert cb.ready == [("train", True, True)] * 6
    cb.ready.clear()
    model.eval(_data(), callbacks=[cb])
    assert cb.ready == [("eval", True)] * 3


def test_epoch_end_sees_the_epoch_finished():
    net, model = _model()
    cb = EpochWatcher(net)
    model.train(2, _data(), callbacks=[cb])
    assert cb.ready == [("train", True, True)] * 2


def test_without_a_wait_the_step_would_be_unfinished(monkeypatch):
    """The check above can fail: with the wait removed, step_end meets the step still running."""
    monkeypatch.setattr(model_mod.Model, "_finish_step", lambda self, outputs, network=None: None)
    net, model = _model()
    cb = StepWatcher(net)
    model.train(2, _data(), callbacks=[cb])
    assert any(not (loss and weight) for _, loss, weight in cb.ready), cb.ready


def test_no_step_watchers_no_wait(monkeypatch):
    calls = []
    real = model_mod.Model._finish_step
    monkeypatch.setattr(model_mod.Model, "_finish_step",
                        lambda self, *a: (calls.append(len(a)), real(self, *a))[1])
    net, model = _model()
    model.train(2, _data())
    assert calls == []
    model.train(2, _data(), callbacks=[EpochWatcher(net)])    # watches epochs only: one wait an epoch
    assert calls == [2, 2]
    calls.clear()
    model.train(1, _data(), callbacks=[ms.TimeMonitor()])     # its data_time needs each step's end
    assert calls == [2] * 3
