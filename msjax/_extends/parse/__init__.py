"""``mindspore._extends.parse``: the package of MindSpore's graph parser; msjax has only its
``standard_method`` module (Tensor methods as functions) and ``compile_config`` (the compiler's
settings, which msjax's tracing does not read)."""
