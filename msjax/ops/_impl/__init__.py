"""Op implementations, one module per family; importing them fills the registry."""
from . import array, clip, math, nn  # noqa: F401
