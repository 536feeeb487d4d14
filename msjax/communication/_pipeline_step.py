"""Pipeline parallel: a compiled step cut into stages that run on their own device groups.

Under ``SEMI_AUTO_PARALLEL``/``AUTO_PARALLEL`` with ``pipeline_stages = S > 1`` (one process,
several devices) the transform core hands every compiled step here instead of to
:mod:`._sharded`'s one partitioned program. The step is traced once to a jaxpr with the
marks of :mod:`msjax.parallel._stages` (each staged Cell's operations, forward and gradient,
name their stage; ``PipelineCell`` names each micro-batch). Then

* every equation gets a stage: its mark, else the latest stage among the values it reads
  (a loss after the last stage), else the earliest stage that uses what it makes (a micro-batch
  slice of the input, the Parameter update of an optimizer);
* each Parameter lives on the devices of the stage that uses it (:func:`_homes`; its optimizer
  states and ``accu_grads`` with it), cut inside that group by its strategies or replicated
  there; values used by no staged operation (learning rate, step counter) on the first stage
  that reads them;
* equations of one (stage, micro-batch, forward/backward) form a *segment*, one ``jax.jit``
  program on that stage's devices; a value one stage makes and another reads is copied
  between the groups (``jax.device_put`` of each shard onto the same layout);
* segments are dispatched in MindSpore's order (``"1f1b"``: each stage runs ``S - s - 1``
  warm-up forwards, then one forward and one backward in turn; ``"gpipe"``: all forwards,
  then all backwards). Dispatch is asynchronous: a stage's devices start a segment when its
  inputs arrive, so the stages overlap as a pipeline does, with no host round trip per
  micro-batch; a value is dropped when its last reader has been dispatched.

The numbers are the stand-alone step's (the same operations on the same values); only where
they run and in which order changes. Several processes (``msjax launch``) keep
:mod:`._sharded`'s one program over all devices (every stage on every device).
"""
from __future__ import annotations

import collections
import heapq

import jax
import numpy as np
from jax._src.interpreters import partial_eval as pe
from jax.extend.core import DropVar, Literal

from .._core import provided, state
from ..parallel import _apply, _stages, _strategy
from ..parallel import _context as parallel
from ..parallel._pipeline import pipeline_stages
from . import _sharded

__all__ = ["step_call", "pipeline_call", "schedule_order"]

P = jax.sharding.PartitionSpec
NS = jax.sharding.NamedSharding
# one compiled program per distinct segment (the micro-batches' are alike; so are the steps of
# two networks of the same structure)
_PROGRAMS = collections.OrderedDict()


def step_call(body, state_params, dyn_example, sens_example):
    """The core's ``sharded_call``: a pipeline step when stages are on, else ``_sharded``'s."""
    if (_sharded.auto_parallel_active() and pipeline_stages() > 1 and jax.process_count() == 1
            and state.compiled()):
        return pipeline_call(body, state_params, dyn_example, sens_example)
    return _sharded.sharded_call(body, state_params, dyn_example, sens_example)


# ---------------------------------------------------------------------------
# the schedule
# ---------------------------------------------------------------------------
def schedule_order(stage, stages, micro, scheduler="1f1b", backward=True):
    """The order stage ``stage`` runs its micro-batches in: ``[("F"|"B", micro), ...]``."""
    if not backward:
        return [("F", m) for m in range(micro)]
    if scheduler == "gpipe":
        return [("F", m) for m in range(micro)] + [("B", m) for m in range(micro)]
    warm = min(stages - stage - 1, micro)
    order = [("F", m) for m in range(warm)]
    f = warm
    for b in range(micro):
        if f < micro:
            order.append(("F", f))
            f += 1
        order.append(("B", b))
    return order


def _start_times(stages, micro, scheduler, backward):
    """Each (stage, kind, micro)'s start in a simulated run (forward 1, backward 2 time units)."""
    orders = [schedule_order(s, stages, micro, scheduler, backward) for s in range(stages)]
    end, start, clock, pos = {}, {}, [0] * stages, [0] * stages
    progress = True
    while progress:
        progress = False
        for s in range(stages):
            if pos[s] >= len(orders[s]):
                continue
            kind, m = orders[s][pos[s]]
            deps = [(s - 1, "F", m)] if kind == "F" and s else []
            if kind == "B":
                deps = [(s, "F", m)] + ([(s + 1, "B", m)] if s + 1 < stages else [])
            if any(d not in end for d in deps):
                continue
            t = max([clock[s]] + [end[d] for d in deps])
            start[(s, kind, m)] = t
            end[(s, kind, m)] = clock[s] = t + (1 if kind == "F" else 2)
            pos[s] += 1
            progress = True
    return start


# ---------------------------------------------------------------------------
# cutting the traced step
# ---------------------------------------------------------------------------
def _is_var(v):
    return not isinstance(v, Literal)


def _assign_stages(jaxpr, marks, state_vars, home, out_home):
    """A stage for every equation (see the module docstring)."""
    eqns = jaxpr.eqns
    producer = {}
    for i, e in enumerate(eqns):
        for v in e.outvars:
            producer[v] = i
    stage = [m[0] for m in marks]
    for i, e in enumerate(eqns):
        if stage[i] is not None:
            continue
        cand = [stage[producer[v]] for v in e.invars if _is_var(v) and v in producer
                and stage[producer[v]] is not None]
        cand += [home[state_vars[v]] for v in e.invars if _is_var(v) and v in state_vars
                 and home.get(state_vars[v]) is not None]
        if cand:
            stage[i] = max(cand)
    users = collections.defaultdict(list)
    for i, e in enumerate(eqns):
        for v in e.invars:
            if _is_var(v):
                users[v].append(i)
    for i in reversed(range(len(eqns))):
        if stage[i] is not None:
            continue
        cand = [stage[u] for v in eqns[i].outvars for u in users.get(v, ()) if stage[u] is not None]
        cand += [out_home[v] for v in eqns[i].outvars if out_home.get(v) is not None]
        stage[i] = min(cand) if cand else 0
    return stage, users


def _homes(jaxpr, marks, state_vars, state_params, plan_stage):
    """The stage whose devices hold each state value: a strategy's stage, else the earliest
    stage whose marked operations read it; optimizer states and ``accu_grads`` follow their
    Parameter."""
    home = dict(plan_stage)
    for e, (s, _, _) in zip(jaxpr.eqns, marks):
        if s is None:
            continue
        for v in e.invars:
            j = state_vars.get(v) if _is_var(v) else None
            if j is not None and j not in plan_stage:
                home[j] = min(home.get(j, s), s)
    for j, k in _sharded._optimizer_states(state_params).items():
        if k in home:
            home[j] = home[k]
    return home


def _segments(jaxpr, stage, marks, users, inputs, state_in):
    """Equations grouped by (stage, micro-batch, backward) and by how many cross-group hops
    lead to them (so the groups form an acyclic graph): ``{key: [equation indices]}``.

    Equations that read only state (a transposed weight), and unmarked ones that read only the
    step's inputs and state (the micro-batch slices of the batch), form one group per stage
    (micro-batch -1), so the micro-batches' programs are alike. The
    hops are counted as early as possible, then each equation is moved as late as its
    readers allow (a slice or a zeros joins the group that uses it)."""
    eqns = jaxpr.eqns
    producer, depth = {}, [0] * len(eqns)
    keys = []
    from_state = set(state_in)
    from_inputs = set(inputs) | from_state
    for i, e in enumerate(eqns):
        ins = [v for v in e.invars if _is_var(v)]
        if ins and not e.effects and all(v in from_state for v in ins):
            from_state.update(e.outvars)
            from_inputs.update(e.outvars)
            key = (stage[i], -1, False)
        elif ins and not e.effects and marks[i][0] is None and all(v in from_inputs for v in ins):
            from_inputs.update(e.outvars)
            key = (stage[i], -1, False)
        else:
            key = (stage[i], marks[i][1], marks[i][2])
        keys.append(key)
        d = 0
        for v in ins:
            if v in producer:
                p = producer[v]
                d = max(d, depth[p] + (keys[p] != key and keys[p][1] != -1))   # input groups read nothing
        depth[i] = d
        for v in e.outvars:
            producer[v] = i
    for i in reversed(range(len(eqns))):      # a source joins its readers' group (a zeros, a constant)
        readers = [u for v in eqns[i].outvars for u in users.get(v, ())]
        if (readers and keys[i][1] != -1 and all(keys[u] == keys[i] for u in readers)
                and not any(_is_var(v) and v in producer for v in eqns[i].invars)):
            depth[i] = max(depth[i], min(depth[u] for u in readers))
    seg_of = [k + (d,) for k, d in zip(keys, depth)]
    groups = collections.OrderedDict()
    for i in sorted(range(len(eqns)), key=lambda i: (depth[i], i)):
        groups.setdefault(seg_of[i], []).append(i)
    for key in groups:
        groups[key].sort()
    return groups, seg_of, producer


class _Segment:
    def __init__(self, key, eqns):
        self.key, self.eqns = key, eqns
        self.stage = key[0]
        self.inputs, self.outputs = [], []
        self.fn = None
        self.priority = 0


def _signature(seg, consts):
    """What makes two segments the same program: stage, equations (with their parameters and
    where each operand comes from), input types and which values leave."""
    local, sig = {}, [seg.stage, tuple((v.aval, ) for v in seg.inputs)]
    pos = {v: i for i, v in enumerate(seg.inputs)}

    def ref(v):
        if isinstance(v, Literal):
            return ("lit", repr(v.val), str(v.aval))
        if v in consts:
            return ("const", id(consts[v]))
        return ("in", pos[v]) if v in pos else ("loc", local[v])
    for e in seg.eqns:
        sig.append((e.primitive.name, repr(sorted(e.params.items(), key=lambda kv: kv[0])),
                    tuple(ref(v) for v in e.invars), len(e.outvars)))
        for v in e.outvars:
            local[v] = len(local)
    sig.append(tuple(("in", pos[v]) if v in pos else ("loc", local[v]) for v in seg.outputs))
    return tuple(sig)


def _remesh(sharding, mesh):
    if isinstance(sharding, NS) and tuple(sharding.mesh.axis_names) == tuple(mesh.axis_names):
        return NS(mesh, sharding.spec)
    return sharding


def _program(seg, consts, mesh, out_sh):
    """The segment as a function of its inputs (its equations bound again, with the sharding
    constraints of its strategies on its own stage's devices); ``out_sh``: the sharding of
    each output (a Parameter's new value its planned one, else None: XLA's choice)."""
    eqns, in_vars, out_vars = seg.eqns, list(seg.inputs), list(seg.outputs)
    captured = {v: consts[v] for e in eqns for v in e.invars if _is_var(v) and v in consts}

    def run(*ins):
        env = dict(captured)
        env.update(zip(in_vars, ins))

        def read(v):
            return v.val if isinstance(v, Literal) else env[v]
        for e in eqns:
            params = e.params
            if e.primitive.name == "sharding_constraint":
                params = dict(params, sharding=_remesh(params["sharding"], mesh))
            with e.ctx.manager:
                ans = e.primitive.bind(*[read(v) for v in e.invars], **e.primitive.get_bind_params(params))
            for v, a in zip(e.outvars, ans if e.primitive.multiple_results else [ans]):
                if not isinstance(v, DropVar):
                    env[v] = a
        return [env[v] for v in out_vars]

    if not in_vars:      # nothing placed to follow: run on the stage's devices
        out_sh = [s or NS(mesh, P()) for s in out_sh]
    return jax.jit(run, out_shardings=out_sh)


def _move(x, mesh):
    """``x`` onto ``mesh`` (another stage's devices) with the same layout."""
    if not isinstance(x, jax.Array):
        return x
    sh = x.sharding
    if isinstance(sh, NS) and set(sh.mesh.devices.flat) == set(mesh.devices.flat):
        return x
    spec = sh.spec if isinstance(sh, NS) and tuple(sh.mesh.axis_names) == tuple(mesh.axis_names) else P()
    return _sharded._place(x, NS(mesh, spec))


# ---------------------------------------------------------------------------
# the step
# ---------------------------------------------------------------------------
def pipeline_call(body, state_params, dyn_example, sens_example):
    stages = pipeline_stages()
    groups = _stages.stage_groups(_strategy.mesh_devices(), stages)
    meshes = [_strategy.canonical_mesh(g) for g in groups]
    mesh_stage = {id(m): s for s, m in enumerate(meshes)}
    strategy = _sharded._dataset_strategy()
    state_vals = [p._raw_get() for p in state_params]
    plan = _apply.StepPlan(groups[0])

    def traced(sv, dyn, sens):
        with _apply.tracing(plan), _stages.tracing(groups):
            return body(sv, dyn, sens)

    closed, out_shape = jax.make_jaxpr(traced, return_shape=True)(state_vals, list(dyn_example), sens_example)
    jaxpr = pe.dce_jaxpr(closed.jaxpr, [True] * len(closed.jaxpr.outvars), instantiate=True)[0]
    consts = {v: (np.asarray(c) if isinstance(c, jax.Array) and not _sharded._is_key(c) else c)
              for v, c in zip(jaxpr.constvars, closed.consts)}
    n_state, n_dyn = len(state_vals), len(jax.tree_util.tree_leaves(list(dyn_example)))
    invars = jaxpr.invars
    state_vars = {v: j for j, v in enumerate(invars[:n_state])}
    dyn_vars = {v: i for i, v in enumerate(invars[n_state:n_state + n_dyn])}
    sens_vars = invars[n_state + n_dyn:]
    out_tree = jax.tree_util.tree_structure(out_shape)
    n_out = len(jax.tree_util.tree_leaves(out_shape[0]))
    changed_keys = sorted(out_shape[1])
    marks = [_stages.marks(e.source_info.name_stack) for e in jaxpr.eqns]

    # where each state value lives
    plan_stage = {}
    base = {}
    for j, p in enumerate(state_params):
        sh = plan.param_sharding.get(id(p))
        if sh is not None:
            s = next((k for k, g in enumerate(groups) if set(g) == set(sh.mesh.devices.flat)), 0)
            plan_stage[j], base[j] = s, sh
    home = _homes(jaxpr, marks, state_vars, state_params, plan_stage)
    written = dict(zip(changed_keys, jaxpr.outvars[n_out:]))
    out_home = {v: home[j] for j, v in written.items() if _is_var(v) and j in home}
    stage, users = _assign_stages(jaxpr, marks, state_vars, home, out_home)
    for v, j in state_vars.items():      # unmarked state: on the first stage that reads it
        if j not in home:
            readers = [stage[u] for u in users.get(v, ())]
            home[j] = min(readers) if readers else 0
    _sharded.check_no_load_file()
    state_sh = _sharded._plan_state(state_params, state_vals, plan, groups[0],
                                    devices_of=lambda j: groups[home[j]], remesh=lambda sh, j: _remesh(
                                        sh, meshes[home[j]]))

    # segments and their inputs/outputs
    groups_eq, seg_of, producer = _segments(jaxpr, stage, marks, users, set(dyn_vars) | set(sens_vars),
                                            set(state_vars))
    segs = {key: _Segment(key, [jaxpr.eqns[i] for i in idx]) for key, idx in groups_eq.items()}
    outs_needed = {v for v in jaxpr.outvars if _is_var(v)}
    written_by = {v: j for j, v in written.items() if _is_var(v) and not _sharded._is_key_aval(v.aval)}
    for key, seg in segs.items():
        made = {v for e in seg.eqns for v in e.outvars}
        seen = set()
        for e in seg.eqns:
            for v in e.invars:
                if _is_var(v) and v not in made and v not in consts and v not in seen:
                    seen.add(v)
                    seg.inputs.append(v)
        for i in groups_eq[key]:
            for v in jaxpr.eqns[i].outvars:
                if isinstance(v, DropVar):
                    continue
                if v in outs_needed or any(seg_of[u] != key for u in users.get(v, ())):
                    seg.outputs.append(v)
        out_sh = [state_sh[written_by[v]] if v in written_by and home[written_by[v]] == seg.stage else None
                  for v in seg.outputs]
        sig = (_signature(seg, consts), meshes[seg.stage], tuple(out_sh))
        seg.fn = _PROGRAMS.get(sig)
        if seg.fn is None:
            seg.fn = _PROGRAMS[sig] = _program(seg, consts, meshes[seg.stage], out_sh)
            while len(_PROGRAMS) > 512:
                _PROGRAMS.popitem(last=False)

    # dispatch order: the scheduler's start times, then a topological order
    micro = 1 + max([m[1] for m in marks if m[1] is not None], default=0)
    backward = any(m[2] for m in marks)
    if backward and micro < stages and any(m[1] is not None for m in marks):    # MindSpore's CutBorder
        raise RuntimeError(f"MicroBatch size: {micro} can't less than stage num: {stages}")
    scheduler = parallel.pipeline_scheduler()
    if scheduler not in ("1f1b", "gpipe"):
        raise NotImplementedError(f"msjax does not support the pipeline scheduler {scheduler!r}: only '1f1b' and "
                                  "'gpipe' (the schedules MindSpore 2.10 documents).")
    start = _start_times(stages, micro, scheduler, backward)
    deps = {key: {seg_of[producer[v]] for v in seg.inputs if v in producer} for key, seg in segs.items()}
    for key in segs:      # groups_eq is in trace order: producers first
        s, m, b, _ = key
        own = start.get((s, "B" if b else "F", m)) if m is not None else None
        inherited = max([segs[d].priority for d in deps[key]], default=-1)
        segs[key].priority = own if own is not None else inherited
    order = _topological(segs, deps)

    reads = collections.Counter(v for key in order for v in segs[key].inputs)
    dyn_sh, placed_inputs = {}, {}

    def call(vals, dyn, sens):
        g_state = [_sharded._place(v, s) for v, s in zip(vals, state_sh)]
        flat_sens = jax.tree_util.tree_leaves(sens) if sens is not None else []
        env, moved = {}, {}
        for v, j in state_vars.items():
            env[v] = g_state[j]
        left = collections.Counter(reads)

        def fetch(v, s):
            if v in dyn_vars or v in sens_vars:
                key = (v, s)
                if key not in moved:
                    if v in dyn_vars:
                        i = dyn_vars[v]
                        sh = dyn_sh.get(key)
                        if sh is None:
                            sh = dyn_sh[key] = _sharded._input_sharding(dyn[i], i, groups[s], strategy)
                        last = placed_inputs.get(key)
                        if last is None or last[0] is not dyn[i]:    # a new batch (the same Tensor again: placed)
                            last = placed_inputs[key] = (dyn[i], _sharded._place(dyn[i], sh))
                        moved[key] = last[1]
                    else:
                        moved[key] = _sharded._place(flat_sens[sens_vars.index(v)], NS(meshes[s], P()))
                return moved[key]
            x = env[v]
            sh = getattr(x, "sharding", None)
            if isinstance(sh, NS) and mesh_stage.get(id(sh.mesh)) == s:
                return x
            if (v, s) not in moved:
                moved[(v, s)] = _move(x, meshes[s])
            return moved[(v, s)]

        for key in order:
            seg = segs[key]
            ins = [fetch(v, seg.stage) for v in seg.inputs]
            for v, o in zip(seg.outputs, seg.fn(*ins)):
                env[v] = o
            for v in seg.inputs:
                left[v] -= 1
                if not left[v] and v not in outs_needed:
                    env.pop(v, None)
                    for s in range(stages):
                        moved.pop((v, s), None)

        def result(v):
            if not _is_var(v):
                return v.val
            if v in env:
                return env[v]
            return fetch(v, 0)
        flat = [result(v) for v in jaxpr.outvars]
        out, changed = jax.tree_util.tree_unflatten(out_tree, flat)
        changed = {j: _sharded._place(v, state_sh[j]) for j, v in changed.items()}
        placed = {j: g for j, (g, v) in enumerate(zip(g_state, vals)) if g is not v and j not in changed}
        if save_file and not call.saved:    # strategy_ckpt_config's save_file: each stage's layouts
            call.saved = True
            new = {**placed, **changed}
            _sharded.save_strategies(save_file, trainable_only, state_params,
                                     [new.get(j, g) for j, g in enumerate(g_state)])
        return out, {**placed, **changed}

    save_file, trainable_only = _sharded._strategy_save_file()
    call.saved = False
    call.shardings = state_sh
    call.stages = home
    call.segments = [(segs[k].stage, k[1], k[2]) for k in order]
    return call


def _topological(segs, deps):
    """Kahn's order over the segments, the lowest priority (schedule start) first."""
    users = collections.defaultdict(list)
    pending = {k: len(d) for k, d in deps.items()}
    for k, d in deps.items():
        for p in d:
            users[p].append(k)
    index = {k: i for i, k in enumerate(segs)}
    ready = [(segs[k].priority, k[3], index[k], k) for k, n in pending.items() if n == 0]
    heapq.heapify(ready)
    out = []
    while ready:
        *_, k = heapq.heappop(ready)
        out.append(k)
        for u in users[k]:
            pending[u] -= 1
            if not pending[u]:
                heapq.heappush(ready, (segs[u].priority, u[3], index[u], u))
    if len(out) != len(segs):
        raise RuntimeError("msjax could not order the pipeline stages of this step (a cycle between stages).")
    return out


provided.provide("sharded_call", step_call)
