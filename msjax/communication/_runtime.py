"""Data parallelism on JAX's distributed runtime (``jax.distributed``, ``jax.sharding``).

A *rank* is a process (MindSpore's view: ``get_rank()``/``get_group_size()``
count processes). Every process may own several local devices (GPUs, or CPU
devices made with ``XLA_FLAGS=--xla_force_host_platform_device_count=N``); all
devices of all processes form one mesh with axes ``('proc', 'local')``.

* **Eager collectives** (``ops.AllReduce`` in PyNative, ``nn.DistributedGradReducer``
  called outside a compiled function) reduce one value per process: a tiny jitted
  reduction over a global array with one row per process (CPU: gloo).
* **Compiled data-parallel steps**: a compiled function that uses a collective while
  ``parallel_mode`` is DATA_PARALLEL/HYBRID_PARALLEL on more than one device is
  run as ``jax.shard_map`` over the mesh: Tensor arguments with a leading dimension
  are split along it (each process passes its own batch; its local devices get equal
  parts), Parameters are replicated, and inside the step the collectives are
  ``lax.psum``/``pmax``/... over the mesh. A process's value of a gradient is the mean
  over its local devices (the gradient of its whole batch for a batch-mean loss), so
  ``AllReduce(SUM)`` sums those over processes. Results (loss, new Parameter
  values, BatchNorm statistics) are the process's own: with several local devices,
  float results are averaged over them.

``_core`` layer: imports nothing of msjax outside ``_core``.
"""
from __future__ import annotations

import contextlib
import functools
import os
import sys

import jax
import jax.numpy as jnp
import numpy as np

from .._core import provided, state
from ..parallel import _context as parallel

__all__ = ["world", "set_world", "mesh", "data_parallel_active", "check_parallel_mode", "all_reduce", "all_gather",
           "all_gather_v", "broadcast", "reduce_scatter", "in_step", "spmd_call", "TRACED"]

AXES = ("proc", "local")

# the process group as ``communication.init`` found it
_WORLD = {"inited": False, "rank": 0, "size": 1, "local_rank": 0, "local_size": 1}
_SCOPE = []          # non-empty while a data-parallel step is traced (inside shard_map)
TRACED = state.COLLECTIVES_TRACED   # collectives traced outside a data-parallel step (the transform core watches it)
_MESH = {}


def set_world(inited, rank=0, size=1, local_rank=0, local_size=1):
    _WORLD.update(inited=inited, rank=rank, size=size, local_rank=local_rank, local_size=local_size)
    parallel.set_world_size(size if inited else None, rank)


def world():
    return dict(_WORLD)


def process_count():
    """Processes in the job (without touching a backend when there is one)."""
    if _WORLD["inited"]:
        return _WORLD["size"]
    return jax.process_count()


def mesh():
    """All devices of all processes, shape (processes, local devices), axes ('proc', 'local')."""
    devs = jax.devices()
    key = tuple(d.id for d in devs)
    m = _MESH.get(key)
    if m is None:
        n_proc = jax.process_count()
        by_proc = sorted(devs, key=lambda d: (d.process_index, d.id))
        m = _MESH[key] = jax.sharding.Mesh(np.array(by_proc).reshape(n_proc, -1), AXES)
    return m


def check_parallel_mode():
    """The parallel mode in effect (SEMI_AUTO_PARALLEL/AUTO_PARALLEL steps are
    ``communication._sharded``'s, DATA_PARALLEL/HYBRID_PARALLEL steps this module's)."""
    return parallel.get_parallel_mode()


def data_parallel_active():
    """DATA_PARALLEL/HYBRID_PARALLEL with more than one device in the job."""
    mode = check_parallel_mode()
    return mode in (parallel.ParallelMode.DATA_PARALLEL, parallel.ParallelMode.HYBRID_PARALLEL) \
        and jax.device_count() > 1


def in_step():
    return bool(_SCOPE)


@contextlib.contextmanager
def _step_scope(n_local):
    _SCOPE.append(n_local)
    try:
        yield
    finally:
        _SCOPE.pop()


def _is_tracer(x):
    return isinstance(x, jax.core.Tracer)


# ---------------------------------------------------------------------------
# collectives: inside a data-parallel step, eager across processes
# ---------------------------------------------------------------------------
def _untraced(name, x):
    """A collective met while tracing a function that is not a data-parallel step."""
    TRACED[0] += 1
    if process_count() > 1 and not data_parallel_active():
        raise RuntimeError(f"{name} inside a compiled function needs parallel_mode DATA_PARALLEL (or "
                           "HYBRID_PARALLEL) on a multi-process job: msjax compiles such a function as a "
                           "data-parallel step. Call it outside the compiled function, or set "
                           "ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL).")
    return x


def all_reduce(x, op="sum"):
    """Reduce ``x`` (a jax array) over the processes of the world group."""
    if _SCOPE:
        n_local = _SCOPE[-1]
        if op == "sum":
            if n_local > 1 and jnp.issubdtype(x.dtype, jnp.inexact):
                return jax.lax.psum(x, AXES) / jnp.asarray(n_local, x.dtype)
            return jax.lax.psum(x, "proc")
        if op == "max":
            return jax.lax.pmax(x, AXES)
        if op == "min":
            return jax.lax.pmin(x, AXES)
        if n_local > 1 and jnp.issubdtype(x.dtype, jnp.inexact):
            x = jax.lax.pmean(x, "local")
        return jnp.prod(jax.lax.all_gather(x, "proc"), axis=0).astype(x.dtype)
    if _is_tracer(x):
        return _untraced("AllReduce", x)
    if process_count() == 1:
        return x
    return _eager("reduce", x, op)


def all_gather(x):
    """Concatenate ``x`` of every process along axis 0 (rank order)."""
    if _SCOPE:
        return jax.lax.all_gather(x, "proc", tiled=True)
    if _is_tracer(x):
        _untraced("AllGather", x)
        return jnp.concatenate([x] * process_count(), axis=0)
    if process_count() == 1:
        return x
    return _eager("gather", x, None)


def all_gather_v(x, sizes):
    """1-D ``x`` of ``sizes[r]`` elements on rank ``r``, concatenated in rank order."""
    n = process_count()
    if len(sizes) != n:
        raise ValueError(f"For 'AllGatherV', 'output_split_sizes' must have one entry per rank ({n}), "
                         f"but got {len(sizes)}.")
    if x.ndim != 1:
        raise ValueError(f"For 'AllGatherV', the input must be one-dimensional, but got shape {tuple(x.shape)}.")
    width = max(sizes) if sizes else 0
    padded = jnp.pad(x, (0, width - x.shape[0])) if x.shape[0] < width else x[:width]
    rows = all_gather(padded[None])                     # (ranks, width)
    return jnp.concatenate([rows[r, :k] for r, k in enumerate(sizes)])


def broadcast(x, root=0):
    """``x`` of process ``root`` on every process."""
    if _SCOPE:
        return jax.lax.all_gather(x, "proc")[root]
    if _is_tracer(x):
        return _untraced("Broadcast", x)
    if process_count() == 1:
        return x
    return _eager("bcast", x, root)


def reduce_scatter(x, op="sum"):
    """Reduce ``x`` over processes, then keep this process's slice of axis 0."""
    n = process_count()
    if x.shape[0] % n:
        raise ValueError(f"For 'ReduceScatter', the first dimension of the input ({x.shape[0]}) must be "
                         f"divisible by the group size ({n}).")
    full = all_reduce(x, op)
    if _SCOPE:
        i = jax.lax.axis_index("proc")
        size = x.shape[0] // n
        return jax.lax.dynamic_slice_in_dim(full, i * size, size, 0)
    if _is_tracer(x):
        return full[: x.shape[0] // n]
    rank = _WORLD["rank"] if _WORLD["inited"] else jax.process_index()
    size = x.shape[0] // n
    return full[rank * size:(rank + 1) * size]


@functools.lru_cache(maxsize=None)
def _eager_fn(kind, op, mesh_):
    rep = jax.sharding.NamedSharding(mesh_, jax.sharding.PartitionSpec())

    def f(rows):          # rows: (processes, local devices, *shape), each process's value on its devices
        per_proc = rows[:, 0]
        if kind == "gather":
            return per_proc.reshape((-1,) + per_proc.shape[2:])
        if kind == "bcast":
            return per_proc[op]
        return {"sum": jnp.sum, "max": jnp.max, "min": jnp.min, "prod": jnp.prod}[op](per_proc, axis=0) \
            .astype(per_proc.dtype)

    return jax.jit(f, out_shardings=rep)


def _eager(kind, x, op):
    m = mesh()
    x = jnp.asarray(x)
    spec = jax.sharding.PartitionSpec("proc", "local")
    n_local = m.devices.shape[1]
    local = jnp.broadcast_to(x[None, None], (1, n_local) + x.shape)
    rows = jax.make_array_from_process_local_data(jax.sharding.NamedSharding(m, spec), local)
    out = _eager_fn(kind, op, m)(rows)
    return _local(out)


def _local(x):
    """This process's value of a (replicated) global array, as a single-device array."""
    if isinstance(x, jax.Array) and len(x.sharding.device_set) > 1:
        return x.addressable_data(0)
    return x


# ---------------------------------------------------------------------------
# the compiled data-parallel step
# ---------------------------------------------------------------------------
def spmd_call(body, dyn_example, state_params=()):
    """``body(state_vals, dyn, sens) -> (out, changed)`` as one data-parallel step.

    Tensor arguments (``dyn``) with a leading dimension are split over the mesh
    (this process's batch over its local devices); state and ``sens`` are replicated.
    A call that reads no trainable Parameter (a ``DistributedGradReducer`` or a collective
    Cell called on its own, as in MindSpore's ``startup_method`` sample) is not a step over
    a batch: its arguments are the rank's values, replicated on its local devices, so its
    collectives reduce across the processes only.
    Returns ``call(state_vals, dyn, sens)`` giving this process's results."""
    m = mesh()
    P = jax.sharding.PartitionSpec
    n_local = m.devices.shape[1]
    rep = jax.sharding.NamedSharding(m, P())
    split = jax.sharding.NamedSharding(m, P(AXES))
    stepping = any(getattr(p, "requires_grad", False) for p in state_params)

    def per_device(state_vals, dyn, sens):
        with _step_scope(n_local):
            out = body(list(state_vals), list(dyn), sens)
        if n_local > 1:
            out = jax.tree_util.tree_map(
                lambda v: jax.lax.pmean(v, "local") if jnp.issubdtype(v.dtype, jnp.inexact) else v, out)
        return out

    batch = tuple(stepping and np.ndim(d) >= 1 for d in dyn_example)
    for d, b in zip(dyn_example, batch):
        if b and np.shape(d)[0] % n_local:
            raise ValueError(f"Data parallel: the batch dimension of every input ({np.shape(d)[0]}) must be "
                             f"divisible by the {n_local} local devices of this process.")
    dyn_specs = [P(AXES) if b else P() for b in batch]
    stepped = jax.jit(jax.shard_map(per_device, mesh=m, in_specs=(P(), dyn_specs, P()), out_specs=P(),
                                    check_vma=False))

    def to_global(x, sharding):
        return jax.make_array_from_process_local_data(sharding, x)

    def call(state_vals, dyn, sens):
        g_state = [to_global(v, rep) for v in state_vals]
        g_dyn = [to_global(d, split if b else rep) for d, b in zip(dyn, batch)]
        g_sens = None if sens is None else jax.tree_util.tree_map(lambda s: to_global(s, rep), sens)
        out = stepped(g_state, g_dyn, g_sens)
        return jax.tree_util.tree_map(_local, out)

    return call


def env_rank_info():
    """(rank, size, local_rank, local_size, coordinator) from msrun's or OpenMPI's environment,
    or None when the process was not started by a launcher."""
    env = os.environ
    if env.get("MS_ROLE") == "MS_WORKER" and env.get("MS_WORKER_NUM"):
        size = int(env["MS_WORKER_NUM"])
        rank = int(env.get("RANK_ID", env.get("MS_NODE_ID", "0")))
        local_size = int(env.get("MS_LOCAL_WORKER", size))
        local_rank = int(env.get("DEVICE_ID", rank % local_size))
        coord = f"{env.get('MS_SCHED_HOST', '127.0.0.1')}:{env.get('MS_SCHED_PORT', '8118')}"
        return rank, size, local_rank, local_size, coord
    if env.get("OMPI_COMM_WORLD_RANK") is not None:
        rank = int(env["OMPI_COMM_WORLD_RANK"])
        size = int(env.get("OMPI_COMM_WORLD_SIZE", "1"))
        local_rank = int(env.get("OMPI_COMM_WORLD_LOCAL_RANK", "0"))
        local_size = int(env.get("OMPI_COMM_WORLD_LOCAL_SIZE", size))
        coord = None
        if env.get("MS_SCHED_HOST") or local_size == size:
            coord = f"{env.get('MS_SCHED_HOST', '127.0.0.1')}:{env.get('MS_SCHED_PORT', '8118')}"
        return rank, size, local_rank, local_size, coord
    return None


def start_runtime():
    """Join the job described by the launcher's environment (``jax.distributed.initialize``).
    Returns True when a multi-process runtime is up."""
    info = env_rank_info()
    if info is None:
        return False
    rank, size, local_rank, local_size, coord = info
    if size <= 1:
        set_world(True, 0, 1, 0, 1)
        return False
    if _WORLD["inited"] and _WORLD["size"] == size:
        return True
    from jax._src import distributed as _jd
    if _jd.global_state.client is None:
        from jax._src import xla_bridge
        if xla_bridge.backends_are_initialized():
            raise RuntimeError("communication.init(): JAX already computed something in this process, so it "
                               "cannot join the distributed job any more. Call init() before creating Tensors "
                               "(or start the script with `python -m msjax launch`, which joins at start-up).")
        if jax.config.jax_platforms in (None, "", "cpu") or "cpu" in str(jax.config.jax_platforms):
            jax.config.update("jax_cpu_collectives_implementation", "gloo")
        timeout = int(os.environ.get("MS_TOPO_TIMEOUT", "600"))
        timeout = 10 ** 6 if timeout < 0 else max(timeout, 1)
        kwargs = dict(num_processes=size, process_id=rank, initialization_timeout=timeout,
                      shutdown_timeout_seconds=min(timeout, 300))
        if coord is not None:
            kwargs["coordinator_address"] = coord
        # JAX aborts the process when the job cannot be formed in time: say first what it waits for
        print(f"msjax: rank {rank} of {size} joining the job at {coord or 'the OpenMPI coordinator'} "
              f"(cluster_time_out {timeout} s)", file=sys.stderr, flush=True)
        try:
            jax.distributed.initialize(**kwargs)
        except Exception as e:   # noqa: BLE001  (JAX raises several types here)
            raise RuntimeError(f"communication.init(): rank {rank} of {size} could not join the job at "
                               f"{coord or 'the OpenMPI coordinator'} within {timeout} s: {e}") from None
    set_world(True, rank, size, local_rank, local_size)
    return True


def stop_runtime():
    from jax._src import distributed as _jd
    if _jd.global_state.client is not None:
        jax.distributed.shutdown()
    set_world(False)


# What the transform core asks of this layer: a compiled function that traced a
# collective runs, under DATA_PARALLEL, as one data-parallel step (``spmd_call``);
# the parallel mode is part of its cache key.
provided.provide("parallel_mode", parallel.get_parallel_mode)
provided.provide("data_parallel_active", data_parallel_active)
provided.provide("spmd_call", spmd_call)
