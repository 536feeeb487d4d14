"""Golden cases for issue 5: Model/callbacks, metrics, checkpoints, datasets and
vision transforms, recorded from MindSpore 2.10 (suite ``model``).

Every case uses only the module it is given (``ms``); dataset and transform
modules are reached as ``ms.dataset`` / ``importlib.import_module(ms.__name__ +
'.dataset.vision')``. Files go to fresh temporary directories.
"""
import contextlib
import importlib
import io
import os
import struct
import tempfile

import numpy as np

# the test harness points tempfile at the test's tmp_path while a case runs
USES_FILES = True
RTOL = 1e-5
ATOL = 1e-6


def _sub(ms, name):
    return importlib.import_module(ms.__name__ + "." + name)


def _tmp():
    return tempfile.mkdtemp(prefix="msjax_golden_model_")


# ---------------------------------------------------------------------------
# networks
# ---------------------------------------------------------------------------
def _lenet(ms):
    nn = ms.nn

    class LeNet5(nn.Cell):
        def __init__(self, num_class=10, num_channel=1):
            super().__init__()
            self.conv1 = nn.Conv2d(num_channel, 6, 5, pad_mode="valid")
            self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid")
            self.fc1 = nn.Dense(16 * 5 * 5, 120)
            self.fc2 = nn.Dense(120, 84)
            self.fc3 = nn.Dense(84, num_class)
            self.relu = nn.ReLU()
            self.max_pool2d = nn.MaxPool2d(kernel_size=2, stride=2)
            self.flatten = nn.Flatten()

        def construct(self, x):
            x = self.max_pool2d(self.relu(self.conv1(x)))
            x = self.max_pool2d(self.relu(self.conv2(x)))
            x = self.flatten(x)
            x = self.relu(self.fc1(x))
            x = self.relu(self.fc2(x))
            return self.fc3(x)

    net = LeNet5()
    rs = np.random.RandomState(2024)
    for p in net.trainable_params():
        fan_in = int(np.prod(p.shape[1:])) if len(p.shape) > 1 else p.shape[0]
        p.set_data(ms.Tensor((rs.randn(*p.shape) / np.sqrt(fan_in)).astype(np.float32)))
    return net


def _lenet_data(ms, n=48, batch=16, seed=0):
    rs = np.random.RandomState(seed)
    x = rs.rand(n, 1, 32, 32).astype(np.float32)
    y = rs.randint(0, 10, n).astype(np.int32)
    return ms.dataset.NumpySlicesDataset({"image": x, "label": y}, shuffle=False).batch(batch)


def _dense_net(ms, zero=False):
    net = ms.nn.Dense(4, 3)
    rs = np.random.RandomState(5)
    w = np.zeros((3, 4), np.float32) if zero else rs.randn(3, 4).astype(np.float32)
    net.weight.set_data(ms.Tensor(w))
    net.bias.set_data(ms.Tensor(np.zeros(3, np.float32) if zero else rs.randn(3).astype(np.float32)))
    return net


def _cls_data(ms, n=12, batch=4, seed=1):
    rs = np.random.RandomState(seed)
    x = rs.randn(n, 4).astype(np.float32)
    y = rs.randint(0, 3, n).astype(np.int32)
    return ms.dataset.NumpySlicesDataset({"x": x, "y": y}, shuffle=False).batch(batch)


def _collector(ms):
    class Collect(ms.train.Callback):
        def __init__(self):
            super().__init__()
            self.losses = []
            self.events = []

        def on_train_begin(self, run_context):
            cb = run_context.original_args()
            self.events.append("train_begin e%s b%s" % (cb.epoch_num, cb.batch_num))

        def on_train_epoch_begin(self, run_context):
            cb = run_context.original_args()
            self.events.append("epoch_begin %s" % cb.cur_epoch_num)

        def on_train_step_begin(self, run_context):
            cb = run_context.original_args()
            self.events.append("step_begin %s/%s" % (cb.cur_epoch_num, cb.cur_step_num))

        def on_train_step_end(self, run_context):
            cb = run_context.original_args()
            out = cb.net_outputs
            self.losses.append(out if not isinstance(out, (tuple, list)) else out[0])
            self.events.append("step_end %s/%s %s %s" % (cb.cur_epoch_num, cb.cur_step_num, cb.mode,
                                                         cb.dataset_sink_mode))

        def on_train_epoch_end(self, run_context):
            cb = run_context.original_args()
            self.events.append("epoch_end %s %s" % (cb.cur_epoch_num, sorted(cb.get("metrics", {}) or {})))

        def on_train_end(self, run_context):
            self.events.append("train_end")

        def on_eval_begin(self, run_context):
            self.events.append("eval_begin")

        def on_eval_step_end(self, run_context):
            cb = run_context.original_args()
            self.events.append("eval_step_end %s %s" % (cb.cur_step_num, cb.mode))

        def on_eval_end(self, run_context):
            cb = run_context.original_args()
            self.events.append("eval_end %s" % sorted(cb.metrics))
    return Collect()


# ---------------------------------------------------------------------------
# Model
# ---------------------------------------------------------------------------
def case_model_lenet_train_losses(ms):
    """Model.train on LeNet5: every step's loss and the final weights (Momentum)."""
    net = _lenet(ms)
    loss = ms.nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = ms.nn.Momentum(net.trainable_params(), learning_rate=0.05, momentum=0.9)
    model = ms.Model(net, loss, opt)
    cb = _collector(ms)
    model.train(2, _lenet_data(ms), callbacks=[cb])
    return cb.losses, net.fc3.weight, net.conv1.bias


def case_model_lenet_eval_predict(ms):
    net = _lenet(ms)
    loss = ms.nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = ms.nn.Momentum(net.trainable_params(), learning_rate=0.05, momentum=0.9)
    model = ms.Model(net, loss, opt, metrics={"acc": ms.train.Accuracy(), "loss": ms.train.Loss(),
                                              "top5": ms.train.Top5CategoricalAccuracy()})
    model.train(1, _lenet_data(ms, n=32))
    after = model.eval(_lenet_data(ms, n=32, seed=1))
    x = np.random.RandomState(3).rand(2, 1, 32, 32).astype(np.float32)
    return after, model.predict(ms.Tensor(x))


def case_model_callback_order(ms):
    net = _dense_net(ms)
    opt = ms.nn.SGD(net.trainable_params(), learning_rate=0.1)
    model = ms.Model(net, ms.nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"), opt)
    cb = _collector(ms)
    model.train(2, _cls_data(ms), callbacks=cb)
    return cb.events, cb.losses


def case_model_loss_monitor_lines(ms):
    """LossMonitor's exact lines (a zero network: the loss is exactly log(3))."""
    net = _dense_net(ms, zero=True)
    opt = ms.nn.SGD(net.trainable_params(), learning_rate=0.0)
    model = ms.Model(net, ms.nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"), opt)
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        model.train(2, _cls_data(ms), callbacks=[ms.LossMonitor(2)])
    return buf.getvalue()


def case_model_time_monitor_lines(ms):
    """TimeMonitor's line per epoch (times replaced by T)."""
    import re
    net = _dense_net(ms)
    model = ms.Model(net, ms.nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                     ms.nn.SGD(net.trainable_params(), 0.1))
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        model.train(2, _cls_data(ms), callbacks=[ms.TimeMonitor(), ms.train.TimeMonitor(data_size=3)])
    return re.sub(r"\d+\.\d+", "T", buf.getvalue())


def case_model_time_monitor_bad_data_time(ms):
    return ms.train.TimeMonitor(data_time=1)


def case_model_loss_monitor_per_step(ms):
    net = _dense_net(ms, zero=True)
    opt = ms.nn.SGD(net.trainable_params(), learning_rate=0.0)
    model = ms.Model(net, ms.nn.MSELoss(), opt)
    rs = np.random.RandomState(0)
    data = ms.dataset.NumpySlicesDataset({"x": rs.randn(6, 4).astype(np.float32),
                                          "y": np.full((6, 3), 0.5, np.float32)}, shuffle=False).batch(2)
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        model.train(1, data, callbacks=ms.LossMonitor())
    return buf.getvalue()


def case_model_fit_history(ms):
    net = _dense_net(ms)
    opt = ms.nn.Momentum(net.trainable_params(), 0.05, 0.9)
    model = ms.Model(net, ms.nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"), opt,
                     metrics={"acc": ms.train.Accuracy(), "loss": ms.train.Loss()})
    hist = ms.History()
    cb = _collector(ms)
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        model.fit(3, _cls_data(ms), _cls_data(ms, seed=2), valid_frequency=2, callbacks=[hist, cb])
    return hist.history, hist.epoch, cb.events


def case_model_request_stop(ms):
    class Stop(ms.train.Callback):
        def on_train_step_end(self, run_context):
            if run_context.original_args().cur_step_num == 4:
                run_context.request_stop()

    net = _dense_net(ms)
    model = ms.Model(net, ms.nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                     ms.nn.SGD(net.trainable_params(), 0.1))
    cb = _collector(ms)
    model.train(3, _cls_data(ms), callbacks=[Stop(), cb])
    return cb.events


def case_model_initial_epoch(ms):
    net = _dense_net(ms)
    model = ms.Model(net, ms.nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                     ms.nn.SGD(net.trainable_params(), 0.1))
    cb = _collector(ms)
    model.train(3, _cls_data(ms), callbacks=[cb], initial_epoch=1)
    return cb.events


def case_model_early_stopping(ms):
    net = _dense_net(ms)
    opt = ms.nn.SGD(net.trainable_params(), learning_rate=0.0)
    model = ms.Model(net, ms.nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"), opt,
                     metrics={"acc": ms.train.Accuracy()})
    cb = _collector(ms)
    stop = ms.EarlyStopping(monitor="eval_loss", patience=1, verbose=True)
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        model.fit(5, _cls_data(ms), _cls_data(ms), callbacks=[stop, cb])
    return [e for e in cb.events if e.startswith("epoch_end")], stop.stopped_epoch, buf.getvalue()


def case_model_reduce_lr_on_plateau(ms):
    net = _dense_net(ms)
    opt = ms.nn.SGD(net.trainable_params(), learning_rate=0.0)
    model = ms.Model(net, ms.nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"), opt,
                     metrics={"acc": ms.train.Accuracy()})
    cb = ms.ReduceLROnPlateau(monitor="eval_loss", factor=0.5, patience=1, min_lr=0.0)
    model.fit(3, _cls_data(ms, n=4), _cls_data(ms, n=4), callbacks=[cb])
    return opt.learning_rate


def case_model_lambda_callback(ms):
    seen = []
    net = _dense_net(ms)
    model = ms.Model(net, ms.nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                     ms.nn.SGD(net.trainable_params(), 0.1))
    lc = ms.LambdaCallback(on_train_epoch_end=lambda rc: seen.append(rc.original_args().cur_step_num),
                           on_train_begin=lambda rc: seen.append("begin"))
    model.train(2, _cls_data(ms), callbacks=[lc])
    return seen


def case_model_old_style_callback(ms):
    class Old(ms.train.Callback):
        def __init__(self):
            super().__init__()
            self.seen = []

        def begin(self, run_context):
            self.seen.append("begin")

        def step_end(self, run_context):
            self.seen.append(run_context.original_args().cur_step_num)

        def epoch_end(self, run_context):
            self.seen.append("epoch_end")

        def end(self, run_context):
            self.seen.append("end")

    net = _dense_net(ms)
    model = ms.Model(net, ms.nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                     ms.nn.SGD(net.trainable_params(), 0.1))
    cb = Old()
    model.train(1, _cls_data(ms), callbacks=[cb])
    return cb.seen


def case_model_no_loss_fn_train_network(ms):
    """Model(network) with a network that returns its own loss (WithLossCell + TrainOneStepCell built by hand)."""
    net = _dense_net(ms)
    loss_net = ms.nn.WithLossCell(net, ms.nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"))
    train_net = ms.nn.TrainOneStepCell(loss_net, ms.nn.SGD(net.trainable_params(), 0.1))
    model = ms.Model(train_net)
    cb = _collector(ms)
    model.train(1, _cls_data(ms), callbacks=[cb])
    return cb.losses, net.weight


def case_model_train_cell_shadows_trainable_params(ms):
    """Wide&Deep's TrainStepWrap keeps a list in ``self.trainable_params``: Model trains it, a
    checkpoint of it saves, and the Cell's own parameter queries still work."""
    nn = ms.nn

    class TrainStepWrap(nn.Cell):
        def __init__(self, network):
            super().__init__(auto_prefix=False)
            self.network = network
            self.network.set_train()
            self.trainable_params = network.trainable_params()
            self.weights = ms.ParameterTuple(self.trainable_params)
            self.optimizer = nn.SGD(self.trainable_params, 0.1)
            self.grad = ms.ops.GradOperation(get_by_list=True)

        def construct(self, x, y):
            loss = self.network(x, y)
            grads = self.grad(self.network, self.weights)(x, y)
            return ms.ops.depend(loss, self.optimizer(grads))

    net = _dense_net(ms)
    train_net = TrainStepWrap(nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True,
                                                                                     reduction="mean")))
    d = _tmp()
    cb = _collector(ms)
    ckpt = ms.ModelCheckpoint(prefix="wd", directory=d, config=ms.CheckpointConfig(save_checkpoint_steps=3))
    ms.Model(train_net).train(2, _cls_data(ms), callbacks=[cb, ckpt])
    saved = ms.load_checkpoint(ckpt.latest_ckpt_file_name)
    return (cb.losses, net.weight, sorted(saved), [p.name for p in train_net.get_parameters()],
            len(train_net.trainable_params), [p.name for p in nn.Cell.trainable_params(train_net)])


def case_model_errors_metrics_without_loss(ms):
    return ms.Model(_dense_net(ms), metrics={"acc": ms.train.Accuracy()})


def case_model_errors_eval_without_metrics(ms):
    net = _dense_net(ms)
    model = ms.Model(net, ms.nn.MSELoss(), ms.nn.SGD(net.trainable_params(), 0.1))
    return model.eval(_cls_data(ms))


def case_model_errors_bad_epoch(ms):
    net = _dense_net(ms)
    model = ms.Model(net, ms.nn.MSELoss(), ms.nn.SGD(net.trainable_params(), 0.1))
    return model.train(0, _cls_data(ms))


def case_model_errors_initial_epoch(ms):
    net = _dense_net(ms)
    model = ms.Model(net, ms.nn.MSELoss(), ms.nn.SGD(net.trainable_params(), 0.1))
    return model.train(2, _cls_data(ms), initial_epoch=2)


def case_model_errors_three_columns(ms):
    net = _dense_net(ms)
    model = ms.Model(net, ms.nn.MSELoss(), ms.nn.SGD(net.trainable_params(), 0.1))
    rs = np.random.RandomState(0)
    data = ms.dataset.NumpySlicesDataset((rs.randn(4, 4).astype(np.float32), np.zeros(4, np.int32),
                                          np.zeros(4, np.int32)), shuffle=False).batch(2)
    return model.train(1, data)


def case_model_errors_kwargs(ms):
    return ms.Model(_dense_net(ms), unknown_arg=1)


def case_model_errors_amp_without_optimizer(ms):
    return ms.Model(_dense_net(ms), ms.nn.MSELoss(), amp_level="O2")


def case_model_errors_bad_callback(ms):
    net = _dense_net(ms)
    model = ms.Model(net, ms.nn.SoftmaxCrossEntropyWithLogits(sparse=True), ms.nn.SGD(net.trainable_params(), 0.1))
    return model.train(1, _cls_data(ms), callbacks=[object()])


def case_model_checkpoint_callback(ms):
    d = _tmp()
    net = _dense_net(ms)
    opt = ms.nn.SGD(net.trainable_params(), 0.1)
    model = ms.Model(net, ms.nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"), opt)
    config = ms.CheckpointConfig(save_checkpoint_steps=2, keep_checkpoint_max=2)
    ckpt = ms.ModelCheckpoint(prefix="dense", directory=d, config=config)
    model.train(2, _cls_data(ms), callbacks=[ckpt])
    files = sorted(f for f in os.listdir(d) if f.endswith(".ckpt"))
    latest = ms.load_checkpoint(os.path.join(d, files[-1]))
    ckpt2 = ms.ModelCheckpoint(prefix="dense", directory=d, config=config)
    return files, os.path.basename(ckpt.latest_ckpt_file_name), latest["weight"], latest["bias"], ckpt2._prefix


def case_model_checkpoint_config_errors(ms):
    return ms.CheckpointConfig(save_checkpoint_steps=0, save_checkpoint_seconds=0, keep_checkpoint_max=0,
                               keep_checkpoint_per_n_minutes=0)


def case_model_checkpoint_config_policy(ms):
    c = ms.CheckpointConfig(save_checkpoint_steps=5, save_checkpoint_seconds=10, keep_checkpoint_max=0,
                            keep_checkpoint_per_n_minutes=0)
    c2 = ms.CheckpointConfig(append_info=["epoch_num", "step_num", {"lr": 0.5}])
    p = c.get_checkpoint_policy()
    return ({k: v for k, v in p.items() if k != "saved_network"}, c2.append_dict)


def case_model_checkpoint_prefix_error(ms):
    return ms.ModelCheckpoint(prefix="a/b")


def case_model_checkpoint_append_info(ms):
    d = _tmp()
    net = _dense_net(ms)
    model = ms.Model(net, ms.nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                     ms.nn.SGD(net.trainable_params(), 0.1))
    config = ms.CheckpointConfig(save_checkpoint_steps=3, append_info=["epoch_num", "step_num"])
    ckpt = ms.ModelCheckpoint(prefix="app", directory=d, config=config)
    model.train(2, _cls_data(ms), callbacks=[ckpt])
    out = ms.load_checkpoint(ckpt.latest_ckpt_file_name)
    # the GRAPH_MODE replay also finds app-graph.meta (the compiled graph, MindSpore's GRAPH_MODE too)
    return sorted(f for f in os.listdir(d) if not f.endswith("-graph.meta")), out["epoch_num"], out["step_num"]


def case_run_context(ms):
    rc = ms.RunContext({"cur_epoch_num": 4, "net_outputs": ms.Tensor(2.0)})
    a = rc.get_stop_requested()
    rc.request_stop()
    return a, rc.get_stop_requested(), rc.original_args()["cur_epoch_num"]


def case_run_context_error(ms):
    return ms.RunContext([1, 2])


# ---------------------------------------------------------------------------
# metrics
# ---------------------------------------------------------------------------
_PRED = np.array([[0.2, 0.5, 0.3], [0.7, 0.2, 0.1], [0.1, 0.1, 0.8], [0.3, 0.4, 0.3], [0.6, 0.3, 0.1]], np.float32)
_LAB = np.array([1, 0, 2, 2, 1], np.int32)
_ML_PRED = np.array([[0, 1, 1], [1, 0, 1], [0, 0, 1], [1, 1, 0]], np.float32)
_ML_LAB = np.array([[0, 1, 0], [1, 0, 1], [0, 1, 1], [1, 1, 0]], np.float32)


def case_metric_accuracy(ms):
    m = ms.nn.Accuracy()
    m.update(ms.Tensor(_PRED), ms.Tensor(_LAB))
    a = m.eval()
    m.update(ms.Tensor(_PRED[:2]), ms.Tensor(_LAB[:2]))
    return a, m.eval(), ms.nn.Accuracy()(_PRED, _LAB)


def case_metric_accuracy_onehot_and_list(ms):
    m = ms.nn.Accuracy()
    m.update([[0.1, 0.9], [0.8, 0.2]], np.array([[0, 1], [0, 1]]))
    return m.eval()


def case_metric_accuracy_multilabel(ms):
    m = ms.nn.Accuracy("multilabel")
    m.update(ms.Tensor(_ML_PRED), ms.Tensor(_ML_LAB))
    return m.eval()


def case_metric_accuracy_errors(ms):
    m = ms.nn.Accuracy()
    return m.eval()


def case_metric_accuracy_shape_error(ms):
    return ms.nn.Accuracy()(np.zeros((3, 2)), np.zeros((4,)))


def case_metric_accuracy_bad_type(ms):
    return ms.nn.Accuracy("regression")


def case_metric_accuracy_bad_input(ms):
    return ms.nn.Accuracy()((1, 2), (1, 2))


def case_metric_precision_recall(ms):
    out = []
    for cls in (ms.nn.Precision, ms.nn.Recall):
        m = cls()
        m.update(ms.Tensor(_PRED), ms.Tensor(_LAB))
        out += [m.eval(), m.eval(average=True)]
        m = cls("multilabel")
        m.update(ms.Tensor(_ML_PRED), ms.Tensor(_ML_LAB))
        out += [m.eval(), m.eval(average=True)]
    return out


def case_metric_fbeta_f1(ms):
    f = ms.nn.Fbeta(0.5)
    f.update(ms.Tensor(_PRED), ms.Tensor(_LAB))
    f1 = ms.nn.F1()
    f1.update(_PRED, _LAB)
    return f.eval(), f.eval(True), f1.eval(), f1.eval(average=True)


def case_metric_fbeta_errors(ms):
    return ms.nn.Fbeta(0)


def case_metric_topk(ms):
    out = []
    for k in (1, 2):
        m = ms.nn.TopKCategoricalAccuracy(k)
        m.update(ms.Tensor(_PRED), ms.Tensor(_LAB))
        out.append(m.eval())
    m = ms.nn.Top1CategoricalAccuracy()
    m.update(_PRED, _LAB)
    out.append(m.eval())
    m = ms.nn.Top5CategoricalAccuracy()
    pred6 = np.random.RandomState(0).rand(4, 6).astype(np.float32)
    m.update(pred6, np.array([0, 1, 2, 3]))
    out.append(m.eval())
    return out


def case_metric_topk_errors(ms):
    return ms.nn.TopKCategoricalAccuracy(0)


def case_metric_mae_mse_loss(ms):
    yp = np.array([[0.1, 0.2], [1.5, -0.3], [2.0, 0.0]], np.float32)
    y = np.array([[0.0, 0.2], [1.0, 0.3], [2.5, 1.0]], np.float32)
    mae, mse, loss = ms.nn.MAE(), ms.nn.MSE(), ms.nn.Loss()
    mae.update(ms.Tensor(yp), ms.Tensor(y))
    mse.update(ms.Tensor(yp), ms.Tensor(y))
    loss.update(ms.Tensor(np.array(0.5, np.float32)))
    loss.update(ms.Tensor(np.array([1.0, 2.0], np.float32)))
    return mae.eval(), mse.eval(), loss.eval()


def case_metric_loss_error(ms):
    m = ms.nn.Loss()
    m.update(ms.Tensor(np.zeros((2, 2), np.float32)))
    return m.eval()


def case_metric_confusion_matrix(ms):
    out = []
    for norm in ("no_norm", "target", "prediction", "all"):
        m = ms.nn.ConfusionMatrix(num_classes=3, normalize=norm)
        m.update(ms.Tensor(_PRED), ms.Tensor(_LAB))
        out.append(m.eval())
    m = ms.nn.ConfusionMatrix(num_classes=2, threshold=0.6)
    m.update(np.array([0.2, 0.7, 0.6, 0.9], np.float32), np.array([0, 1, 0, 1]))
    out.append(m.eval())
    return out


def case_metric_confusion_matrix_metric(ms):
    rs = np.random.RandomState(3)
    yp = (rs.rand(2, 3, 4, 4) > 0.5).astype(np.float32)
    y = (rs.rand(2, 3, 4, 4) > 0.5).astype(np.float32)
    out = []
    for name in ("tpr", "tnr", "ppv", "npv", "fnr", "fpr", "fdr", "for", "pt", "ts", "acc", "ba", "f1", "mcc",
                 "fm", "bm", "mk"):
        m = ms.nn.ConfusionMatrixMetric(skip_channel=False, metric_name=name, calculation_method=False)
        m.update(yp, y)
        out.append(m.eval())
    for dec in ("mean", "sum"):
        m = ms.nn.ConfusionMatrixMetric(metric_name="f1", calculation_method=True, decrease=dec)
        m.update(yp, y)
        out.append(m.eval())
    for dec in ("none", "mean_channel", "sum_channel", "sum_batch"):
        m = ms.nn.ConfusionMatrixMetric(metric_name="f1", calculation_method=True, decrease=dec)
        try:
            m.update(yp, y)
            out.append(m.eval())
        except Exception as e:  # noqa: BLE001
            out.append(type(e).__name__)
    return out


def case_metric_perplexity_dice_cosine(ms):
    p = ms.nn.Perplexity(ignore_label=None)
    p.update(np.array([[0.2, 0.5, 0.3], [0.1, 0.7, 0.2]], np.float32), np.array([1, 2]))
    p2 = ms.nn.Perplexity(ignore_label=1)
    p2.update(np.array([[0.2, 0.5, 0.3], [0.1, 0.7, 0.2]], np.float32), np.array([1, 2]))
    d = ms.nn.Dice(smooth=1e-5)
    d.update(np.array([[0.2, 0.8], [0.6, 0.4]]), np.array([[0, 1], [1, 0]]))
    c = ms.nn.CosineSimilarity()
    c.update(np.array([[1., 2., 3.], [4., 5., 6.], [1., 0., 0.]]))
    c2 = ms.nn.CosineSimilarity(similarity="dot", reduction="sum", zero_diagonal=False)
    c2.update(np.array([[1., 2.], [3., 4.]]))
    return p.eval(), p2.eval(), d.eval(), c.eval(), c2.eval()


def case_metric_bleu(ms):
    cand = [["i", "have", "a", "pen", "on", "my", "desk"]]
    refs = [[["i", "have", "a", "pen", "in", "my", "desk"], ["there", "is", "a", "pen", "on", "the", "desk"]]]
    m = ms.nn.BleuScore(n_gram=4, smooth=False)
    m.update(cand, refs)
    m2 = ms.nn.BleuScore(n_gram=2, smooth=True)
    m2.update(cand, refs)
    return m.eval(), m2.eval()


def case_metric_roc_auc(ms):
    m = ms.nn.ROC(pos_label=2)
    m.update(np.array([1, 2, 3, 4], np.float32), np.array([1, 2, 2, 1]))
    fpr, tpr, thr = m.eval()
    m2 = ms.nn.ROC(class_num=3)
    m2.update(np.array([[0.28, 0.55, 0.17], [0.1, 0.4, 0.5], [0.7, 0.2, 0.1], [0.2, 0.3, 0.5]], np.float32),
              np.array([0, 1, 2, 1]))
    f2, t2, th2 = m2.eval()
    return fpr, tpr, thr, f2, t2, th2, ms.nn.auc(fpr, tpr), ms.nn.auc(np.array([3., 2., 1.]), np.array([1., 2., 4.]))


def case_metric_surface_distances(ms):
    a = np.zeros((8, 9), np.float32)
    b = np.zeros((8, 9), np.float32)
    a[2:6, 2:6] = 1
    b[3:7, 1:5] = 1
    out = []
    for metric in ("euclidean", "chessboard", "taxicab"):
        h = ms.nn.HausdorffDistance(distance_metric=metric)
        h.update(a, b, 1)
        out.append(h.eval())
        s = ms.nn.MeanSurfaceDistance(symmetric=True, distance_metric=metric)
        s.update(a, b, 1)
        out.append(s.eval())
        r = ms.nn.RootMeanSquareDistance(symmetric=False, distance_metric=metric)
        r.update(a, b, 1)
        out.append(r.eval())
    h = ms.nn.HausdorffDistance(percentile=50.0, directed=True)
    h.update(a, b, 1)
    out.append(h.eval())
    return out


def case_metric_occlusion_sensitivity(ms):
    net = ms.nn.Dense(4, 2)
    rs = np.random.RandomState(2)
    net.weight.set_data(ms.Tensor(rs.randn(2, 4).astype(np.float32)))
    net.bias.set_data(ms.Tensor(np.zeros(2, np.float32)))
    m = ms.nn.OcclusionSensitivity(margin=1, n_batch=3)
    m.update(net, ms.Tensor(rs.randn(1, 4).astype(np.float32)), np.array(1, np.int32))
    return m.eval()


def case_metric_factory(ms):
    names = ms.nn.names()
    m = ms.nn.get_metric_fn("top_5_accuracy")
    ms_ = ms.nn.get_metrics({"a": ms.nn.MAE()})
    return names, type(m).__name__, sorted(ms_)


def case_metric_factory_error(ms):
    return ms.nn.get_metric_fn("nope")


def case_metric_user_defined_and_indexes(ms):
    class Mean(ms.nn.Metric):
        def __init__(self):
            super().__init__()
            self.clear()

        def clear(self):
            self.s, self.n = 0.0, 0

        @ms.nn.rearrange_inputs
        def update(self, *inputs):
            x = self._convert_data(inputs[0])
            self.s += float(x.sum())
            self.n += x.size

        def eval(self):
            return self.s / self.n

    m = Mean().set_indexes([1])
    m.update(ms.Tensor([100.0]), ms.Tensor([1.0, 2.0]))
    acc = ms.nn.Accuracy().set_indexes([2, 0])
    acc.update(ms.Tensor(_LAB), None, ms.Tensor(_PRED))
    return m.eval(), acc.eval(), m.indexes


# ---------------------------------------------------------------------------
# checkpoints
# ---------------------------------------------------------------------------
def _ckpt_net(ms):
    class Net(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc = ms.nn.Dense(3, 2)
            self.fc2 = ms.nn.Dense(2, 1)
            self.scale = ms.Parameter(ms.Tensor(np.array([1.5], np.float32)), name="scale")
            self.steps = ms.Parameter(ms.Tensor(np.array(4, np.int32)), name="steps", requires_grad=False)

        def construct(self, x):
            return self.fc2(self.fc(x)) * self.scale

    net = Net()
    rs = np.random.RandomState(1)
    for p in (net.fc.weight, net.fc.bias, net.fc2.weight, net.fc2.bias):
        p.set_data(ms.Tensor(rs.randn(*p.shape).astype(np.float32)))
    return net


def _zero(ms, net):
    for p in net.get_parameters():
        p.set_data(ms.Tensor(np.zeros(p.shape, p.asnumpy().dtype)))


def case_ckpt_roundtrip(ms):
    d = _tmp()
    net = _ckpt_net(ms)
    ms.save_checkpoint(net, os.path.join(d, "net"), append_dict={"epoch": 3, "lr": 0.25, "tag": "v1"})
    loaded = ms.load_checkpoint(os.path.join(d, "net.ckpt"))
    net2 = _ckpt_net(ms)
    _zero(ms, net2)
    res = ms.load_param_into_net(net2, loaded)
    return sorted(loaded), loaded["fc.weight"], loaded["epoch"], loaded["lr"], loaded["tag"], res, net2.fc2.bias, \
        net2.steps


def case_ckpt_load_with_net(ms):
    d = _tmp()
    ms.save_checkpoint(_ckpt_net(ms), os.path.join(d, "a.ckpt"))
    net2 = _ckpt_net(ms)
    _zero(ms, net2)
    out = ms.load_checkpoint(os.path.join(d, "a.ckpt"), net=net2)
    return sorted(out), net2.fc.weight


def case_ckpt_save_list_and_dict(ms):
    d = _tmp()
    net = _ckpt_net(ms)
    ms.save_checkpoint(net.trainable_params(), os.path.join(d, "list.ckpt"))
    ms.save_checkpoint([{"name": "w", "data": ms.Tensor(np.arange(4, dtype=np.float32))}], os.path.join(d, "d.ckpt"))
    a = ms.load_checkpoint(os.path.join(d, "list.ckpt"))
    ms.save_checkpoint(a, os.path.join(d, "again.ckpt"))
    b = ms.load_checkpoint(os.path.join(d, "again.ckpt"))
    c = ms.load_checkpoint(os.path.join(d, "d.ckpt"))
    return sorted(a), sorted(b), c["w"]


def case_ckpt_choice_func_and_prefixes(ms):
    d = _tmp()
    net = _ckpt_net(ms)
    path = os.path.join(d, "c.ckpt")
    ms.save_checkpoint(net, path, choice_func=lambda n: n.startswith("fc"))
    return (sorted(ms.load_checkpoint(path)),
            sorted(ms.load_checkpoint(path, filter_prefix="fc2")),
            sorted(ms.load_checkpoint(path, specify_prefix=["fc2", "fc.bias"])),
            sorted(ms.load_checkpoint(path, choice_func=lambda n: n.endswith("weight"))))


def case_ckpt_filter_everything(ms):
    d = _tmp()
    path = os.path.join(d, "c.ckpt")
    ms.save_checkpoint(_ckpt_net(ms), path)
    return ms.load_checkpoint(path, specify_prefix="nothing")


def case_ckpt_bad_prefix_type(ms):
    d = _tmp()
    path = os.path.join(d, "c.ckpt")
    ms.save_checkpoint(_ckpt_net(ms), path)
    return ms.load_checkpoint(path, filter_prefix=3)


def case_ckpt_missing_file(ms):
    return ms.load_checkpoint(os.path.join(_tmp(), "missing.ckpt"))


def case_ckpt_wrong_extension(ms):
    return ms.load_checkpoint(os.path.join(_tmp(), "model.bin"))


def case_ckpt_corrupt_file(ms):
    d = _tmp()
    path = os.path.join(d, "bad.ckpt")
    with open(path, "wb") as f:
        f.write(b"\x0a\xff\xff\xff\x0fgarbage")
    return ms.load_checkpoint(path)


def case_ckpt_truncated_file(ms):
    d = _tmp()
    path = os.path.join(d, "t.ckpt")
    ms.save_checkpoint(_ckpt_net(ms), path)
    with open(path, "rb") as f:
        data = f.read()
    os.chmod(path, 0o600)
    with open(path, "wb") as f:
        f.write(data[:len(data) - 7])
    return ms.load_checkpoint(path)


def case_ckpt_crc(ms):
    d = _tmp()
    path = os.path.join(d, "crc.ckpt")
    ms.save_checkpoint(_ckpt_net(ms), path, crc_check=True)
    ok = sorted(ms.load_checkpoint(path, crc_check=True))
    with open(path, "rb") as f:
        data = bytearray(f.read())
    data[40] ^= 0x01
    os.chmod(path, 0o600)
    with open(path, "wb") as f:
        f.write(bytes(data))
    try:
        ms.load_checkpoint(path, crc_check=True)
        bad = "loaded"
    except Exception as e:  # noqa: BLE001
        bad = type(e).__name__
    return ok, bad


def case_ckpt_shape_mismatch(ms):
    net = _ckpt_net(ms)
    params = {"fc.weight": ms.Parameter(ms.Tensor(np.zeros((3, 3), np.float32)), name="fc.weight")}
    return ms.load_param_into_net(net, params)


def case_ckpt_dtype_conversion(ms):
    net = _ckpt_net(ms)
    params = {"fc.bias": ms.Parameter(ms.Tensor(np.array([1.0, 2.0], np.float16)), name="fc.bias"),
              "steps": ms.Parameter(ms.Tensor(np.array(9, np.int64)), name="steps")}
    res = ms.load_param_into_net(net, params)
    return res, net.fc.bias, net.steps


def case_ckpt_dtype_strict_error(ms):
    net = _ckpt_net(ms)
    params = {"fc.bias": ms.Parameter(ms.Tensor(np.array([1.0, 2.0], np.float16)), name="fc.bias")}
    return ms.load_param_into_net(net, params, strict_load=True)


def case_ckpt_dtype_kind_error(ms):
    net = _ckpt_net(ms)
    params = {"fc.bias": ms.Parameter(ms.Tensor(np.array([1, 2], np.int32)), name="fc.bias")}
    return ms.load_param_into_net(net, params)


def case_ckpt_prefix_mismatch(ms):
    """Non-strict loading strips a common prefix (a checkpoint saved from a wrapper)."""
    net = _ckpt_net(ms)
    src = _ckpt_net(ms)
    params = {"network." + k: ms.Parameter(ms.Tensor(v.asnumpy() + 1), name="network." + k)
              for k, v in src.parameters_dict().items()}
    res = ms.load_param_into_net(net, params)
    return res, net.fc.weight


def case_ckpt_not_loaded_names(ms):
    net = _ckpt_net(ms)
    params = {"fc.weight": ms.Parameter(ms.Tensor(np.ones((2, 3), np.float32)), name="fc.weight"),
              "other": ms.Parameter(ms.Tensor(np.ones(2, np.float32)), name="other")}
    return ms.load_param_into_net(net, params, strict_load=True), net.fc.weight


def case_ckpt_load_param_type_errors(ms):
    return ms.load_param_into_net(_ckpt_net(ms), [1, 2])


def case_ckpt_load_param_value_error(ms):
    return ms.load_param_into_net(_ckpt_net(ms), {"fc.weight": np.zeros((2, 3))})


def case_ckpt_save_bad_obj(ms):
    return ms.save_checkpoint(3, os.path.join(_tmp(), "x.ckpt"))


def case_ckpt_save_bad_format(ms):
    return ms.save_checkpoint(_ckpt_net(ms), os.path.join(_tmp(), "x.ckpt"), format="onnx")


def case_ckpt_save_bad_append(ms):
    return ms.save_checkpoint(_ckpt_net(ms), os.path.join(_tmp(), "x.ckpt"), append_dict={"a": [1]})


def case_ckpt_safetensors(ms):
    d = _tmp()
    net = _ckpt_net(ms)
    ms.save_checkpoint(net, os.path.join(d, "n.safetensors"), format="safetensors")
    out = ms.load_checkpoint(os.path.join(d, "n.safetensors"), format="safetensors")
    net2 = _ckpt_net(ms)
    _zero(ms, net2)
    res = ms.load_param_into_net(net2, out)
    return sorted(out), out["fc.weight"].asnumpy(), res, net2.fc2.weight, net2.steps


def case_ckpt_safetensors_name_suffix(ms):
    d = _tmp()
    ms.save_checkpoint(_ckpt_net(ms), os.path.join(d, "n"), format="safetensors")
    return sorted(os.listdir(d))


# ---------------------------------------------------------------------------
# datasets
# ---------------------------------------------------------------------------
def _rows(it):
    return [[np.asarray(v) for v in row] for row in it]


def _slices(ms, n=7):
    return ms.dataset.NumpySlicesDataset({"a": np.arange(n), "b": np.arange(n, dtype=np.float32) * 0.5},
                                         shuffle=False)


def case_ds_batch_shapes_dtypes(ms):
    d = _slices(ms).batch(3)
    rows = _rows(d.create_tuple_iterator(output_numpy=True))
    d2 = _slices(ms).batch(3, drop_remainder=True)
    return rows, d.get_dataset_size(), d2.get_dataset_size(), d.get_batch_size(), d.get_col_names(), \
        _rows(d2.create_tuple_iterator(output_numpy=True))


def case_ds_tensor_iterator(ms):
    out = []
    for row in _slices(ms, 4).batch(2).create_dict_iterator():
        out.append(row)
    for row in _slices(ms, 2):
        out.append(row)
    return out


def case_ds_generator_random_access(ms):
    class Src:
        def __init__(self):
            self.x = np.arange(12, dtype=np.float32).reshape(6, 2)

        def __getitem__(self, i):
            return self.x[i], i, float(i) / 2

        def __len__(self):
            return 6

    d = ms.dataset.GeneratorDataset(Src(), ["x", "i", "f"], shuffle=False)
    return _rows(d.create_tuple_iterator(output_numpy=True)), d.get_dataset_size(), d.output_types(), \
        d.output_shapes()


def case_ds_generator_function_and_iterable(ms):
    def gen():
        for i in range(5):
            yield np.array([i, i * i], np.int32), np.array(i % 2 == 0)

    class It:
        def __iter__(self):
            return iter([(np.ones(2) * k,) for k in range(3)])

    a = ms.dataset.GeneratorDataset(gen, ["v", "even"])
    b = ms.dataset.GeneratorDataset(It(), "z")
    c = ms.dataset.GeneratorDataset(gen, ["v", "even"], num_samples=2)
    return _rows(a.create_tuple_iterator(output_numpy=True)), a.get_dataset_size(), \
        _rows(b.create_tuple_iterator(output_numpy=True)), b.get_col_names(), \
        _rows(c.create_tuple_iterator(output_numpy=True)), c.get_dataset_size()


def case_ds_generator_column_types(ms):
    src = [(np.array([1.5, 2.5], np.float32), np.array(3, np.int32)) for _ in range(2)]
    d = ms.dataset.GeneratorDataset(src, ["x", "y"], column_types=[ms.float32, ms.int32], shuffle=False)
    return _rows(d.create_tuple_iterator(output_numpy=True))


def case_ds_generator_errors_no_columns(ms):
    return ms.dataset.GeneratorDataset([(1,)])


def case_ds_generator_errors_shards(ms):
    return ms.dataset.GeneratorDataset([(1,)], ["a"], num_shards=2)


def case_ds_generator_errors_shard_id(ms):
    return ms.dataset.GeneratorDataset([(1,)], ["a"], num_shards=2, shard_id=2)


def case_ds_generator_errors_raising_source(ms):
    class Src:
        def __getitem__(self, i):
            if i == 2:
                raise IndexError("no sample 2")
            return (np.array(i),)

        def __len__(self):
            return 4
    return _rows(ms.dataset.GeneratorDataset(Src(), ["a"], shuffle=False).create_tuple_iterator(output_numpy=True))


def case_ds_generator_errors_column_count(ms):
    src = [(np.array(1), np.array(2))]
    return _rows(ms.dataset.GeneratorDataset(src, ["a"], shuffle=False).create_tuple_iterator(output_numpy=True))


def case_ds_generator_sampler_conflict(ms):
    return ms.dataset.GeneratorDataset([(1,)], ["a"], sampler=ms.dataset.SequentialSampler(), shuffle=False)


def case_ds_numpy_slices_forms(ms):
    a = ms.dataset.NumpySlicesDataset([1, 2, 3], shuffle=False)
    b = ms.dataset.NumpySlicesDataset(([1, 2], [3.0, 4.0]), shuffle=False)
    c = ms.dataset.NumpySlicesDataset([[1, 2], [3, 4]], column_names=["m"], shuffle=False)
    e = ms.dataset.NumpySlicesDataset(np.arange(6).reshape(3, 2), shuffle=False)
    return [(x.get_col_names(), _rows(x.create_tuple_iterator(output_numpy=True))) for x in (a, b, c, e)]


def case_ds_numpy_slices_length_error(ms):
    return ms.dataset.NumpySlicesDataset({"a": [1, 2], "b": [1, 2, 3]})


def case_ds_map(ms):
    d = _slices(ms, 5)
    m1 = d.map(lambda x: x * 10, input_columns="a")
    m2 = _slices(ms, 5).map(lambda x: (x, x + 1), input_columns="a", output_columns=["a1", "a2"])
    m3 = _slices(ms, 5).map(lambda x, y: x + y, input_columns=["a", "b"], output_columns=["s"])
    m4 = _slices(ms, 5).map([lambda x: x + np.float32(1), lambda x: x * np.float32(2)], input_columns=["b"],
                            output_columns="c")
    return [(m.get_col_names(), _rows(m.create_tuple_iterator(output_numpy=True))) for m in (m1, m2, m3, m4)]


def case_ds_map_parallel_order(ms):
    d = ms.dataset.NumpySlicesDataset({"a": np.arange(40)}, shuffle=False)
    d = d.map(lambda x: x * 3, input_columns="a", num_parallel_workers=2)
    return [int(r[0]) for r in d.create_tuple_iterator(output_numpy=True)]


def case_ds_map_errors(ms):
    d = _slices(ms, 3).map(lambda x: x / "s", input_columns="a")
    return _rows(d.create_tuple_iterator(output_numpy=True))


def case_ds_map_bad_column(ms):
    return _slices(ms, 3).map(lambda x: x, input_columns="zz").get_col_names()


def case_ds_per_batch_map_and_callable_batch(ms):
    d = _slices(ms, 7).batch(3, per_batch_map=lambda a, b, info: ([x * 10 + info.get_batch_num() for x in a], b),
                             input_columns=["a", "b"])
    e = _slices(ms, 7).batch(lambda info: info.get_batch_num() + 1)
    return _rows(d.create_tuple_iterator(output_numpy=True)), _rows(e.create_tuple_iterator(output_numpy=True)), \
        e.get_batch_size()


def case_ds_padded_batch(ms):
    d = ms.dataset.GeneratorDataset([(np.arange(i + 1, dtype=np.float32),) for i in range(5)], ["x"], shuffle=False)
    return _rows(d.padded_batch(2, pad_info={"x": ([3], -1.0)}).create_tuple_iterator(output_numpy=True))


def case_ds_batch_inconsistent_shapes(ms):
    d = ms.dataset.GeneratorDataset([(np.zeros(i + 1),) for i in range(4)], ["x"], shuffle=False).batch(2)
    return _rows(d.create_tuple_iterator(output_numpy=True))


def case_ds_repeat_take_skip(ms):
    r = _slices(ms, 3).repeat(2)
    t = _slices(ms, 5).take(2)
    s = _slices(ms, 5).skip(3)
    b = _slices(ms, 5).batch(2).repeat(3)
    return [(x.get_dataset_size(), _rows(x.create_tuple_iterator(output_numpy=True))) for x in (r, t, s, b)], \
        b.get_repeat_count()


def case_ds_project_rename_zip_concat(ms):
    p = _slices(ms, 3).project(["b"])
    r = _slices(ms, 3).rename(["a"], ["c"])
    z = ms.dataset.zip((_slices(ms, 4), ms.dataset.NumpySlicesDataset({"p": np.arange(3) + 100}, shuffle=False)))
    c = _slices(ms, 2) + _slices(ms, 3)
    c2 = _slices(ms, 2).concat([_slices(ms, 1), _slices(ms, 1)])
    return [(x.get_col_names(), x.get_dataset_size(), _rows(x.create_tuple_iterator(output_numpy=True)))
            for x in (p, r, z, c, c2)]


def case_ds_zip_duplicate_columns(ms):
    return ms.dataset.zip((_slices(ms, 2), _slices(ms, 2))).get_col_names()


def case_ds_op_argument_errors(ms):
    out = []
    for f in (lambda: _slices(ms).batch(0), lambda: _slices(ms).batch(2.0), lambda: _slices(ms).shuffle(1),
              lambda: _slices(ms).repeat(0), lambda: _slices(ms).take(0), lambda: _slices(ms).skip(-1),
              lambda: _slices(ms).rename(["a"], ["x", "y"])):
        try:
            f()
            out.append("ok")
        except Exception as e:  # noqa: BLE001
            out.append(type(e).__name__)
    return out


def case_ds_samplers_deterministic(ms):
    D = ms.dataset

    def ids(sampler):
        d = D.NumpySlicesDataset({"a": np.arange(10)}, sampler=sampler)
        return [int(r[0]) for r in d.create_tuple_iterator(output_numpy=True)], d.get_dataset_size()
    return [ids(D.SequentialSampler(start_index=2, num_samples=3)), ids(D.SequentialSampler()),
            ids(D.SubsetSampler([7, 3, 5])), ids(D.DistributedSampler(3, 1, shuffle=False)),
            ids(D.DistributedSampler(3, 2, shuffle=False)), ids(D.DistributedSampler(4, 0, shuffle=False,
                                                                                     num_samples=2)),
            ids([4, 2, 1]), sorted(ids(D.SubsetRandomSampler([1, 3, 5]))[0]), ids(D.RandomSampler(num_samples=4))[1]]


def case_ds_sharding_args(ms):
    d = ms.dataset.NumpySlicesDataset({"a": np.arange(10)}, shuffle=False, num_shards=3, shard_id=2)
    e = ms.dataset.NumpySlicesDataset({"a": np.arange(10)}, shuffle=False, num_samples=4)
    return [int(r[0]) for r in d.create_tuple_iterator(output_numpy=True)], \
        [int(r[0]) for r in e.create_tuple_iterator(output_numpy=True)]


def case_ds_user_sampler(ms):
    class Every3(ms.dataset.Sampler):
        def __iter__(self):
            for i in range(0, 10, 3):
                yield i
    d = ms.dataset.NumpySlicesDataset({"a": np.arange(10)}, sampler=Every3())
    return [int(r[0]) for r in d.create_tuple_iterator(output_numpy=True)], d.get_dataset_size()


def case_ds_filter(ms):
    d = ms.dataset.GeneratorDataset([(np.arange(i + 1),) for i in range(6)], ["x"], shuffle=False)
    d = d.filter(lambda x: x.size % 2 == 0, input_columns=["x"])
    return _rows(d.create_tuple_iterator(output_numpy=True)), d.get_dataset_size()


def case_ds_epochs(ms):
    d = _slices(ms, 3)
    it = d.create_tuple_iterator(output_numpy=True, num_epochs=2)
    e1 = [int(r[0]) for r in it]
    e2 = [int(r[0]) for r in it]
    try:
        next(it)
        e3 = "more"
    except Exception as e:  # noqa: BLE001
        e3 = type(e).__name__
    return e1, e2, e3


def case_ds_shuffle_is_permutation(ms):
    ms.dataset.config.set_seed(3)
    d = _slices(ms, 20).shuffle(5)
    it = d.create_tuple_iterator(output_numpy=True, num_epochs=2)
    a = sorted(int(r[0]) for r in it)
    b = sorted(int(r[0]) for r in it)
    return a, b, d.get_dataset_size(), ms.dataset.config.get_seed()


def _write_idx(path, arr):
    with open(path, "wb") as f:
        f.write(struct.pack(">HBB", 0, 0x08, arr.ndim))
        f.write(struct.pack(">" + "I" * arr.ndim, *arr.shape))
        f.write(arr.astype(np.uint8).tobytes())


def _mnist_dir(n_train=6, n_test=3):
    d = _tmp()
    rs = np.random.RandomState(4)
    _write_idx(os.path.join(d, "train-images-idx3-ubyte"), rs.randint(0, 256, (n_train, 28, 28)))
    _write_idx(os.path.join(d, "train-labels-idx1-ubyte"), rs.randint(0, 10, n_train))
    _write_idx(os.path.join(d, "t10k-images-idx3-ubyte"), rs.randint(0, 256, (n_test, 28, 28)))
    _write_idx(os.path.join(d, "t10k-labels-idx1-ubyte"), rs.randint(0, 10, n_test))
    return d


def case_ds_mnist(ms):
    d = _mnist_dir()
    tr = ms.dataset.MnistDataset(d, usage="train", shuffle=False)
    te = ms.dataset.MnistDataset(d, usage="test", shuffle=False)
    al = ms.dataset.MnistDataset(d, shuffle=False)
    rows = _rows(tr.create_tuple_iterator(output_numpy=True))
    return tr.get_col_names(), tr.get_dataset_size(), te.get_dataset_size(), al.get_dataset_size(), \
        rows[0][0][10:14, 10:14, 0], rows[0][0].shape, rows[0][0].dtype.name, [r[1] for r in rows], \
        [int(r[1]) for r in al.create_tuple_iterator(output_numpy=True)]


def case_ds_mnist_errors(ms):
    return ms.dataset.MnistDataset(_mnist_dir(), usage="valid")


def case_ds_mnist_missing_dir(ms):
    return ms.dataset.MnistDataset(os.path.join(_tmp(), "nope"))


def case_ds_mnist_lenet_pipeline(ms):
    """The LeNet scripts' MNIST pipeline: resize, rescale, normalize, HWC2CHW, TypeCast, batch."""
    vision = _sub(ms, "dataset.vision")
    transforms = _sub(ms, "dataset.transforms")
    d = ms.dataset.MnistDataset(_mnist_dir(), usage="train", shuffle=False)
    d = d.map(operations=transforms.TypeCast(ms.int32), input_columns="label")
    d = d.map(operations=[vision.Resize((32, 32), interpolation=vision.Inter.LINEAR),
                          vision.Rescale(1.0 / 255.0, 0.0), vision.Rescale(1 / 0.3081, -1 * 0.1307 / 0.3081),
                          vision.HWC2CHW()], input_columns="image")
    d = d.batch(4, drop_remainder=True)
    rows = list(d.create_dict_iterator())
    return rows[0]["image"][:, :, 14:17, 14:17], rows[0]["label"], rows[0]["image"].shape, d.get_dataset_size()


def case_ds_fashion_mnist(ms):
    d = ms.dataset.FashionMnistDataset(_mnist_dir(), usage="test", shuffle=False)
    rows = _rows(d.create_tuple_iterator(output_numpy=True))
    return d.get_col_names(), d.get_dataset_size(), rows[1][0][5:8, 5:8, 0], rows[1][0].dtype.name, \
        [r[1] for r in rows], ms.dataset.FashionMnistDataset(_mnist_dir(), num_samples=4).get_dataset_size()


def _cifar10_dir():
    d = _tmp()
    rs = np.random.RandomState(7)
    for name in ("data_batch_1.bin", "test_batch.bin"):  # MindSpore reads 10000 records per file
        rec = np.concatenate([rs.randint(0, 10, (10000, 1)), rs.randint(0, 256, (10000, 3072))], axis=1)
        rec.astype(np.uint8).tofile(os.path.join(d, name))
    return d


def case_ds_cifar10(ms):
    """CIFAR-10 binary files: 1 label byte + 3072 CHW pixel bytes per record; image comes out HWC."""
    d = _cifar10_dir()
    tr = ms.dataset.Cifar10Dataset(d, usage="train", shuffle=False)
    te = ms.dataset.Cifar10Dataset(d, usage="test", shuffle=False, num_samples=3)
    al = ms.dataset.Cifar10Dataset(d, shuffle=False)
    rows = _rows(tr.take(5).create_tuple_iterator(output_numpy=True))
    return tr.get_col_names(), tr.get_dataset_size(), te.get_dataset_size(), al.get_dataset_size(), \
        rows[0][0][:2, :3, :], rows[4][0][31, 30:, :], rows[0][0].shape, rows[0][0].dtype.name, \
        [r[1] for r in rows], [int(r[1]) for r in te.create_tuple_iterator(output_numpy=True)], \
        [int(r[1]) for r in al.skip(9998).take(4).create_tuple_iterator(output_numpy=True)]


def case_ds_cifar10_short_file(ms):
    d = _tmp()
    np.zeros((5, 3073), np.uint8).tofile(os.path.join(d, "data_batch_1.bin"))
    return [r[1] for r in ms.dataset.Cifar10Dataset(d, shuffle=False).create_tuple_iterator(output_numpy=True)]


def case_ds_cifar10_bad_usage(ms):
    return ms.dataset.Cifar10Dataset(_cifar10_dir(), usage="valid")


def _image_folder():
    d = _tmp()
    for cls, files in (("cat", {"a.jpg": b"\x01\x02\x03", "b.png": b"\x04\x05"}), ("dog", {"c.jpg": b"\x06"}),
                       ("bird", {"d.JPG": b"\x07\x08", "e.txt": b"\x09"})):
        os.makedirs(os.path.join(d, cls))
        for name, data in files.items():
            with open(os.path.join(d, cls, name), "wb") as f:
                f.write(data)
    return d


def case_ds_image_folder(ms):
    """Class folders in name order; ``image`` is the file's bytes (decode=False)."""
    d = _image_folder()
    ds = ms.dataset.ImageFolderDataset(d, shuffle=False)
    rows = _rows(ds.create_tuple_iterator(output_numpy=True))
    only_jpg = ms.dataset.ImageFolderDataset(d, shuffle=False, extensions=[".jpg"])
    picked = ms.dataset.ImageFolderDataset(d, shuffle=False, class_indexing={"dog": 0, "cat": 5})
    return ds.get_col_names(), ds.get_dataset_size(), ds.get_class_indexing(), ds.num_classes(), rows, \
        _rows(only_jpg.create_tuple_iterator(output_numpy=True)), picked.get_class_indexing(), \
        _rows(picked.create_tuple_iterator(output_numpy=True))


def case_ds_image_folder_missing_dir(ms):
    return ms.dataset.ImageFolderDataset(os.path.join(_tmp(), "nope"))


def case_ds_fake_image(ms):
    """Random images: shapes, dtypes, label range and determinism (values are RNG-specific)."""
    d = ms.dataset.FakeImageDataset(num_images=6, image_size=(8, 6, 3), num_classes=4, base_seed=3, shuffle=False)
    rows = _rows(d.create_tuple_iterator(output_numpy=True))
    again = _rows(ms.dataset.FakeImageDataset(num_images=6, image_size=(8, 6, 3), num_classes=4, base_seed=3,
                                              shuffle=False).create_tuple_iterator(output_numpy=True))
    return d.get_col_names(), d.get_dataset_size(), d.num_classes, [r[0].shape for r in rows], \
        rows[0][0].dtype.name, rows[0][1].dtype.name, all(0 <= int(r[1]) < 4 for r in rows), \
        all((a[0] == b[0]).all() and a[1] == b[1] for a, b in zip(rows, again)), \
        ms.dataset.FakeImageDataset(num_images=10, num_samples=3).get_dataset_size()


def case_ds_fake_image_bad_size(ms):
    return ms.dataset.FakeImageDataset(num_images=0)


def case_ds_dataset_cache(ms):
    c = ms.dataset.DatasetCache(session_id=5, size=0, spilling=False)
    return c.session_id, c.size, c.spilling


def case_ds_dataset_cache_bad_session(ms):
    return ms.dataset.DatasetCache(session_id="x")


# ---------------------------------------------------------------------------
# vision / transforms
# ---------------------------------------------------------------------------
def _img(shape=(13, 11, 3), seed=0):
    return np.random.RandomState(seed).randint(0, 256, shape).astype(np.uint8)


def case_vision_resize(ms):
    V = _sub(ms, "dataset.vision")
    img = _img()
    return [V.Resize((20, 7))(img), V.Resize(17)(img), V.Resize((6, 5), V.Inter.NEAREST)(img),
            V.Resize((9, 14), V.Inter.BICUBIC)(img), V.Resize((6, 5), V.Inter.AREA)(img),
            V.Resize((20, 17), V.Inter.AREA)(img), V.Resize((8, 9))(img[:, :, 0]),
            V.Resize((5, 6))(img.astype(np.float32) / 255)]


def case_vision_rescale_normalize(ms):
    V = _sub(ms, "dataset.vision")
    img = _img()
    return [V.Rescale(1 / 255.0, 0.1)(img), V.Rescale(2.0, -1.0)(img.astype(np.float32)),
            V.Normalize([0.485 * 255, 0.456 * 255, 0.406 * 255], [0.229 * 255, 0.224 * 255, 0.225 * 255])(img),
            V.Normalize([1.0, 2.0, 3.0], [2.0, 2.0, 2.0], is_hwc=False)(img.transpose(2, 0, 1)),
            V.ToTensor()(img)]


def case_vision_layout_and_crops(ms):
    V = _sub(ms, "dataset.vision")
    img = _img((6, 5, 3))
    return [V.HWC2CHW()(img), V.HWC2CHW()(img[:, :, 0]), V.CenterCrop(3)(img), V.CenterCrop((2, 4))(img),
            V.CenterCrop((8, 7))(img), V.Pad(1)(img), V.Pad((1, 2, 0, 1), fill_value=9)(img),
            V.Pad((1, 2), padding_mode=V.Border.EDGE)(img), V.Pad(2, padding_mode=V.Border.REFLECT)(img),
            V.Pad(1, padding_mode=V.Border.SYMMETRIC)(img), V.HorizontalFlip()(img), V.VerticalFlip()(img),
            V.Crop((1, 2), (3, 2))(img)]


def case_vision_pad_channel_error(ms):
    V = _sub(ms, "dataset.vision")
    return V.Pad(1)(_img((6, 5, 2)))


def case_vision_random_shapes(ms):
    V = _sub(ms, "dataset.vision")
    img = _img((10, 12, 3))
    return [V.RandomCrop(6)(img).shape, V.RandomCrop((4, 5), padding=2)(img).shape,
            V.RandomResizedCrop(7)(img).shape, V.RandomHorizontalFlip(1.0)(img), V.RandomVerticalFlip(0.0)(img)]


def case_transforms_basic(ms):
    T = _sub(ms, "dataset.transforms")
    lab = np.array([1, 3], np.int32)
    return [T.TypeCast(ms.float16)(lab), T.TypeCast(np.int64)(np.array(5, np.uint32)), T.OneHot(4)(lab),
            T.OneHot(5, 0.1)(np.array(2)), T.Duplicate()(lab), T.Fill(7)(lab),
            T.PadEnd([4], 0)(lab), T.Concatenate(0, np.array([9], np.int32))(lab),
            T.Compose([T.TypeCast(ms.float32), T.Fill(2.5)])(lab)]


def case_transforms_in_map(ms):
    T = _sub(ms, "dataset.transforms")
    d = ms.dataset.NumpySlicesDataset({"y": np.array([0, 2, 1], np.int32)}, shuffle=False)
    d = d.map(T.OneHot(3), input_columns="y").map(T.TypeCast(ms.float32), input_columns="y").batch(3)
    return list(d.create_dict_iterator())


def case_transforms_errors(ms):
    T = _sub(ms, "dataset.transforms")
    return T.OneHot(0)


def all_cases():
    return {k[len("case_"):]: v for k, v in sorted(globals().items()) if k.startswith("case_") and callable(v)}


# ---------------------------------------------------------------------------
# TextFileDataset, CSVDataset, RandomDataset (files written per case)
# ---------------------------------------------------------------------------
def _write_text(d, name, text):
    p = os.path.join(d, name)
    with open(p, "w", newline="") as f:
        f.write(text)
    return p


def _text_files():
    d = _tmp()
    return (_write_text(d, "a.txt", "hello world\nsecond line\n\nfourth\n"), _write_text(d, "b.txt", "x y\r\nz\n"),
            _write_text(d, "c.txt", "one\ntwo\nthree\nfour\nfive\n"))


def _line_rows(ds):
    return [[x.tolist() for x in r] for r in ds.create_tuple_iterator(output_numpy=True)]


def case_textfile_two_files(ms):
    a, b, _ = _text_files()
    d = ms.dataset.TextFileDataset([a, b], shuffle=False)
    first = next(d.create_dict_iterator())["text"]
    return [d.get_col_names(), d.get_dataset_size(), _line_rows(d), type(first).__name__, str(first.dtype)]


def case_textfile_num_samples_and_shards(ms):
    a, b, c = _text_files()
    out = [_line_rows(ms.dataset.TextFileDataset(a, shuffle=False, num_samples=2))]
    for n in (2, 3):
        for i in range(n):
            d = ms.dataset.TextFileDataset([a, c], shuffle=False, num_shards=n, shard_id=i)
            out.append([d.get_dataset_size(), _line_rows(d)])
    d = ms.dataset.TextFileDataset(a, shuffle=False, num_shards=2, shard_id=1)
    out.append([d.get_dataset_size(), _line_rows(d)])
    return out


def case_textfile_workers_interleave(ms):
    a, b, c = _text_files()
    return [_line_rows(ms.dataset.TextFileDataset([c, a, b], shuffle=False, num_parallel_workers=w)) for w in (1, 2, 3)]


def case_textfile_shuffled_same_rows(ms):
    a, b, c = _text_files()
    ms.dataset.config.set_seed(3)
    d = ms.dataset.TextFileDataset([a, b, c])
    return [d.get_dataset_size(), sorted(r[0] for r in _line_rows(d))]


def case_textfile_batch_map(ms):
    _, _, c = _text_files()
    d = ms.dataset.TextFileDataset(c, shuffle=False).map(lambda s: np.array(len(str(s)), np.int32), ["text"], ["n"])
    return _line_rows(d.batch(2))


def case_textfile_missing(ms):
    return ms.dataset.TextFileDataset(os.path.join(_tmp(), "nope.txt"))


def case_textfile_empty_list(ms):
    return ms.dataset.TextFileDataset([])


def case_textfile_bad_type(ms):
    return ms.dataset.TextFileDataset(3)


def _csv_files():
    d = _tmp()
    return (_write_text(d, "d.csv", 'a,b,c\n1,2.5,foo\n3,4.5,"bar, x"\n5,6,baz\n'),
            _write_text(d, "e.csv", "a,b,c\n7,8.25,q\n9,-1,r\n"),
            _write_text(d, "bad.csv", "a,b,c\n1,2.5,foo\n5,,baz\n"),
            _write_text(d, "semi.csv", "x;y\n1;2\n3;4\n"))


def case_csv_typed(ms):
    p, _, _, _ = _csv_files()
    d = ms.dataset.CSVDataset(p, column_defaults=[0, 0.0, ""], shuffle=False)
    return [d.get_col_names(), d.get_dataset_size(), _line_rows(d),
            [str(x.dtype) for x in next(d.create_tuple_iterator(output_numpy=True))]]


def case_csv_strings_and_names(ms):
    p, _, _, _ = _csv_files()
    a = ms.dataset.CSVDataset(p, shuffle=False)
    b = ms.dataset.CSVDataset(p, column_names=["p", "q", "r"], shuffle=False)
    return [a.get_col_names(), _line_rows(a), b.get_col_names(), b.get_dataset_size(), _line_rows(b)]


def case_csv_two_files_and_shards(ms):
    p, e, _, _ = _csv_files()
    out = [_line_rows(ms.dataset.CSVDataset([p, e], column_defaults=[0, 0.0, ""], shuffle=False))]
    for i in range(2):
        d = ms.dataset.CSVDataset([p, e], column_defaults=[0, 0.0, ""], shuffle=False, num_shards=2, shard_id=i)
        out.append([d.get_dataset_size(), _line_rows(d)])
    return out


def case_csv_delim(ms):
    _, _, _, s = _csv_files()
    return [_line_rows(ms.dataset.CSVDataset(s, field_delim=";", column_defaults=[0, 0], shuffle=False)),
            _line_rows(ms.dataset.CSVDataset(s, shuffle=False))]


def case_csv_type_mismatch(ms):
    _, _, bad, _ = _csv_files()
    return _line_rows(ms.dataset.CSVDataset(bad, column_defaults=[0, 1.5, ""], shuffle=False))


def case_csv_bad_delim(ms):
    p, _, _, _ = _csv_files()
    return ms.dataset.CSVDataset(p, field_delim="ab")


def case_csv_bad_defaults(ms):
    p, _, _, _ = _csv_files()
    return ms.dataset.CSVDataset(p, column_defaults=[0, None, ""])


def case_csv_defaults_not_list(ms):
    p, _, _, _ = _csv_files()
    return ms.dataset.CSVDataset(p, column_defaults=(0, 1))


def case_csv_bad_names(ms):
    p, _, _, _ = _csv_files()
    return ms.dataset.CSVDataset(p, column_names=["a", 1])


def case_random_dataset_schema(ms):
    s = ms.dataset.Schema()
    s.add_column("img", de_type=ms.uint8, shape=[2, 3])
    s.add_column("lab", de_type=ms.int32, shape=[1])
    s.add_column("f", de_type=ms.float32, shape=[4])
    d = ms.dataset.RandomDataset(schema=s, total_rows=3)
    rows = list(d.create_tuple_iterator(output_numpy=True))
    same_byte = all(len(set(x.view(np.uint8).tolist())) == 1 for r in rows for x in r)
    sel = ms.dataset.RandomDataset(schema=s, total_rows=5, columns_list=["lab", "img"])
    return [d.get_col_names(), d.get_dataset_size(), len(rows), [(str(x.dtype), list(x.shape)) for x in rows[0]],
            same_byte, sel.get_col_names(), sel.get_dataset_size(),
            [list(x.shape) for x in next(sel.create_tuple_iterator(output_numpy=True))]]


def case_random_dataset_no_schema(ms):
    d = ms.dataset.RandomDataset(total_rows=4)
    names = d.get_col_names()
    rows = list(d.create_tuple_iterator(output_numpy=True))
    return [d.get_dataset_size(), len(rows), 1 <= len(names) <= 4, names == [f"c{i}" for i in range(len(names))],
            all(1 <= x.ndim <= 4 and all(1 <= s <= 32 for s in x.shape) for r in rows for x in r)]


def case_random_dataset_num_samples(ms):
    a = ms.dataset.RandomDataset(total_rows=10, num_samples=4)
    b = ms.dataset.RandomDataset(num_samples=6)
    c = ms.dataset.RandomDataset(total_rows=8, num_shards=3, shard_id=0)
    return [a.get_dataset_size(), b.get_dataset_size(), c.get_dataset_size(),
            sum(1 for _ in c.create_tuple_iterator(output_numpy=True))]


def case_random_dataset_bad_rows(ms):
    return ms.dataset.RandomDataset(total_rows=2.5)


def case_random_dataset_bad_shuffle(ms):
    return ms.dataset.RandomDataset(total_rows=2, shuffle="yes")


# ---------------------------------------------------------------------------
# DSCallback on map
# ---------------------------------------------------------------------------
_DS_HOOK_RANK = {"begin": 0, "epoch_begin": 1, "step_begin": 2, "step_end": 3, "epoch_end": 4}


def _ds_callback_log(ms, step_size, epochs, rows=5):
    log = []

    class CB(ms.dataset.DSCallback):
        def _rec(self, kind, c):
            log.append((kind, c.cur_epoch_num, c.cur_step_num_in_epoch, c.cur_step_num))

        def ds_begin(self, c):
            self._rec("begin", c)

        def ds_epoch_begin(self, c):
            self._rec("epoch_begin", c)

        def ds_epoch_end(self, c):
            self._rec("epoch_end", c)

        def ds_step_begin(self, c):
            self._rec("step_begin", c)

        def ds_step_end(self, c):
            self._rec("step_end", c)

    d = ms.dataset.NumpySlicesDataset(np.arange(rows), column_names=["x"], shuffle=False)
    d = d.map(lambda x: x * 2, ["x"], callbacks=[CB(step_size=step_size)])
    it = d.create_tuple_iterator(num_epochs=epochs, output_numpy=True)
    out = [[int(r[0]) for r in it] for _ in range(epochs)]
    # MindSpore calls the step hooks from its workers: compare them in a canonical order
    return [out, sorted(log, key=lambda e: (e[1], _DS_HOOK_RANK[e[0]], e[3]))]


def case_ds_callback_steps(ms):
    return [_ds_callback_log(ms, 2, 2), _ds_callback_log(ms, 1, 1, rows=3)]


def case_ds_callback_default_step_size(ms):
    return ms.dataset.DSCallback().step_size


def case_ds_callback_bad_step_size(ms):
    return ms.dataset.DSCallback(step_size=0)


def case_ds_callback_not_callback(ms):
    d = ms.dataset.NumpySlicesDataset(np.arange(3), column_names=["x"], shuffle=False)
    return d.map(lambda x: x, ["x"], callbacks=[object()])


def case_waited_ds_callback_model_train(ms):
    events = []

    class Waited(ms.dataset.WaitedDSCallback):
        def sync_epoch_begin(self, train_run_context, ds_run_context):
            events.append(("epoch", train_run_context.original_args().cur_epoch_num, ds_run_context.cur_epoch_num))

        def sync_step_begin(self, train_run_context, ds_run_context):
            events.append(("step", train_run_context.original_args().cur_step_num, ds_run_context.cur_step_num))

    cb = Waited(step_size=2)
    x = np.arange(12, dtype=np.float32).reshape(6, 2) / 10
    y = np.ones((6, 1), np.float32)
    data = ms.dataset.NumpySlicesDataset({"x": x, "y": y}, shuffle=False)
    data = data.map(lambda v: v * 2, ["x"], callbacks=[cb]).batch(2)
    net = ms.nn.Dense(2, 1, weight_init="ones", bias_init="zeros")
    model = ms.train.Model(net, ms.nn.MSELoss(), ms.nn.SGD(net.trainable_params(), 0.01))
    model.train(2, data, dataset_sink_mode=False, callbacks=[cb])
    return [events, cb.training_ended, net.weight.asnumpy()]


def case_waited_ds_callback_no_override(ms):
    d = ms.dataset.NumpySlicesDataset(np.arange(3), column_names=["x"], shuffle=False)
    d = d.map(lambda x: x, ["x"], callbacks=[ms.dataset.WaitedDSCallback()])
    return [int(r[0]) for r in d.create_tuple_iterator(output_numpy=True)]
