"""Pipeline parallel: a compiled step cut into stages that run on their own device groups.

Under ``SEMI_AUTO_PARALLEL``/``AUTO_PARALLEL`` with ``pipeline_stages = S > 1`` (one process
with several devices, or several processes under ``msjax launch``) the transform core hands
every compiled step here instead of to :mod:`._sharded`'s one partitioned program. The step
is traced once to a jaxpr with the marks of :mod:`msjax.parallel._stages` (each staged Cell's
operations, forward and gradient, name their stage; ``PipelineCell`` names each micro-batch).
Then

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

A Parameter's gradient sum over micro-batches is re-associated in micro-batch order
(:func:`_sums_in_micro_order`), so each backward adds its micro-batch's gradient, and the
edges between the micro-batches of one stage in schedule order start no new program.

The numbers are the stand-alone step's: the same operations on the same values, each program
recomputing the layout operations on state it reads (:func:`_layout_per_group`, so XLA folds a
transposed weight into its products as in the stand-alone program), the gradient sums in
micro-batch order (bit for bit the stand-alone micro-batch gradients so added, on a device per
stage); only where they run and in which order changes. With
abstract Parameters (``jax.ShapeDtypeStruct`` values) the step compiles every program and
runs none (``DRY_RUN``: the compiled programs, for their ``memory_analysis()``).

Several processes (``msjax launch``): every process walks the same dispatch order, runs the
programs of the stages it has devices in and stands in for the others' results with arrays
of their shapes and shardings that hold nothing here (:func:`._stage_transfer.absent_outputs`),
so a process holds only its stages' Parameters, optimizer states and ``accu_grads``; a value
crossing to a stage of other processes goes by :func:`._stage_transfer.transfer` (a
``ppermute`` program over both stages' devices). Each rank feeds its batch to its stages (a
data-parallel input's rows are those of the stage's processes); the step's forward results
(the loss) reach every rank, gradients stay on their stage (:func:`._stage_transfer.for_rank`).
"""
from __future__ import annotations

import collections
import heapq
import weakref

import jax
import numpy as np
from jax._src.interpreters import partial_eval as pe
from jax.extend.core import DropVar, Literal, Var

from .._core import provided, state
from ..parallel import _apply, _stages, _strategy
from ..parallel import _context as parallel
from ..parallel._pipeline import pipeline_stages
from . import _sharded, _stage_transfer

__all__ = ["step_call", "pipeline_call", "schedule_order"]

P = jax.sharding.PartitionSpec
NS = jax.sharding.NamedSharding
# one compiled program per distinct segment (the micro-batches' are alike; so are the steps of
# two networks of the same structure)
_PROGRAMS = collections.OrderedDict()
# the programs of the last step called with abstract Parameters (see ``dry_run``)
DRY_RUN = []


def step_call(body, state_params, dyn_example, sens_example):
    """The core's ``sharded_call``: a pipeline step when stages are on, else ``_sharded``'s."""
    if _sharded.auto_parallel_active() and pipeline_stages() > 1 and state.compiled():
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


def _sums_in_micro_order(jaxpr, marks):
    """The gradient sums over micro-batches re-associated in micro-batch order.

    The transposed step adds a Parameter's micro-batch gradients in trace order (last
    micro-batch first: ``((g3 + g2) + g1) + g0``), which would hold every micro-batch's
    gradient until the last backward. Each chain of ``add_any`` whose terms come from
    different micro-batches becomes ``((g0 + g1) + g2) + g3``, each addition marked with its
    term's micro-batch, so a stage adds a micro-batch's gradient in that micro-batch's
    backward, as MindSpore's ``accu_grads`` do (the sum differs in rounding only)."""
    eqns, marks = list(jaxpr.eqns), list(marks)
    producer = {v: i for i, e in enumerate(eqns) for v in e.outvars if not isinstance(v, DropVar)}
    uses = collections.Counter(v for e in eqns for v in e.invars if _is_var(v))
    uses.update(v for v in jaxpr.outvars if _is_var(v))
    used_by_add = {v for e in eqns if e.primitive.name == "add_any" for v in e.invars if _is_var(v)}

    def internal(v):      # a partial sum only the next addition reads
        i = producer.get(v) if _is_var(v) else None
        return i is not None and eqns[i].primitive.name == "add_any" and uses[v] == 1 and v in used_by_add

    moved, placed = set(), {}
    for r, e in enumerate(eqns):
        if e.primitive.name != "add_any" or internal(e.outvars[0]):
            continue
        nodes, leaves, todo = [r], [], list(eqns[r].invars)
        while todo:
            v = todo.pop()
            if internal(v):
                nodes.append(producer[v])
                todo.extend(eqns[producer[v]].invars)
            else:
                leaves.append(v)
        if len(leaves) < 2:
            continue
        mark = [marks[producer[v]] if _is_var(v) and v in producer else (None, None, False) for v in leaves]
        if (len({m[1] for m in mark}) < 2 or None in {m[1] for m in mark} or len({m[0] for m in mark}) != 1
                or len({m[2] for m in mark}) != 1):
            continue
        order = sorted(range(len(leaves)), key=lambda k: mark[k][1])
        outs = [eqns[i].outvars[0] for i in sorted(nodes[1:])] + [eqns[r].outvars[0]]
        acc, chain = leaves[order[0]], []
        for t, k in enumerate(order[1:]):
            chain.append((eqns[nodes[t]].replace(invars=[acc, leaves[k]], outvars=[outs[t]]), mark[k]))
            acc = outs[t]
        moved.update(nodes)
        placed[r] = chain
    if not placed:
        return jaxpr, marks
    return _rebuilt(jaxpr, eqns, marks, placed, moved)


def _rebuilt(jaxpr, eqns, marks, before, skipped):
    """``jaxpr`` with ``eqns`` less ``skipped``, each ``before[i]`` (``[(equation, mark)]``) bound
    just before equation ``i``; and the marks."""
    new_eqns, new_marks = [], []
    for i, e in enumerate(eqns):
        for ne, m in before.get(i, ()):
            new_eqns.append(ne)
            new_marks.append(m)
        if i not in skipped:
            new_eqns.append(e)
            new_marks.append(marks[i])
    return jaxpr.replace(eqns=new_eqns), new_marks


# operations that only reorder, reshape, cast or constrain the layout of their operand: XLA folds them into
# the product reading them (a constraint on a Parameter already so placed costs nothing in the program)
_LAYOUT = frozenset({"transpose", "reshape", "broadcast_in_dim", "convert_element_type", "squeeze",
                     "expand_dims", "sharding_constraint"})


def _layout_per_group(jaxpr, marks, state_in):
    """Layout operations on state (a ``Dense`` weight's transpose, a cast) recomputed in every
    (stage, micro-batch, direction) group that reads them.

    Made once and passed on, a transposed weight reaches the products of the backward and of
    other micro-batches as a materialised array, where the stand-alone step's one program lets
    XLA fold the transpose into the ``dot``, which then sums in another order: a last-bit
    difference in most gradients (the docs sample's losses 9.5e-5 from the stand-alone step's
    after a ReLU it tipped at step 49, docs/parallel.md). Each reading group gets its own copy
    (chains copied whole, marked with the group), so each program's products read what the
    stand-alone program's read."""
    eqns, marks = list(jaxpr.eqns), list(marks)
    base = set(state_in) | set(jaxpr.constvars)
    producer, layout = {}, set()
    for i, e in enumerate(eqns):
        ins = [v for v in e.invars if _is_var(v)]
        if (e.primitive.name in _LAYOUT and not e.effects and ins
                and all(v in base or producer.get(v) in layout for v in ins)):
            layout.add(i)
        for v in e.outvars:
            producer[v] = i
    if not layout:
        return jaxpr, marks
    before = collections.defaultdict(list)      # eqn index: [(copy, mark)] bound just before it
    copies = {}

    def copy_in(v, key, at):
        i = producer.get(v) if _is_var(v) else None
        if i not in layout or marks[i] == key:
            return v
        if (v, key) not in copies:
            e = eqns[i]
            invars = [copy_in(u, key, at) for u in e.invars]
            out = Var(v.aval)
            before[at].append((e.replace(invars=invars, outvars=[out]), key))
            copies[(v, key)] = out
        return copies[(v, key)]

    for r, e in enumerate(eqns):
        if r in layout or marks[r][1] is None:
            continue
        invars = [copy_in(v, marks[r], r) for v in e.invars]
        if invars != list(e.invars):
            eqns[r] = e.replace(invars=invars)
    used = collections.Counter(v for e in eqns for v in e.invars if _is_var(v))
    used.update(v for c in before.values() for e, _ in c for v in e.invars if _is_var(v))
    used.update(v for v in jaxpr.outvars if _is_var(v))
    dropped = set()
    for i in sorted(layout, reverse=True):       # originals nobody reads any more
        if not any(used[v] for v in eqns[i].outvars):
            dropped.add(i)
            used.subtract(v for v in eqns[i].invars if _is_var(v))
    return _rebuilt(jaxpr, eqns, marks, before, dropped)


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


def _in_order(a, b):
    """Whether an edge from group ``a`` to group ``b`` runs from a micro-batch to a later one in
    the same stage and direction (a gradient sum, a running statistic): both are in the
    schedule's order already, so such an edge needs no new program."""
    return a[0] == b[0] and a[2] == b[2] and a[1] is not None and b[1] is not None and 0 <= a[1] < b[1]


def _segments(jaxpr, stage, marks, users, inputs, state_in, merge_micro=True):
    """Equations grouped by (stage, micro-batch, backward) and by how many cross-group hops
    lead to them (so the groups form an acyclic graph): ``{key: [equation indices]}``.

    Equations that read only state (but a micro-batch's layout operations on it, which stay with
    their products: :func:`_layout_per_group`), and unmarked ones that read only the
    step's inputs and state (the micro-batch slices of the batch), form one group per stage
    (micro-batch -1), so the micro-batches' programs are alike. The
    hops are counted as early as possible (``merge_micro``: not the hops of :func:`_in_order`),
    then each equation is moved as late as its readers allow (a slice or a zeros joins the group
    that uses it; one nothing reads joins its group's last program), and work on state alone that
    one program reads (the optimizer's terms of a Parameter and its moments) joins that program:
    made in the prologue, every such value was written out and copied (a 2-stage
    ``bench/pipeline_parallel.py`` prologue had 555 outputs and took 55-160 ms a step; now 75)."""
    eqns = jaxpr.eqns
    producer, depth = {}, [0] * len(eqns)
    keys = []
    from_state = set(state_in) | set(jaxpr.constvars)
    from_inputs = set(inputs) | from_state
    state_only = [False] * len(eqns)
    outs = {v for v in jaxpr.outvars if _is_var(v)}
    for i, e in enumerate(eqns):
        ins = [v for v in e.invars if _is_var(v)]
        if (not e.effects and all(v in from_state for v in ins)      # also: reads nothing
                and not (e.primitive.name in _LAYOUT and ins and marks[i][1] is not None)):
            from_state.update(e.outvars)
            from_inputs.update(e.outvars)
            state_only[i] = True
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
                hop = keys[p] != key and keys[p][1] != -1 and not (merge_micro and _in_order(keys[p], key))
                d = max(d, depth[p] + hop)   # input groups read nothing
        depth[i] = d
        for v in e.outvars:
            producer[v] = i
    last = {}
    for k, d in zip(keys, depth):
        last[k] = max(last.get(k, 0), d)
    for i in reversed(range(len(eqns))):      # joins its readers' group (a zeros, a constraint on an input)
        readers = [u for v in eqns[i].outvars for u in users.get(v, ())]
        if keys[i][1] != -1 and (readers or not eqns[i].effects) and all(keys[u] == keys[i] for u in readers):
            depth[i] = max(depth[i], min([depth[u] for u in readers] or [last[keys[i]]]))
    for i in reversed(range(len(eqns))):      # state-only work one program reads (the optimizer's): in it
        readers = {(keys[u], depth[u]) for v in eqns[i].outvars for u in users.get(v, ())}
        if (keys[i][1] == -1 and state_only[i] and len({k for k, _ in readers}) == 1
                and next(iter(readers))[0][1] != -1 and not any(v in outs for v in eqns[i].outvars)):
            keys[i], depth[i] = next(iter(readers))[0], min(d for _, d in readers)
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


def _const_key(c):
    """A traced constant in a program's signature: a small one by its value (a new optimizer's
    learning rate reuses the program compiled for the last one), a large one by identity."""
    if isinstance(c, (np.ndarray, np.generic)) and c.size <= 64:      # (a random key stays a jax.Array)
        return ("val", c.dtype.str, c.shape, c.tobytes())
    return ("const", id(c))


def _signature(seg, consts):
    """What makes two segments the same program: stage, equations (with their parameters and
    where each operand comes from), input types and which values leave."""
    local, sig = {}, [seg.stage, tuple((v.aval, ) for v in seg.inputs)]
    pos = {v: i for i, v in enumerate(seg.inputs)}

    def ref(v):
        if isinstance(v, Literal):
            return ("lit", repr(v.val), str(v.aval))
        if v in consts:
            return _const_key(consts[v])
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
    """``x`` onto ``mesh`` (another stage's devices) with the same layout; between processes by
    :func:`._stage_transfer.transfer`."""
    if not isinstance(x, jax.Array):
        return x
    sh = x.sharding
    if isinstance(sh, NS) and set(sh.mesh.devices.flat) == set(mesh.devices.flat):
        return x
    if jax.process_count() > 1:
        return _stage_transfer.transfer(x, mesh)
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

    multi = jax.process_count() > 1
    trace_dyn = _global_batch(dyn_example, strategy, groups) if multi else list(dyn_example)
    closed, out_shape = jax.make_jaxpr(traced, return_shape=True)(state_vals, trace_dyn, sens_example)
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
    jaxpr, marks = _sums_in_micro_order(jaxpr, marks)
    jaxpr, marks = _layout_per_group(jaxpr, marks, invars[:n_state])

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
    for merge in (True, False):      # micro-batch chains merged unless that makes a cycle
        groups_eq, seg_of, producer = _segments(jaxpr, stage, marks, users, set(dyn_vars) | set(sens_vars),
                                                set(state_vars), merge)
        if _acyclic(jaxpr.eqns, seg_of, producer):
            break
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

    # what each segment reads where (a value made or held on its own stage: as it is), what
    # it is the last reader of, and which written state comes out already in its sharding
    seg_stage = {key: seg.stage for key, seg in segs.items()}
    last_reader = {}
    for key in order:
        for v in segs[key].inputs:
            last_reader[v] = key
    for key in order:
        seg = segs[key]
        seg.local = [(v in state_vars and home[state_vars[v]] == seg.stage)
                     or (v in producer and seg_stage[seg_of[producer[v]]] == seg.stage) for v in seg.inputs]
        seg.drop = [v for v in seg.inputs if last_reader[v] == key and v not in outs_needed]
    placed_out = {j for v, j in written_by.items() if v in producer and seg_stage[seg_of[producer[v]]] == home[j]}
    from_grads = _from_backward(jaxpr, marks)
    state_items = list(state_vars.items())
    dyn_sh, placed_inputs = {}, {}
    returned = [None] * n_state      # weak references to the arrays the last call handed back
    # the stages with devices in this process (all of them in one process); the others' programs run elsewhere
    here_stages = [any(d.process_index == jax.process_index() for d in g) for g in groups]
    absent = {}

    def call(vals, dyn, sens):
        if any(isinstance(v, jax.ShapeDtypeStruct) for v in vals):     # abstract Parameters: compile only
            return dry_run(vals, dyn, sens)
        g_state = []
        for j, (v, s) in enumerate(zip(vals, state_sh)):
            r = returned[j]
            g_state.append(v if r is not None and r() is v else _sharded._place(v, s))
        flat_sens = jax.tree_util.tree_leaves(sens) if sens is not None else []
        env, moved = {v: g_state[j] for v, j in state_items}, {}

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
                            g = (_stage_transfer.place_batch(dyn[i], sh, v.aval.shape)
                                 if multi and strategy != "full_batch" and sh != _strategy.replicated(groups[s])
                                 else _sharded._place(dyn[i], sh))
                            last = placed_inputs[key] = (dyn[i], g)
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
            s = seg.stage
            args = [env[v] if here else fetch(v, s) for v, here in zip(seg.inputs, seg.local)]
            outs = seg.fn(*args) if here_stages[s] else _stage_transfer.absent_outputs(seg.fn, args, absent)
            env.update(zip(seg.outputs, outs))
            for v in seg.drop:
                env.pop(v, None)
                for t in range(stages):
                    moved.pop((v, t), None)

        def result(v):
            if not _is_var(v):
                return v.val
            if v in env:
                return env[v]
            return fetch(v, 0)
        flat = [result(v) for v in jaxpr.outvars]
        if multi:       # each rank's view; forward results (the loss) on every rank
            flat[:n_out] = [_stage_transfer.for_rank(x, meshes, _is_var(v) and v not in from_grads, _sharded.local_view)
                            for x, v in zip(flat[:n_out], jaxpr.outvars[:n_out])]
        out, changed = jax.tree_util.tree_unflatten(out_tree, flat)
        # keys < 0 (an argument the network wrote in place): not written back to the caller's Tensor
        changed = {j: v if j in placed_out else _sharded._place(_move(v, meshes[home[j]]) if multi else v, state_sh[j])
                   for j, v in changed.items() if j >= 0}
        placed = {j: g for j, (g, v) in enumerate(zip(g_state, vals)) if g is not v and j not in changed}
        for j, g in enumerate(g_state):
            final, r = changed.get(j, g), returned[j]
            if r is None or r() is not final:
                returned[j] = _weak(final)
        if save_file and not call.saved:    # strategy_ckpt_config's save_file: each stage's layouts
            call.saved = True
            new = {**placed, **changed}
            # launched: a rank writes its stage's Parameters and its stage number, as MindSpore's ranks
            mine = [j for j in range(n_state) if here_stages[home[j]]] if multi else None
            _sharded.save_strategies(save_file, trainable_only, state_params,
                                     [new.get(j, g) for j, g in enumerate(g_state)], mine,
                                     here_stages.index(True) if multi else 0)
        return out, {**placed, **changed}

    def dry_run(vals, dyn, sens):
        """Every program compiled for abstract Parameters (``jax.ShapeDtypeStruct``), none run:
        ``DRY_RUN`` gets ``(stage, micro-batch, backward, jax.stages.Compiled)`` per program in
        dispatch order; the step returns abstract outputs and changes nothing."""
        def sds(x, sh):
            return jax.ShapeDtypeStruct(x.shape, x.dtype, sharding=sh)
        env = {v: sds(vals[j], state_sh[j]) for v, j in state_items}
        flat_sens = jax.tree_util.tree_leaves(sens) if sens is not None else []
        DRY_RUN.clear()
        compiled = {}

        def fetch(v, s):
            if v in dyn_vars:
                x = dyn[dyn_vars[v]]
                return sds(x, _sharded._input_sharding(x, dyn_vars[v], groups[s], strategy))
            if v in sens_vars:
                return sds(flat_sens[sens_vars.index(v)], NS(meshes[s], P()))
            x, sh = env[v], env[v].sharding
            if isinstance(sh, NS) and set(sh.mesh.devices.flat) == set(meshes[s].devices.flat):
                return x
            spec = sh.spec if isinstance(sh, NS) and tuple(sh.mesh.axis_names) == tuple(meshes[s].axis_names) else P()
            return sds(x, NS(meshes[s], spec))
        for key in order:
            seg = segs[key]
            ins = [fetch(v, seg.stage) for v in seg.inputs]
            sig = (id(seg.fn), tuple((a.shape, a.dtype, a.sharding) for a in ins))
            if sig not in compiled:
                compiled[sig] = seg.fn.lower(*ins).compile()
            DRY_RUN.append((seg.stage, key[1], key[2], compiled[sig]))
            env.update(zip(seg.outputs, compiled[sig].out_info))
        flat = [v.val if not _is_var(v) else env[v] if v in env else fetch(v, 0) for v in jaxpr.outvars]
        out, _ = jax.tree_util.tree_unflatten(out_tree, flat)
        return out, {}

    save_file, trainable_only = _sharded._strategy_save_file()
    call.saved = False
    call.shardings = state_sh
    call.stages = home
    call.segments = [(segs[k].stage, k[1], k[2]) for k in order]
    return call


def _global_batch(dyn, strategy, groups):
    """The inputs as the launched step sees them: each process feeds its batch to the stages it
    has devices in, so a data-parallel input's rows are those of all the stage's processes."""
    if isinstance(strategy, tuple):
        own = next(g for g in groups if any(d.process_index == jax.process_index() for d in g))
        return _sharded._global_inputs(dyn, strategy, own)
    if strategy == "full_batch":
        return list(dyn)
    k = _stage_transfer.procs_per_stage(groups)
    return [jax.ShapeDtypeStruct((np.shape(d)[0] * k,) + tuple(np.shape(d)[1:]), np.asarray(d).dtype
                                 if not hasattr(d, "dtype") else d.dtype) if np.ndim(d) else d for d in dyn]


def _from_backward(jaxpr, marks):
    """The values computed from a backward (gradient) operation: results that stay on their stage."""
    out = set()
    for e, m in zip(jaxpr.eqns, marks):
        if m[2] or any(_is_var(v) and v in out for v in e.invars):
            out.update(e.outvars)
    return out


def _acyclic(eqns, seg_of, producer):
    """Whether the programs' data flow (``seg_of``: each equation's program) has no cycle."""
    deps = collections.defaultdict(set)
    for i, e in enumerate(eqns):
        for v in e.invars:
            if _is_var(v) and v in producer and seg_of[producer[v]] != seg_of[i]:
                deps[seg_of[i]].add(seg_of[producer[v]])
    state = {}

    def visit(k):     # iterative depth-first search: 1 open, 2 done
        stack = [(k, iter(deps[k]))]
        state[k] = 1
        while stack:
            node, it = stack[-1]
            nxt = next(it, None)
            if nxt is None:
                state[node] = 2
                stack.pop()
            elif state.get(nxt) == 1:
                return False
            elif nxt not in state:
                state[nxt] = 1
                stack.append((nxt, iter(deps[nxt])))
        return True
    return all(visit(k) for k in set(seg_of) if k not in state)


def _weak(v):
    try:
        return weakref.ref(v)
    except TypeError:     # not an array (a Python number): placed again next call
        return None


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
