"""Values between pipeline stages that sit in different processes (``msjax launch``).

A launched pipeline step runs each stage's programs on that stage's devices only, so each
process holds only its own stage's Parameters, optimizer states and ``accu_grads``
(:mod:`._pipeline_step`). JAX 0.10.2 cannot ``jax.device_put`` an array between disjoint
device sets of several processes ("For a cross-host reshard in multi-controller JAX, input and
target sharding should have the same set of devices"), so what one stage makes and another
reads crosses in one small program over both stages' devices: the value, stacked over a
``_pp`` axis with a zero block on the receiving devices, goes over with ``lax.ppermute`` inside
``shard_map`` (on the CPU backend: gloo), and the received shards become an array on the
receiving stage's mesh with the sender's layout. Every process calls it; a process holding
neither stage's devices runs nothing. MindSpore's stages do the same with Send/Receive pairs.
Each process waits for a transfer to finish before it dispatches more: XLA's CPU client runs
the programs of a device in any order their data allows, and transfers left in flight (each
blocking a thread in gloo until its peer sends) stalled a launched run after a few steps.

``broadcast`` gives every stage a copy (``all_gather`` over ``_pp``: exact for every dtype),
so every rank sees a step's forward results (the loss), as the one-process run returns them.
``place_batch`` puts a process's part of the batch on a stage's devices (nothing on a
process without devices there)."""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from ..parallel import _strategy

__all__ = ["transfer", "broadcast", "place_batch", "for_rank", "procs_per_stage", "absent_outputs"]

P = jax.sharding.PartitionSpec
NS = jax.sharding.NamedSharding
_JIT = {}


def _is_key(x):
    return jax.dtypes.issubdtype(x.dtype, jax.dtypes.prng_key)


def _on_stage_mesh(x):
    """``x`` as an array laid out on its devices' canonical mesh (the stages' common axes)."""
    sh = x.sharding
    mesh = _strategy.canonical_mesh(tuple(sorted(sh.device_set, key=lambda d: (d.process_index, d.id))))
    if isinstance(sh, NS) and sh.mesh.axis_names == mesh.axis_names and sh.mesh.devices.shape == mesh.devices.shape:
        return x
    return jax.jit(lambda a: a, out_shardings=NS(mesh, P()))(x)


def _stacked(x, union, rows):
    """A ``(len(rows), *x.shape)`` array over ``union``: ``x``'s shards at its own row, zeros
    of the same block shape on the other rows' devices of this process."""
    spec = x.sharding.spec
    ush = NS(union, P("_pp", *spec))
    block = (1,) + x.sharding.shard_shape(x.shape)
    src = {s.device: s.data for s in x.addressable_shards}
    bufs = [jnp.expand_dims(src[d], 0) if d in src else jnp.zeros(block, x.dtype, device=d)
            for d in ush.addressable_devices_indices_map((len(rows),) + x.shape)]
    return jax.make_array_from_single_device_arrays((len(rows),) + x.shape, ush, bufs, dtype=x.dtype), ush


def _unstacked(y, mesh, spec, shape, dtype):
    mine = set(mesh.devices.flat)
    bufs = [s.data.reshape(s.data.shape[1:]) for s in y.addressable_shards if s.device in mine]
    return jax.make_array_from_single_device_arrays(shape, NS(mesh, spec), bufs, dtype=dtype)


def _program(union, spec, kind):
    key = (union, spec, kind)
    fn = _JIT.get(key)
    if fn is None:
        usp = P("_pp", *spec)
        if kind == "send":
            body = lambda a: jax.lax.ppermute(a, "_pp", [(0, 1)])        # noqa: E731
        else:
            src = kind[1]
            body = lambda a: jax.lax.all_gather(a, "_pp", axis=0, tiled=True)[src:src + 1]   # noqa: E731
        fn = _JIT[key] = jax.jit(jax.shard_map(body, mesh=union, in_specs=usp, out_specs=usp))
    return fn


def transfer(x, mesh):
    """``x`` (on another stage's devices) on ``mesh``'s devices with the same layout."""
    if _is_key(x):
        return jax.random.wrap_key_data(transfer(jax.random.key_data(x), mesh), impl=jax.random.key_impl(x))
    x = _on_stage_mesh(x)
    a = x.sharding.mesh
    union = jax.sharding.Mesh(np.stack([a.devices, mesh.devices]), ("_pp",) + tuple(a.axis_names))
    stacked, _ = _stacked(x, union, (0, 1))
    y = jax.block_until_ready(_program(union, x.sharding.spec, "send")(stacked))    # see _wait
    return _unstacked(y, mesh, x.sharding.spec, x.shape, x.dtype)


def broadcast(x, meshes):
    """``x`` (on one of ``meshes``) copied onto every mesh of ``meshes``: a list, one per mesh."""
    if _is_key(x):
        return [jax.random.wrap_key_data(k, impl=jax.random.key_impl(x))
                for k in broadcast(jax.random.key_data(x), meshes)]
    x = _on_stage_mesh(x)
    a = x.sharding.mesh
    src = next(i for i, m in enumerate(meshes) if set(m.devices.flat) == set(a.devices.flat))
    rows = [a.devices if i == src else m.devices for i, m in enumerate(meshes)]
    union = jax.sharding.Mesh(np.stack(rows), ("_pp",) + tuple(a.axis_names))
    stacked, _ = _stacked(x, union, tuple(range(len(meshes))))
    y = jax.block_until_ready(_program(union, x.sharding.spec, ("gather", src))(stacked))
    return [x if i == src else _unstacked(y, m, x.sharding.spec, x.shape, x.dtype) for i, m in enumerate(meshes)]


def for_rank(x, meshes, spread, local_view):
    """A step result as this rank returns it: the rank's view of it (``local_view``). ``spread``
    (a forward result: the loss, an inference output) is first copied to every stage, so every
    rank gets it; a gradient stays on its stage (a rank of another stage gets the global array,
    of which it holds nothing, as MindSpore's rank holds only its stage's gradients)."""
    if not isinstance(x, jax.Array):
        return x
    if spread:      # decided alike on every process: all of them take part in the copy
        x = next((c for c in broadcast(x, meshes) if c.addressable_shards), x)
    return local_view(x) if x.addressable_shards else x


def procs_per_stage(groups):
    """How many processes feed each stage's batch (each process gives its whole batch to the
    stages it has devices in); the same for every stage, else ``NotImplementedError``: the
    stages' batches would differ in size. MindSpore has no such layout (a rank is one device,
    and its only rule, ``device_num % stage_num == 0``, is :func:`..parallel._stages.stage_groups`'s),
    so this is msjax's own refusal, for processes of several devices."""
    counts = [len({d.process_index for d in g}) for g in groups]
    if len(set(counts)) != 1:
        raise NotImplementedError(
            "msjax does not support a data-parallel batch in a pipeline whose stages span unequal numbers of "
            f"processes (processes per stage: {counts}): each process feeds its whole batch to the stages it has "
            "devices in, so the stages' batches would differ. Launch one device per worker (a MindSpore rank is "
            "one device), or a device count per process that divides, or is a multiple of, the devices per stage.")
    return counts[0]


def place_batch(x, sharding, global_shape):
    """This process's part of the batch ``x`` laid on ``sharding``'s devices (a stage's) as the
    global array of ``global_shape``."""
    host = np.asarray(x)
    if not sharding.addressable_devices:
        return jax.make_array_from_single_device_arrays(tuple(global_shape), sharding, [], dtype=host.dtype)
    return jax.make_array_from_process_local_data(sharding, host, tuple(global_shape))


def _nothing(shape, dtype, sharding):
    if jax.dtypes.issubdtype(dtype, jax.dtypes.prng_key):
        impl = jax.random.key_impl(jax.random.key(0, impl=dtype._impl.name)) if hasattr(dtype, "_impl") else None
        data = jax.make_array_from_single_device_arrays(tuple(shape) + tuple(dtype._impl.key_shape), sharding, [],
                                                        dtype=np.uint32)
        return jax.random.wrap_key_data(data, impl=impl)
    return jax.make_array_from_single_device_arrays(tuple(shape), sharding, [], dtype=dtype)


def absent_outputs(fn, args, cache):
    """The results of a stage's program on a process without devices in that stage: arrays of
    their shapes and shardings holding nothing here (the stage's processes run it; calling it
    here would also fail for a program with ordered effects, ``ops.Print``: JAX places its
    token on the process's devices of the program). Its compiled output layout is cached in
    ``cache``."""
    sig = (fn, tuple((getattr(a, "shape", None), getattr(a, "dtype", None), getattr(a, "sharding", None))
                     for a in args))
    info = cache.get(sig)
    if info is None:
        lowered = fn.lower(*args)
        info = cache[sig] = [(o.shape, o.dtype, sh) for o, sh in zip(
            jax.tree_util.tree_leaves(lowered.out_info), jax.tree_util.tree_leaves(lowered.compile().output_shardings))]
    return [_nothing(*i) for i in info]
