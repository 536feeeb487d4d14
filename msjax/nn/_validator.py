"""The argument checks nn's optimizers, schedules and cells use: ``msjax._checkparam``
(MindSpore's home of them) under the name nn's modules import."""
from .._checkparam import *  # noqa: F401,F403
from .._checkparam import __all__  # noqa: F401
