"""``mindspore.mint.linalg``: ``inv``, ``norm``, ``vector_norm``, ``matrix_norm``, ``qr`` (the
``msjax.ops`` functions, whose signatures are mint's)."""
from ...ops import matrix_norm, norm, qr, vector_norm  # noqa: F401
from ...ops import inverse as _inverse


def inv(input):
    """``mint.linalg.inv(input)``: the inverse of each square matrix in ``input``."""
    return _inverse(input)


__all__ = ["inv", "matrix_norm", "norm", "qr", "vector_norm"]
