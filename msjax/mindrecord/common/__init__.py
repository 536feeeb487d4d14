"""``mindspore.mindrecord.common``: the MindRecord exceptions."""
from . import exceptions
