"""A 7-billion-parameter GPT, tensor 8 x pipeline 4 x data 2, compiled (not run) on 64 host
devices: per-device memory from XLA's memory analysis beside the arithmetic estimate.

The model is written as a MindSpore script: token embedding (``ops.Gather`` cut by vocabulary
over ``mp``), ``--layers`` pre-LayerNorm transformer blocks of ``bench/tensor_parallel.py``
(attention and MLP column/row parallel with ``ops.*.shard`` strategies, each block
``recompute()``), a final LayerNorm, an untied LM head (``MatMul`` cut by vocabulary) and
``SparseSoftmaxCrossEntropyWithLogits``; ``PipelineCell`` of ``--micro`` micro-batches,
``value_and_grad``, ``PipelineGradReducer``, Adam, in ``AutoParallel(train_step)`` with
``pipeline(stages=4)`` and ``hsdp()`` (optimizer parallel over the stage's data-parallel
devices). Block ``i`` is on stage ``i * 4 // layers``, the embedding on stage 0, the head on
stage 3.

No weight is allocated: every initializer gives a ``jax.ShapeDtypeStruct`` (this script's
patch of ``Initializer._init_array``), so the Parameters and Adam's moments are abstract. A
step called with abstract Parameters traces the model once, cuts it into the pipeline's
programs and compiles each of them for its stage's 16 devices with the shardings the plan
gives, but runs none (``msjax.communication._pipeline_step.DRY_RUN``). The batch is a real
(tiny) int32 array of token ids.

Reported for the most loaded device of each stage: the bytes of its Parameters, Adam
moments and ``accu_grads`` (their shapes and shardings), the largest program's temporary
bytes (``memory_analysis().temp_size_in_bytes``), and the activations that stay alive
between programs (each forward program's outputs read by its backward, times the micro-batches
a 1F1B stage holds at once: ``S - s``), beside the arithmetic estimate of the same terms.

    XLA_FLAGS=--xla_force_host_platform_device_count=64 python bench/pipeline_7b_simulation.py \\
        [--layers 32] [--hidden 4096] [--heads 32] [--seq 2048] [--vocab 32000] [--micro 4] [--micro-batch 2]
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))

import jax  # noqa: E402

import tensor_parallel as tp  # noqa: E402  (the blocks, written as a MindSpore script)

import msjax as ms  # noqa: E402
from msjax import nn, ops  # noqa: E402
from msjax.common import initializer as _init  # noqa: E402
from msjax.common.initializer import Normal, initializer  # noqa: E402
from msjax.communication import _pipeline_step  # noqa: E402
from msjax.parallel.auto_parallel import AutoParallel  # noqa: E402

STAGES, MP, DP = 4, 8, 2


def abstract_init(self, shape=None, dtype=None):
    """An initializer's value as its shape and dtype only (nothing allocated)."""
    shape = tuple(shape if shape is not None else self.shape)
    return jax.ShapeDtypeStruct(shape, ms.dtype.to_np(dtype if dtype is not None else (self.dtype or ms.float32)))


class GPT(nn.Cell):
    def __init__(self, cfg, S):
        super().__init__()
        self.cfg = cfg
        h, v = cfg["hidden"], cfg["vocab"]
        self.embedding = ms.Parameter(initializer(Normal(0.02), [v, h], ms.float32), name="embedding")
        self.gather = ops.Gather().shard(S(("mp", "None"), ("dp",)))
        self.blocks = nn.CellList([tp.Block(cfg, S) for _ in range(cfg["layers"])])
        for b in self.blocks:
            b.recompute()
        self.ln_f = tp.LayerNorm(h, S)
        self.head = ms.Parameter(initializer(Normal(0.02), [v, h], ms.float32), name="head")
        self.logits = ops.MatMul(transpose_b=True).shard(S(("dp", "None"), ("mp", "None")))
        self.loss = ops.SparseSoftmaxCrossEntropyWithLogits().shard(S(("dp", "None"), ("dp",)))
        self.reshape = ops.Reshape()

    def construct(self, tokens, labels):
        b, s = self.cfg["batch"], self.cfg["seq"]
        x = self.gather(self.embedding, self.reshape(tokens, (b * s,)), 0)
        for block in self.blocks:
            x = block(x)
        logits = self.logits(self.ln_f(x), self.head)
        return self.loss(logits, self.reshape(labels, (b * s,)))


def estimate(cfg, args):
    """Bytes per device of each stage by arithmetic: Parameters cut by tensor parallel inside
    the stage, Adam's two moments and ``accu_grads`` (as their Parameter; with optimizer
    parallel the Parameter and moments further halved over dp), activations kept per
    micro-batch (recompute: each block's input; the head's logits), times ``S - s`` in flight."""
    h, v, L, s = cfg["hidden"], cfg["vocab"], cfg["layers"], cfg["seq"]
    tokens = cfg["batch"] * s // DP            # tokens of a micro-batch on one data-parallel rank
    block = 12 * h * h + 13 * h                # q k v o (4 h^2 + 4 h), fc1 fc2 (8 h^2 + 5 h), 2 LayerNorms (4 h)
    out = []
    for st in range(STAGES):
        n_blocks = sum(1 for i in range(L) if i * STAGES // L == st)
        params = n_blocks * block / MP
        if st == 0:
            params += v * h / MP
        if st == STAGES - 1:
            params += v * h / MP + 2 * h
        weights = 4 * params / DP               # optimizer parallel: cut over dp too
        moments = 2 * 4 * params / DP
        accu = 4 * params                       # accu_grads: as the Parameter's tensor-parallel cut
        act = 4 * tokens * h * n_blocks         # recompute keeps each block's input
        if st == STAGES - 1:
            act += 4 * tokens * v / MP          # logits, cut by vocabulary
        out.append({"params": params * MP, "weights": weights, "moments": moments, "accu_grads": accu,
                    "activations_per_micro": act, "in_flight": STAGES - st,
                    "total": weights + moments + accu + act * (STAGES - st)})
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--layers", type=int, default=32)
    ap.add_argument("--hidden", type=int, default=4096)
    ap.add_argument("--heads", type=int, default=32)
    ap.add_argument("--seq", type=int, default=2048)
    ap.add_argument("--vocab", type=int, default=32000)
    ap.add_argument("--micro", type=int, default=4)
    ap.add_argument("--micro-batch", type=int, default=2)
    ap.add_argument("--json")
    args = ap.parse_args()
    assert jax.device_count() == STAGES * MP * DP, "set XLA_FLAGS=--xla_force_host_platform_device_count=64"
    cfg = {"hidden": args.hidden, "heads": args.heads, "seq": args.seq, "batch": args.micro_batch,
           "layers": args.layers, "vocab": args.vocab}
    _init.Initializer._init_array = abstract_init      # no weights allocated
    ms.set_context(mode=ms.GRAPH_MODE)
    S = tp.Strategies(DP, MP)
    t0 = time.perf_counter()
    net = GPT(cfg, S)
    L = args.layers
    for i, block in enumerate(net.blocks):
        block.pipeline_stage = i * STAGES // L
    net.ln_f.pipeline_stage = STAGES - 1
    n_params = sum(int(np.prod(p.shape)) for p in net.trainable_params())
    opt = nn.Adam(net.trainable_params(), 1e-4)
    pp = nn.PipelineCell(net, args.micro)
    grad_fn = ms.value_and_grad(pp, None, opt.parameters)
    reducer = nn.PipelineGradReducer(opt.parameters)

    def train_step(tokens, labels):
        loss, grads = grad_fn(tokens, labels)
        opt(reducer(grads))
        return loss

    step = AutoParallel(train_step, parallel_mode="semi_auto")
    step.dataset_strategy(S(("dp", "None"), ("dp", "None")))
    step.pipeline(stages=STAGES)
    step.hsdp()
    rng = np.random.default_rng(0)
    shape = (args.micro * args.micro_batch, args.seq)
    tokens = ms.Tensor(rng.integers(0, args.vocab, shape).astype(np.int32))
    labels = ms.Tensor(rng.integers(0, args.vocab, shape).astype(np.int32))
    built = time.perf_counter() - t0
    t0 = time.perf_counter()
    step(tokens, labels)
    compiled_s = time.perf_counter() - t0
    runs = list(_pipeline_step.DRY_RUN)
    if not runs:
        raise SystemExit("the step did not compile as a pipeline (no programs recorded)")

    print(f"model: {n_params / 1e9:.2f} B parameters; built in {built:.1f} s, traced and compiled in "
          f"{compiled_s:.1f} s; {len(runs)} programs dispatched per step, "
          f"{len({id(c) for *_, c in runs})} distinct")
    rows = []
    for st in range(STAGES):
        mine = [(m, b, c) for s, m, b, c in runs if s == st]
        temp = max(c.memory_analysis().temp_size_in_bytes for _, _, c in mine)
        args_b = max(c.memory_analysis().argument_size_in_bytes for _, _, c in mine)
        fwd = [c for m, b, c in mine if m is not None and m >= 0 and not b]
        act = max((c.memory_analysis().output_size_in_bytes for c in fwd), default=0)
        rows.append({"stage": st, "largest_arguments": args_b, "largest_temp": temp,
                     "forward_outputs_per_micro": act, "programs": len(mine)})
    est = estimate(cfg, args)
    print(f"{'stage':>5} {'programs':>8} {'XLA args (max)':>15} {'XLA temp (max)':>15} {'fwd outputs/micro':>18}"
          f" {'est. weights+moments+accu':>26} {'est. act/micro':>15}")
    for r, e in zip(rows, est):
        print(f"{r['stage']:>5} {r['programs']:>8} {r['largest_arguments']:>15,} {r['largest_temp']:>15,} "
              f"{r['forward_outputs_per_micro']:>18,} {e['weights'] + e['moments'] + e['accu_grads']:>26,.0f} "
              f"{e['activations_per_micro']:>15,.0f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"rows": rows, "estimate": est, "params": n_params, "compile_s": compiled_s}, f, indent=1)


if __name__ == "__main__":
    main()
