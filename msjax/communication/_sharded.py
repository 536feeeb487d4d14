"""Semi-auto and auto parallel: one compiled step partitioned by XLA over all devices.

Under ``SEMI_AUTO_PARALLEL``/``AUTO_PARALLEL`` (or inside ``AutoParallel``) on more
than one device, the transform core hands every compiled function here
(:func:`sharded_call`). The step is traced once with the strategies recording what
they need (:mod:`msjax.parallel._apply`); then

* each Parameter is placed as its first consumer's strategy cuts it (``parameter_plan``
  of ``Cell.shard`` likewise), the rest replicated; with optimizer parallel
  (``enable_parallel_optimizer``, ``AutoParallel.hsdp``) the Parameters and their
  optimizer states (``moments.w`` of ``w``...) are also cut along dimension 0 over the
  data-parallel devices (ZeRO by sharding: XLA gathers them where they are used);
* Tensor inputs follow the dataset strategy: ``"data_parallel"`` (each process's batch
  is its slice of the global batch, cut over all devices), ``"full_batch"``
  (replicated), or a tuple of strategies (with several processes each process feeds the
  block of each input its devices hold, e.g. its patch of an image cut along W);
* the step is ``jax.jit`` over global arrays; written Parameters keep their sharding,
  so nothing moves between steps and each device holds only its blocks.

In one process the results are global arrays (all data visible). With several
processes each process gets its own slice of every result (MindSpore's view: a
rank sees its slice), e.g. its part of a batch-cut output.

PyNative code outside ``ms.jit`` (an eager ``value_and_grad``, an optimizer step) runs
op by op on every rank in MindSpore, with each rank's whole Tensors; msjax compiles it
for speed. Such a function is a sharded step only when a strategy takes effect in it
(a ``Cell.shard``/``ms.shard`` block, which MindSpore runs as a partitioned graph inside
PyNative): its inputs are then whole on every rank (``full_batch``) and its results
gathered whole. Otherwise it compiles as stand-alone code, and its inputs (gradients for
an optimizer...) are never taken for a cut batch.
"""
from __future__ import annotations

import functools
import math

import jax
import jax.numpy as jnp
import numpy as np

from .._core import provided, state
from ..parallel import _apply, _strategy, _strategy_file, _strategy_load
from ..parallel import _context as parallel

__all__ = ["auto_parallel_active", "sharded_call", "local_view"]

P = jax.sharding.PartitionSpec


def auto_parallel_active():
    mode = parallel.get_parallel_mode()
    return mode in (parallel.ParallelMode.SEMI_AUTO_PARALLEL, parallel.ParallelMode.AUTO_PARALLEL) \
        and jax.device_count() > 1


# ---------------------------------------------------------------------------
# where each value lives
# ---------------------------------------------------------------------------
def _optimizer_states(state_params):
    """index of an optimizer state -> index of the Parameter it belongs to (``prefix.<name>``)."""
    by_name = {}
    for j, p in enumerate(state_params):
        if getattr(p, "requires_grad", False):
            by_name[p.name] = j
    out = {}
    for j, p in enumerate(state_params):
        name = getattr(p, "name", "") or ""
        head, dot, tail = name.partition(".")
        while dot:
            k = by_name.get(tail)
            if k is not None and k != j and tuple(state_params[k].shape) == tuple(p.shape):
                out[j] = k
                break
            head, dot, tail = tail.partition(".")
    return out


def _optimizer_sharding(base, shape, dtype, devices, config):
    """``base`` (a Parameter's sharding, or None) further cut along dimension 0 over the
    data-parallel devices, where the shape allows and the tensor is over the threshold."""
    if not shape or np.prod(shape) * np.dtype(dtype).itemsize < config["threshold"] * 1024:
        return base
    n = len(devices)
    if base is None:
        size = n if config["shard_size"] in (-1, None) else min(config["shard_size"], n)
        if size > 1 and n % size == 0 and shape[0] % size == 0:
            return _strategy.split_dim0(len(shape), devices, size)
        return None
    mesh, spec = base.mesh, tuple(base.spec) + (None,) * (len(shape) - len(base.spec))
    free = _strategy.unused_axes(base)
    first = spec[0] if isinstance(spec[0], tuple) else (() if spec[0] is None else (spec[0],))
    cut = math.prod(mesh.shape[a] for a in first + free)
    if free and shape[0] % cut == 0:
        # the data-parallel cut inside each tensor-parallel block (MindSpore slices the slice), so
        # gathering over data parallel gives back the block
        return jax.sharding.NamedSharding(mesh, P(first + free, *spec[1:]))
    return base


def _input_sharding(x, index, devices, strategy):
    rep = _strategy.replicated(devices)
    ndim = np.ndim(x)
    if isinstance(strategy, tuple):
        if index >= len(strategy):
            raise ValueError(f"The dataset strategy has {len(strategy)} entries, but the step has more inputs.")
        st = _strategy.to_strategies("dataset_strategy", (strategy[index],), devices, repeat_left=True)[0]
        st.check_shape("dataset_strategy", index, _global_shape(st.sharding, np.shape(x)), strategy[index])
        return st.sharding
    if strategy == "full_batch" or ndim == 0:
        return rep
    n_local = len([d for d in devices if d.process_index == jax.process_index()])
    if n_local and np.shape(x)[0] % n_local:      # a process without devices there feeds nothing
        raise ValueError(f"Semi-auto parallel: with dataset strategy 'data_parallel' the batch dimension of every "
                         f"input ({np.shape(x)[0]}) must be divisible by the {n_local} devices of this process; "
                         "use a batch size divisible by the device number, or dataset_strategy='full_batch'.")
    return _strategy.split_dim0(ndim, devices)


def _global_shape(sharding, local_shape):
    """The global shape of an input of which this process holds the block its devices cover
    (several processes: each rank feeds its slice, as MindSpore's dataset strategy says)."""
    if jax.process_count() == 1 or len(sharding.spec) > len(local_shape):
        return tuple(local_shape)
    spec = tuple(sharding.spec) + (None,) * (len(local_shape) - len(sharding.spec))
    parts = tuple(1 if e is None else math.prod(sharding.mesh.shape[a] for a in (e if isinstance(e, tuple) else (e,)))
                  for e in spec)
    idx = sharding.devices_indices_map(parts)
    mine = [idx[d] for d in sharding.addressable_devices]
    return tuple(size * parts[k] // len({sl[k].start for sl in mine}) for k, size in enumerate(local_shape))


def _global_inputs(dyn, strategy, devices):
    """Abstract global inputs for tracing: with several processes a process holds blocks (its
    slice of the batch under ``"data_parallel"``, a rank's patch under per-input strategies),
    not the shapes the network sees. As in MindSpore, the step is written for the global
    shapes (Wide&Deep reshapes its input to ``batch_size * get_group_size()`` rows)."""
    if jax.process_count() == 1 or strategy == "full_batch":
        return dyn
    dyn_sh = [_input_sharding(d, i, devices, strategy) for i, d in enumerate(dyn)]
    return [jax.ShapeDtypeStruct(_global_shape(s, np.shape(d)), np.asarray(d).dtype if not hasattr(d, "dtype")
                                 else d.dtype) if np.ndim(d) else d for d, s in zip(dyn, dyn_sh)]


def trace_inputs(state_params, state_vals, dyn):
    """The state values and inputs the transform core traces a compiled function with: global
    shapes in a sharded step; outside it, a rank's slices of the Parameters such a step spread
    over the processes (:func:`_rank_local_call`)."""
    if jax.process_count() > 1 and not auto_parallel_active() and any(_spread(v) for v in state_vals):
        shard = _rank_local_shardings(state_params, state_vals)
        return [v if s is None else jax.ShapeDtypeStruct(_box_shape(s, tuple(np.shape(v))), v.dtype)
                for v, s in zip(state_vals, shard)], dyn
    if not auto_parallel_active() or jax.process_count() == 1 or not state.compiled():
        return state_vals, dyn
    return state_vals, _global_inputs(dyn, _dataset_strategy(), _strategy.mesh_devices())


def _dataset_strategy():
    if parallel.get_auto_parallel_context("full_batch"):
        return "full_batch"
    return parallel.get_auto_parallel_context("dataset_strategy")


def _strategy_save_file():
    cfg = parallel.get_auto_parallel_context("strategy_ckpt_config") or {}
    path = cfg.get("save_file") or parallel.get_auto_parallel_context("strategy_ckpt_save_file")
    return path, cfg.get("only_trainable_params", True)


def check_no_load_file():
    """A pipeline step does not apply a loaded strategy file (a plain sharded step does:
    :mod:`msjax.parallel._strategy_load`)."""
    load = _strategy_load.load_file()
    if load:
        raise NotImplementedError(f"msjax does not apply a loaded strategy file ({load!r}, strategy_ckpt_config's "
                                  "load_file / AutoParallel.load_param_strategy_file) to a pipeline step: the "
                                  "strategies come from the script's shard() calls; to load a checkpoint saved with "
                                  "another strategy use load_distributed_checkpoint or transform_checkpoints.")


def save_strategies(path, trainable_only, state_params, values, keep=None, stage=0):
    """strategy_ckpt_config's save_file: each Parameter's layout, read from its placed value
    (only the state indices ``keep`` when given: a pipeline rank's stage ``stage``)."""
    _strategy_file.save_strategy_file(path, {
        p.name: values[j] for j, p in enumerate(state_params)
        if not _is_key(values[j]) and (getattr(p, "requires_grad", False) or not trainable_only)
        and (keep is None or j in keep)}, stage)


def _optimizer_config():
    cfg = parallel.optimizer_parallel_config()
    return cfg if cfg["enabled"] else None


# ---------------------------------------------------------------------------
# global arrays in and out
# ---------------------------------------------------------------------------
def _is_key(v):
    return isinstance(v, jax.Array) and jax.dtypes.issubdtype(v.dtype, jax.dtypes.prng_key)


def _is_key_aval(aval):
    return jax.dtypes.issubdtype(getattr(aval, "dtype", np.float32), jax.dtypes.prng_key)


_SAME = {}


def _same_place(a, b, ndim):
    """Whether two shardings place an array alike (a step's outputs come back as ``P()`` where
    the plan says ``P(None)``): cached, so an unchanged Parameter is never copied again."""
    if a == b:
        return True
    key = (a, b, ndim)
    hit = _SAME.get(key)
    if hit is None:
        try:
            hit = _SAME[key] = a.is_equivalent_to(b, ndim)
        except Exception:   # noqa: BLE001  (shardings of different kinds or device sets)
            hit = _SAME[key] = False
    return hit


def _place(v, sharding, local_batch=False):
    """``v`` as a global array with ``sharding``. ``local_batch``: ``v`` is this process's
    part of the data (several processes); otherwise every process holds the whole value."""
    if isinstance(v, jax.Array) and _same_place(v.sharding, sharding, v.ndim):
        return v
    if _is_key(v):
        return jax.random.wrap_key_data(_place(jax.random.key_data(v), sharding, local_batch),
                                        impl=jax.random.key_impl(v))
    if jax.process_count() == 1:
        return jax.device_put(v, sharding)
    if isinstance(v, jax.Array) and not v.is_fully_addressable:
        return jax.jit(lambda x: x, out_shardings=sharding)(v)
    host = np.asarray(v)
    if local_batch:
        return jax.make_array_from_process_local_data(sharding, host)
    return jax.make_array_from_callback(host.shape, sharding, lambda idx: host[idx], dtype=host.dtype)


def _box(indices, shape):
    """The block of ``shape`` that the index tuples ``indices`` (this process's shards) cover."""
    box = []
    for d, size in enumerate(shape):
        starts = [idx[d].start or 0 for idx in indices]
        stops = [size if idx[d].stop is None else idx[d].stop for idx in indices]
        box.append((min(starts), max(stops)))
    return box


def _rank_box(x):
    shards = x.addressable_shards
    return shards, _box([s.index for s in shards], x.shape)


def _box_shape(sharding, shape):
    """The shape of this process's block of an array of ``shape`` laid out by ``sharding``."""
    return tuple(b - a for a, b in _box(list(sharding.addressable_devices_indices_map(shape).values()), shape))


def rank_shape(x):
    """The shape of :func:`local_view` ``(x)`` (nothing copied)."""
    if not isinstance(x, jax.Array) or x.is_fully_addressable:
        return tuple(np.shape(x))
    return _box_shape(x.sharding, tuple(x.shape))


def local_view(x):
    """This process's part of a global array: the whole value when it is visible here,
    else the block made of this process's shards (MindSpore's per-rank slice)."""
    if not isinstance(x, jax.Array) or x.is_fully_addressable:
        return x
    if not x.addressable_shards:
        raise RuntimeError("msjax: this rank holds no part of this value: it lives on the devices of another "
                           "pipeline stage (a launched pipeline job keeps each stage's Parameters, optimizer "
                           "states and gradients on that stage's ranks).")
    if x.sharding.is_fully_replicated:
        return x.addressable_data(0)
    shards, box = _rank_box(x)
    buf = np.empty([b - a for a, b in box], dtype=x.dtype)
    for s in shards:
        rel = tuple(slice((s.index[d].start or 0) - box[d][0],
                          (size if s.index[d].stop is None else s.index[d].stop) - box[d][0])
                    for d, size in enumerate(x.shape))
        buf[rel] = np.asarray(s.data)
    return jnp.asarray(buf)


def from_local_view(like, block):
    """The inverse of :func:`local_view`: an array laid out as ``like`` (a global array spread
    over processes) whose part on this process is ``block`` (the rank's slice that
    ``save_checkpoint(..., integrated_save=False)`` wrote). ``None`` when ``block`` is not of
    that slice's shape."""
    imap = like.sharding.addressable_devices_indices_map(tuple(like.shape))
    box = _box(list(imap.values()), like.shape)
    block = np.asarray(block, like.dtype)
    if not imap or block.shape != tuple(b - a for a, b in box):
        return None
    arrays = [jax.device_put(block[tuple(slice((i.start or 0) - a, (size if i.stop is None else i.stop) - a)
                                         for i, size, (a, _) in zip(idx, like.shape, box))], d)
              for d, idx in imap.items()]
    return jax.make_array_from_single_device_arrays(tuple(like.shape), like.sharding, arrays)


# ---------------------------------------------------------------------------
# the step
# ---------------------------------------------------------------------------
def _plan_state(state_params, state_vals, plan, devices, devices_of=None, remesh=None, loaded=None):
    """Each state value's sharding over ``devices`` (a pipeline step: ``devices_of(j)``, its
    stage's devices, with ``remesh(sharding, j)`` moving a strategy's sharding there);
    ``loaded``: ``{index: sharding}`` from a loaded strategy file, which win."""
    n_state = len(state_params)
    devices_of = devices_of or (lambda j: devices)
    shard = [(loaded or {}).get(j, plan.param_sharding.get(id(p))) for j, p in enumerate(state_params)]
    if remesh is not None:
        shard = [s if s is None else remesh(s, j) for j, s in enumerate(shard)]
    owners = _optimizer_states(state_params)
    for j, k in owners.items():      # an optimizer state is laid out as its Parameter (as in MindSpore)
        if shard[j] is None:
            shard[j] = shard[k]
    cfg = _optimizer_config()
    if cfg is not None:
        new = list(shard)
        for j, p in enumerate(state_params):
            v = state_vals[j]
            if _is_key(v):
                continue
            if j in owners:          # an optimizer state: as its Parameter, then cut over data parallel
                k = owners[j]
                new[j] = _optimizer_sharding(shard[k], tuple(v.shape), v.dtype, devices_of(j), cfg)
            elif getattr(p, "requires_grad", False) and getattr(p, "parallel_optimizer", True):
                new[j] = _optimizer_sharding(shard[j], tuple(v.shape), v.dtype, devices_of(j), cfg)
        shard = new
    return [s if s is not None else _strategy.replicated(devices_of(j)) for j, s in enumerate(shard)][:n_state]


def _batch_cut_outputs(out, dyn, devices):
    """SEMI_AUTO_PARALLEL with the data-parallel dataset strategy: an output with the inputs' batch
    rows is cut by batch. MindSpore gives an operator without a strategy a data-parallel one, so a
    rank gets its rows of such an output (the zoo's Wide&Deep evaluates its predictions against each
    rank's labels); XLA's propagation may leave it whole after a matmul cut along its inner
    dimension. An output whose rows are not the batch's keeps XLA's placement."""
    rows = {np.shape(d)[0] for d in dyn if np.ndim(d)}
    if len(rows) != 1 or next(iter(rows)) % len(devices):
        return out
    batch = next(iter(rows))

    def cut(v):
        if isinstance(v, jax.Array) and not _is_key(v) and v.ndim and v.shape[0] == batch:
            return jax.lax.with_sharding_constraint(v, _strategy.split_dim0(v.ndim, devices))
        return v
    return jax.tree_util.tree_map(cut, out)


def sharded_call(body, state_params, dyn_example, sens_example):
    """The compiled step of ``body(state_vals, dyn, sens) -> (out, changed)`` partitioned
    over all devices, or ``None`` when semi-auto/auto parallel is not in effect."""
    if not auto_parallel_active():
        if jax.process_count() > 1 and any(_spread(p._raw_get()) for p in state_params):
            return _rank_local_call(body, state_params)
        return None
    devices = _strategy.mesh_devices()
    written = {}
    eager = not state.compiled()     # PyNative code msjax compiles (see the module docstring)
    rep = _strategy.replicated(devices)

    def step(plan, state_vals, dyn, sens):
        with _apply.tracing(plan):
            out, changed = body(state_vals, dyn, sens)
        if eager:    # results whole on every rank, as PyNative's
            out = jax.tree_util.tree_map(
                lambda v: jax.lax.with_sharding_constraint(v, rep) if isinstance(v, jax.Array) and not _is_key(v)
                else v, out)
        elif strategy == "data_parallel" and parallel.get_parallel_mode() == parallel.ParallelMode.SEMI_AUTO_PARALLEL:
            out = _batch_cut_outputs(out, dyn, devices)
        changed = {i: (jax.lax.with_sharding_constraint(v, written[i]) if i in written and not _is_key(v) else v)
                   for i, v in changed.items()}
        return out, changed

    state_vals = [p._raw_get() for p in state_params]
    strategy = "full_batch" if eager else _dataset_strategy()
    plan = _apply.StepPlan(devices)
    jax.eval_shape(functools.partial(step, plan), state_vals, _global_inputs(dyn_example, strategy, devices),
                   sens_example)
    if eager and not plan.used:
        return None
    state_sh = _plan_state(state_params, state_vals, plan, devices,
                           loaded=_strategy_load.loaded_shardings(state_params, devices))
    written.update(enumerate(state_sh))
    dyn_sh = [_input_sharding(d, i, devices, strategy) for i, d in enumerate(dyn_example)]
    local_batch = jax.process_count() > 1 and strategy != "full_batch"
    jitted = jax.jit(functools.partial(step, _apply.StepPlan(devices)))
    save_file, trainable_only = _strategy_save_file()

    placed_inputs = {}

    def call(vals, dyn, sens):
        g_state = [_place(v, s) for v, s in zip(vals, state_sh)]
        g_dyn = []
        for i, (d, s) in enumerate(zip(dyn, dyn_sh)):
            last = placed_inputs.get(i)
            if last is not None and last[0] is d:    # the same Tensor again (a reused batch): placed already
                g_dyn.append(last[1])
                continue
            g = _place(d, s, local_batch and s != rep)
            placed_inputs[i] = (d, g)       # holds d, so its id cannot be reused while cached
            g_dyn.append(g)
        g_sens = None if sens is None else jax.tree_util.tree_map(lambda s: _place(s, rep), sens)
        out, changed = jitted(g_state, g_dyn, g_sens)
        if jax.process_count() > 1:
            out = jax.tree_util.tree_map(local_view, out)
        # Parameters placed for this step keep their placement (no copy next time, and each
        # device holds only its blocks also for Parameters the step only reads)
        placed = {j: g for j, (g, v) in enumerate(zip(g_state, vals)) if g is not v and j not in changed}
        if save_file and not call.saved:    # strategy_ckpt_config's save_file: each Parameter's layout
            call.saved = True
            new = {**placed, **changed}
            save_strategies(save_file, trainable_only, state_params, [new.get(j, g) for j, g in enumerate(g_state)])
        return out, {**placed, **changed}

    call.shardings = state_sh
    call.saved = False
    return call


def _spread(v):
    return isinstance(v, jax.Array) and not v.is_fully_addressable and not _is_key(v)


def _rank_local_shardings(state_params, vals):
    """The sharding of each state value spread over the processes (an optimizer state not placed
    yet: its Parameter's), else None."""
    shard = [v.sharding if _spread(v) else None for v in vals]
    for j, k in _optimizer_states(state_params).items():
        if shard[j] is None and shard[k] is not None and tuple(np.shape(vals[j])) == tuple(vals[k].shape):
            shard[j] = shard[k]
    return shard


def _rank_local_call(body, state_params):
    """A compiled function outside the step on Parameters a semi-auto/auto-parallel step placed
    over several processes (MindSpore's ``dataset_slice`` sample: ``optimizer(grads)`` after
    ``AutoParallel(grad_fn)``): as a MindSpore rank's stand-alone graph, it runs on the rank's
    slices (the step's outputs, such as the gradients, are slices already). An optimizer state
    not placed yet is laid out as its Parameter first; the new values go back into the global
    arrays with the same shardings."""
    shard = _rank_local_shardings(state_params, [p._raw_get() for p in state_params])
    jitted = jax.jit(body)

    def call(vals, dyn, sens):
        g_state = [v if s is None else _place(v, s) for v, s in zip(vals, shard)]
        out, changed = jitted([local_view(g) for g in g_state], dyn, sens)
        back = {j: g for j, (g, v) in enumerate(zip(g_state, vals)) if g is not v}
        for j, v in changed.items():
            back[j] = v if j < 0 or shard[j] is None else jax.make_array_from_process_local_data(   # j < 0: an argument
                shard[j], np.asarray(v), tuple(g_state[j].shape))
        return out, back

    return call


provided.provide("local_view", local_view)
provided.provide("trace_inputs", trace_inputs)
