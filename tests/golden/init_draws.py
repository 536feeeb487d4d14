"""Issue 33's initializer draws, run the same way under MindSpore 2.10 and msjax.

``init_cases(ms)`` (``ms`` is ``mindspore`` or ``msjax``) returns ``{case: record}``: for
each initializer at three shapes (the last with more elements than MindSpore's parallel
chunk) and two seeds, each ``nn`` layer's default parameters, and a LeNet5 and a ResNet
block, the record holds every parameter's sha256 of its Float32/Float16 bytes, its first
values and the next ``np.random.random()`` (initializers advance NumPy's global
generator). Only numpy and hashlib are imported here.
"""
import hashlib

import numpy as np

SEEDS = (1, 2024)
SHAPES = ((5, 7), (6, 3, 3, 3), (300, 257))   # 77,100 elements: many chunks of 4-word blocks


def _summary(arr):
    arr = np.ascontiguousarray(arr)
    flat = arr.reshape(-1)
    return {"dtype": str(arr.dtype), "shape": list(arr.shape),
            "sha256": hashlib.sha256(arr.tobytes()).hexdigest()[:32],
            "head": [float(v) for v in flat[:3]], "last": float(flat[-1])}


def _initializers(init):
    return {
        "normal": lambda: init.Normal(), "normal_mean": lambda: init.Normal(0.5, 1.0),
        "uniform": lambda: init.Uniform(), "uniform_scale": lambda: init.Uniform(1.5),
        "truncated": lambda: init.TruncatedNormal(), "truncated_wide": lambda: init.TruncatedNormal(0.7, 0.2, -1.0, 3.0),
        "he_uniform": lambda: init.HeUniform(), "he_uniform_relu": lambda: init.HeUniform(0, "fan_out", "relu"),
        "he_normal": lambda: init.HeNormal(), "xavier_uniform": lambda: init.XavierUniform(),
        "xavier_normal": lambda: init.XavierNormal(2.0), "orthogonal": lambda: init.Orthogonal(),
        "variance_uniform": lambda: init.VarianceScaling(2.0, "fan_avg", "uniform"),
        "variance_normal": lambda: init.VarianceScaling(1.0, "fan_out", "untruncated_normal"),
        "variance_default": lambda: init.VarianceScaling(),
        "str_normal": lambda: "normal", "str_uniform": lambda: "uniform", "str_truncated": lambda: "truncatednormal",
        "str_he_normal": lambda: "he_normal", "str_xavier_uniform": lambda: "xavier_uniform",
    }


def _params(net):
    return {p.name: _summary(p.asnumpy()) for p in net.get_parameters()}


def _layers(ms):
    nn = ms.nn
    return {
        "dense": lambda: nn.Dense(7, 5), "dense_big": lambda: nn.Dense(700, 130),
        "conv1d": lambda: nn.Conv1d(3, 4, 3, has_bias=True), "conv2d": lambda: nn.Conv2d(3, 8, 3, has_bias=True),
        "conv3d": lambda: nn.Conv3d(2, 4, 3, has_bias=True),
        "conv2d_transpose": lambda: nn.Conv2dTranspose(4, 3, 3, has_bias=True),
        "embedding": lambda: nn.Embedding(20, 6), "batchnorm2d": lambda: nn.BatchNorm2d(5),
        "lstm": lambda: nn.LSTM(4, 6, num_layers=2, bidirectional=True), "gru": lambda: nn.GRU(3, 5),
        "rnn": lambda: nn.RNN(3, 5, has_bias=False), "lstm_cell": lambda: nn.LSTMCell(4, 6),
        "gru_cell": lambda: nn.GRUCell(3, 5), "rnn_cell": lambda: nn.RNNCell(3, 5, has_bias=False),
        "bidense": lambda: nn.BiDense(3, 4, 5), "conv1d_transpose": lambda: nn.Conv1dTranspose(3, 4, 3, has_bias=True),
        "conv3d_transpose": lambda: nn.Conv3dTranspose(2, 3, 3, has_bias=True),
        "embedding_padding": lambda: nn.Embedding(12, 5, padding_idx=2),
        "embedding_lookup": lambda: nn.EmbeddingLookup(10, 4), "prelu": lambda: nn.PReLU(3),
        "layernorm": lambda: nn.LayerNorm((6,)), "groupnorm": lambda: nn.GroupNorm(2, 4),
        "multihead_attention": lambda: nn.MultiheadAttention(8, 2, add_bias_kv=True),
        "multihead_attention_kdim": lambda: nn.MultiheadAttention(8, 2, kdim=6, vdim=5),
        "transformer_encoder_layer": lambda: nn.TransformerEncoderLayer(8, 2, 16),
        "transformer": lambda: nn.Transformer(8, 2, 1, 1, 16),
    }


def _nets(ms):
    nn = ms.nn
    Normal = ms.common.initializer.Normal

    class LeNet5(nn.Cell):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(1, 6, 5, pad_mode="valid")
            self.conv2 = nn.Conv2d(6, 16, 5, pad_mode="valid")
            self.fc1 = nn.Dense(16 * 5 * 5, 120, weight_init=Normal(0.02))
            self.fc2 = nn.Dense(120, 84, weight_init=Normal(0.02))
            self.fc3 = nn.Dense(84, 10, weight_init=Normal(0.02))

    class ResidualBlock(nn.Cell):
        def __init__(self, cin=16, cout=64):
            super().__init__()
            mid = cout // 4
            self.conv1 = nn.Conv2d(cin, mid, 1, weight_init="he_normal")
            self.bn1 = nn.BatchNorm2d(mid)
            self.conv2 = nn.Conv2d(mid, mid, 3, weight_init="he_normal")
            self.bn2 = nn.BatchNorm2d(mid)
            self.conv3 = nn.Conv2d(mid, cout, 1, weight_init="he_normal")
            self.bn3 = nn.BatchNorm2d(cout, gamma_init="zeros")
            self.down = nn.Conv2d(cin, cout, 1, has_bias=True)
            self.fc = nn.Dense(cout, 10)

    return {"lenet5": LeNet5, "resnet_block": ResidualBlock}


def init_cases(ms, layers_only=False):
    init = ms.common.initializer
    out = {}
    for seed in SEEDS:
        for name, make in ({} if layers_only else _initializers(init)).items():
            for shape in SHAPES:
                ms.set_seed(seed)
                arr = ms.Parameter(init.initializer(make(), shape, ms.float32), name="w").asnumpy()
                out[f"init_{name}_{'x'.join(map(str, shape))}_s{seed}"] = {
                    "value": _summary(arr), "next_random": float(np.random.random())}
        for name, make, shape, dtype in (("sparse", lambda: init.Sparse(0.3), (40, 13), ms.float32),
                                         ("normal_float16", lambda: "normal", (9, 4), ms.float16)):
            if not layers_only:
                ms.set_seed(seed)
                arr = ms.Parameter(init.initializer(make(), shape, dtype), name="w").asnumpy()
                out[f"init_{name}_s{seed}"] = {"value": _summary(arr), "next_random": float(np.random.random())}
        for name, make in {**_layers(ms), **_nets(ms)}.items():
            ms.set_seed(seed)
            net = make()
            out[f"layer_{name}_s{seed}"] = {"params": _params(net), "next_random": float(np.random.random())}
    return out
