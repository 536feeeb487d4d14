"""A compile cache nobody else can poison (issue 26): cache directories are owner-only,
front-end entries are unpickled only when they carry a valid HMAC tag under the
user's key and the file and its directory are the user's own and not writable by
others, and JAX's cache directory is refused when others can write it. Forged
entries are never loaded (a payload that would run code does not run) and the step
is traced and compiled again with the right result.

The key lives under ``tmp_path`` (``MSJAX_CACHE_KEY_DIR``): no test touches the
real home directory."""
import hashlib
import hmac
import os
import pickle
import stat
import warnings

import jax
import numpy as np
import pytest

import msjax as ms
from msjax import nn
from msjax._core import compile_cache, transforms
from msjax.common import _cache_auth
from msjax.common import _frontend_cache as frontend_cache
from msjax.common._cache_auth import UntrustedCacheWarning

X = np.linspace(-1, 1, 6, dtype=np.float32).reshape(2, 3)
EXPECTED = (X @ np.ones((3, 2), np.float32) + 0.5) * 2


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(3, 2, weight_init="ones", bias_init=ms.Tensor(np.full(2, 0.5, np.float32)))

    def construct(self, x):
        return self.fc(x) * 2


class Boom:
    """A pickle that creates ``marker`` when it is loaded."""

    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return (os.mkdir, (self.marker,))


def _mode(path):
    return stat.S_IMODE(os.stat(path).st_mode)


@pytest.fixture(autouse=True)
def _fresh_warnings(monkeypatch):
    """Each test hears its own warnings: pytest may give a later test the same tmp_path name once
    a passing test's folder is removed, and msjax warns once per path in a process."""
    monkeypatch.setattr(_cache_auth, "_WARNED", set())


@pytest.fixture
def key_dir(tmp_path, monkeypatch):
    d = tmp_path / "key"
    monkeypatch.setenv(_cache_auth.KEY_ENV, str(d))
    return d


@pytest.fixture
def cache(tmp_path, key_dir):
    """The compile cache on in ``tmp_path/cache`` (GRAPH_MODE); its front-end directory."""
    ms.set_context(mode=ms.GRAPH_MODE, enable_compile_cache=True, compile_cache_path=str(tmp_path / "cache"))
    try:
        yield tmp_path / "cache" / frontend_cache.SUBDIR
    finally:
        for d in (tmp_path / "cache", tmp_path / "cache" / frontend_cache.SUBDIR):
            if d.exists():
                d.chmod(0o700)
        ms.set_context(enable_compile_cache=None, compile_cache_path="")


def _run():
    """A new Net (nothing compiled in memory) on X: (traces, output)."""
    before = transforms.TRACES[0]
    out = Net()(ms.Tensor(X)).asnumpy()
    return transforms.TRACES[0] - before, out


def _entries(directory):
    return sorted(directory.glob("*.pkl"))


def _stored(cache):
    traces, out = _run()
    np.testing.assert_allclose(out, EXPECTED, rtol=1e-6)
    entries = _entries(cache)
    assert traces > 0 and entries, "the first run traces and stores"
    return entries


def _tagged(key, name, body):
    """The entry format: MAGIC, HMAC-SHA256(key, MAGIC + name + NUL + body), body."""
    return _cache_auth.MAGIC + hmac.new(key, _cache_auth.MAGIC + name.encode() + b"\0" + body,
                                        hashlib.sha256).digest() + body


def _no_warnings():
    return warnings.catch_warnings(record=True)


# ---------------------------------------------------------------------------
# a legitimate entry
# ---------------------------------------------------------------------------
def test_an_authentic_entry_loads_and_is_private(cache, key_dir, tmp_path):
    entries = _stored(cache)
    assert _mode(tmp_path / "cache") == 0o700 and _mode(cache) == 0o700
    assert _mode(key_dir) == 0o700 and _mode(key_dir / _cache_auth.KEY_NAME) == 0o600
    assert len((key_dir / _cache_auth.KEY_NAME).read_bytes()) == 32
    for e in entries:
        assert _mode(e) == 0o600 and e.read_bytes().startswith(_cache_auth.MAGIC)
    with _no_warnings() as caught:
        warnings.simplefilter("always")
        traces, out = _run()
    assert traces == 0, "every signature came from the front-end cache"
    np.testing.assert_allclose(out, EXPECTED, rtol=1e-6)
    assert not [w for w in caught if issubclass(w.category, UntrustedCacheWarning)]


# ---------------------------------------------------------------------------
# forged entries: never loaded, compiled again, one warning naming the path
# ---------------------------------------------------------------------------
def _plant(path, data, mode=0o600):
    path.write_bytes(data)
    path.chmod(mode)


def _body(path):
    return path.read_bytes()[len(_cache_auth.MAGIC) + 32:]


def _flip_tag(path, key):
    data = bytearray(path.read_bytes())
    data[len(_cache_auth.MAGIC)] ^= 1
    _plant(path, bytes(data))


def _truncate(path, key):
    data = path.read_bytes()
    _plant(path, data[:len(data) // 2])


def _renamed(path, key):       # an authentic entry, tagged for another name
    _plant(path, _tagged(key, "0" * 64 + ".pkl", _body(path)))


FILE_FORGERIES = {"wrong tag": (_flip_tag, "tag does not verify"),
                  "another key's tag": (lambda p, k: _plant(p, _tagged(os.urandom(32), p.name, _body(p))),
                                        "tag does not verify"),
                  "truncated": (_truncate, "tag does not verify"),
                  "no tag": (lambda p, k: _plant(p, _body(p)), "not an authenticated"),   # a plain pickle
                  "tag for another name": (_renamed, "tag does not verify"),
                  "file writable by others": (lambda p, k: p.chmod(0o666), "writable by group or others"),
                  "file writable by group": (lambda p, k: p.chmod(0o620), "writable by group or others"),
                  "a FIFO": (lambda p, k: (p.unlink(), os.mkfifo(p, 0o600)), "not a regular file"),  # no hang
                  "a symbolic link": (lambda p, k: (os.replace(p, p.with_suffix(".real")), p.symlink_to(
                      p.with_suffix(".real"))), "cannot be opened")}


@pytest.mark.parametrize("kind", sorted(FILE_FORGERIES))
def test_a_forged_entry_is_compiled_again(cache, key_dir, kind):
    forge, message = FILE_FORGERIES[kind]
    entries = _stored(cache)
    for e in entries:
        forge(e, (key_dir / _cache_auth.KEY_NAME).read_bytes())
    with pytest.warns(UntrustedCacheWarning, match=message) as caught:
        traces, out = _run()
    assert traces > 0, "the step is traced and compiled again"
    np.testing.assert_allclose(out, EXPECTED, rtol=1e-6)
    messages = [str(w.message) for w in caught if issubclass(w.category, UntrustedCacheWarning)]
    for e in entries:
        assert sum(str(e) in m for m in messages) == 1, "one warning naming each entry"
        assert not os.path.lexists(e), "a rejected file in the user's own directory is removed"


def test_a_foreign_writable_directory_is_not_used(cache):
    _stored(cache)
    cache.chmod(0o777)
    with pytest.warns(UntrustedCacheWarning, match="directory is writable by group or others") as caught:
        first = _run()
        second = _run()
    assert first[0] > 0 and second[0] > 0
    np.testing.assert_allclose(first[1], EXPECTED, rtol=1e-6)
    np.testing.assert_allclose(second[1], EXPECTED, rtol=1e-6)
    assert [str(cache) in str(w.message) for w in caught if issubclass(w.category, UntrustedCacheWarning)] == [True], \
        "one warning for the directory, however many entries and runs"


def test_entries_of_another_user_are_not_used(cache, monkeypatch):
    _stored(cache)
    monkeypatch.setattr(_cache_auth, "_uid", lambda: os.geteuid() + 4242)     # as if another user wrote them
    with pytest.warns(UntrustedCacheWarning, match="belongs to user id"):
        traces, out = _run()
    assert traces > 0
    np.testing.assert_allclose(out, EXPECTED, rtol=1e-6)


# ---------------------------------------------------------------------------
# a payload that would run code
# ---------------------------------------------------------------------------
def test_a_malicious_pickle_is_never_unpickled(cache, key_dir, tmp_path, monkeypatch):
    entries = _stored(cache)
    key = (key_dir / _cache_auth.KEY_NAME).read_bytes()
    marker = tmp_path / "pwned"
    body = pickle.dumps(Boom(str(marker)))
    other_user = os.geteuid() + 4242
    attacks = {
        "plain pickle": lambda e: _plant(e, body),
        "wrong tag": lambda e: _plant(e, _tagged(os.urandom(32), e.name, body)),
        "valid tag, file writable by others": lambda e: _plant(e, _tagged(key, e.name, body), 0o666),
        "valid tag, directory writable by others": lambda e: (_plant(e, _tagged(key, e.name, body)),
                                                              cache.chmod(0o777)),
        "valid tag, another user's file": lambda e: (_plant(e, _tagged(key, e.name, body)),
                                                     monkeypatch.setattr(_cache_auth, "_uid", lambda: other_user)),
    }
    for what, attack in attacks.items():
        for e in entries:
            attack(e)
        with pytest.warns(UntrustedCacheWarning):
            traces, out = _run()
        assert not marker.exists(), f"{what}: the payload ran"
        assert traces > 0, what
        np.testing.assert_allclose(out, EXPECTED, rtol=1e-6)
        cache.chmod(0o700)
        monkeypatch.setattr(_cache_auth, "_uid", os.geteuid)
        _cache_auth._WARNED.clear()
    # the control: the same payload, authentic (the user's key, file and directory), does run
    _plant(entries[0], _tagged(key, entries[0].name, body))
    assert frontend_cache.load(entries[0].stem) is None and marker.exists()


# ---------------------------------------------------------------------------
# the key
# ---------------------------------------------------------------------------
def test_the_key_is_made_once_and_kept_private(key_dir):
    k = _cache_auth.key()
    assert len(k) == 32 and _cache_auth.key() == k
    assert _mode(key_dir) == 0o700 and _mode(key_dir / _cache_auth.KEY_NAME) == 0o600
    assert [p.name for p in key_dir.iterdir()] == [_cache_auth.KEY_NAME], "no temporary file left"


@pytest.mark.parametrize("damage, message", [
    (lambda d: (d / _cache_auth.KEY_NAME).chmod(0o644), "accessible by group or others"),
    (lambda d: d.chmod(0o777), "writable by group or others"),
    (lambda d: (d / _cache_auth.KEY_NAME).write_bytes(b"short"), "5 bytes"),
])
def test_an_untrusted_key_turns_the_front_end_cache_off(cache, key_dir, damage, message):
    _stored(cache)
    damage(key_dir)
    with pytest.warns(UntrustedCacheWarning, match=message):
        traces, out = _run()
    assert traces > 0, "no entry is authenticated without a trusted key"
    np.testing.assert_allclose(out, EXPECTED, rtol=1e-6)
    key_dir.chmod(0o700)


def test_the_key_directory(monkeypatch, tmp_path):
    monkeypatch.delenv(_cache_auth.KEY_ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert _cache_auth.key_root() == str(tmp_path / "xdg" / "msjax")
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert _cache_auth.key_root() == str(tmp_path / ".cache" / "msjax")
    monkeypatch.setenv(_cache_auth.KEY_ENV, str(tmp_path / "k"))
    assert _cache_auth.key_root() == str(tmp_path / "k")


# ---------------------------------------------------------------------------
# JAX's persistent cache directory
# ---------------------------------------------------------------------------
def test_jax_cache_directories_are_created_owner_only(tmp_path):
    path = tmp_path / "a" / "b" / "c"
    try:
        ms.set_context(enable_compile_cache=True, compile_cache_path=str(path))
        assert jax.config.jax_compilation_cache_dir == str(path.resolve())
        assert [_mode(p) for p in (tmp_path / "a", tmp_path / "a" / "b", path)] == [0o700] * 3
    finally:
        ms.set_context(enable_compile_cache=None, compile_cache_path="")


@pytest.mark.parametrize("setup, message", [
    (lambda p: (p.mkdir(), p.chmod(0o777)), "writable by group or others"),
    (lambda p: (p.mkdir(), p.chmod(0o770)), "writable by group or others"),
    (lambda p: p.write_text("x"), "not a directory"),
])
def test_an_unsafe_jax_cache_directory_is_refused(tmp_path, setup, message):
    good, bad = tmp_path / "good", tmp_path / "bad"
    setup(bad)
    try:
        ms.set_context(enable_compile_cache=True, compile_cache_path=str(good))
        assert compile_cache.active_path() == str(good.resolve())
        with pytest.warns(UntrustedCacheWarning, match=message):
            ms.set_context(compile_cache_path=str(bad))
        assert compile_cache.active_path() is None and jax.config.jax_compilation_cache_dir is None
        assert not frontend_cache.enabled()
        assert ms.get_context("enable_compile_cache") is True, "the setting stays; the directory is refused"
    finally:
        ms.set_context(enable_compile_cache=None, compile_cache_path="")


def test_a_jax_cache_directory_of_another_user_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(_cache_auth, "_uid", lambda: os.geteuid() + 4242)
    (tmp_path / "c").mkdir(mode=0o700)
    try:
        with pytest.warns(UntrustedCacheWarning, match="belongs to user id"):
            ms.set_context(enable_compile_cache=True, compile_cache_path=str(tmp_path / "c"))
        assert compile_cache.active_path() is None
    finally:
        ms.set_context(enable_compile_cache=None, compile_cache_path="")


def test_a_cache_enabled_before_the_check_was_lent_is_checked(tmp_path, monkeypatch):
    """``MS_COMPILER_CACHE_ENABLE=1`` turns the cache on while only the core is imported
    (its plain ``os.makedirs``); ``_cache_auth`` checks that directory when it is imported."""
    bad = tmp_path / "bad"
    bad.mkdir()
    bad.chmod(0o777)
    monkeypatch.setattr(compile_cache, "_active", [str(bad)])
    with pytest.warns(UntrustedCacheWarning, match="writable by group or others"):
        _cache_auth.check_active()
    assert compile_cache.active_path() is None
