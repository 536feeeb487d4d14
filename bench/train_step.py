"""Training-step benchmark: msjax ``nn.TrainOneStepCell`` in GRAPH_MODE against a
hand-written JAX + optax step of the same model and a PyTorch eager step (when
``import torch`` works), in the same process.

Rows: LeNet5 (batch 32 and 256, Momentum), an MLP 784-1024-1024-10 (Adam, batch 128),
the model zoo's ResNet18 (``official/cv/ResNet``: ImageNet stem) on 3x32x32 CIFAR-10 images
and the CIFAR-10 ResNet18 of ``examples/zoo/resnet`` (3x3 stem; both batch 32, Momentum,
BatchNorm in training mode) and a small transformer encoder (token + position embeddings, two
``nn.TransformerEncoderLayer``\\ s, seq 128, d_model 256, 4 heads, ffn 1024, vocabulary
1000, a token predicted at every position; batch 32, Adam), softmax cross-entropy
(sparse labels, mean). Every side starts from the msjax net's weights (BatchNorm's
moving statistics included) and sees the same batch; the losses of the first two
steps of the three sides are printed side by side (they should agree to ~1e-4
relative: a check of the hand-written models).

For each side: steps/s (after warm-up, device synchronised; the sides are timed in
alternating blocks so that load changes on a shared machine hit them alike), the first
step's time (msjax and JAX: trace + compile + run), and the compiled step's memory
(XLA's memory analysis: arguments + outputs + temporaries - aliased/donated bytes;
plus the device's peak bytes where the backend reports them). The zoo ResNet18 takes
``--steps // 4`` timed steps; the CIFAR ResNet18 and the transformer ``--steps // 20`` (at
least 10). PyTorch uses as many
threads as the process may run on (``os.sched_getaffinity``: one under
``taskset -c 0``).

    python bench/train_step.py [--steps 200] [--rows lenet32,lenet256,mlp128,resnet18zoo,resnet18,transformer]
"""
from __future__ import annotations

import argparse
import functools
import importlib.util
import os
import sys
import time

import numpy as np

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, _ROOT)

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import optax  # noqa: E402

import msjax as ms  # noqa: E402
from msjax import nn, ops  # noqa: E402
from msjax.common._cell_cache import cell_functions  # noqa: E402
from msjax.ops._impl import conv_lowering, conv_onednn  # noqa: E402
from msjax.common.initializer import HeNormal, Normal, initializer  # noqa: E402


# ---------------------------------------------------------------------------
# models (msjax)
# ---------------------------------------------------------------------------
class LeNet5(nn.Cell):
    """The model-zoo LeNet5 (input 1x32x32)."""

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


class MLP(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(784, 1024)
        self.fc2 = nn.Dense(1024, 1024)
        self.fc3 = nn.Dense(1024, 10)
        self.relu = nn.ReLU()

    def construct(self, x):
        return self.fc3(self.relu(self.fc2(self.relu(self.fc1(x)))))


def _zoo_resnet_module():
    """``examples/zoo/resnet/src/resnet.py`` (a MindSpore script: loaded with ``mindspore``
    resolved to msjax)."""
    from msjax import _compat
    _compat.install()
    path = os.path.join(_ROOT, "examples", "zoo", "resnet", "src", "resnet.py")
    spec = importlib.util.spec_from_file_location("_zoo_resnet", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def resnet18():
    """``examples/zoo/resnet``'s ResNet18 (3x3 stem, the CIFAR-10 variant)."""
    return _zoo_resnet_module().resnet18(10)


def resnet18_zoo():
    """The model zoo's ``official/cv/ResNet`` ResNet18 as its CIFAR-10 config runs it on 32x32
    images (``--train_image_size=32``): the ImageNet stem (7x7/2 convolution, BatchNorm, ReLU,
    3x3/2 max pool, ``pad_mode='same'``) before the same four stages, which then work on 8x8
    down to 1x1 maps."""
    mod = _zoo_resnet_module()

    class ZooResNet18(mod.ResNet):
        def __init__(self):
            super().__init__([2, 2, 2, 2], [64, 128, 256, 512], 10)
            self.conv1 = nn.Conv2d(3, 64, 7, stride=2, pad_mode="pad", padding=3, has_bias=False,
                                   weight_init=HeNormal(mode="fan_out", nonlinearity="relu"))
            self.max_pool = nn.MaxPool2d(kernel_size=3, stride=2, pad_mode="same")

        def construct(self, x):
            x = self.max_pool(self.relu(self.bn1(self.conv1(x))))
            x = self.layer4(self.layer3(self.layer2(self.layer1(x))))
            return self.end_point(self.mean(x, (2, 3)))

    return ZooResNet18()


ENCODER = dict(vocab=1000, seq=128, d_model=256, nhead=4, num_layers=2, ffn=1024)


class TokenEncoder(nn.Cell):
    """Token + learned position embeddings, post-norm ``nn.TransformerEncoder`` layers
    (ReLU, no dropout) and a dense head: logits for every position, (batch * seq, vocab)."""

    def __init__(self, vocab, seq, d_model, nhead, num_layers, ffn):
        super().__init__()
        self.embedding = nn.Embedding(vocab, d_model)
        self.pos_embedding = ms.Parameter(initializer(Normal(0.02), (1, seq, d_model)), name="pos_embedding")
        layer = nn.TransformerEncoderLayer(d_model, nhead, ffn, dropout=0.0, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, num_layers)
        self.head = nn.Dense(d_model, vocab)
        self.vocab = vocab

    def construct(self, ids):
        x = self.encoder(self.embedding(ids) + self.pos_embedding)
        return ops.reshape(self.head(x), (-1, self.vocab))


# ---------------------------------------------------------------------------
# the same models in plain JAX: apply(params, state, x) -> (logits, new state)
# ---------------------------------------------------------------------------
def _conv(x, w, b=None, stride=1, padding="VALID"):
    y = jax.lax.conv_general_dilated(x, w, (stride, stride), padding, dimension_numbers=("NCHW", "OIHW", "NCHW"))
    return y if b is None else y + b[None, :, None, None]


def _pool(x):
    return jax.lax.reduce_window(x, -jnp.inf, jax.lax.max, (1, 1, 2, 2), (1, 1, 2, 2), "VALID")


def _dense(p, name, x):
    return x @ p[name + ".weight"].T + p[name + ".bias"]


def jax_lenet(p, x):
    x = _pool(jax.nn.relu(_conv(x, p["conv1.weight"], p.get("conv1.bias"))))
    x = _pool(jax.nn.relu(_conv(x, p["conv2.weight"], p.get("conv2.bias"))))
    x = x.reshape(x.shape[0], -1)
    x = jax.nn.relu(_dense(p, "fc1", x))
    x = jax.nn.relu(_dense(p, "fc2", x))
    return _dense(p, "fc3", x)


def jax_mlp(p, x):
    x = jax.nn.relu(_dense(p, "fc1", x))
    x = jax.nn.relu(_dense(p, "fc2", x))
    return _dense(p, "fc3", x)


def _stateless(apply):
    return lambda p, s, x: (apply(p, x), s)


def _batch_norm(p, s, new, name, x, momentum=0.9, eps=1e-5):
    """Training-mode BatchNorm over (N, H, W); the moving statistics are updated as
    MindSpore does (``moving = momentum * moving + (1 - momentum) * batch``, unbiased
    batch variance) into ``new``."""
    mean, var = x.mean((0, 2, 3)), x.var((0, 2, 3))
    n = x.size // x.shape[1]
    new[name + ".moving_mean"] = momentum * s[name + ".moving_mean"] + (1 - momentum) * mean
    new[name + ".moving_variance"] = momentum * s[name + ".moving_variance"] + (1 - momentum) * var * n / (n - 1)
    scale = p[name + ".gamma"] * jax.lax.rsqrt(var + eps)
    return (x - mean[None, :, None, None]) * scale[None, :, None, None] + p[name + ".beta"][None, :, None, None]


def jax_resnet(p, s, x, zoo_stem=False):
    new = {}
    pad1 = ((1, 1), (1, 1))

    def conv_bn(name, bn, x, stride=1, padding=pad1):
        return _batch_norm(p, s, new, bn, _conv(x, p[name + ".weight"], stride=stride, padding=padding))

    if zoo_stem:     # 7x7/2 convolution, then a 3x3/2 max pool padded as MindSpore's 'same' (at the end)
        x = jax.nn.relu(conv_bn("conv1", "bn1", x, 2, ((3, 3), (3, 3))))
        pads = [(0, 0), (0, 0)] + [(t // 2, t - t // 2) for t in
                                   (max((-(-n // 2) - 1) * 2 + 3 - n, 0) for n in x.shape[2:])]
        x = jax.lax.reduce_window(x, -jnp.inf, jax.lax.max, (1, 1, 3, 3), (1, 1, 2, 2), pads)
    else:
        x = jax.nn.relu(conv_bn("conv1", "bn1", x))
    stage = 1
    while f"layer{stage}.0.conv1.weight" in p:
        block = 0
        while f"layer{stage}.{block}.conv1.weight" in p:
            b = f"layer{stage}.{block}."
            stride = 2 if stage > 1 and block == 0 else 1
            out = jax.nn.relu(conv_bn(b + "conv1", b + "bn1", x, stride))
            out = conv_bn(b + "conv2", b + "bn2", out)
            if b + "down_sample_layer.0.weight" in p:
                x = conv_bn(b + "down_sample_layer.0", b + "down_sample_layer.1", x, stride, "VALID")
            x = jax.nn.relu(out + x)
            block += 1
        stage += 1
    return _dense(p, "end_point", x.mean((2, 3))), new


def _layer_norm(p, name, x, eps=1e-5):
    mean, var = x.mean(-1, keepdims=True), x.var(-1, keepdims=True)
    return (x - mean) * jax.lax.rsqrt(var + eps) * p[name + ".gamma"] + p[name + ".beta"]


def jax_encoder(p, ids, nhead):
    x = p["embedding.embedding_table"][ids] + p["pos_embedding"]
    batch, seq, d = x.shape
    i = 0
    while f"encoder.layers.{i}.norm1.gamma" in p:
        lay = f"encoder.layers.{i}."
        qkv = x @ p[lay + "self_attn.in_proj_weight"].T + p[lay + "self_attn.in_proj_bias"]
        q, k, v = qkv.reshape(batch, seq, 3, nhead, d // nhead).transpose(2, 0, 3, 1, 4)
        att = jax.nn.softmax(q @ k.swapaxes(-1, -2) / (d // nhead) ** 0.5, axis=-1) @ v
        att = _dense(p, lay + "self_attn.out_proj", att.transpose(0, 2, 1, 3).reshape(batch, seq, d))
        x = _layer_norm(p, lay + "norm1", x + att)
        x = _layer_norm(p, lay + "norm2", x + _dense(p, lay + "dense2", jax.nn.relu(_dense(p, lay + "dense1", x))))
        i += 1
    logits = _dense(p, "head", x)
    return logits.reshape(-1, logits.shape[-1])


def _xent(logits, labels):
    return jnp.mean(optax.softmax_cross_entropy_with_integer_labels(logits, labels))


def make_jax_step(apply, tx):
    def loss_fn(params, state, x, y):
        logits, state = apply(params, state, x)
        return _xent(logits, y), state

    def step(params, state, opt_state, x, y):
        (loss, state), grads = jax.value_and_grad(loss_fn, has_aux=True)(params, state, x, y)
        updates, opt_state = tx.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), state, opt_state, loss

    return jax.jit(step, donate_argnums=(0, 1, 2))


# ---------------------------------------------------------------------------
# the same models in PyTorch (eager), with msjax's parameter names where torch
# has no name of its own (see _torch_name)
# ---------------------------------------------------------------------------
def _torch_models():
    import torch
    from torch import nn as tnn
    from torch.nn import functional as tf

    class TorchLeNet5(tnn.Module):
        def __init__(self):
            super().__init__()
            self.conv1 = tnn.Conv2d(1, 6, 5, bias=False)
            self.conv2 = tnn.Conv2d(6, 16, 5, bias=False)
            self.fc1, self.fc2, self.fc3 = tnn.Linear(400, 120), tnn.Linear(120, 84), tnn.Linear(84, 10)

        def forward(self, x):
            x = tf.max_pool2d(tf.relu(self.conv1(x)), 2)
            x = tf.max_pool2d(tf.relu(self.conv2(x)), 2).flatten(1)
            return self.fc3(tf.relu(self.fc2(tf.relu(self.fc1(x)))))

    class TorchMLP(tnn.Module):
        def __init__(self):
            super().__init__()
            self.fc1, self.fc2, self.fc3 = tnn.Linear(784, 1024), tnn.Linear(1024, 1024), tnn.Linear(1024, 10)

        def forward(self, x):
            return self.fc3(tf.relu(self.fc2(tf.relu(self.fc1(x)))))

    class TorchBasicBlock(tnn.Module):
        def __init__(self, cin, cout, stride):
            super().__init__()
            self.conv1 = tnn.Conv2d(cin, cout, 3, stride, 1, bias=False)
            self.bn1 = tnn.BatchNorm2d(cout, momentum=0.1)
            self.conv2 = tnn.Conv2d(cout, cout, 3, 1, 1, bias=False)
            self.bn2 = tnn.BatchNorm2d(cout, momentum=0.1)
            self.down_sample_layer = None
            if stride != 1 or cin != cout:
                self.down_sample_layer = tnn.Sequential(tnn.Conv2d(cin, cout, 1, stride, bias=False),
                                                        tnn.BatchNorm2d(cout, momentum=0.1))

        def forward(self, x):
            out = self.bn2(self.conv2(tf.relu(self.bn1(self.conv1(x)))))
            return tf.relu(out + (x if self.down_sample_layer is None else self.down_sample_layer(x)))

    class TorchResNet18(tnn.Module):
        def __init__(self, channels=(64, 128, 256, 512), num_classes=10, zoo_stem=False):
            super().__init__()
            self.zoo_stem = zoo_stem
            self.conv1 = (tnn.Conv2d(3, channels[0], 7, 2, 3, bias=False) if zoo_stem
                          else tnn.Conv2d(3, channels[0], 3, 1, 1, bias=False))
            self.bn1 = tnn.BatchNorm2d(channels[0], momentum=0.1)
            cin = channels[0]
            for i, cout in enumerate(channels):
                setattr(self, f"layer{i + 1}", tnn.Sequential(TorchBasicBlock(cin, cout, 2 if i else 1),
                                                              TorchBasicBlock(cout, cout, 1)))
                cin = cout
            self.end_point = tnn.Linear(cin, num_classes)

        def forward(self, x):
            x = tf.relu(self.bn1(self.conv1(x)))
            if self.zoo_stem:
                pad = [(t // 2, t - t // 2) for t in (max((-(-n // 2) - 1) * 2 + 3 - n, 0) for n in x.shape[2:])]
                x = tf.max_pool2d(tf.pad(x, (*pad[1], *pad[0]), value=float("-inf")), 3, 2)
            x = self.layer4(self.layer3(self.layer2(self.layer1(x))))
            return self.end_point(x.mean((2, 3)))

    class TorchTokenEncoder(tnn.Module):
        def __init__(self, vocab, seq, d_model, nhead, num_layers, ffn):
            super().__init__()
            self.embedding = tnn.Embedding(vocab, d_model)
            self.pos_embedding = tnn.Parameter(torch.zeros(1, seq, d_model))
            layer = tnn.TransformerEncoderLayer(d_model, nhead, ffn, dropout=0.0, batch_first=True)
            self.encoder = tnn.TransformerEncoder(layer, num_layers, enable_nested_tensor=False)
            self.head = tnn.Linear(d_model, vocab)

        def forward(self, ids):
            logits = self.head(self.encoder(self.embedding(ids) + self.pos_embedding))
            return logits.reshape(-1, logits.shape[-1])

    return dict(lenet=TorchLeNet5, mlp=TorchMLP, resnet18=TorchResNet18,
                resnet18zoo=functools.partial(TorchResNet18, zoo_stem=True),
                transformer=lambda: TorchTokenEncoder(**ENCODER))


_TORCH_SUFFIXES = ((".gamma", ".weight"), (".beta", ".bias"), (".moving_mean", ".running_mean"),
                   (".moving_variance", ".running_var"), ("embedding_table", "weight"))


def _torch_name(name):
    """msjax parameter name -> PyTorch state-dict key."""
    for ms_suffix, torch_suffix in _TORCH_SUFFIXES:
        if name.endswith(ms_suffix):
            name = name[:-len(ms_suffix)] + torch_suffix
    return name.replace(".dense1.", ".linear1.").replace(".dense2.", ".linear2.")


# ---------------------------------------------------------------------------
# optimizers: msjax, optax, torch
# ---------------------------------------------------------------------------
OPTIMIZERS = {
    "Momentum": (lambda p: nn.Momentum(p, 0.01, 0.9), lambda: optax.sgd(0.01, momentum=0.9),
                 lambda torch, p: torch.optim.SGD(p, lr=0.01, momentum=0.9)),
    "Adam": (lambda p: nn.Adam(p, 1e-3), lambda: optax.adam(1e-3),
             lambda torch, p: torch.optim.Adam(p, lr=1e-3)),
}


# ---------------------------------------------------------------------------
# measuring
# ---------------------------------------------------------------------------
def _sync(x):
    jax.block_until_ready(x)


def _peak_device_bytes():
    stats = jax.devices()[0].memory_stats() or {}
    return stats.get("peak_bytes_in_use")


def _xla_bytes(lowered):
    try:
        m = lowered.compile().memory_analysis()
        return (m.argument_size_in_bytes + m.output_size_in_bytes + m.temp_size_in_bytes
                - m.alias_size_in_bytes)
    except Exception:  # noqa: BLE001  (backends without memory analysis)
        return None


class Side:
    """One side of a row: ``step()`` runs a training step, ``sync()`` waits for it.
    ``start()`` times the first step, records the losses of the first two steps and
    warms up (4 steps in all)."""

    def __init__(self, step, sync, loss):
        self.step, self.sync, self.loss = step, sync, loss
        self.mem = None

    def start(self):
        t0 = time.perf_counter()
        self.step()
        self.sync()
        self.first = time.perf_counter() - t0
        self.losses = [self.loss()]
        self.step()
        self.losses.append(self.loss())
        for _ in range(2):
            self.step()
        self.sync()
        return self


def setup_msjax(net, opt, x, y):
    """The msjax side: ``TrainOneStepCell`` in GRAPH_MODE."""
    ms.set_context(mode=ms.GRAPH_MODE)
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    cell = nn.TrainOneStepCell(nn.WithLossCell(net, loss_fn), opt)
    cell.set_train()
    xt, yt = ms.Tensor(x), ms.Tensor(y)
    out = {}

    def step():
        out["loss"] = cell(xt, yt)

    def sync():
        _sync((out["loss"]._data, [p._data for p in net.trainable_params()]))

    side = Side(step, sync, lambda: float(out["loss"].asnumpy())).start()
    sf = cell_functions(cell).get("train_step")
    entry = next(iter(sf._cache.values())) if sf is not None and sf._cache else None
    if entry is not None and hasattr(entry.call, "lower"):
        state_vals = [p._raw_get() for p in entry.state]
        side.mem = _xla_bytes(entry.call.lower(state_vals, [xt._data, yt._data], None))
    return side


def setup_jax(apply, params, state, tx, x, y):
    """The hand-written side: jitted value_and_grad + optax update with donated state."""
    step_fn = make_jax_step(apply, tx)
    st = {"params": jax.tree_util.tree_map(jnp.array, params), "state": jax.tree_util.tree_map(jnp.array, state)}
    st["opt"] = tx.init(st["params"])
    xj, yj = jnp.asarray(x), jnp.asarray(y)

    def step():
        st["params"], st["state"], st["opt"], st["loss"] = step_fn(st["params"], st["state"], st["opt"], xj, yj)

    def sync():
        _sync((st["loss"], st["params"]))

    side = Side(step, sync, lambda: float(st["loss"])).start()
    if st["loss"].dtype != jnp.float32:   # a float64 constant (msjax enables x64) would promote the model
        raise TypeError(f"the hand-written step computes in {st['loss'].dtype}")
    side.mem = _xla_bytes(step_fn.lower(st["params"], st["state"], st["opt"], xj, yj))
    return side


def setup_torch(torch, make_model, make_opt, weights, x, y):
    """The PyTorch eager side: ``weights`` (msjax names, moving statistics included)
    loaded into the model, ``torch.optim``."""
    model = make_model()
    missing, unexpected = model.load_state_dict(
        {_torch_name(k): torch.from_numpy(v.copy()) for k, v in weights.items()}, strict=False)
    missing = [k for k in missing if not k.endswith("num_batches_tracked")]
    if missing or unexpected:
        raise KeyError(f"torch model: missing {missing}, unexpected {unexpected}")
    model.train()
    opt = make_opt(torch, model.parameters())
    loss_fn = torch.nn.CrossEntropyLoss()
    xt = torch.from_numpy(x.astype(np.int64) if x.dtype.kind == "i" else x)
    yt = torch.from_numpy(y.astype(np.int64))
    out = {}

    def step():
        opt.zero_grad()
        out["loss"] = loss = loss_fn(model(xt), yt)
        loss.backward()
        opt.step()

    return Side(step, lambda: None, lambda: float(out["loss"].detach())).start()


def timed(sides, steps, rounds=10):
    """Steps/s of each side, timed in alternating blocks so that load changes on a
    shared machine hit the sides alike."""
    total = [0.0] * len(sides)
    per = max(1, steps // rounds)
    for _ in range(rounds):
        for i, side in enumerate(sides):
            t0 = time.perf_counter()
            for _ in range(per):
                side.step()
            side.sync()
            total[i] += time.perf_counter() - t0
    return [per * rounds / t for t in total]


def _images(batch, shape):
    rs = np.random.RandomState(0)
    return (rs.standard_normal((batch,) + shape).astype(np.float32),
            rs.randint(0, 10, size=(batch,)).astype(np.int32))


def _tokens(batch):
    rs = np.random.RandomState(0)
    return (rs.randint(0, ENCODER["vocab"], size=(batch, ENCODER["seq"])).astype(np.int32),
            rs.randint(0, ENCODER["vocab"], size=(batch * ENCODER["seq"],)).astype(np.int32))


def row(name, make_net, apply, data, optimizer, steps, torch=None, torch_model=None):
    ms.set_seed(0)
    x, y = data()
    net = make_net()
    params = {p.name: np.asarray(p.asnumpy()) for p in net.trainable_params()}
    state = {p.name: np.asarray(p.asnumpy()) for p in net.get_parameters() if not p.requires_grad}
    make_opt, make_tx, make_torch_opt = OPTIMIZERS[optimizer]
    sides = [setup_msjax(net, make_opt(net.trainable_params()), x, y),
             setup_jax(apply, params, state, make_tx(), x, y)]
    if torch is not None:
        sides.append(setup_torch(torch, torch_model, make_torch_opt, {**params, **state}, x, y))
    rates = timed(sides, steps)
    for side, rate in zip(sides, rates):
        side.rate = rate
    return dict(name=f"{name}, batch {x.shape[0]}, {optimizer}", sides=sides, steps=steps)


def _opt(v, fmt):
    return "n/a" if v is None else format(v, fmt)


def _rate(side):
    return "n/a" if side is None else f"{side.rate:.{1 if side.rate >= 10 else 2}f}"


def _mb(b):
    return "n/a" if b is None else f"{b / 2**20:.1f} MiB"


def _loss_check(r):
    """The losses of the first two steps, and the largest relative difference to msjax's."""
    sides = r["sides"]
    cells = []
    for k in range(2):
        ref = sides[0].losses[k]
        diff = max(abs(s.losses[k] - ref) / abs(ref) for s in sides[1:])
        cells.append(" / ".join(f"{s.losses[k]:.6f}" for s in sides) + f" | {diff:.1e}")
    return f"| {r['name']} | " + " | ".join(cells) + " |"


def _import_torch():
    try:
        import torch
    except ImportError:
        return None
    torch.set_num_threads(len(os.sched_getaffinity(0)))
    return torch


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=200, help="timed steps per side (ResNet18, transformer: a twentieth)")
    ap.add_argument("--rows", default="lenet32,lenet256,mlp128,resnet18zoo,resnet18,transformer")
    args = ap.parse_args()
    torch = _import_torch()
    tm = _torch_models() if torch is not None else {}
    heavy = max(10, args.steps // 20)
    rows = {
        "lenet32": lambda: row("LeNet5", LeNet5, _stateless(jax_lenet), lambda: _images(32, (1, 32, 32)),
                               "Momentum", args.steps, torch, tm.get("lenet")),
        "lenet256": lambda: row("LeNet5", LeNet5, _stateless(jax_lenet), lambda: _images(256, (1, 32, 32)),
                                "Momentum", args.steps, torch, tm.get("lenet")),
        "mlp128": lambda: row("MLP 784-1024-1024-10", MLP, _stateless(jax_mlp), lambda: _images(128, (784,)),
                              "Adam", args.steps, torch, tm.get("mlp")),
        "resnet18": lambda: row("ResNet18 (CIFAR-10, 3x32x32)", resnet18, jax_resnet, lambda: _images(32, (3, 32, 32)),
                                "Momentum", heavy, torch, tm.get("resnet18")),
        "resnet18zoo": lambda: row("ResNet18, model zoo stem (CIFAR-10, 3x32x32)", resnet18_zoo,
                                   functools.partial(jax_resnet, zoo_stem=True), lambda: _images(32, (3, 32, 32)),
                                   "Momentum", args.steps // 4, torch, tm.get("resnet18zoo")),
        "transformer": lambda: row("Transformer encoder (2 layers, d 256, seq 128)", lambda: TokenEncoder(**ENCODER),
                                   _stateless(functools.partial(jax_encoder, nhead=ENCODER["nhead"])),
                                   lambda: _tokens(32), "Adam", heavy, torch, tm.get("transformer")),
    }
    tv = "n/a (not installed)" if torch is None else f"{torch.__version__} ({torch.get_num_threads()} threads)"
    print(f"device: {jax.devices()[0].device_kind} ({jax.default_backend()}), jax {jax.__version__}, torch {tv}, "
          f"{args.steps} timed steps ({args.steps // 4} for the zoo ResNet18, {heavy} for the CIFAR ResNet18 and "
          f"the transformer); convolution lowering {conv_lowering.setting()}, oneDNN (cpu-kernels) "
          f"{'on' if conv_onednn.available() and os.environ.get(conv_lowering.KERNELS_ENV, '1') != '0' else 'off'}")
    print("| model | msjax steps/s | JAX+optax steps/s | torch steps/s | msjax / JAX | msjax / torch | "
          "first step msjax / JAX / torch | step memory msjax / JAX (XLA) |")
    print("|---|---|---|---|---|---|---|---|")
    done = []
    for key in args.rows.split(","):
        r = rows[key]()
        done.append(r)
        m, j, t = (r["sides"] + [None])[:3]
        print(f"| {r['name']} | {_rate(m)} | {_rate(j)} | {_rate(t)} | {m.rate / j.rate:.2f} | "
              f"{_opt(t and m.rate / t.rate, '.2f')} | {m.first:.2f} s / {j.first:.2f} s / {_opt(t and t.first, '.2f')}{' s' if t else ''} | "
              f"{_mb(m.mem)} / {_mb(j.mem)} |", flush=True)
    print("\nlosses of the first two steps (same weights, same batch):")
    print("| model | step 1 msjax / JAX / torch | max rel. diff | step 2 msjax / JAX / torch | max rel. diff |")
    print("|---|---|---|---|---|")
    for r in done:
        print(_loss_check(r))
    peak = _peak_device_bytes()
    if peak is not None:
        print(f"device peak bytes in use (whole process): {_mb(peak)}")


if __name__ == "__main__":
    main()
