"""The small GPT of issue 32 trained on 8 host devices: what device 0 holds, and whether any
single-device copy of a sharded Parameter (or of an Adam moment, ``accu_grads``, or a shard of
one) is left alive.

The model is the GPT of ``bench/pipeline_7b_simulation.py`` at the issue's size (2 blocks,
hidden 64, 4 heads, seq 16, vocabulary 128; each block ``recompute()``d), Adam, in
``AutoParallel(train_step)`` as:

* ``tp``: tensor parallel alone, dp 2 x mp 4 (no pipeline);
* ``pp``: 2 stages x dp 2 x mp 2 (``PipelineCell`` of 2 micro-batches, ``PipelineGradReducer``,
  block ``i`` on stage ``i``).

After ``--steps`` steps and ``gc.collect()`` it reads ``jax.live_arrays()`` once (before any
``addressable_shards`` of a single array: JAX keeps the per-device views that reading shards
makes, and they would show up as single-device arrays), and reports: the single-device arrays
(count, bytes, and those whose shape is a Parameter's, a moment's or one of their shards'),
device 0's bytes beside the stand-alone model's (Parameters and Adam moments, whole). Both
configurations train the same model on the same 4 sequences: the pipeline's loss is the sum of
its 2 micro-batches' losses, twice the tensor-parallel step's batch mean.

    XLA_FLAGS=--xla_force_host_platform_device_count=8 python bench/pipeline_single_copies.py \\
        [--configs tp,pp] [--steps 3]
"""
from __future__ import annotations

import argparse
import gc
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import jax  # noqa: E402

import tensor_parallel as tp  # noqa: E402
from pipeline_7b_simulation import GPT  # noqa: E402

import msjax as ms  # noqa: E402
from msjax import nn  # noqa: E402
from msjax.parallel.auto_parallel import AutoParallel  # noqa: E402

CFG = {"hidden": 64, "heads": 4, "seq": 16, "vocab": 128, "layers": 2}


def build(kind, micro):
    stages = 2 if kind == "pp" else 1
    dp, mp = (2, 2) if kind == "pp" else (2, 4)
    S = tp.Strategies(dp, mp)
    cfg = dict(CFG, batch=2 if kind == "pp" else 2 * micro)
    ms.set_seed(1)
    net = GPT(cfg, S)
    if stages > 1:
        for i, block in enumerate(net.blocks):
            block.pipeline_stage = i * stages // len(net.blocks)
        net.ln_f.pipeline_stage = stages - 1
    opt = nn.Adam(net.trainable_params(), 1e-3)
    cell = nn.PipelineCell(net, micro) if stages > 1 else net
    grad_fn = ms.value_and_grad(cell, None, opt.parameters)
    reducer = nn.PipelineGradReducer(opt.parameters) if stages > 1 else None

    def train_step(tokens, labels):
        loss, grads = grad_fn(tokens, labels)
        opt(reducer(grads) if reducer is not None else grads)
        return loss

    step = AutoParallel(train_step, parallel_mode="semi_auto")
    step.dataset_strategy(S(("dp", "None"), ("dp", "None")))
    if stages > 1:
        step.pipeline(stages=stages)
    states = [p for p in list(net.trainable_params()) + list(opt.get_parameters()) if p.ndim > 0]
    return step, net, states


def shard_shapes(shape, max_cut=8):
    """The shape and every shape a cut of it into ``1 .. max_cut`` parts per dimension gives."""
    out = {tuple(shape)}
    for d, n in enumerate(shape):
        for k in range(2, max_cut + 1):
            if n % k == 0:
                out |= {s[:d] + (n // k,) + s[d + 1:] for s in list(out)}
    return out


def measure(kind, steps, micro=2):
    ms.set_context(mode=ms.GRAPH_MODE)
    step, net, states = build(kind, micro)
    rng = np.random.default_rng(0)
    shape = (2 * micro, CFG["seq"])
    tokens = ms.Tensor(rng.integers(0, CFG["vocab"], shape).astype(np.int32))
    labels = ms.Tensor(rng.integers(0, CFG["vocab"], shape).astype(np.int32))
    losses = [float(step(tokens, labels).asnumpy()) for _ in range(steps)]
    standalone = sum(int(np.prod(p.shape)) * 4 for p in states)
    # Adam's (1,) beta powers are whole on one stage's devices: not a sharded Parameter
    watched = set().union(*(shard_shapes(p.shape) for p in states if int(np.prod(p.shape)) > 1))
    gc.collect()
    live = jax.live_arrays()         # read once, before touching any array's shards
    single = [a for a in live if len(a.sharding.device_set) == 1]
    copies = sorted({str(tuple(a.shape)) for a in single if tuple(a.shape) in watched})
    on0 = sum(s.data.nbytes for a in live for s in a.addressable_shards if s.device.id == 0)
    state0 = sum(s.data.nbytes for p in states for s in p._data.addressable_shards if s.device.id == 0)
    ms.reset_auto_parallel_context()
    return {"config": kind, "losses": losses, "single": len(single), "single_bytes": sum(a.nbytes for a in single),
            "copies": copies, "device0": on0, "device0_states": state0, "standalone_states": standalone}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--configs", default="tp,pp")
    ap.add_argument("--steps", type=int, default=3)
    args = ap.parse_args()
    assert jax.device_count() == 8, "set XLA_FLAGS=--xla_force_host_platform_device_count=8"
    print("| config | losses | single-device arrays (bytes) | of a Parameter/moment shape or shard | "
          "device 0: all live bytes | device 0: Parameters + moments | stand-alone Parameters + moments |")
    print("|---|---|---:|---|---:|---:|---:|")
    for kind in args.configs.split(","):
        r = measure(kind, args.steps)
        name = {"tp": "dp 2 x mp 4", "pp": "2 stages x dp 2 x mp 2"}[kind]
        print(f"| {name} | {', '.join(f'{v:.6f}' for v in r['losses'])} | {r['single']} ({r['single_bytes']:,}) | "
              f"{', '.join(r['copies']) or 'none'} | {r['device0']:,} | {r['device0_states']:,} | "
              f"{r['standalone_states']:,} |", flush=True)


if __name__ == "__main__":
    main()
