"""What the layers above the core (and the core's own later modules) lend it.

The core (Tensor, Parameter, state, transforms, registry) imports nothing above
itself. Where Tensor or Parameter need something an upper layer owns (MindSpore's
indexing rules and integer powers live with the ops, initializers in
``common.initializer``), that layer lends it here when it is imported
(``provide``) and the core looks it up when it is called (``need``).
Inside the core, ``hooks`` lends ``Tensor.register_hook`` its implementation the same
way, so ``tensor`` need not import ``hooks`` (which stands on ``tensor``).
``import msjax`` imports every layer, so the table is full before user code runs.
"""

_OWNERS = {
    "normalize_index": "msjax.ops",
    "check_index": "msjax.ops",
    "int_pow": "msjax.ops",
    "view_layout": "msjax.ops",
    "true_divide": "msjax.ops",
    "graph_print": "msjax.ops",
    "initializer": "msjax.common.initializer",
    "register_tensor_hook": "msjax._core.hooks",
    "parallel_mode": "msjax.communication",
    "data_parallel_active": "msjax.communication",
    "spmd_call": "msjax.communication",
    "frontend_cache": "msjax.common._frontend_cache",
    "apply_shard": "msjax.parallel",
    "check_shard": "msjax.parallel",
    "sharded_call": "msjax.communication",
    "local_view": "msjax.communication",
    "trace_inputs": "msjax.communication",
    "native_kernels": "msjax.ops._native",
    "graph_value": "msjax.common._graph_values",
    "mutable_grad": "msjax.common._mutable",
    "outside_list": "msjax.common._graph_values",
    "graph_function": "msjax.common._graph_source",
    "pijit_record": "msjax.common._pijit_records",
    "augassign_inplace": "msjax._extends.parse.compile_config",
    "context_deprecated": "msjax.log",
    "stepwise": "msjax.runtime._host_eager",
}

_TABLE = {}


def provide(name, fn):
    """Lend ``fn`` to the core under ``name`` (one of ``_OWNERS``); returns ``fn`` so
    it can be used as a decorator."""
    if name not in _OWNERS:
        raise KeyError(f"the core does not use {name!r}")
    _TABLE[name] = fn
    return fn


def lent(name):
    """What an upper layer lent under ``name``, or ``None`` when it is not imported."""
    return _TABLE.get(name)


def need(name):
    """The function an upper layer lent under ``name``."""
    try:
        return _TABLE[name]
    except KeyError:
        raise RuntimeError(f"msjax's core needs `{name}` from {_OWNERS[name]}, which is not imported; "
                           "import msjax (not only msjax._core).") from None
