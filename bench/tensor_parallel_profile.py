"""Where the time of ``bench/tensor_parallel.py``'s msjax step goes, on one device count.

For one mode (``tp`` or ``tp+op``) of the bench's transformer it prints

* the collectives in the compiled programs of both sides (msjax: the step that
  ``communication/_sharded.py`` jits; JAX: the hand-written step), XLA's flop and
  byte counts;
* XLA's memory analysis of both programs (per device: arguments + outputs + temporaries
  - donated/aliased bytes; the hand-written step donates parameters and optimizer state,
  msjax's sharded step donates nothing);
* per step, median of ``--repeat`` interleaved single steps (ms): msjax's whole call
  (``AutoParallel`` -> transform core -> ``_sharded.call``), msjax's jitted program
  alone on arguments already placed, the argument placement alone (``_place`` of every
  state entry and input; of which the two inputs), and the JAX step;
* how many state entries and inputs ``call()`` hands to ``jax.device_put`` on every
  call, and whether the core retraced while timed;
* bytes per device of both sides.

Proposed fixes can be tried as monkeypatches of msjax's private functions as of 696916a
(``communication/_sharded.py``, ``parallel/_strategy.py``, the ``apply_shard`` entry of
the core's provided table; this script edits no msjax file):

* ``--fix-states``: optimizer states take their Parameter's sharding also without
  optimizer parallel (``_plan_state`` maps them only when optimizer parallel is on);
* ``--fix-place``: ``_place`` keeps an array whose sharding is *equivalent* to the
  wanted one (``Sharding.is_equivalent_to``, the answer cached per pair of sharding
  objects) instead of requiring ``==`` (the jitted step's outputs come back with
  ``P()`` / ``P(('_p0', '_p1'),)`` where the plan says ``P(None,)`` / ``P(('_p0', '_p1'),
  None)``: the same placement, not ``==``, so those entries go through
  ``jax.device_put`` again on every call);
* ``--fix-inputs``: an input array that was placed before (the same object: a Tensor
  passed again) reuses its placement instead of being device_put on every call;
* ``--fix-op-matrix``: tuple strategies placed as MindSpore places them: one device
  matrix per *operator* (MatMul/BatchMatMul ``(batch..., i, j, k)`` from ``x``'s strategy
  and ``w``'s last (or, transposed, second-last) dimension; other operators: the inputs'
  strategies aligned from the right), with the repeated calculation as its *last*
  (innermost) dimension (MindSpore's ``OperatorInfo::repeated_num_in_dev_matrix_right_ =
  true``), each input's spec taken from that matrix. Done here by turning every tuple
  in_strategy into the equivalent ``Layout`` before msjax's own ``apply_shard`` sees it,
  and, for a single tensor's strategy (the dataset strategy), the repeat innermost;
* ``--layout``: the msjax strategies written as ``Layout((dp, mp), ("dp", "mp"))``
  tensor maps (one device matrix for all operators) instead of tuples.

    python bench/tensor_parallel_profile.py [--devices 8] [--mode tp|tp+op] [--fix-states] [--fix-place]
        [--fix-op-matrix] [--fix-inputs] [--layout] [--repeat 21]
"""
from __future__ import annotations

import argparse
import collections
import inspect
import os
import re
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))

_COLLECTIVE = re.compile(r" (all-reduce|all-gather|reduce-scatter|collective-permute|all-to-all)(?:-start)?\(")


def collectives(hlo_text):
    return dict(collections.Counter(m.group(1) for m in _COLLECTIVE.finditer(hlo_text)))


def _cost(compiled):
    ca = compiled.cost_analysis()
    ca = ca[0] if isinstance(ca, list) else ca
    return {"flops": ca.get("flops"), "bytes accessed": ca.get("bytes accessed")}


def op_layouts(opname, in_strategy, attrs, n):
    """A tuple in_strategy as Layouts over the operator's device matrix (MindSpore's way),
    or ``in_strategy`` unchanged where the rule does not apply."""
    import math
    from msjax.parallel import Layout
    if not isinstance(in_strategy, tuple) or not all(isinstance(s, tuple) for s in in_strategy):
        return in_strategy
    strat = [list(s) for s in in_strategy]
    if opname in ("MatMul", "BatchMatMul") and len(strat) == 2 and min(map(len, strat)) >= 2:
        sx, sw = strat
        ta, tb = bool(attrs.get("transpose_a", False)), bool(attrs.get("transpose_b", False))
        nb = len(sx) - 2
        i, j = (sx[-1], sx[-2]) if ta else (sx[-2], sx[-1])
        dev = sx[:-2] + [i, j, sw[-2] if tb else sw[-1]]
        names = [f"b{d}" for d in range(nb)] + ["i", "j", "k"]
        maps = [names[:nb] + (["j", "i"] if ta else ["i", "j"]),
                names[nb - (len(sw) - 2):nb] + (["k", "j"] if tb else ["j", "k"])]
    else:
        rank = max(len(s) for s in strat)
        dev = [1] * rank
        for s in strat:
            for d, v in enumerate(s):
                pos = rank - len(s) + d
                if v > 1 and dev[pos] not in (1, v):
                    return in_strategy
                dev[pos] = max(dev[pos], v)
        names = [f"a{d}" for d in range(rank)]
        maps = [names[rank - len(s):] for s in strat]
    size = dict(zip(names, dev))
    for s, mp_ in zip(strat, maps):
        if any(v > 1 and v != size[a] for v, a in zip(s, mp_)):
            return in_strategy
    p = math.prod(dev)
    if n % p:
        return in_strategy
    layout = Layout(tuple(dev) + (n // p,), tuple(names) + ("rep",))
    return tuple(layout(*[a if v > 1 else "None" for v, a in zip(s, mp_)]) for s, mp_ in zip(strat, maps))


def _memory(compiled):
    ma = compiled.memory_analysis()
    return int(ma.argument_size_in_bytes + ma.output_size_in_bytes + ma.temp_size_in_bytes - ma.alias_size_in_bytes)


def patch(fix_states, fix_place, fix_op_matrix=False, fix_inputs=False):
    import jax
    from msjax.communication import _sharded
    if fix_op_matrix:
        import math
        from msjax._core import provided
        from msjax.parallel import _apply, _strategy
        apply = _apply.apply

        def apply_shard(opname, in_strategy, out_strategy, fn, args, kwargs):
            if _apply.active() is not None and in_strategy is not None:
                in_strategy = op_layouts(opname, in_strategy, kwargs, len(_apply.active().devices))
            return apply(opname, in_strategy, out_strategy, fn, args, kwargs)
        provided.provide("apply_shard", apply_shard)
        from_tuple = _strategy._from_tuple

        def _from_tuple(opname, strategy, devices):
            n, p = len(devices), math.prod(strategy)
            if n % p:
                return from_tuple(opname, strategy, devices)
            mesh = _strategy.canonical_mesh(devices)
            groups = _strategy._assign(mesh, list(strategy) + [n // p], opname, "strategy")[:-1]
            return _strategy.Strategy(mesh, jax.sharding.PartitionSpec(*[_strategy._entry(g) for g in groups]),
                                      tuple(strategy))
        _strategy._from_tuple = _from_tuple
    if fix_states:
        plan_state = _sharded._plan_state

        def _plan_state(state_params, state_vals, plan, devices):
            for j, k in _sharded._optimizer_states(state_params).items():
                owner = plan.param_sharding.get(id(state_params[k]))
                if owner is not None:
                    plan.param_sharding.setdefault(id(state_params[j]), owner)
            return plan_state(state_params, state_vals, plan, devices)
        _sharded._plan_state = _plan_state
    if fix_place or fix_inputs:
        place = _sharded._place
        equivalent, inputs, unset = {}, {}, object()

        def _place(v, sharding, local_batch=unset):
            if fix_place and isinstance(v, jax.Array) and not _sharded._is_key(v):
                have = v.sharding
                if have is sharding:
                    return v
                key = (id(have), id(sharding), v.ndim)     # the shardings are kept alive in the value
                hit = equivalent.get(key)
                if hit is None:
                    if len(equivalent) > 4096:
                        equivalent.clear()
                    same = have == sharding or have.is_equivalent_to(sharding, v.ndim)
                    hit = equivalent[key] = (have, sharding, same)
                if hit[2]:
                    return v
            if local_batch is unset:     # a state entry (call() passes local_batch for inputs only)
                return place(v, sharding)
            if fix_inputs and isinstance(v, jax.Array):
                hit = inputs.get((id(v), id(sharding)))
                if hit is not None and hit[0] is v and hit[1] is sharding:
                    return hit[2]
                out = place(v, sharding, local_batch)
                if len(inputs) > 64:
                    inputs.clear()
                inputs[(id(v), id(sharding))] = (v, sharding, out)
                return out
            return place(v, sharding, local_batch)
        _sharded._place = _place


def child(a):
    sys.path.insert(0, HERE)
    import jax
    import numpy as np
    import tensor_parallel as tpb
    from msjax._core import transforms
    from msjax.communication import _sharded
    patch(a.fix_states, a.fix_place, a.fix_op_matrix, a.fix_inputs)
    cfg = {"hidden": a.hidden, "heads": a.heads, "seq": a.seq, "batch": a.batch, "layers": a.layers,
           "threshold": a.threshold, "layout": a.layout}
    n = jax.device_count()
    dp, mp = tpb.split(n, a.mode)
    rs = np.random.RandomState(0)
    x = rs.standard_normal((a.batch, a.seq, a.hidden)).astype(np.float32)
    y = rs.standard_normal(x.shape).astype(np.float32)
    m = tpb.msjax_side(cfg, a.mode, dp, mp, x, y)
    j = tpb.jax_side(cfg, a.mode, dp, mp, m.init, x, y)
    losses = [[], []]
    for i, side in enumerate((m, j)):
        for _ in range(3):
            side.run()
            losses[i].append(side.loss())
    if not np.allclose(losses[0], losses[1], rtol=1e-4):
        raise AssertionError(f"losses differ: {losses}")
    print(f"{n} devices, {a.mode} (dp {dp} x mp {mp}), strategies as {'Layout' if a.layout else 'tuples'}, "
          f"fixes: states={a.fix_states} place={a.fix_place} op_matrix={a.fix_op_matrix} inputs={a.fix_inputs}")

    if n > 1:
        entry = next(iter(m.step._compiled.__ms_jit__._cache.values()))
        closure = inspect.getclosurevars(entry.call).nonlocals
        jitted, state_sh, dyn_sh = closure["jitted"], closure["state_sh"], closure["dyn_sh"]
        vals = [p._raw_get() for p in entry.state]
        again = [i for i, (v, s) in enumerate(zip(vals, state_sh))
                 if _sharded._place(v, s) is not v]
        elsewhere = sum(1 for t, s in zip(m.inputs, dyn_sh) if not t._data.sharding.is_equivalent_to(s, t._data.ndim))
        print(f"  call(): {len(again)} of {len(vals)} state entries go through jax.device_put on every call; "
              f"{elsewhere} of {len(dyn_sh)} inputs are not on their data sharding (placed on every call"
              f"{', unless placed before (--fix-inputs)' if a.fix_inputs else ''})")
        if again:
            k = again[0]
            print(f"    e.g. {entry.state[k].name}: holds {vals[k].sharding}\n         planned {state_sh[k]}")
        g_state = [_sharded._place(v, s) for v, s in zip(vals, state_sh)]
        g_dyn = [_sharded._place(t._data, s) for t, s in zip(m.inputs, dyn_sh)]
        mc = jitted.lower(g_state, g_dyn, None).compile()
        jc = j.step.lower(j.state["params"], j.state["opt"], *j.inputs).compile()
        print(f"  collectives: msjax {collectives(mc.as_text())}  JAX {collectives(jc.as_text())}")
        print(f"  XLA cost:    msjax {_cost(mc)}  JAX {_cost(jc)}")
        print(f"  XLA memory per device (args + outputs + temps - aliased): msjax {_memory(mc):,}  JAX {_memory(jc):,}")
        held = {"g": g_state}

        def program_alone():
            out, changed = jitted(held["g"], g_dyn, None)
            g = list(held["g"])
            for i, v in changed.items():
                g[i] = v
            held["g"] = g
            return out

        def inputs_alone():     # as call() places them
            return [_sharded._place(t._data, s, False) for t, s in zip(m.inputs, dyn_sh)]

        def placement_alone():
            return [_sharded._place(p._raw_get(), s) for p, s in zip(entry.state, state_sh)] + inputs_alone()
        probes = {"msjax call": (m.run, m.sync), "msjax program alone": (program_alone, None),
                  "placement alone": (placement_alone, None), "of which inputs": (inputs_alone, None),
                  "JAX step": (j.run, j.sync)}
    else:
        probes = {"msjax call": (m.run, m.sync), "JAX step": (j.run, j.sync)}
    traces = transforms.TRACES[0]
    times = {k: [] for k in probes}
    for r in range(a.repeat):
        for name in (list(probes) if r % 2 == 0 else list(probes)[::-1]):
            run, sync = probes[name]
            t0 = time.perf_counter()
            out = run()
            if sync is not None:
                sync()
            else:
                jax.block_until_ready(out)
            times[name].append(time.perf_counter() - t0)
    print("  ms per step (median of %d): " % a.repeat +
          " | ".join(f"{k} {1e3 * statistics.median(v):.2f}" for k, v in times.items()))
    ratio = statistics.median(times["msjax call"]) / statistics.median(times["JAX step"])
    print(f"  msjax / JAX time per step: {ratio:.3f}   retraces while timed: {transforms.TRACES[0] - traces}")
    print(f"  bytes per device: msjax {m.nbytes():,}  JAX {j.nbytes():,}")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--devices", type=int, default=8)
    p.add_argument("--mode", default="tp", choices=["tp", "tp+op"])
    p.add_argument("--fix-states", action="store_true")
    p.add_argument("--fix-place", action="store_true")
    p.add_argument("--fix-op-matrix", action="store_true")
    p.add_argument("--fix-inputs", action="store_true")
    p.add_argument("--layout", action="store_true")
    p.add_argument("--repeat", type=int, default=21)
    p.add_argument("--hidden", type=int, default=256)
    p.add_argument("--heads", type=int, default=8)
    p.add_argument("--seq", type=int, default=64)
    p.add_argument("--batch", type=int, default=8)
    p.add_argument("--layers", type=int, default=2)
    p.add_argument("--threshold", type=int, default=64)
    p.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    a = p.parse_args()
    if a.child:
        return child(a)
    env = dict(os.environ, JAX_PLATFORMS="cpu", XLA_FLAGS=(os.environ.get("XLA_FLAGS", "") +
               f" --xla_force_host_platform_device_count={a.devices}").strip())
    sys.exit(subprocess.run([sys.executable, os.path.abspath(__file__), "--child"] + sys.argv[1:], env=env).returncode)


if __name__ == "__main__":
    main()
