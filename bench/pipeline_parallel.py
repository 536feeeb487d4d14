"""Pipeline parallel: a GPT-style stack of pre-LayerNorm transformer blocks (the model of
``bench/tensor_parallel.py``: attention and MLP column/row parallel with ``ops.*.shard``
strategies) trained as MindSpore's pipeline sample does it (``PipelineCell`` of ``--micro``
micro-batches, ``value_and_grad``, ``PipelineGradReducer``, Adam, in ``AutoParallel`` with
``pipeline(stages=S)``) on 8 host devices in one process, as 1, 2 and 4 stages with
tensor parallel ``mp = --mp`` inside each stage and data parallel over the rest
(``dp = 8 / (S * mp)``). Block ``i`` is on stage ``i * S // layers``; the final LayerNorm and
the loss on the last stage. The 1-stage run is the same step without pipeline stages (the
micro-batch sum's gradient straight to Adam).

Reported per stage count: the losses of the first steps (they must agree between the
stage counts: the same model, the same batches), the bytes of the parameters, Adam's
moments and ``accu_grads`` on the most loaded device (read from the arrays' shardings)
beside the 1-stage bytes / S (the ratio leaves out ``accu_grads``, the pipeline's own copy of
the gradients, which the 1-stage step does not have), the bubble fraction of msjax's dispatch schedule (its
simulated start times, a backward twice a forward) beside MindSpore's
``(S - 1) / (micro + S - 1)``, and steps/s beside the same model pipelined by hand in JAX with
the same schedule (:func:`hand_written`; its losses must equal msjax's to 1e-4 before timing):
``--repeat`` rounds of one block of ``--steps`` steps per side, the sides' order alternating
(ABBA), the medians of the blocks and of the rounds' ratios; ``CPU ratio``: the same rounds'
median of the hand-written side's CPU time over msjax's (``time.process_time`` of this process:
all its threads, so other jobs on a loaded machine do not enter it), and each side's CPU seconds a step
(``CPU s/st``, ``JAX CPU``: the median block's). ``dev0 live``: after the first steps,
device 0's share of the logical bytes of every live array (``jax.live_arrays()`` and their
shards; the issue's memory measure, here on a balanced stack where each stage holds
``1 / S`` of the blocks).
The 8 host devices share this machine's cores, so steps/s compare dispatch overheads,
not overlap.

    XLA_FLAGS=--xla_force_host_platform_device_count=8 python bench/pipeline_parallel.py \\
        [--stages 1,2,4] [--layers 8] [--hidden 128] [--heads 4] [--seq 32] [--micro-batch 4] [--micro 4] [--mp 2]
"""
from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import jax  # noqa: E402

import tensor_parallel as tp  # noqa: E402  (the model, written as a MindSpore script)

import msjax as ms  # noqa: E402
from msjax import nn  # noqa: E402
from msjax.communication._pipeline_step import _start_times  # noqa: E402
from msjax.parallel.auto_parallel import AutoParallel  # noqa: E402


def bytes_per_device(states):
    per = {}
    for p in states:
        for s in p._data.addressable_shards:
            per[s.device.id] = per.get(s.device.id, 0) + s.data.nbytes
    return per


def device0_share():
    """Device 0's bytes of every live array over their logical bytes (``jax.live_arrays()`` and
    their shards, read once: JAX keeps the per-device views that reading shards makes)."""
    gc.collect()
    live = jax.live_arrays()
    logical = sum(a.nbytes for a in live)
    on0 = sum(s.data.nbytes for a in live for s in a.addressable_shards if s.device.id == 0)
    return {"logical": logical, "device0": on0, "share": on0 / logical}


def run(cfg, stages, args, x, y):
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_seed(1)
    dp = jax.device_count() // (stages * args.mp)
    S = tp.Strategies(dp, args.mp)
    net = tp.Transformer(cfg, S)
    init = {p.name: np.array(p.asnumpy()) for p in net.trainable_params()}
    layers = len(net.blocks)
    if stages > 1:
        for i, block in enumerate(net.blocks):
            block.pipeline_stage = i * stages // layers
        net.ln_f.pipeline_stage = stages - 1
    opt = nn.Adam(net.trainable_params(), tp.LR, eps=tp.ADAM_EPS)
    pp = nn.PipelineCell(net, args.micro)
    grad_fn = ms.value_and_grad(pp, None, opt.parameters)
    reducer = nn.PipelineGradReducer(opt.parameters) if stages > 1 else None

    def train_step(inputs, target):
        loss, grads = grad_fn(inputs, target)
        if reducer is not None:
            grads = reducer(grads)
        opt(grads)
        return loss

    step = AutoParallel(train_step, parallel_mode="semi_auto")
    step.dataset_strategy(S(("dp", "None", "None"), ("dp", "None", "None")))
    if stages > 1:
        step.pipeline(stages=stages)
    xt, yt = ms.Tensor(x), ms.Tensor(y)
    t0 = time.perf_counter()
    losses = [float(step(xt, yt).asnumpy()) for _ in range(args.check)]
    first = time.perf_counter() - t0
    share = device0_share()
    jstep = hand_written(cfg, stages, args, init, x, y)
    jlosses = [float(sum(float(v) for v in jstep()[0])) for _ in range(args.check)]
    np.testing.assert_allclose(jlosses, losses, rtol=1e-4)     # the same model and numbers before timing
    out = {}

    def ms_block():
        for _ in range(args.steps):
            out["ms"] = step(xt, yt)
        jax.block_until_ready(out["ms"]._data)

    def jax_block():
        for _ in range(args.steps):
            out["jax"] = jstep()
        jax.block_until_ready(out["jax"])
    rates, jrates, ratios, cpu_ratios, cpus, jcpus = [], [], [], [], [], []
    for r in range(args.repeat):     # the sides alternate (ABBA): load changes hit both alike
        got, cpu = {}, {}
        for name, block in ((("ms", ms_block), ("jax", jax_block)) if r % 2 == 0 else
                            (("jax", jax_block), ("ms", ms_block))):
            t, c = time.perf_counter(), time.process_time()
            block()
            got[name] = args.steps / (time.perf_counter() - t)
            cpu[name] = time.process_time() - c
        rates.append(got["ms"])
        jrates.append(got["jax"])
        ratios.append(got["ms"] / got["jax"])
        cpu_ratios.append(cpu["jax"] / cpu["ms"])
        cpus.append(cpu["ms"] / args.steps)
        jcpus.append(cpu["jax"] / args.steps)
    seen, states = set(), []
    for p in list(net.get_parameters()) + list(opt.get_parameters()) + \
            (list(reducer.get_parameters()) if reducer else []):
        if id(p) not in seen and p.name not in ("global_step", "learning_rate", "beta1_power", "beta2_power",
                                                  "scale_sense"):
            seen.add(id(p))
            states.append(p)
    per = bytes_per_device(states)
    per_model = bytes_per_device([p for p in states if not p.name.startswith("accu_grads.")])
    start = _start_times(stages, args.micro, "1f1b", True)
    span = max(t + (1 if k == "F" else 2) for (_, k, _), t in start.items())
    ms.reset_auto_parallel_context()
    return {"jax_losses": jlosses, "jax_steps_per_s": statistics.median(jrates),"stages": stages, "dp": dp, "mp": args.mp, "losses": losses, "first_steps_s": first,
            "steps_per_s": statistics.median(rates), "ratio": statistics.median(ratios),
            "cpu_ratio": statistics.median(cpu_ratios), "cpu_s_per_step": statistics.median(cpus),
            "jax_cpu_s_per_step": statistics.median(jcpus), "round_ratios": ratios, "max_bytes": max(per.values()),
            "max_model_bytes": max(per_model.values()), "live": share,
            "bytes_by_device": [per.get(d.id, 0) for d in jax.devices()],
            "bubble": 1 - args.micro * 3 / span, "bubble_formula": (stages - 1) / (args.micro + stages - 1)}


def hand_written(cfg, stages, args, init, x, y):
    """The same model pipelined by hand in JAX: per stage a jitted forward that returns its
    ``jax.vjp`` (residuals kept, as msjax keeps them) and a jitted backward, on the stage's
    ``(dp, mp)`` mesh with the tensor-parallel layouts of ``bench/tensor_parallel.py``;
    activations and their gradients ``jax.device_put`` between the stages; the same 1F1B
    dispatch order; optax's Adam per stage on the summed micro-batch gradient."""
    import optax
    from jax.sharding import Mesh, NamedSharding, PartitionSpec as P
    n, layers, micro = jax.device_count(), args.layers, args.micro
    devs = sorted(jax.devices(), key=lambda d: d.id)
    per = n // stages
    dp = per // args.mp
    meshes = [Mesh(np.array(devs[s * per:(s + 1) * per]).reshape(dp, args.mp), ("dp", "mp")) for s in range(stages)]
    mine = [[i for i in range(layers) if i * stages // layers == s] for s in range(stages)]

    def owner(name):
        if name.startswith("blocks."):
            return int(name.split(".")[1]) * stages // layers
        return stages - 1
    params = [{k: jax.device_put(v, NamedSharding(meshes[s], tp.tp_spec(k))) for k, v in init.items()
               if owner(k) == s} for s in range(stages)]
    tx = optax.adam(tp.LR, eps=tp.ADAM_EPS)
    opt = [jax.jit(tx.init)(p) for p in params]
    fwd, bwd, upd = [], [], []
    for s in range(stages):
        named = (lambda m: lambda spec: NamedSharding(m, spec))(meshes[s])
        constrain = (lambda nm: lambda w, name: jax.lax.with_sharding_constraint(w, nm(tp.tp_spec(name))))(named)
        last = s == stages - 1

        def f(p, xx, target, _s=s, _named=named, _constrain=constrain, _last=last):
            return tp.jax_forward(p, xx, target, cfg, _named, _constrain, layers=mine[_s], head=_last)
        fwd.append(jax.jit(lambda p, xx, t, _f=f: jax.vjp(lambda a, b: _f(a, b, t), p, xx)))
        bwd.append(jax.jit(lambda vjp, ct, acc: (lambda g: (jax.tree_util.tree_map(jnp_add, acc, g[0]), g[1]))(
            vjp(ct))))
        upd.append(jax.jit(lambda p, o, g: (lambda u: (optax.apply_updates(p, u[0]), u[1]))(tx.update(g, o, p))))
    mb = args.micro_batch
    xs = [jax.device_put(x[m * mb:(m + 1) * mb], NamedSharding(meshes[0], P("dp", None, None)))
          for m in range(micro)]
    ys = [jax.device_put(y[m * mb:(m + 1) * mb], NamedSharding(meshes[-1], P("dp", None, None)))
          for m in range(micro)]
    zeros = [jax.jit(lambda p: jax.tree_util.tree_map(jax.numpy.zeros_like, p),      # one program per stage
                     out_shardings=jax.tree_util.tree_map(lambda a: a.sharding, params[s])) for s in range(stages)]
    start = _start_times(stages, micro, "1f1b", True)
    order = sorted(start, key=lambda k: (start[k], k[0]))

    def step():
        acts, vjps, cts, losses = {}, {}, {}, []
        acc = [zeros[s](p) for s, p in enumerate(params)]
        for s, kind, m in order:
            if kind == "F":
                xin = xs[m] if s == 0 else jax.device_put(acts.pop((s - 1, m)), NamedSharding(meshes[s], P("dp", None)))
                out, vjps[(s, m)] = fwd[s](params[s], xin, ys[m] if s == stages - 1 else None)
                if s == stages - 1:
                    losses.append(out)
                else:
                    acts[(s, m)] = out
            else:
                ct = np.float32(1.0) if s == stages - 1 else jax.device_put(cts.pop((s + 1, m)),
                                                                             NamedSharding(meshes[s], P("dp", None)))
                acc[s], cts[(s, m)] = bwd[s](vjps.pop((s, m)), ct, acc[s])
        for s in range(stages):
            params[s], opt[s] = upd[s](params[s], opt[s], acc[s])
        return losses, params
    return step


def jnp_add(a, b):
    return a + b


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--stages", default="1,2,4")
    ap.add_argument("--layers", type=int, default=8)
    ap.add_argument("--hidden", type=int, default=128)
    ap.add_argument("--heads", type=int, default=4)
    ap.add_argument("--seq", type=int, default=32)
    ap.add_argument("--micro-batch", type=int, default=4)
    ap.add_argument("--micro", type=int, default=4)
    ap.add_argument("--mp", type=int, default=2)
    ap.add_argument("--check", type=int, default=3)
    ap.add_argument("--steps", type=int, default=3)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json")
    args = ap.parse_args()
    cfg = {"hidden": args.hidden, "heads": args.heads, "seq": args.seq, "batch": args.micro_batch,
           "layers": args.layers, "threshold": 64}
    rng = np.random.default_rng(0)
    shape = (args.micro_batch * args.micro, args.seq, args.hidden)
    x, y = rng.normal(size=shape).astype(np.float32), rng.normal(size=shape).astype(np.float32)
    rows = [run(cfg, int(s), args, x, y) for s in args.stages.split(",")]
    base = rows[0]["max_bytes"] if rows[0]["stages"] == 1 else None
    print(f"{'stages':>6} {'dp x mp':>8} {'max B/device':>13} {'w/o accu_grads':>15} {'1-stage B / S':>14} "
          f"{'ratio':>6} {'bubble':>7} {'(S-1)/(m+S-1)':>14} {'steps/s':>8} {'JAX st/s':>8} {'ratio':>6} {'CPU ratio':>9} {'dev0 live':>9}  losses")
    for r in rows:
        want = base / r["stages"] if base else float("nan")
        print(f"{r['stages']:>6} {r['dp']:>3} x {r['mp']:<3} {r['max_bytes']:>13,} {r['max_model_bytes']:>15,} "
              f"{want:>14,.0f} {r['max_model_bytes'] / want:>6.3f} {r['bubble']:>7.3f} {r['bubble_formula']:>14.3f} "
              f"{r['steps_per_s']:>8.2f} {r['jax_steps_per_s']:>8.2f} {r['ratio']:>6.3f} {r['cpu_ratio']:>9.3f} {r['cpu_s_per_step']:>8.3f} {r['jax_cpu_s_per_step']:>8.3f} {r['live']['share']:>9.3f}  "
              f"{[round(v, 6) for v in r['losses']]}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
