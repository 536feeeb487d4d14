"""msjax's native CPU kernels: ``conv_dnnl.cc`` (oneDNN's convolution primitives as XLA FFI custom-call
targets), ``batch_norm.cc`` (MindSpore's training BatchNorm arithmetic), ``layer_norm.cc`` (its
CPU LayerNorm's), ``gelu.cc`` (its tanh-form GeLU with the C library's ``tanhf``: glibc's ``tanhf``
as vector code, ``tanhf_vec.h``, where it gives this process's C library's bits) and ``lstm_dnnl.cc``
(oneDNN's LSTM primitive as its CPU LSTM kernel configures it), built on first use into one library and
registered with ``jax.ffi``.

The default install brings oneDNN as the ``onednn-cpu-gomp`` wheel (the library, linked against
GNU OpenMP) and its headers as ``onednn-devel-cpu-gomp`` (Linux x86-64). On the first convolution
that asks for it, :func:`library` compiles the sources with the C++ compiler (``$CXX`` or
``g++``) against those headers and jaxlib's FFI headers (``jax.ffi.include_dir()``) into
``$MSJAX_NATIVE_CACHE`` (default ``$XDG_CACHE_HOME/msjax/native`` or ``~/.cache/msjax/native``,
created with mode 0700), under a name carrying a hash of the source, the jaxlib version and the
oneDNN and compiler paths; later processes load that file (about 3-10 s once, like PyTorch's
``cpp_extension``). The build goes to a temporary file that is renamed into place, so concurrent
processes do not see a partial library.

When anything is missing (no compiler, no oneDNN wheel, another platform, a failed build),
:func:`library` returns None and msjax keeps XLA's convolution; ``MSJAX_NATIVE=0`` turns the
native kernels off, and ``MSJAX_NATIVE_DEBUG=1`` prints why a build failed. Unlike a host
callback, an executable with these custom calls can be stored by JAX's persistent compile cache:
the targets are registered in every process before a convolution is traced, and before the
front-end compile cache (``common._frontend_cache``) loads an executable stored by a process that
had them (this module lends itself to the core as ``native_kernels``).

The library also exports host twins of its targets (``MsjaxMatmulHost``, the ``msjax_matmul``
handler's plan and primitive, ``MsjaxConvHost``, ``MsjaxSparseSoftmaxXentHost``, ``MsjaxLayerNormHost``)
called on NumPy buffers: lent to ``runtime._host_eager`` so a PyNative Dense's, convolution's, loss's or
LayerNorm's first calls run them on the host instead of compiling a program (bit for bit the FFI
calls', denormals flushed as XLA runs them).

oneDNN's OpenMP threads wait passively (``OMP_WAIT_POLICY=PASSIVE`` while the library loads, unless
the user set the variable): see :func:`_load_passive`.

The FFI handlers are asynchronous (``offload.h``): each runs its pass as a task on XLA's intra-op
thread pool and returns a future, so XLA:CPU's thunk executor, which hands a ready thunk to a second
thread only when more than 8 are ready, goes on with the next independent thunk meanwhile (a
convolution's input and weight gradients, GroupConv's branches run at once), and BatchNorm splits its
channels over the pool's threads; the bits are those of each pass run alone. Difference from MindSpore: none visible;
MindSpore's CPU kernels run on its own thread pool.
"""
from __future__ import annotations

import ctypes
import functools
import hashlib
import importlib.metadata
import os
import platform
import shutil
import subprocess
import sys
import tempfile

import jax
import numpy as np

from ..._core import provided
from ...runtime import _host_eager

SOURCES = tuple(os.path.join(os.path.dirname(os.path.abspath(__file__)), name)
                for name in ("conv_dnnl.cc", "batch_norm.cc", "layer_norm.cc", "gelu.cc", "lstm_dnnl.cc"))
HEADERS = tuple(os.path.join(os.path.dirname(os.path.abspath(__file__)), name)
                for name in ("offload.h", "tanhf_vec.h"))
ENV = "MSJAX_NATIVE"
CACHE_ENV = "MSJAX_NATIVE_CACHE"
DEBUG_ENV = "MSJAX_NATIVE_DEBUG"
TARGETS = {"msjax_conv_forward": "MsjaxConvForward",
           "msjax_conv_backward_data": "MsjaxConvBackwardData",
           "msjax_conv_backward_weights": "MsjaxConvBackwardWeights",
           "msjax_matmul": "MsjaxMatmul",
           "msjax_sparse_softmax_xent": "MsjaxSparseSoftmaxXent",
           "msjax_batch_norm_train": "MsjaxBatchNormTrain",
           "msjax_batch_norm_grad": "MsjaxBatchNormGrad",
           "msjax_layer_norm": "MsjaxLayerNorm",
           "msjax_gelu_tanh": "MsjaxGeluTanh",
           "msjax_lstm_forward": "MsjaxLstmForward"}
FFI_API_VERSION = 1


def _debug(message):
    if os.environ.get(DEBUG_ENV, "0") not in ("", "0"):
        print(f"msjax native: {message}", file=sys.stderr)


def _locate(dist_name, suffix):
    """The installed file of distribution ``dist_name`` whose path ends with ``suffix``."""
    try:
        dist = importlib.metadata.distribution(dist_name)
    except importlib.metadata.PackageNotFoundError:
        return None
    name = suffix.rsplit("/", 1)[-1]
    for f in dist.files or ():
        if f.name != name:       # only the candidates pay a realpath (a PyNative Dense's first call waits)
            continue
        # RECORD names data files relative to site-packages ("../../libdnnl.so.3"): match the real path
        path = os.path.realpath(dist.locate_file(f))
        if path.replace(os.sep, "/").endswith("/" + suffix) and os.path.exists(path):
            return path
    return None


def onednn_paths():
    """``(library directory, include directory)`` of the oneDNN wheels, or None."""
    lib = _locate("onednn-cpu-gomp", "lib/libdnnl.so.3")
    header = _locate("onednn-devel-cpu-gomp", "include/oneapi/dnnl/dnnl.hpp")
    if lib is None or header is None:
        return None
    return os.path.dirname(lib), os.path.dirname(os.path.dirname(os.path.dirname(header)))


def cache_dir():
    path = os.environ.get(CACHE_ENV)
    if not path:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        path = os.path.join(base, "msjax", "native")
    os.makedirs(path, mode=0o700, exist_ok=True)
    return path


def _build(lib_dir, include_dir, compiler):
    sources = []
    for path in SOURCES + HEADERS:
        with open(path, "rb") as f:
            sources.append(f.read())
    jaxlib_version = importlib.metadata.version("jaxlib")
    digest = hashlib.sha256(b"\0".join([*sources, jaxlib_version.encode(), lib_dir.encode(), include_dir.encode(),
                                        compiler.encode()])).hexdigest()[:16]
    target = os.path.join(cache_dir(), f"conv_dnnl-{digest}.so")
    if os.path.exists(target):
        return target
    fd, tmp = tempfile.mkstemp(suffix=".so", dir=os.path.dirname(target))
    os.close(fd)
    cmd = [compiler, "-O2", "-ffp-contract=off", "-std=c++17", "-shared", "-fPIC", "-w", *SOURCES, "-o", tmp,
           "-I", jax.ffi.include_dir(), "-I", include_dir, "-L", lib_dir, "-l:libdnnl.so.3", "-l:libgomp.so.1",
           f"-Wl,-rpath,{lib_dir}"]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
        if proc.returncode != 0:
            _debug(f"build failed ({' '.join(cmd)}):\n{proc.stderr[-4000:]}")
            return None
        os.chmod(tmp, 0o700)
        os.replace(tmp, target)
        return target
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def _load_passive(path):
    """``ctypes.CDLL(path)`` with GNU OpenMP's threads sleeping, not spinning, between parallel regions.

    libgomp reads ``OMP_WAIT_POLICY`` once, when it is loaded (here, as oneDNN's dependency). Left
    to its default, oneDNN's OpenMP threads spin after every convolution on the cores XLA's own
    threads need next: a 1x1 convolution of 8x640x7x7 took 27.5 ms of CPU time spinning against
    1.5 ms passive, and ShuffleNetV1's train step (316 oneDNN calls) was 0.7x MindSpore's speed by
    CPU time (issue 36). So the policy is PASSIVE unless the user set it; the process environment
    is restored after the load, so subprocesses see the user's own."""
    if "OMP_WAIT_POLICY" in os.environ:
        return ctypes.CDLL(path)
    os.environ["OMP_WAIT_POLICY"] = "PASSIVE"
    try:
        return ctypes.CDLL(path)
    finally:
        del os.environ["OMP_WAIT_POLICY"]


@functools.lru_cache(maxsize=None)
def library():
    """The loaded native library with its FFI targets registered for the CPU, or None where it
    cannot be had (see the module's docstring); builds it on the first call of a process that
    finds no built copy."""
    if os.environ.get(ENV, "1").strip() == "0":
        return None
    if sys.platform != "linux" or platform.machine() not in ("x86_64", "AMD64"):
        return None
    try:
        paths = onednn_paths()
        if paths is None:
            _debug("the onednn-cpu-gomp / onednn-devel-cpu-gomp wheels are not installed")
            return None
        compiler = shutil.which(os.environ.get("CXX", "g++"))
        if compiler is None:
            _debug("no C++ compiler (set CXX or install g++)")
            return None
        path = _build(*paths, compiler)
        if path is None:
            return None
        lib = _load_passive(path)
        for name, symbol in TARGETS.items():
            jax.ffi.register_ffi_target(name, jax.ffi.pycapsule(getattr(lib, symbol)), platform="cpu",
                                        api_version=FFI_API_VERSION)
        _lend_host_twins(lib)
        _LOADED[0] = True
        return lib
    except Exception as exc:  # noqa: BLE001 -- any failure means XLA's convolution, never an error
        _debug(f"unavailable: {exc!r}")
        return None


_LOADED = [False]


def _lend_host_twins(lib):
    """Give ``runtime._host_eager`` the host twins of ``msjax_matmul`` (``MsjaxMatmulHost``: the FFI
    handler's own plan and oneDNN primitive on NumPy buffers) and ``msjax_sparse_softmax_xent``
    (``MsjaxSparseSoftmaxXentHost``: the handler's own loop), so the first PyNative calls of a Dense
    or of the sparse softmax cross-entropy run them without compiling a program; bit for bit the
    FFI calls' (XLA runs them with the calling thread's denormals flushed, and so do the twins)."""
    mm = getattr(lib, "MsjaxMatmulHost", None)
    xent = getattr(lib, "MsjaxSparseSoftmaxXentHost", None)
    conv = getattr(lib, "MsjaxConvHost", None)
    if mm is None or xent is None or conv is None:   # a library without the twins: first calls compile
        return
    mm.restype = xent.restype = conv.restype = ctypes.c_int
    i64, ptr = ctypes.c_int64, ctypes.c_void_p
    mm.argtypes = [ptr, i64, i64, ptr, i64, i64, i64, i64, i64, ptr]
    xent.argtypes = [ptr, ptr, i64, i64, i64, i64, ptr]
    conv.argtypes = [i64, i64, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, ptr, i64, i64]

    def checked(status):
        if status != 0:
            raise RuntimeError("the native kernel refused the call")   # the caller compiles it instead

    def convolution(pass_):
        def run(a, b, shapes, stride, pad_lo, pad_hi, dilation, groups):
            (shape,) = shapes
            if a.dtype != np.float32 or b.dtype != np.float32 or not a.ndim == b.ndim == len(shape):
                raise TypeError("the convolution passes take float32 operands of one rank")
            out = np.empty(shape, np.float32)
            dims = [np.ascontiguousarray(v, np.int64) for v in (a.shape, b.shape, shape, stride, pad_lo, pad_hi,
                                                                 dilation)]
            if any(len(d) != a.ndim - 2 for d in dims[3:]):
                raise TypeError("one stride, padding and dilation per spatial axis")
            checked(conv(pass_, a.ndim, a.ctypes.data, dims[0].ctypes.data, b.ctypes.data, dims[1].ctypes.data,
                         out.ctypes.data, dims[2].ctypes.data, *(d.ctypes.data for d in dims[3:]), int(groups), 1))
            return [out]
        return run

    def matmul(a, b, transpose_a=0, transpose_b=0, **_):
        if a.dtype != np.float32 or b.dtype != np.float32 or a.ndim != 2 or b.ndim != 2:
            raise TypeError("msjax_matmul takes two 2-D float32 operands")
        out = np.empty((a.shape[1] if transpose_a else a.shape[0], b.shape[0] if transpose_b else b.shape[1]),
                       np.float32)
        checked(mm(a.ctypes.data, *a.shape, b.ctypes.data, *b.shape, int(transpose_a), int(transpose_b), 1,
                   out.ctypes.data))
        return [out]

    def sparse_softmax_xent(x, t, is_grad=0, **_):
        if x.dtype != np.float32 or t.dtype != np.int32 or x.ndim != 2 or t.shape != x.shape[:1]:
            raise TypeError("msjax_sparse_softmax_xent takes float32 logits (B, C) and int32 labels (B,)")
        out = np.empty(x.shape if is_grad else (), np.float32)
        checked(xent(x.ctypes.data, t.ctypes.data, *x.shape, int(is_grad), 1, out.ctypes.data))
        return [out]
    _host_eager.KERNELS["msjax_matmul"] = matmul
    _lend_layer_norm(lib, checked)
    _host_eager.KERNELS["msjax_sparse_softmax_xent"] = sparse_softmax_xent
    for i, target in enumerate(("msjax_conv_forward", "msjax_conv_backward_data", "msjax_conv_backward_weights")):
        _host_eager.KERNELS[target] = convolution(i)


def _lend_layer_norm(lib, checked):
    """The host twin of ``msjax_layer_norm`` (``MsjaxLayerNormHost``: the handler's own loops)."""
    ln = getattr(lib, "MsjaxLayerNormHost", None)
    if ln is None:
        return
    i64, ptr = ctypes.c_int64, ctypes.c_void_p
    ln.restype = ctypes.c_int
    ln.argtypes = [ptr, i64, ptr, i64, ptr, i64, i64, i64, i64, ctypes.c_float, i64, ptr, ptr, ptr]

    def layer_norm(x, gamma, beta, shapes, eps, block, half, **_):
        if any(a.dtype != np.float32 for a in (x, gamma, beta)) or len(shapes) != 3:
            raise TypeError("msjax_layer_norm takes float32 x, gamma and beta")
        outs = [np.empty(s, np.float32) for s in shapes]
        checked(ln(x.ctypes.data, x.size, gamma.ctypes.data, gamma.size, beta.ctypes.data, beta.size, int(block),
                   outs[1].size, int(half), float(eps), 1, *(o.ctypes.data for o in outs)))
        return outs
    _host_eager.KERNELS["msjax_layer_norm"] = layer_norm


def loaded():
    """True once this process has registered the native targets (a program it compiles may call them)."""
    return _LOADED[0]


provided.provide("native_kernels", sys.modules[__name__])
