"""MindIR export/load: no JAX meaning; a clear error naming the alternative."""
from __future__ import annotations


def unsupported_error(what):
    return RuntimeError(
        f"'{what}' writes/reads/runs MindSpore's MindIR graph format, which msjax does not support. "
        "To serialise a compiled function use jax.export (jax.export.export(jax.jit(fn))(*args)."
        "serialize()); to save weights use mindspore.save_checkpoint.")


def _unsupported(what):
    def fn(*args, **kwargs):
        raise unsupported_error(what)
    fn.__name__ = what
    fn.__ms_unsupported__ = True
    return fn


export = _unsupported("export")
load = _unsupported("load")
export_split_mindir = _unsupported("export_split_mindir")
load_mindir = _unsupported("load_mindir")
save_mindir = _unsupported("save_mindir")
