"""msjax.runtime._host_allocator: glibc keeps a freed large block for the next allocation (issue 36:
XLA's per-call buffers were faulted in afresh every train step). Each check runs in a fresh
interpreter that loads only that module (no JAX), so it costs a fraction of a second."""
import os
import platform
import subprocess
import sys

import pytest

from msjax.runtime import _host_allocator

PATH = _host_allocator.__file__
PROBE = f"""
import ctypes, importlib.util, resource, threading
spec = importlib.util.spec_from_file_location("host_allocator", {PATH!r})
mod = importlib.util.module_from_spec(spec); spec.loader.exec_module(mod)
print(sorted(mod.keep_freed_memory()))
libc = ctypes.CDLL(None)
libc.malloc.restype, libc.malloc.argtypes = ctypes.c_void_p, [ctypes.c_size_t]
libc.free.argtypes = [ctypes.c_void_p]
N = 64 << 20                      # over glibc's largest mmap threshold (32 MiB)
faults = []
def run():                        # on another thread, as XLA's are
    for _ in range(3):
        before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
        p = libc.malloc(N); ctypes.memset(p, 1, N); libc.free(p)
        faults.append(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
t = threading.Thread(target=run); t.start(); t.join()
print(faults)
"""
PAGES = (64 << 20) // 4096

glibc = pytest.mark.skipif(platform.system() != "Linux" or platform.libc_ver()[0] != "glibc",
                           reason="glibc's mallopt")


def _probe(**env):
    base = {k: v for k, v in os.environ.items() if not k.startswith("MALLOC_") and k != "GLIBC_TUNABLES"
            and k != _host_allocator.ENV}
    out = subprocess.run([sys.executable, "-c", PROBE], env={**base, **env}, capture_output=True, text=True,
                         check=True).stdout.splitlines()
    return eval(out[0]), eval(out[1])   # noqa: S307 - two printed lists


@glibc
def test_freed_block_is_reused_without_page_faults():
    applied, faults = _probe()
    assert applied == ["M_ARENA_MAX", "M_MMAP_MAX", "M_TRIM_THRESHOLD"]
    assert faults[0] >= PAGES // 2                      # the first touch maps the pages
    assert max(faults[1:]) < PAGES // 16, faults        # the same block again: already mapped


@glibc
@pytest.mark.parametrize("env", [{"MSJAX_HOST_MEMORY_POOL": "0"},
                                 {"GLIBC_TUNABLES": "glibc.malloc.check=0"}])
def test_left_alone_when_the_user_chose(env):
    applied, faults = _probe(**env)
    assert applied == []
    assert min(faults) >= PAGES // 2, faults            # glibc's own behaviour: unmapped, faulted again
