"""``mindspore.mint.distributed``: torch-style collective communication.

msjax trains in one process and has no collective-communication backend yet (data-parallel
training is its own issue). ``is_available()`` and ``is_initialized()`` answer ``False``;
every other name exists and raises ``RuntimeError`` naming itself and the missing feature,
so scripts fail at the call, not at the import. Once data-parallel training lands, these map
onto it.
"""
from .distributed import *  # noqa: F401,F403
from .distributed import __all__  # noqa: F401
