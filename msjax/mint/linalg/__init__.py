"""``mindspore.mint.linalg``: ``inv``, ``norm``, ``vector_norm``, ``matrix_norm``, ``qr`` (the
``msjax.ops`` functions, whose signatures are mint's; ``matrix_norm``/``vector_norm`` take ``dim``/``keepdim``
where ``ops.matrix_norm``/``ops.vector_norm`` take ``axis``/``keepdims``)."""
from ...ops import norm, qr  # noqa: F401
from ...ops._impl.linalg import matrix_norm_ext as matrix_norm, vector_norm_ext as vector_norm  # noqa: F401
from ...ops import inverse as _inverse


def inv(input):
    """``mint.linalg.inv(input)``: the inverse of each square matrix in ``input``."""
    return _inverse(input)


__all__ = ["inv", "matrix_norm", "norm", "qr", "vector_norm"]
