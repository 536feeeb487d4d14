"""``mindspore.mint.distributed``: torch-style collective communication on msjax's
process group (see ``distributed``)."""
from .distributed import *  # noqa: F401,F403
from .distributed import __all__  # noqa: F401
