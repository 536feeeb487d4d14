"""Golden cases: three reference models written in MindSpore style.

* LeNet5 as defined in MindSpore's model zoo (Conv2d(1, 6, 5, pad_mode='valid'), ReLU,
  MaxPool2d(2, 2), Conv2d(6, 16, 5, pad_mode='valid'), Flatten, Dense 400-120-84-10) with
  SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean');
* a ResNet basic block (model zoo ``ResidualBlockBase``: conv3x3-BN-ReLU-conv3x3-BN plus a
  conv1x1-BN down-sampling branch, BatchNorm in training mode) with MSELoss: outputs, loss,
  gradients and the moving statistics after one and after two training steps (a plain SGD
  update written with ``set_data`` in between);
* a 2-layer ``nn.TransformerEncoder`` (d_model 8, 2 heads, feed-forward 16, dropout 0) with MSELoss.

Every parameter is set with ``set_data`` from a seeded numpy RandomState in
``parameters_and_names()`` order; gradients come from
``ms.value_and_grad(fn, None, weights=net.trainable_params(), has_aux=True)``.
"""
import re

import numpy as np


def _set_all(ms, net, seed, scale=0.1):
    r = np.random.RandomState(seed)
    for _, p in net.parameters_and_names():
        p.set_data(ms.Tensor((r.randn(*p.shape) * scale).astype(np.float32)))


def _names(net):
    return [(n, p.name, list(p.shape), p.requires_grad) for n, p in net.parameters_and_names()]


# ===========================================================================
# LeNet5
# ===========================================================================
def _lenet5(ms):
    nn = ms.nn
    Normal = ms.common.initializer.Normal

    class LeNet5(nn.Cell):
        def __init__(self, num_class=10, num_channel=1, include_top=True):
            super(LeNet5, self).__init__()
            self.conv1 = nn.Conv2d(num_channel, 6, 5, pad_mode='valid')
            self.conv2 = nn.Conv2d(6, 16, 5, pad_mode='valid')
            self.relu = nn.ReLU()
            self.max_pool2d = nn.MaxPool2d(kernel_size=2, stride=2)
            self.include_top = include_top
            if self.include_top:
                self.flatten = nn.Flatten()
                self.fc1 = nn.Dense(16 * 5 * 5, 120, weight_init=Normal(0.02))
                self.fc2 = nn.Dense(120, 84, weight_init=Normal(0.02))
                self.fc3 = nn.Dense(84, num_class, weight_init=Normal(0.02))

        def construct(self, x):
            x = self.conv1(x)
            x = self.relu(x)
            x = self.max_pool2d(x)
            x = self.conv2(x)
            x = self.relu(x)
            x = self.max_pool2d(x)
            if not self.include_top:
                return x
            x = self.flatten(x)
            x = self.relu(self.fc1(x))
            x = self.relu(self.fc2(x))
            x = self.fc3(x)
            return x

    return LeNet5()


def _lenet_data(ms):
    r = np.random.RandomState(10)
    x = ms.Tensor(r.randn(2, 1, 32, 32).astype(np.float32))
    y = ms.Tensor(np.array([3, 7], np.int32))
    return x, y


def _lenet_step(ms, net):
    loss_fn = ms.nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction='mean')

    def forward_fn(data, label):
        logits = net(data)
        loss = loss_fn(logits, label)
        return loss, logits

    return ms.value_and_grad(forward_fn, None, weights=net.trainable_params(), has_aux=True)


def case_lenet5_structure(ms):
    net = _lenet5(ms)
    # the default weight_init prints as "<mindspore.common.initializer.HeUniform object at 0x...>"
    text = re.sub(r"<[\w.]*initializer\.(\w+) object at 0x[0-9a-f]+>", r"<\1>", repr(net))
    return {"names": _names(net), "repr": text, "n_trainable": len(net.trainable_params())}


def case_lenet5_forward_loss_grads(ms):
    net = _lenet5(ms)
    _set_all(ms, net, 0)
    x, y = _lenet_data(ms)
    (loss, logits), grads = _lenet_step(ms, net)(x, y)
    return {"logits": logits, "loss": loss, "grads": grads, "forward_again": net(x)}


def case_lenet5_two_sgd_steps(ms):
    net = _lenet5(ms)
    _set_all(ms, net, 1)
    x, y = _lenet_data(ms)
    step = _lenet_step(ms, net)
    losses = []
    for _ in range(2):
        (loss, _), grads = step(x, y)
        losses.append(loss)
        for p, g in zip(net.trainable_params(), grads):
            p.set_data(p - 0.05 * g)
    return {"losses": losses, "fc3_bias": net.fc3.bias.value(), "conv1": net.conv1.weight.value()}


# ===========================================================================
# ResNet basic block
# ===========================================================================
def _resblock(ms, in_channel=4, out_channel=8, stride=2):
    nn = ms.nn

    def _conv3x3(in_c, out_c, stride=1):
        return nn.Conv2d(in_c, out_c, kernel_size=3, stride=stride, padding=0, pad_mode='same')

    def _conv1x1(in_c, out_c, stride=1):
        return nn.Conv2d(in_c, out_c, kernel_size=1, stride=stride, padding=0, pad_mode='same')

    def _bn(channel):
        return nn.BatchNorm2d(channel, eps=1e-4, momentum=0.9, gamma_init=1, beta_init=0, moving_mean_init=0,
                              moving_var_init=1)

    class ResidualBlockBase(nn.Cell):
        expansion = 1

        def __init__(self, in_channel, out_channel, stride=1):
            super(ResidualBlockBase, self).__init__()
            self.conv1 = _conv3x3(in_channel, out_channel, stride=stride)
            self.bn1d = _bn(out_channel)
            self.conv2 = _conv3x3(out_channel, out_channel, stride=1)
            self.bn2d = _bn(out_channel)
            self.relu = nn.ReLU()
            self.down_sample = False
            if stride != 1 or in_channel != out_channel:
                self.down_sample = True
            self.down_sample_layer = None
            if self.down_sample:
                self.down_sample_layer = nn.SequentialCell([_conv1x1(in_channel, out_channel, stride),
                                                            _bn(out_channel)])

        def construct(self, x):
            identity = x
            out = self.conv1(x)
            out = self.bn1d(out)
            out = self.relu(out)
            out = self.conv2(out)
            out = self.bn2d(out)
            if self.down_sample:
                identity = self.down_sample_layer(identity)
            out = out + identity
            out = self.relu(out)
            return out

    return ResidualBlockBase(in_channel, out_channel, stride)


def _res_init(ms, net, seed):
    r = np.random.RandomState(seed)
    for name, p in net.parameters_and_names():
        if name.endswith("moving_variance"):
            v = np.abs(r.randn(*p.shape)) + 0.5
        elif name.endswith("gamma"):
            v = 1.0 + 0.1 * r.randn(*p.shape)
        else:
            v = 0.2 * r.randn(*p.shape)
        p.set_data(ms.Tensor(v.astype(np.float32)))


def _stats(net):
    return {n: p.value() for n, p in net.parameters_and_names() if "moving" in n}


def _res_step(ms, net):
    loss_fn = ms.nn.MSELoss()

    def forward_fn(x, t):
        out = net(x)
        return loss_fn(out, t), out

    return ms.value_and_grad(forward_fn, None, weights=net.trainable_params(), has_aux=True)


def _res_data(ms):
    r = np.random.RandomState(20)
    x = ms.Tensor(r.randn(2, 4, 6, 6).astype(np.float32))
    t = ms.Tensor(r.randn(2, 8, 3, 3).astype(np.float32))
    return x, t


def case_resblock_structure(ms):
    net = _resblock(ms)
    return {"names": _names(net), "n_trainable": len(net.trainable_params()),
            "untrainable": [p.name for p in net.untrainable_params()]}


def case_resblock_train_step(ms):
    net = _resblock(ms)
    _res_init(ms, net, 0)
    net.set_train()
    x, t = _res_data(ms)
    (loss, out), grads = _res_step(ms, net)(x, t)
    return {"out": out, "loss": loss, "grads": grads, "stats": _stats(net)}


def case_resblock_two_steps_then_eval(ms):
    net = _resblock(ms)
    _res_init(ms, net, 1)
    net.set_train()
    x, t = _res_data(ms)
    step = _res_step(ms, net)
    losses, stats = [], []
    for _ in range(2):
        (loss, _), grads = step(x, t)
        losses.append(loss)
        stats.append(_stats(net))
        for p, g in zip(net.trainable_params(), grads):
            p.set_data(p - 0.1 * g)
    net.set_train(False)
    ev = net(x)
    return {"losses": losses, "stats": stats, "eval_out": ev, "stats_after_eval": _stats(net)}


def case_resblock_identity_shortcut(ms):
    net = _resblock(ms, 4, 4, 1)
    _res_init(ms, net, 2)
    net.set_train()
    x = ms.Tensor(np.random.RandomState(21).randn(2, 4, 5, 5).astype(np.float32))
    t = ms.Tensor(np.random.RandomState(22).randn(2, 4, 5, 5).astype(np.float32))
    (loss, out), grads = _res_step(ms, net)(x, t)
    return {"out": out, "loss": loss, "grads": grads, "stats": _stats(net), "names": _names(net)}


# ===========================================================================
# Transformer encoder
# ===========================================================================
def _encoder(ms):
    nn = ms.nn
    layer = nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16, dropout=0.0)
    return nn.TransformerEncoder(layer, num_layers=2)


def _enc_data(ms):
    r = np.random.RandomState(30)
    src = ms.Tensor(r.randn(4, 2, 8).astype(np.float32))
    tgt = ms.Tensor(r.randn(4, 2, 8).astype(np.float32))
    return src, tgt


def _enc_step(ms, net):
    loss_fn = ms.nn.MSELoss()

    def forward_fn(src, tgt, mask):
        out = net(src, src_mask=mask)
        return loss_fn(out, tgt), out

    return ms.value_and_grad(forward_fn, None, weights=net.trainable_params(), has_aux=True)


def case_transformer_encoder_structure(ms):
    net = _encoder(ms)
    return {"names": _names(net), "n_trainable": len(net.trainable_params())}


def case_transformer_encoder_train_step(ms):
    net = _encoder(ms)
    _set_all(ms, net, 0, scale=0.3)
    net.set_train()
    src, tgt = _enc_data(ms)
    (loss, out), grads = _enc_step(ms, net)(src, tgt, None)
    return {"out": out, "loss": loss, "grads": grads}


def case_transformer_encoder_masked(ms):
    net = _encoder(ms)
    _set_all(ms, net, 1, scale=0.3)
    src, tgt = _enc_data(ms)
    mask = ms.Tensor(np.triu(np.full((4, 4), -1e9, np.float32), 1))
    (loss, out), grads = _enc_step(ms, net)(src, tgt, mask)
    kpm = ms.Tensor(np.array([[False, False, True, True], [False, False, False, False]]))
    return {"out": out, "loss": loss, "grads": grads, "kpm": net(src, src_key_padding_mask=kpm)}


def all_cases():
    return {k[len("case_"):]: v for k, v in sorted(globals().items()) if k.startswith("case_") and callable(v)}
