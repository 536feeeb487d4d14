"""``mindspore._checkparam`` (imported as ``Validator`` by real scripts): MindSpore's
argument checks, with its messages, from the one place msjax keeps them
(``msjax.nn._validator``)."""
from .nn._validator import *  # noqa: F401,F403
from .nn._validator import __all__  # noqa: F401
