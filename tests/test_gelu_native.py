"""The native GeLU's vector ``tanhf`` (``msjax/ops/_native/tanhf_vec.h``: glibc 2.36's ``tanhf`` eight lanes at a
time) and its guard (``gelu.cc``): the kernel uses the vector code only where it gives this process's C library's
``tanhf`` bits on a set of inputs at every branch boundary, else (or under ``MSJAX_GELU_LIBM=1``) the C library's
``tanhf`` a value at a time. MindSpore's recorded bits: ``tests/test_gelu_bits.py``; every float:
``bench/tanhf_exhaustive.cc`` (run here with a stride)."""
import ctypes
import os
import platform
import shutil
import subprocess
import sys

import numpy as np
import pytest

import msjax as ms
from msjax import ops
from msjax.ops import _native

pytestmark = pytest.mark.skipif(_native.library() is None, reason="msjax's native kernels cannot be built here")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PATHS = {0: "avx2", 1: "sse2", 2: "libm (forced)", 3: "libm (vector code differs)"}
REFERENCE = ctypes.CFUNCTYPE(ctypes.c_float, ctypes.c_float)


def _libm_tanhf():
    libm = ctypes.CDLL("libm.so.6")
    libm.tanhf.restype, libm.tanhf.argtypes = ctypes.c_float, [ctypes.c_float]
    return libm.tanhf


def _glibc_fdlibm_tanhf():
    """Whether this C library's tanhf is fdlibm's (glibc before 2.41, whose tanhf is correctly rounded)."""
    if platform.libc_ver()[0] != "glibc":
        return False
    major, minor = (int(v) for v in platform.libc_ver()[1].split(".")[:2])
    return (major, minor) < (2, 41)


def _check(reference):
    lib = _native.library()
    lib.MsjaxGeluTanhCheck.restype = ctypes.c_int64
    lib.MsjaxGeluTanhCheck.argtypes = [REFERENCE]
    return lib.MsjaxGeluTanhCheck(reference)


FDLIBM = pytest.mark.skipif(not _glibc_fdlibm_tanhf(), reason="the vector code is glibc 2.36's tanhf (fdlibm's)")


@FDLIBM
def test_vector_code_is_this_glibc_tanhf():
    libm = _libm_tanhf()
    assert _check(REFERENCE(lambda x: libm(x))) == 0
    path = _native.library().MsjaxGeluTanhPath()
    assert PATHS[path] == ("avx2" if _has_avx2() else "sse2")


def _cpu_has(flag):
    with open("/proc/cpuinfo") as f:
        return f" {flag}" in f.read()


def _has_avx2():
    return _cpu_has("avx2")


def _bits(x):
    return np.float32(x).view(np.uint32)


@FDLIBM
@pytest.mark.parametrize("x", [
    np.float32(22.0),                                  # |x| >= 22: saturated
    np.nextafter(np.float32(22.0), np.float32(0)),
    np.float32(-1.0),                                  # expm1f(2|x|) from here
    np.float32(2.0 ** -55),                            # x * (1 + x) below
    np.float32(-2.5 * np.log(2) / 2),                  # expm1f(-2|x|)'s k = -2 / -3
    np.float32(23.5 * np.log(2) / 2),                  # expm1f's k = 23 (2^-k built otherwise)
])
def test_check_sees_one_differing_value(x):
    """The guard reports a C library whose tanhf differs from the vector code's in one value of its set."""
    libm = _libm_tanhf()
    target = _bits(x)

    def other_tanhf(v):
        got = libm(v)
        if _bits(v) == target:
            return float(np.nextafter(np.float32(got), np.float32(2)))
        return got
    assert _check(REFERENCE(other_tanhf)) == 1


@pytest.mark.parametrize("n", list(range(1, 18)) + [64 * 256 + 3])
def test_partial_blocks(n):
    """A value's bits do not depend on its place in the array (the last partial block goes through a copy)."""
    rng = np.random.default_rng(n)
    x = (rng.standard_normal(64 * 256 + 3) * 4).astype(np.float32)
    whole = ops.GeLU()(ms.Tensor(x)).asnumpy()
    part = ops.GeLU()(ms.Tensor(x[-n:])).asnumpy()
    assert np.array_equal(part.view(np.uint32), whole[-n:].view(np.uint32))


def test_forced_libm_path_gives_mindspore_bits():
    """``MSJAX_GELU_LIBM=1``: the C library's tanhf a value at a time, the recorded MindSpore bits."""
    code = (
        "import numpy as np, msjax as ms\n"
        "from msjax import ops\n"
        "from msjax.ops import _native\n"
        "rec = np.load('tests/fixtures/gelu_bits_mindspore.npz')\n"
        "y = ops.GeLU()(ms.Tensor(rec['x32'])).asnumpy()\n"
        "print(_native.library().MsjaxGeluTanhPath(),"
        " int((y.view(np.uint32) != rec['x32_pynative'].view(np.uint32)).sum()))\n")
    env = dict(os.environ, MSJAX_GELU_LIBM="1", PYTHONPATH=ROOT)
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    path, differ = out.stdout.split()[-2:]
    assert PATHS[int(path)] == "libm (forced)" and differ == "0"


@pytest.fixture(scope="module")
def checker(tmp_path_factory):
    """bench/tanhf_exhaustive.cc built as the native kernels are (-O2, no FMA contraction)."""
    if not _glibc_fdlibm_tanhf() or shutil.which("g++") is None:
        pytest.skip("needs g++ and glibc's fdlibm tanhf")
    exe = tmp_path_factory.mktemp("tanhf") / "tanhf_exhaustive"
    subprocess.run(["g++", "-O2", "-ffp-contract=off", "-std=c++17", "-w", "-I",
                    os.path.join(ROOT, "msjax", "ops", "_native"), os.path.join(ROOT, "bench", "tanhf_exhaustive.cc"),
                    "-o", str(exe)], check=True, capture_output=True, timeout=300)
    return exe


@pytest.mark.parametrize("flags", [["--isa", "sse2"], ["--isa", "sse2", "--ftz"]] +
                         ([["--isa", "avx2"], ["--isa", "avx2", "--ftz"]] if _has_avx2() else []))
def test_exhaustive_checker_with_a_stride(checker, flags):
    """bench/tanhf_exhaustive.cc over every 4,099th float (1,047,809): 0 differing values."""
    out = subprocess.run([str(checker), "--stride", "4099", *flags], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout[-2000:]
    assert "1047809 inputs checked" in out.stdout and "tanhf differs at 0, gelu at 0" in out.stdout


@pytest.mark.skipif(not (_has_avx2() and _cpu_has("fma")) or shutil.which("g++") is None
                    or not _glibc_fdlibm_tanhf(), reason="needs g++, AVX2 and FMA, glibc's fdlibm tanhf")
def test_checker_sees_fused_multiply_adds(tmp_path):
    """The same sources built with FMA contraction (one rounding fewer in a few steps): the checker reports
    differing values, so its 0 above is a measurement."""
    exe = tmp_path / "tanhf_fma"
    subprocess.run(["g++", "-O2", "-ffp-contract=fast", "-mfma", "-std=c++17", "-w", "-I",
                    os.path.join(ROOT, "msjax", "ops", "_native"), os.path.join(ROOT, "bench", "tanhf_exhaustive.cc"),
                    "-o", str(exe)], check=True, capture_output=True, timeout=300)
    out = subprocess.run([str(exe), "--stride", "4099", "--isa", "avx2"], capture_output=True, text=True, timeout=300)
    assert out.returncode == 1 and "tanhf differs at 0," not in out.stdout, out.stdout[-2000:]
