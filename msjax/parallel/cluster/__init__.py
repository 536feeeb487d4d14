"""``mindspore.parallel.cluster``: the ``msrun`` launcher (``run``), started as ``python -m msjax launch``."""
from . import run  # noqa: F401
