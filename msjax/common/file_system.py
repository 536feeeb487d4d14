"""``mindspore.common.file_system``: the file operations MindSpore's checkpoint code opens files with.

msjax has the basic backend only (Python's ``open``); MindSpore's MindIO backend (``mindio_acp``, an
Ascend storage service) is not there, so ``backend`` is always ``'basic'``.
"""
from __future__ import annotations

__all__ = ["FileSystem"]


class FileSystem:
    """``FileSystem()``: ``create(path, *create_args)`` opens a file to append bytes to,
    ``open(path, *open_args)`` one to read, as MindSpore's basic backend."""

    def __init__(self):
        _register_basic_file_system(self)


def _register_basic_file_system(fs):
    """Python's ``open``: ``'ab'`` to create, ``'rb'`` to read; returns True (registered)."""
    fs.create, fs.create_args = open, ("ab",)
    fs.open, fs.open_args = open, ("rb",)
    fs.backend = "basic"
    return True
