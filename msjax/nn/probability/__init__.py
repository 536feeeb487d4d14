"""``mindspore.nn.probability``: probability distributions (``distribution``). The
``bijector`` and ``bnn_layers`` packages are MindSpore tree paths msjax does not
implement yet (their names raise msjax's "does not support" error)."""
from . import distribution  # noqa: F401
