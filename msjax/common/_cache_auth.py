"""Who wrote a compile-cache entry: owner-only directories and authenticated entries.

The compile cache (``set_context(enable_compile_cache=True, compile_cache_path=...)``)
is often pointed at shared places (``/tmp/cache``, NFS, a CI cache). Its entries are
pickles and XLA executables, so whoever can write there could run code in every
process that enables the cache. msjax therefore:

* creates every cache directory it makes owner-only (``0700``);
* uses JAX's persistent cache (whose entries carry no authentication) only in a
  directory that belongs to the current user and that group and others cannot
  write; any other directory is refused with a warning and the cache stays off
  (``compile_cache.enable`` asks ``check_cache_dir``);
* writes each front-end entry (``common._frontend_cache``) as ``MAGIC + tag + body``,
  the tag an HMAC-SHA256 of the entry's name and body under a per-user key, and
  unpickles a body only when the file and its directory are the user's own, not
  writable by group or others, and the tag verifies (``hmac.compare_digest``).
  Anything else is skipped with one warning naming the path, and traced and
  compiled again.

The key is 32 random bytes in ``frontend-cache.key`` under ``$MSJAX_CACHE_KEY_DIR``,
else ``$XDG_CACHE_HOME/msjax``, else ``~/.cache/msjax``: created once, atomically
and ``0600`` (a complete file linked into place, so a concurrent process never reads
half a key), and read only while it and its directory are the user's own and the
key is readable by nobody else.
"""
from __future__ import annotations

import hashlib
import hmac
import os
import stat
import tempfile
import warnings

from .._core import compile_cache

__all__ = ["UntrustedCacheWarning", "check_cache_dir", "check_active", "private_dir", "key", "key_root",
           "read_entry", "write_entry", "KEY_ENV", "KEY_NAME", "MAGIC"]

KEY_ENV = "MSJAX_CACHE_KEY_DIR"
KEY_NAME = "frontend-cache.key"
MAGIC = b"MSJAXFC\x02"          # an authenticated front-end entry, format 2
_TAG = hashlib.sha256().digest_size
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_WARNED = set()


class UntrustedCacheWarning(UserWarning):
    """A compile-cache file or directory msjax will not use (the path is in the message)."""


def _uid():
    """The user whose files the cache trusts (``None`` where there are no POSIX owners)."""
    return os.geteuid() if hasattr(os, "geteuid") else None


def warn_once(path, why):
    """One warning per path and process."""
    if path not in _WARNED:
        _WARNED.add(path)
        warnings.warn(f"msjax's compile cache does not use {path}: {why}", UntrustedCacheWarning, stacklevel=3)


def _problem(st, what, private=False):
    """Why a file or directory (its ``os.stat``) is not the user's own, or ``None``."""
    uid = _uid()
    if uid is None:
        return None
    if st.st_uid != uid:
        return f"{what} belongs to user id {st.st_uid}, not to this user ({uid})"
    if st.st_mode & (0o077 if private else stat.S_IWGRP | stat.S_IWOTH):
        return f"{what} is {'accessible' if private else 'writable'} by group or others " \
               f"(mode {stat.S_IMODE(st.st_mode):04o})"
    return None


def private_dir(path):
    """Create ``path`` and its missing parents owner-only (``0700``); ``None`` when
    ``path`` is then a directory of the user's that group and others cannot write,
    else the reason. Creation errors (no permission) raise ``OSError``."""
    missing = []
    p = os.path.abspath(path)
    while not os.path.lexists(p):
        missing.append(p)
        p = os.path.dirname(p)
    for p in reversed(missing):
        try:
            os.mkdir(p, 0o700)
        except FileExistsError:     # another process made it meanwhile: checked below like any other
            pass
    st = os.stat(path)      # a link to a directory: the directory is what is checked
    if not stat.S_ISDIR(st.st_mode):
        return "it is not a directory"
    return _problem(st, "the directory")


def check_cache_dir(path):
    """``compile_cache.enable``'s check of JAX's cache directory: ``True`` to use it;
    ``False`` (after a warning) when another user owns it or others can write it."""
    why = private_dir(path)
    if why is not None:
        warn_once(path, f"{why}; JAX's persistent compile cache is not authenticated, so it stays off "
                        "(use a directory only you can write, e.g. chmod 700)")
    return why is None


def key_root():
    """The directory of the per-user key."""
    root = os.environ.get(KEY_ENV)
    if root:
        return os.path.abspath(root)
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = xdg if xdg and os.path.isabs(xdg) else os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "msjax")


def key():
    """The per-user key (created on first use), or ``None`` after a warning when it
    cannot be trusted."""
    root = key_root()
    try:
        why = private_dir(root)
        if why is not None:
            warn_once(root, why + " (it holds the compile cache's key)")
            return None
        path = os.path.join(root, KEY_NAME)
        if not os.path.lexists(path):
            _create_key(root, path)
        fd = os.open(path, os.O_RDONLY | _NOFOLLOW | getattr(os, "O_NONBLOCK", 0))
    except OSError as e:
        warn_once(root, f"its key cannot be read or created ({e})")
        return None
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(f.fileno())
        data = f.read(_TAG + 1)
    why = ("it is not a regular file" if not stat.S_ISREG(st.st_mode) else _problem(st, "the key", private=True)
           or (None if len(data) == _TAG else f"the key has {len(data)} bytes, not {_TAG}"))
    if why is not None:
        warn_once(path, why)
        return None
    return data


def _create_key(root, path):
    fd, tmp = tempfile.mkstemp(dir=root, prefix=".key-", suffix=".tmp")    # O_EXCL, 0600
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(os.urandom(_TAG))
            f.flush()
            os.fsync(f.fileno())
        try:
            os.link(tmp, path)          # atomic and exclusive: the first process's key wins
        except FileExistsError:
            pass
        except OSError:                 # no hard links here: create it exclusively in place
            _create_key_in_place(path)
    finally:
        os.unlink(tmp)


def _create_key_in_place(path):
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o600)
    except FileExistsError:
        return
    with os.fdopen(fd, "wb") as f:
        f.write(os.urandom(_TAG))


def _tag(k, name, body):
    return hmac.new(k, MAGIC + name.encode() + b"\0" + body, hashlib.sha256).digest()


def read_entry(directory, name):
    """The body of entry ``name`` in ``directory`` when it is authentic, else ``None``
    (silently when there is no such entry; after one warning otherwise, and a rejected
    file in the user's own directory is removed so that a fresh entry can replace it)."""
    try:
        dfd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except FileNotFoundError:
        return None
    except OSError as e:
        warn_once(directory, f"it cannot be opened as a directory ({e.strerror})")
        return None
    try:
        data, why = _read(dfd, directory, name)
        if data is None or why is not None:
            return None if why is None else _reject(directory, dfd, name, why)
        k = key()
        if k is None:
            return None
        why = _verify(k, name, data)
        return data[len(MAGIC) + _TAG:] if why is None else _reject(directory, dfd, name, why)
    finally:
        os.close(dfd)


def _read(dfd, directory, name):
    """``(content, None)``; ``(None, reason)`` for a file that is not the user's own;
    ``(None, None)`` when there is no entry or its directory is refused (warned)."""
    try:    # no symbolic link, and a FIFO planted under the entry's name cannot block the open
        fd = os.open(name, os.O_RDONLY | _NOFOLLOW | getattr(os, "O_NONBLOCK", 0), dir_fd=dfd)
    except FileNotFoundError:
        return None, None
    except OSError as e:
        fd, why = None, f"it cannot be opened ({e.strerror})"
    try:
        if (dir_why := _problem(os.fstat(dfd), "its directory")) is not None:
            warn_once(directory, dir_why)       # the directory's problem: one warning for all its entries
            return None, None
        if fd is None:
            return None, why
        st = os.fstat(fd)
        why = "it is not a regular file" if not stat.S_ISREG(st.st_mode) else _problem(st, "the file")
        if why is not None:
            return None, why
        with os.fdopen(fd, "rb") as f:
            fd = None
            return f.read(), None
    except OSError as e:
        return None, f"it cannot be read ({e.strerror})"
    finally:
        if fd is not None:
            os.close(fd)


def _verify(k, name, data):
    """Why ``data`` is not an entry ``name`` tagged under ``k``, or ``None``."""
    if len(data) < len(MAGIC) + _TAG or not data.startswith(MAGIC):
        return "it is not an authenticated msjax entry (damaged, or written by an older msjax or someone else)"
    tag = data[len(MAGIC):len(MAGIC) + _TAG]
    if not hmac.compare_digest(tag, _tag(k, name, data[len(MAGIC) + _TAG:])):
        return "its authentication tag does not verify (damaged, or written by someone else or under another key)"
    return None


def _reject(directory, dfd, name, why):
    warn_once(os.path.join(directory, name), why + "; it is compiled again")
    try:
        os.unlink(name, dir_fd=dfd)     # our own directory (checked): the entry is rewritten
    except OSError:
        pass
    return None


def write_entry(directory, name, body):
    """Store ``body`` as entry ``name`` in ``directory`` (created ``0700``) with its
    tag, atomically; ``False`` when there is no trusted key or directory."""
    k = key()
    if k is None:
        return False
    try:
        why = private_dir(directory)
        if why is not None:
            warn_once(directory, why)
            return False
        fd, tmp = tempfile.mkstemp(dir=directory, suffix=".tmp")      # 0600
    except OSError:
        return False
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(MAGIC + _tag(k, name, body) + body)
        os.replace(tmp, os.path.join(directory, name))    # a reader sees the old entry or the new one
    except OSError:
        if os.path.exists(tmp):
            os.unlink(tmp)
        return False
    return True


def check_active():
    """Check the directory of a cache turned on before ``compile_cache`` was lent
    ``check_cache_dir`` (``MS_COMPILER_CACHE_ENABLE=1`` acts when the core is imported)."""
    if compile_cache.active_path() is not None and not check_cache_dir(compile_cache.active_path()):
        compile_cache.disable()


compile_cache.check_dir[0] = check_cache_dir     # compile_cache.enable checks every directory from now on
check_active()
