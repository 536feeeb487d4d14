"""Where an exported model goes: MindSpore's file naming (the format's suffix appended unless
present, missing directories created), and no partial output on failure: files are replaced
atomically (a temporary file in the same directory, then ``os.replace``) and directories this
export created are removed again when the writer raises. Files are left read-only, as
MindSpore leaves them."""
from __future__ import annotations

import contextlib
import os
import stat

from .._checkpoint_files import atomic_write

__all__ = ["with_suffix", "output_dirs", "replace_file", "rewrite_file", "finish_file"]


def with_suffix(file_name, suffix):
    """``file_name`` (made absolute) with ``suffix`` appended unless it already ends with it."""
    file_name = os.path.realpath(file_name)
    return file_name if file_name.endswith(suffix) else file_name + suffix


@contextlib.contextmanager
def output_dirs(file_name):
    """Create the missing directories above ``file_name`` (mode 0o700, as MindSpore); if the
    body raises, remove the ones created here again (when still empty)."""
    created = []
    d = os.path.dirname(file_name)
    while d and not os.path.isdir(d):
        created.append(d)
        d = os.path.dirname(d)
    os.makedirs(os.path.dirname(file_name), mode=0o700, exist_ok=True)
    try:
        yield
    except BaseException:
        for d in created:            # deepest first
            try:
                os.rmdir(d)
            except OSError:
                break
        raise


def replace_file(file_name, data):
    """Write ``data`` to ``file_name`` atomically, read-only afterwards."""
    def write(tmp):
        with open(tmp, "wb") as f:
            f.write(data)
    atomic_write(file_name, write)


def rewrite_file(file_name, transform):
    """Replace the file by ``transform(its bytes)`` (custom_func, customized encryption)."""
    with open(file_name, "rb") as f:
        data = f.read()
    replace_file(file_name, transform(data))


def finish_file(file_name):
    """Leave a writer's output read-only (``stat.S_IRUSR``), as MindSpore does."""
    os.chmod(file_name, stat.S_IRUSR)
