"""Tensor parallel and optimizer parallel: a Megatron-style transformer trained with
MindSpore's semi-auto parallel on msjax, beside the same model hand-written with
``jax.sharding`` + optax, on 1, 2, 4 and 8 host devices.

The model: ``--layers`` pre-LayerNorm transformer blocks (attention with q/k/v
projections cut by heads = column parallel, the output projection row parallel;
MLP column then row parallel; LayerNorms, residuals, biases), a final LayerNorm and a
mean-squared-error loss against a random target; Adam. The msjax side is written as a
MindSpore script: ``nn.Cell`` classes, Parameters made with ``initializer``, ``ops.MatMul`` /
``ops.BatchMatMul`` / ``ops.Transpose`` / ``ops.Softmax`` ... with ``.shard`` strategies
in MindSpore's conventions (a ``dp x mp`` device matrix), the functional training step
(``value_and_grad`` + optimizer) wrapped in ``AutoParallel(train_step, "semi_auto")``
with ``dataset_strategy`` = the batch cut over ``dp``. The hand-written side is pure JAX:
a parameter dict placed column/row parallel with ``NamedSharding`` on a
``Mesh(("dp", "mp"))``, ``jax.jit`` with those in/out shardings (parameters and optimizer
state donated), the heads' activations constrained to ``mp``, optax's Adam.

Modes (``--modes``):

* ``tp``: tensor parallel, ``dp = 1``, ``mp`` = the device count;
* ``tp+op``: tensor parallel with optimizer parallel, ``dp = 2``, ``mp`` = devices / 2
  (``dp = 1`` on one device); msjax: ``AutoParallel.hsdp(threshold=--threshold)``, so
  Parameters and Adam's moments of at least ``threshold`` KB are also cut along
  dimension 0 over ``dp`` (ZeRO by sharding); the hand-written side cuts the same
  arrays the same way and constrains each weight to its tensor-parallel sharding where
  it is used (XLA all-gathers it there).

Both sides start from the msjax Parameters' initial values and see the same batch
(msjax: ``ms.Tensor`` objects made once from NumPy, placed by msjax on every call; JAX:
arrays placed once with the data sharding); the losses of the first ``--check`` steps
must agree (rtol 1e-4) before anything is timed. Adam's eps is 1e-12 on both sides:
MindSpore adds it to ``sqrt(v)``, optax to ``sqrt(v_hat)``, which with 1e-8 already
moves the third loss by 2e-4. Steps/s: after those steps, ``--repeat`` rounds of one
block of ``--steps`` steps per side, the sides' order alternating (ABBA), the median
block; the ratio is the median over rounds of msjax's steps/s over JAX's in the same
round (load changes on a shared machine hit both alike).
Bytes per device: the bytes on the first device of every parameter and optimizer
state (msjax: the Parameters of the net and of the optimizer; JAX: the leaves of
params + optax state), read from the arrays' shardings (``addressable_shards``).
Each device count runs in its own process (``XLA_FLAGS=--xla_force_host_platform_
device_count=N`` must be set before JAX starts).

    python bench/tensor_parallel.py [--devices 1,2,4,8] [--modes tp,tp+op] [--steps 5] [--repeat 5]
        [--hidden 256] [--heads 8] [--seq 64] [--batch 8] [--layers 2] [--threshold 64] [--layout]
        [--try-fixes states,place,op-matrix,inputs] [--json out.json]

``--layout`` writes every msjax strategy as a ``Layout((dp, mp), ("dp", "mp"))`` tensor
map instead of a tuple (the same cuts, one device matrix for all operators).
``--try-fixes states,place,op-matrix,inputs`` applies the msjax changes that
``bench/tensor_parallel_profile.py`` proposes (as monkeypatches; no msjax file changes),
which also shows where msjax's time goes on one device count.

Results after the sharding fixes the profile found (optimizer states laid out as their
Parameter, MatMul's operator-level device matrix, no re-placement of unchanged Parameters
or reused inputs, the data-parallel optimizer cut inside each tensor-parallel block), this
2-core machine, 2026-11-27, ``--repeat 7`` (host devices share the 2 cores, so steps/s fall
with the device count on both sides; the ratio is what compares):

    devices mode   dp x mp  msjax st/s  JAX st/s  ratio  msjax B/device  JAX B/device  vs 1 dev.
     1      tp     1 x 1       25.58     22.71   1.154      18,960,400    18,960,388   1.000
     2      tp     1 x 2       24.79     25.62   0.982       9,501,712     9,501,700   0.501
     2      tp+op  2 x 1       24.06     24.50   1.018       9,523,216     9,523,204   0.502
     4      tp     1 x 4       20.88     20.81   0.999       4,772,368     4,772,356   0.252
     4      tp+op  2 x 2       20.97     21.59   0.968       4,783,120     4,783,108   0.252
     8      tp     1 x 8       15.36     14.13   1.097       2,407,696     2,407,684   0.127
     8      tp+op  2 x 4       15.46     15.20   0.985       2,413,072     2,413,060   0.127

Earlier results (2026-11-27, before those fixes, msjax at 696916a, host devices on an otherwise idle 16-core x86
machine, JAX 0.11.2, CPU; defaults: hidden 256, 8 heads, seq 64, batch 8, 2 layers,
1.58 M parameters, Adam; ``--repeat 9``). The same three losses on every row
(2.005914, 1.950247, 1.894687), no retrace while timed:

    devices mode   dp x mp  msjax st/s  JAX st/s  ratio  msjax B/device  JAX B/device  vs 1 dev.
     1      tp     1 x 1       33.93     31.98   1.108      18,960,400    18,960,388   1.000
     2      tp     1 x 2       35.69     48.41   0.753      15,807,504     9,501,700   0.834
     2      tp+op  2 x 1       34.75     40.33   0.903       9,523,216     9,523,204   0.502
     4      tp     1 x 4       29.82     45.24   0.655      14,231,056     4,772,356   0.751
     4      tp+op  2 x 2       32.10     42.28   0.728       4,783,120     4,783,108   0.252
     8      tp     1 x 8       27.81     43.17   0.648      13,442,832     2,407,684   0.709
     8      tp+op  2 x 4       29.47     42.91   0.707       2,413,072     2,413,060   0.127

(On one device both modes are the same run, and msjax's program is plain ``ms.jit``: 10 %
faster here, 1.02 on the 2-core machine.) With ``--try-fixes
states,place,op-matrix,inputs`` (same session) the ratios become
0.944 / 0.958 (2 devices, tp / tp+op), 0.940 / 0.900 (4), 0.910 / 0.899 (8), and msjax's
tensor-parallel bytes per device equal JAX's (9,501,712, 4,772,368, 2,407,696: 0.501,
0.252, 0.127 of one device).

What costs msjax time (``tensor_parallel_profile.py``, 8 devices): with tensor parallel
alone the optimizer states are replicated (Adam's moments of every cut weight: 40
all-gathers a step, 5.6x the bytes per device; XLA's program memory 35.5 MB against
17.4 MB); with dp x mp the tuple strategies place an operator's inputs on device
matrices of their own (the batch cut of ``x`` and the column cut of ``w`` land on the
same innermost device axis), so XLA moves activations between the operators (36
collective-permutes against 12; a ``Layout`` strategy gives JAX's 12); and every call
hands 18 (tp) or 54 (tp+op) state entries and both inputs to ``jax.device_put`` again
(2.5 to 5.2 ms of a 19 to 35 ms step). The remaining gap with all fixes is Python work
per call (about 1 ms: a ``_place`` check and a write-back for each of 107 state
entries) and the sharded step donating nothing (program memory 19.5 against 17.4 MB).
On the shared 2-core machine the same rows swing by +-30 % between runs (other jobs);
the ratios above come from the idle machine.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import optax  # noqa: E402

import msjax as ms  # noqa: E402
from msjax import nn, ops  # noqa: E402
from msjax.common.initializer import Normal, initializer  # noqa: E402
from msjax.parallel import Layout  # noqa: E402
from msjax.parallel.auto_parallel import AutoParallel  # noqa: E402

LR = 1e-3
ADAM_EPS = 1e-12
EPS = 1e-5


def split(n, mode):
    """(dp, mp) of a mode on n devices."""
    if mode == "tp" or n == 1:
        return 1, n
    return 2, n // 2


# ---------------------------------------------------------------------------
# the msjax side, written as a MindSpore script
# ---------------------------------------------------------------------------
class Strategies:
    """Operator strategies written with the aliases ``"dp"``, ``"mp"`` and ``"None"`` per
    tensor dimension: ``S(("dp", "None"), ("None", "mp"))`` is MindSpore's tuple strategy
    ``((dp, 1), (1, mp))``, or with ``layout=True`` the same cut as ``Layout((dp, mp),
    ("dp", "mp"))`` tensor maps (one device matrix for every operator)."""

    def __init__(self, dp, mp, layout=False):
        self.size = {"dp": dp, "mp": mp, "None": 1}
        self.layout = Layout((dp, mp), ("dp", "mp")) if layout else None

    def __call__(self, *tensors):
        if self.layout is not None:
            return tuple(self.layout(*t) for t in tensors)
        return tuple(tuple(self.size[a] for a in t) for t in tensors)


class LayerNorm(nn.Cell):
    def __init__(self, hidden, S):
        super().__init__()
        self.gamma = ms.Parameter(initializer("ones", [hidden], ms.float32), name="gamma")
        self.beta = ms.Parameter(initializer("zeros", [hidden], ms.float32), name="beta")
        self.norm = ops.LayerNorm(begin_norm_axis=-1, begin_params_axis=-1, epsilon=EPS).shard(
            S(("dp", "None"), ("None",), ("None",)))

    def construct(self, x):
        return self.norm(x, self.gamma, self.beta)[0]


class Linear(nn.Cell):
    """``x @ w + b`` with the MatMul's and the bias Add's strategies."""

    def __init__(self, n_in, n_out, matmul_strategy, add_strategy):
        super().__init__()
        self.weight = ms.Parameter(initializer(Normal(0.02), [n_in, n_out], ms.float32), name="weight")
        self.bias = ms.Parameter(initializer("zeros", [n_out], ms.float32), name="bias")
        self.matmul = ops.MatMul().shard(matmul_strategy)
        self.add = ops.Add().shard(add_strategy)

    def construct(self, x):
        return self.add(self.matmul(x, self.weight), self.bias)


def column_linear(n_in, n_out, S):
    """``w`` cut by columns over mp (output features split)."""
    return Linear(n_in, n_out, S(("dp", "None"), ("None", "mp")), S(("dp", "mp"), ("mp",)))


def row_linear(n_in, n_out, S):
    """``w`` cut by rows over mp (XLA all-reduces the partial sums)."""
    return Linear(n_in, n_out, S(("dp", "mp"), ("mp", "None")), S(("dp", "None"), ("None",)))


class Attention(nn.Cell):
    def __init__(self, cfg, S):
        super().__init__()
        h, self.heads = cfg["hidden"], cfg["heads"]
        self.batch, self.seq, self.head_dim = cfg["batch"], cfg["seq"], h // self.heads
        self.q = column_linear(h, h, S)
        self.k = column_linear(h, h, S)
        self.v = column_linear(h, h, S)
        self.o = row_linear(h, h, S)
        self.reshape = ops.Reshape()
        heads = ("dp", "mp", "None", "None")      # (batch, head, seq, head_dim)
        self.split_heads = ops.Transpose().shard(S(("dp", "None", "mp", "None")))
        self.merge_heads = ops.Transpose().shard(S(heads))
        self.scores = ops.BatchMatMul(transpose_b=True).shard(S(heads, heads))
        self.scale = ops.Mul().shard(S(heads, ()))
        self.softmax = ops.Softmax().shard(S(heads))
        self.context = ops.BatchMatMul().shard(S(heads, heads))
        self.inv_sqrt = ms.Tensor(1.0 / np.sqrt(self.head_dim), ms.float32)

    def heads_of(self, x):    # (B*S, H) -> (B, heads, S, head_dim)
        return self.split_heads(self.reshape(x, (self.batch, self.seq, self.heads, self.head_dim)), (0, 2, 1, 3))

    def construct(self, x):
        q, k, v = self.heads_of(self.q(x)), self.heads_of(self.k(x)), self.heads_of(self.v(x))
        probs = self.softmax(self.scale(self.scores(q, k), self.inv_sqrt))
        ctx = self.merge_heads(self.context(probs, v), (0, 2, 1, 3))
        return self.o(self.reshape(ctx, (self.batch * self.seq, self.heads * self.head_dim)))


class Block(nn.Cell):
    def __init__(self, cfg, S):
        super().__init__()
        h = cfg["hidden"]
        self.ln1 = LayerNorm(h, S)
        self.attn = Attention(cfg, S)
        self.ln2 = LayerNorm(h, S)
        self.fc1 = column_linear(h, 4 * h, S)
        self.gelu = ops.GeLU().shard(S(("dp", "mp")))
        self.fc2 = row_linear(4 * h, h, S)
        self.add1 = ops.Add().shard(S(("dp", "None"), ("dp", "None")))
        self.add2 = ops.Add().shard(S(("dp", "None"), ("dp", "None")))

    def construct(self, x):
        x = self.add1(x, self.attn(self.ln1(x)))
        return self.add2(x, self.fc2(self.gelu(self.fc1(self.ln2(x)))))


class Transformer(nn.Cell):
    def __init__(self, cfg, S):
        super().__init__()
        self.shape2d = (cfg["batch"] * cfg["seq"], cfg["hidden"])
        self.blocks = nn.CellList([Block(cfg, S) for _ in range(cfg["layers"])])
        self.ln_f = LayerNorm(cfg["hidden"], S)
        self.reshape = ops.Reshape()
        self.sub = ops.Sub().shard(S(("dp", "None"), ("dp", "None")))
        self.square = ops.Square().shard(S(("dp", "None")))
        self.mean = ops.ReduceMean()

    def construct(self, x, target):
        x = self.reshape(x, self.shape2d)
        for block in self.blocks:
            x = block(x)
        out = self.ln_f(x)
        return self.mean(self.square(self.sub(out, self.reshape(target, self.shape2d))))


def msjax_side(cfg, mode, dp, mp, x, y):
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_seed(1)
    S = Strategies(dp, mp, cfg.get("layout", False))
    net = Transformer(cfg, S)
    init = {p.name: np.array(p.asnumpy()) for p in net.trainable_params()}
    opt = nn.Adam(net.trainable_params(), LR, eps=ADAM_EPS)
    grad_fn = ms.value_and_grad(net, None, opt.parameters)

    def train_step(inputs, target):
        loss, grads = grad_fn(inputs, target)
        opt(grads)
        return loss

    step = AutoParallel(train_step, parallel_mode="semi_auto")
    step.dataset_strategy(S(("dp", "None", "None"), ("dp", "None", "None")))
    if mode == "tp+op":
        step.hsdp(threshold=cfg["threshold"])
    xt, yt = ms.Tensor(x), ms.Tensor(y)
    out = {}

    def run():
        out["loss"] = step(xt, yt)

    def sync():
        jax.block_until_ready([out["loss"]._data] + [p._data for p in net.trainable_params()])

    seen, states = set(), []
    for p in list(net.get_parameters()) + list(opt.get_parameters()):
        if id(p) not in seen:
            seen.add(id(p))
            states.append(p)
    return Side(run, sync, lambda: float(out["loss"].asnumpy()),
                lambda: sum(bytes_on_first_device(p._data) for p in states),
                init=init, step=step, net=net, opt=opt, inputs=(xt, yt), states=states)


# ---------------------------------------------------------------------------
# the hand-written side: JAX + jax.sharding + optax
# ---------------------------------------------------------------------------
P = jax.sharding.PartitionSpec


def _kind(name):
    """How a parameter is cut for tensor parallelism: by columns, by rows, or not."""
    if name.endswith((".q.weight", ".k.weight", ".v.weight", ".fc1.weight")):
        return "col_w"
    if name.endswith((".q.bias", ".k.bias", ".v.bias", ".fc1.bias")):
        return "col_b"
    if name.endswith((".o.weight", ".fc2.weight")):
        return "row_w"
    return "rep"


def tp_spec(name):
    return {"col_w": P(None, "mp"), "col_b": P("mp"), "row_w": P("mp", None), "rep": P()}[_kind(name)]


def zero_spec(name, shape, dp, threshold):
    """The tensor-parallel spec further cut along dimension 0 over dp (ZeRO), where the
    array has at least ``threshold`` KB and dimension 0 divides: a column-parallel weight's
    rows over dp; a row-parallel weight's rows, a column-parallel bias and a replicated
    array over all devices (dp, then mp)."""
    kind, n = _kind(name), len(jax.devices())
    if dp == 1 or np.prod(shape) * 4 < threshold * 1024:
        return tp_spec(name)
    if kind == "col_w":
        return P("dp", "mp") if shape[0] % dp == 0 else tp_spec(name)
    if shape[0] % n:
        return tp_spec(name)
    return P(("dp", "mp"), *(None,) * (len(shape) - 1))


def jax_forward(params, x, target, cfg, named, constrain, layers=None, head=True):
    """The loss (``layers=None``, ``head=True``); ``bench/pipeline_parallel.py`` runs a stage's
    ``layers`` only, and the final LayerNorm and loss only on the last stage (``head``)."""
    b, s, h, nh = cfg["batch"], cfg["seq"], cfg["hidden"], cfg["heads"]
    hd = h // nh

    def ln(v, name):
        mu = v.mean(-1, keepdims=True)
        var = ((v - mu) ** 2).mean(-1, keepdims=True)
        return (v - mu) * jax.lax.rsqrt(var + EPS) * params[f"{name}.gamma"] + params[f"{name}.beta"]

    def lin(v, name):
        return v @ constrain(params[f"{name}.weight"], f"{name}.weight") + params[f"{name}.bias"]

    def heads(v):
        v = v.reshape(b, s, nh, hd).transpose(0, 2, 1, 3)
        return jax.lax.with_sharding_constraint(v, named(P("dp", "mp", None, None)))

    x = jax.lax.with_sharding_constraint(x.reshape(b * s, h), named(P("dp", None)))
    for i in range(cfg["layers"]) if layers is None else layers:
        n = f"blocks.{i}"
        a = ln(x, f"{n}.ln1")
        q, k, v = (heads(lin(a, f"{n}.attn.{w}")) for w in "qkv")
        probs = jax.nn.softmax((q @ k.transpose(0, 1, 3, 2)) * np.float32(1 / np.sqrt(hd)), axis=-1)
        ctx = (probs @ v).transpose(0, 2, 1, 3).reshape(b * s, h)
        x = x + lin(ctx, f"{n}.attn.o")
        m = jax.nn.gelu(lin(ln(x, f"{n}.ln2"), f"{n}.fc1"), approximate=True)   # ops.GeLU: tanh form
        x = x + lin(m, f"{n}.fc2")
    if not head:
        return x
    out = ln(x, "ln_f")
    return jnp.mean((out - target.reshape(b * s, h)) ** 2)


def jax_side(cfg, mode, dp, mp, init, x, y):
    mesh = jax.sharding.Mesh(np.array(jax.devices()).reshape(dp, mp), ("dp", "mp"))
    named = lambda spec: jax.sharding.NamedSharding(mesh, spec)   # noqa: E731
    if mode == "tp+op":
        specs = {k: zero_spec(k, v.shape, dp, cfg["threshold"]) for k, v in init.items()}
    else:
        specs = {k: tp_spec(k) for k in init}
    p_sh = {k: named(s) for k, s in specs.items()}
    rep = named(P())

    def constrain(w, name):   # a weight where it is used: its tensor-parallel sharding
        return jax.lax.with_sharding_constraint(w, named(tp_spec(name)))

    tx = optax.adam(LR, eps=ADAM_EPS)
    params = {k: jax.device_put(v, p_sh[k]) for k, v in init.items()}
    opt_shape = jax.eval_shape(tx.init, params)
    o_sh = tuple(s._replace(count=rep, mu=p_sh, nu=p_sh) if isinstance(s, optax.ScaleByAdamState)
                 else jax.tree_util.tree_map(lambda _: rep, s) for s in opt_shape)
    opt_state = jax.jit(tx.init, out_shardings=o_sh)(params)
    data_sh = named(P("dp", None, None))
    xj, yj = jax.device_put(x, data_sh), jax.device_put(y, data_sh)

    def step(params, opt_state, x, target):
        loss, grads = jax.value_and_grad(jax_forward)(params, x, target, cfg, named, constrain)
        updates, opt_state = tx.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    step = jax.jit(step, in_shardings=(p_sh, o_sh, data_sh, data_sh), out_shardings=(p_sh, o_sh, rep),
                   donate_argnums=(0, 1))
    st = {"params": params, "opt": opt_state}

    def run():
        st["params"], st["opt"], st["loss"] = step(st["params"], st["opt"], xj, yj)

    def sync():
        jax.block_until_ready((st["loss"], st["params"]))

    def loss():
        if st["loss"].dtype != jnp.float32:    # msjax enables x64: the model must stay float32
            raise TypeError(f"the hand-written step computes in {st['loss'].dtype}")
        return float(st["loss"])

    return Side(run, sync, loss, lambda: sum(bytes_on_first_device(a) for a in
                                             jax.tree_util.tree_leaves((st["params"], st["opt"]))),
                step=step, state=st, inputs=(xj, yj))


class Side:
    """One side of a row: ``run()`` one step, ``sync()`` wait for it, ``loss()`` the last
    loss, ``nbytes()`` bytes on the first device; the rest for inspection."""

    def __init__(self, run, sync, loss, nbytes, **more):
        self.run, self.sync, self.loss, self.nbytes = run, sync, loss, nbytes
        self.__dict__.update(more)


def bytes_on_first_device(arr):
    d0 = min(arr.sharding.device_set, key=lambda d: d.id)
    return int(sum(s.data.nbytes for s in arr.addressable_shards if s.device == d0))


# ---------------------------------------------------------------------------
# one device count (a child process)
# ---------------------------------------------------------------------------
def child(cfg, modes, steps, repeat, check, fixes=()):
    from msjax._core import transforms
    if fixes:      # the proposed msjax changes, as monkeypatches (tensor_parallel_profile.py)
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import tensor_parallel_profile
        tensor_parallel_profile.patch("states" in fixes, "place" in fixes, "op-matrix" in fixes, "inputs" in fixes)
    n = jax.device_count()
    rs = np.random.RandomState(0)
    x = rs.standard_normal((cfg["batch"], cfg["seq"], cfg["hidden"])).astype(np.float32)
    y = rs.standard_normal((cfg["batch"], cfg["seq"], cfg["hidden"])).astype(np.float32)
    rows = []
    for mode in modes:
        dp, mp = split(n, mode)
        m = msjax_side(cfg, mode, dp, mp, x, y)
        j = jax_side(cfg, mode, dp, mp, m.init, x, y)
        sides, first, losses = [m, j], [], [[], []]
        for i, side in enumerate(sides):
            t0 = time.perf_counter()
            side.run()
            side.sync()
            first.append(time.perf_counter() - t0)
            losses[i].append(side.loss())
            for _ in range(check - 1):
                side.run()
                losses[i].append(side.loss())
        if not np.allclose(losses[0], losses[1], rtol=1e-4, atol=0):
            raise AssertionError(f"{mode} on {n} devices: msjax losses {losses[0]} != JAX losses {losses[1]}")
        traces = transforms.TRACES[0]
        rates = [[], []]
        for r in range(repeat):
            for i in ((0, 1) if r % 2 == 0 else (1, 0)):    # ABBA: neither side always goes first
                t0 = time.perf_counter()
                for _ in range(steps):
                    sides[i].run()
                sides[i].sync()
                rates[i].append(steps / (time.perf_counter() - t0))
        rows.append({"devices": n, "mode": mode, "dp": dp, "mp": mp, "losses": losses, "fixes": list(fixes),
                     "msjax_steps_per_s": statistics.median(rates[0]), "jax_steps_per_s": statistics.median(rates[1]),
                     "ratio": statistics.median(a / b for a, b in zip(*rates)),
                     "msjax_rates": rates[0], "jax_rates": rates[1], "first_step_s": first,
                     "msjax_bytes": m.nbytes(), "jax_bytes": j.nbytes(),
                     "retraces_while_timed": transforms.TRACES[0] - traces})
    print("RESULT " + json.dumps(rows), flush=True)


def run_devices(n, args):
    env = dict(os.environ, XLA_FLAGS=(os.environ.get("XLA_FLAGS", "") +
                                      f" --xla_force_host_platform_device_count={n}").strip(),
               JAX_PLATFORMS="cpu")
    cmd = [sys.executable, os.path.abspath(__file__), "--child", "--modes", args.modes, "--steps", str(args.steps),
           "--repeat", str(args.repeat), "--check", str(args.check), "--hidden", str(args.hidden),
           "--heads", str(args.heads), "--seq", str(args.seq), "--batch", str(args.batch),
           "--layers", str(args.layers), "--threshold", str(args.threshold), "--try-fixes", args.try_fixes] + \
        (["--layout"] if args.layout else [])
    r = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if r.returncode:
        raise SystemExit(f"{n} devices failed:\n{r.stdout[-2000:]}\n{r.stderr[-4000:]}")
    return json.loads(next(line[7:] for line in r.stdout.splitlines() if line.startswith("RESULT ")))


def table(rows):
    lines = ["| devices | mode | dp x mp | msjax steps/s | JAX steps/s | ratio | msjax bytes/device | "
             "JAX bytes/device | bytes vs 1 device |",
             "|---:|---|---|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        base = next((b for b in rows if b["devices"] == 1 and b["mode"] == r["mode"]), None)
        rel = f"{r['msjax_bytes'] / base['msjax_bytes']:.3f}" if base else "-"
        lines.append(f"| {r['devices']} | {r['mode']} | {r['dp']} x {r['mp']} | {r['msjax_steps_per_s']:.2f} | "
                     f"{r['jax_steps_per_s']:.2f} | {r['ratio']:.3f} | "
                     f"{r['msjax_bytes']:,} | {r['jax_bytes']:,} | {rel} |")
    return "\n".join(lines)


def main(argv=None):
    p = argparse.ArgumentParser()
    p.add_argument("--devices", default="1,2,4,8")
    p.add_argument("--modes", default="tp,tp+op")
    p.add_argument("--steps", type=int, default=5, help="steps per timed block")
    p.add_argument("--repeat", type=int, default=5, help="timed blocks per side (the median is reported)")
    p.add_argument("--check", type=int, default=3, help="steps whose losses must agree")
    p.add_argument("--hidden", type=int, default=256)
    p.add_argument("--heads", type=int, default=8)
    p.add_argument("--seq", type=int, default=64)
    p.add_argument("--batch", type=int, default=8)
    p.add_argument("--layers", type=int, default=2)
    p.add_argument("--threshold", type=int, default=64, help="hsdp threshold in KB (MindSpore's default 64)")
    p.add_argument("--layout", action="store_true",
                   help="msjax strategies as Layout((dp, mp), ('dp', 'mp')) tensor maps instead of tuples")
    p.add_argument("--try-fixes", default="", help="comma list of states,place,op-matrix,inputs: the changes proposed "
                   "for msjax applied as monkeypatches (see tensor_parallel_profile.py)")
    p.add_argument("--json", default="", help="also write the rows here")
    p.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    a = p.parse_args(argv)
    cfg = {k: getattr(a, k) for k in ("hidden", "heads", "seq", "batch", "layers", "threshold", "layout")}
    modes = a.modes.split(",")
    if a.child:
        fixes = tuple(f for f in a.try_fixes.split(",") if f)
        unknown = set(fixes) - {"states", "place", "op-matrix", "inputs"}
        if unknown:
            raise SystemExit(f"unknown --try-fixes {sorted(unknown)}")
        return child(cfg, modes, a.steps, a.repeat, a.check, fixes)
    rows = []
    for n in (int(d) for d in a.devices.split(",")):
        rows += run_devices(n, a)
        print(f"{n} devices done", file=sys.stderr, flush=True)
    print(table(rows))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(rows, f, indent=1)
    return rows


if __name__ == "__main__":
    main()
