"""The error ``nn.GraphCell`` raised before MindIR loading existed; goes away with the
MindIR reader's GraphCell (``msjax/train/_export``: ``export``, ``load`` and the MindIR helpers)."""
from __future__ import annotations


def unsupported_error(what):
    return RuntimeError(
        f"'{what}' runs MindSpore's MindIR graphs, which this msjax build cannot read yet. "
        "To serialise a compiled function use jax.export (jax.export.export(jax.jit(fn))(*args)."
        "serialize()); to save weights use mindspore.save_checkpoint.")
