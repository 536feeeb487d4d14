"""``mindspore._extends.parse``: the package of MindSpore's graph parser; msjax has only its
``standard_method`` module (Tensor methods as functions)."""
