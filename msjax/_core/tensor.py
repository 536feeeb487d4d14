"""``msjax.Tensor``: a one-slot wrapper around a ``jax.Array``.

The Tensor is a JAX pytree (its only leaf is the array), so it passes through
``jax.jit``/``jax.vjp`` untouched; inside a transform the slot holds a tracer.
Construction follows MindSpore's dtype inference: Python ``float`` -> Float32,
``int`` -> Int64, ``bool`` -> Bool, lists the same way, numpy arrays keep their
dtype. Differences from MindSpore: a Tensor is immutable storage (``t[i] = v``
rebinds the slot to an updated array, which is what in-place means on JAX).
"""
from __future__ import annotations

import contextlib
import numbers

import jax
import jax.numpy as jnp
import numpy as np

from . import dtype as mstype
from . import eager, float_to_int, printing, provided, state
from .nograd import _DEPTH as _NO_GRAD

__all__ = ["Tensor", "to_array", "wrap", "as_dtype_np"]


def _infer_np(data):
    """numpy array of Python/numpy input with MindSpore's default dtypes."""
    if isinstance(data, (bool, np.bool_)):
        return np.asarray(data, np.bool_)
    if isinstance(data, np.ndarray) or isinstance(data, np.generic):
        return np.asarray(data)
    if isinstance(data, numbers.Integral):
        return _py_int(data, "Unsupported tensor type!")
    if isinstance(data, numbers.Real):
        return np.asarray(data, np.float32)
    if isinstance(data, numbers.Complex):
        return np.asarray(data, np.complex128)     # MindSpore: a Python complex is Complex128
    if isinstance(data, (list, tuple)):
        items = [_item_np(x) for x in data]
        try:
            arr = np.asarray(items) if items else np.zeros((0,), np.float32)
        except ValueError:
            raise TypeError(f"For Tensor, the input_data is {data} that contain unsupported element.") from None
        if arr.dtype == object or arr.dtype.kind in "USV":
            raise TypeError(f"For Tensor, the input_data is {data} that contain unsupported element.")
        if arr.dtype == np.float64 and not _has_np_float64(data):
            arr = arr.astype(np.float32)
        return arr
    raise TypeError(
        "For 'Tensor', the type of 'input_data' should be one of '['TensorPy', 'Tensor', 'ndarray', 'str_', 'list', "
        f"'tuple', 'float', 'int', 'bool', 'complex', 'bytes']', but got type '{type(data).__name__}'.")


def _py_int(v, error):
    """A Python int as MindSpore stores it: Int64, UInt64 from 2**63; beyond 64 bits its RuntimeError."""
    if not -2**63 <= v < 2**64:
        raise RuntimeError(error)
    return np.asarray(v, np.int64 if v < 2**63 else np.uint64)


def _item_np(x):
    if isinstance(x, Tensor):
        return np.asarray(x._data)
    if isinstance(x, (list, tuple)):
        return _infer_np(x)
    return x


def _has_tensor(data):
    if isinstance(data, Tensor):
        return True
    if isinstance(data, (list, tuple)):
        return any(_has_tensor(x) for x in data)
    return False


def _has_np_float64(data):
    for x in data:
        if isinstance(x, (list, tuple)):
            if _has_np_float64(x):
                return True
        elif isinstance(x, (np.ndarray, np.generic)) and x.dtype == np.float64:
            return True
        elif isinstance(x, Tensor) and x._data.dtype == np.float64:
            return True
    return False


def as_dtype_np(dtype):
    return None if dtype is None else mstype.to_np(dtype)


def to_array(data, dtype=None):
    """A ``jax.Array`` (or tracer) from anything MindSpore accepts as tensor data."""
    if isinstance(data, Tensor):
        arr = data._data
        if isinstance(arr, jax.ShapeDtypeStruct) and dtype in (None, data.dtype):
            return arr      # abstract (shape and dtype only): a compile-only dry run's Parameter
    elif isinstance(data, jax.Array) or isinstance(data, jax.core.Tracer):
        arr = data
    elif dtype is not None and isinstance(data, int) and not isinstance(data, bool):
        arr = _py_int(data, "Cannot construct Tensor because of unsupported data type: 0.")  # cast, wrapping
    elif dtype is not None and isinstance(data, (bool, float, list, tuple)) and not _has_tensor(data):
        # Build in the requested dtype directly (no Float32 round trip for Float64).
        try:
            arr = np.asarray(data, dtype=mstype.to_np(dtype))
        except (ValueError, TypeError, OverflowError):
            arr = _infer_np(data)
    else:
        arr = _infer_np(data)
    if dtype is not None:
        npd = mstype.to_np(dtype)
        if arr.dtype != npd:
            arr = arr.astype(npd)
    if type(arr) is np.ndarray and arr.dtype.isnative:   # in a trace too: a constant stays one (MindSpore folds it)
        with contextlib.nullcontext() if _trace_state_clean() else jax.ensure_compile_time_eval():
            return _host_to_device(arr)
    return jnp.asarray(arr)


try:   # outside any JAX trace a NumPy array is transferred, not staged
    from jax._src.core import trace_state_clean as _trace_state_clean
except ImportError:  # pragma: no cover  (other jax layouts: jnp.asarray throughout)
    def _trace_state_clean():
        return False


def _host_to_device(arr):
    """A NumPy array as a new ``jax.Array`` (a copy, uncommitted, on the default device).

    ``jnp.asarray`` gives the same array, but through ``lax.stage``: an identity
    program that JAX compiles for every new shape and dtype, which a fresh process
    pays for each input and Parameter shape (even from the persistent cache).
    ``jax.device_put`` compiles nothing. Its transfer may finish after it returns,
    reading the array then, so it gets a private copy made now: changing ``arr``
    afterwards never reaches the Tensor (MindSpore's ``Tensor(ndarray)`` copies).
    """
    return jax.device_put(np.array(arr, copy=True, order="C"))


class DynamicShape:
    """The value of ``Tensor(shape=[None, 3], dtype=...)``: a declared input
    signature (``Cell.set_inputs``) with unknown dimensions (-1; ``(-2,)`` for an
    unknown rank). Shape and dtype are readable; computing with it raises
    MindSpore's ``ValueError``."""

    __slots__ = ("shape", "dtype")

    def __init__(self, shape, dtype):
        self.shape, self.dtype = tuple(shape), np.dtype(dtype)

    @property
    def ndim(self):
        return len(self.shape)

    def _fail(self, *args, **kwargs):
        raise ValueError("negative dimensions are not allowed: a Tensor created with a dynamic shape "
                         f"{list(self.shape)} only declares an input signature (Cell.set_inputs); it has no value.")

    __array__ = __float__ = __int__ = __bool__ = __iter__ = __len__ = __getitem__ = _fail

    def __getattr__(self, name):
        self._fail()


def wrap(arr):
    t = object.__new__(Tensor)
    if _NO_GRAD[0] and isinstance(arr, jax.core.Tracer):    # inside ``with _no_grad()``
        arr = jax.lax.stop_gradient(arr)
    t._data = arr
    return t


def _operand(x, other):
    """Array or weak scalar for a binary op; a Python float meeting an integer
    Tensor becomes Float32 (MindSpore), not JAX's Float64."""
    if isinstance(x, Tensor):
        return x._data
    if isinstance(x, float) and not _inexact(other.dtype):
        return np.float32(x)
    if isinstance(x, (bool, int, float, complex)):
        return x
    if isinstance(x, (list, tuple)):
        if any(isinstance(t, Tensor) and isinstance(t._data, jax.core.Tracer) for t in x):
            return jnp.asarray([t._data if isinstance(t, Tensor) else t for t in x])   # traced: stacked
        return jnp.asarray(_infer_np(x))
    return jnp.asarray(x)


def broadcast_error(name, x, y):
    return ValueError(
        f"For '{name}', input.shape and other.shape need to broadcast, but got input.shape = "
        f"{list(np.shape(x))} and other.shape = {list(np.shape(y))}.")


_INEXACT = {}
# NumPy's 64-bit C long -> C long long (MindSpore's NumPy type for Int64/UInt64); empty where
# long is 32 bits (jax then gives long long already).
_LONG_LONG = {"l": "q", "L": "Q"} if np.dtype("l").itemsize == 8 else {}


def _inexact(dt):
    """``jnp.issubdtype(dt, jnp.inexact)``, remembered per dtype."""
    r = _INEXACT.get(dt)
    if r is None:
        r = _INEXACT[dt] = bool(jnp.issubdtype(dt, jnp.inexact))
    return r


def _seq_type(v):   # MindSpore's name of an operand's type: Tuple<int, List<float>>
    return (f"{type(v).__name__.capitalize()}<{', '.join(map(_seq_type, v))}>" if isinstance(v, (tuple, list))
            else type(v).__name__)


def _bad_operand(op, reflect, v):   # MindSpore's TypeError for Tensor <op> None/str/...; None: Python's
    fn = {"add": "add", "sub": "Sub" if reflect else "sub", "mul": "mul", "truediv": "mul" if reflect else "div"}
    fn, t = fn.get(op), "None" if v is None else "string" if isinstance(v, str) else f"<class '{type(v).__name__}'>"
    return None if fn is None else TypeError(
        f'Failed calling Sub with "Sub()(input={t}, other=Tensor)".' if fn == "Sub" else
        f'Failed calling {fn} with "{fn}({t})".' if v is None or fn == "div" else
        f'Failed calling {fn.title()} with "{fn.title()}()(input=Tensor, other={t})".')


def _binary(fn, name, reflect=False, seq=None, overload=None):
    """The operator ``name`` over ``fn``. ``overload``: the Tensor method (``"sub"``) that MindSpore's
    operator is, which takes more arguments (``x.__sub__(y, alpha=2)``): they go to that method."""
    op_name = name.strip("_").lstrip("r") if reflect else name.strip("_")
    kernel = eager.hot(fn, 2)

    def method(self, other, *more, **kwargs):
        if more or kwargs:
            if overload is None:
                raise TypeError(f"Tensor.{name}() takes 2 positional arguments but {2 + len(more)} were given"
                                if more else f"Tensor.{name}() got an unexpected keyword argument "
                                f"'{next(iter(kwargs))}'")
            return getattr(self, overload)(other, *more, **kwargs)
        if isinstance(other, Tensor):       # the common cases first
            a, b = self._data, other._data
        elif type(other) is int or type(other) is float:   # _operand's rules for them
            a = self._data
            b = other if type(other) is int or _inexact(a.dtype) else np.float32(other)
        else:
            if not isinstance(other, (numbers.Number, list, tuple, np.ndarray, np.generic)) and \
                    not hasattr(other, "__array__") and not isinstance(other, jax.Array):
                if not reflect and not isinstance(other, str) and hasattr(type(other), f"__r{op_name}__"):
                    return NotImplemented   # the operand's reflected method decides (COOTensor; not str's *)
                if (err := _bad_operand(op_name, reflect, other)) is None:
                    return NotImplemented
                raise err
            if type(other) is complex:  # MindSpore's arithmetic signatures take no Python complex
                raise TypeError(f"Failed calling {op_name.capitalize()} with \"{op_name.capitalize()}()(input=Tensor, "
                                "other=<class 'complex'>)\": a Python complex scalar is not a valid operand; "
                                "use Tensor(value, mindspore.complex64).")
            if seq and isinstance(other, (tuple, list)):    # ``seq``: MindSpore's op that takes no sequence
                raise TypeError(f'Failed calling {seq} with "{seq}()(input=Tensor, other={_seq_type(other)})".\nThe '
                                f'valid calling should be: \n"{seq}()(input=<Number, Tensor>, other=<Number, Tensor>)".\n')
            a = self._data
            b = _operand(other, a)
        try:
            out = kernel(b, a) if reflect else kernel(a, b)
        except TypeError as e:
            if "incompatible shapes" in str(e):
                raise broadcast_error(op_name, a, b) from None
            raise
        return wrap(out)
    method.__name__ = name
    return method


def _round_kernel(x):
    return jnp.where(jnp.isnan(x), jnp.array(jnp.nan, x.dtype), x)


_round_kernel.__name__ = "msjax_rounded"    # the writers' rule: an identity (MindSpore's nodes round anyway)
_ROUND = jax.jit(_round_kernel)


def rounded(x):
    """``x`` (a product) rounded to its dtype before it meets an addition: in a trace, XLA:CPU contracts
    ``a * b + c`` into a fused multiply-add (one rounding; no XLA option stops it) where MindSpore's
    kernels (``Mul`` then ``Add``) round the product. A select that only ever takes ``x`` sits between."""
    return _ROUND(x) if isinstance(x, jax.core.Tracer) and jnp.issubdtype(x.dtype, jnp.floating) else x


def _mul(a, b):
    return rounded(jnp.multiply(a, b))


def _sub(a, b):
    """Bool - Bool stays Bool in MindSpore (nonzero difference is True)."""
    if jnp.result_type(a) == jnp.bool_ and jnp.result_type(b) == jnp.bool_:
        return jnp.not_equal(a, b)
    return jnp.subtract(a, b)


def _pow(a, b):
    """Integer powers with MindSpore's results for negative exponents (``2 ** -1`` is 0)."""
    if jnp.issubdtype(jnp.result_type(a, b), jnp.integer):
        return provided.need("int_pow")(a, b)
    return jnp.power(a, b)


def _truediv(a, b):
    a_int = not jnp.issubdtype(jnp.result_type(a), jnp.inexact)
    b_int = not jnp.issubdtype(jnp.result_type(b), jnp.inexact)
    if a_int and b_int:
        a, b = jnp.asarray(a, jnp.float32), jnp.asarray(b, jnp.float32)
    return provided.need("true_divide")(a, b)     # elementwise by a broadcast divisor, as MindSpore's kernel


class _MindSporeClass(type):
    """Prints a class by its MindSpore path (``type(x)``: ``<class 'mindspore.common.tensor.Tensor'>``)."""

    def __repr__(cls):
        return f"<class '{cls.__dict__['_ms_path']}'>" if "_ms_path" in cls.__dict__ else super().__repr__()


class Tensor(metaclass=_MindSporeClass):
    """MindSpore's Tensor on a ``jax.Array``; ``type(t)`` prints MindSpore's class path.

    ``Tensor(input_data=None, dtype=None, shape=None, init=None)``: with ``init``
    (an initializer) and ``shape`` the value is created immediately (MindSpore
    creates it lazily); ``init`` is kept until ``init_data()`` or ``asnumpy()``
    clears it, so ``has_init``, the errors and the ``<uninitialized>`` text match.
    """

    init = None  # the initializer a Tensor was created with, until ``init_data()``
    _ms_path = "mindspore.common.tensor.Tensor"

    __array_priority__ = 100

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        """A NumPy ufunc or operator with a Tensor (``ndarray + t``, ``np.abs(t)``) gives an ndarray, as
        MindSpore's Tensor (NumPy reads it through ``__array__``); on a traced Tensor (inside ``ms.jit``
        or a gradient) it is ``jax.numpy``'s function of the same name, a Tensor."""
        if any(isinstance(i, Tensor) and isinstance(i._data, jax.core.Tracer) for i in inputs):
            fn = getattr(jnp, ufunc.__name__, None)
            if fn is None or method != "__call__" or kwargs:
                return NotImplemented
            return wrap(fn(*(i._data if isinstance(i, Tensor) else i for i in inputs)))
        return getattr(ufunc, method)(*(i.asnumpy() if isinstance(i, Tensor) else i for i in inputs), **kwargs)

    def __init__(self, input_data=None, dtype=None, shape=None, init=None, internal=False,
                 const_arg=False, device=None):
        if dtype is not None and not isinstance(dtype, mstype.Type):   # a numpy dtype, str, Python type
            raise TypeError("For 'Tensor', the 'dtype' should be one of [" + ", ".join("mindspore." + n for n in (
                "int8 int16 int32 int64 uint8 uint16 uint32 uint64 float16 float32 float64 bfloat16 complex64 complex128 "
                "int4 float8_e4m3fn float8_e5m2 hifloat8 bool string_").split()) + "], but got "
                f"'{dtype.__name__ if isinstance(dtype, type) else repr(dtype)}'.")
        if init is not None:
            if shape is None:
                raise ValueError("For 'Tensor', 'shape' must be set when 'init' is given.")
            self._data = provided.need("initializer")(init, shape, dtype or mstype.float32)._data
            self.init = init
            return
        if input_data is None:
            if shape is None and dtype is not None:     # dynamic rank (Cell.set_inputs)
                self._data = DynamicShape((-2,), as_dtype_np(dtype))
                return
            if shape is None:
                _infer_np(None)  # MindSpore's TypeError for an unsupported input_data
            shape = (shape,) if isinstance(shape, int) else tuple(shape)
            if any(dyn := [d is None or hasattr(d, "divisor") or d < 0 for d in shape]):  # None, a Symbol, -1
                if dtype is None:
                    raise ValueError("If setting dynamic shape, dtype must not be None, init must be None")
                self._data = DynamicShape(tuple(d if isinstance(d, int) else -1 for d in shape), as_dtype_np(dtype))
                return
            self._data = jnp.zeros(shape, as_dtype_np(dtype) or np.float32)
            return
        self._data = to_array(input_data, dtype)

    # --- basic attributes -------------------------------------------------
    @property
    def shape(self):
        return tuple(self._data.shape)

    @property
    def dtype(self):
        return mstype.from_np(self._data.dtype)

    @property
    def ndim(self):
        return self._data.ndim

    @property
    def size(self):
        return int(self._data.size)

    @property
    def itemsize(self):
        return self._data.dtype.itemsize

    @property
    def nbytes(self):
        return int(self._data.size) * self._data.dtype.itemsize

    @property
    def strides(self):
        item = self._data.dtype.itemsize
        return tuple(item * int(np.prod(self.shape[i + 1:], dtype=np.int64)) for i in range(self.ndim))

    @property
    def device(self):
        """Where the data lives, in MindSpore's words: ``'CPU'`` on the CPU; on an
        accelerator ``'<PLATFORM>:<id>'`` (``'GPU:0'``, like MindSpore's ``'Ascend:0'``;
        the GPU form is not checked against MindSpore)."""
        devices = getattr(self._data, "devices", None)
        dev = next(iter(devices())) if devices is not None and not _is_traced(self) else jax.devices()[0]
        if dev.platform == "cpu":
            return "CPU"
        return f"{'GPU' if dev.platform in ('gpu', 'cuda', 'rocm') else dev.platform.upper()}:{dev.id}"

    @property
    def T(self):   # in PyNative with the layout of MindSpore's view (ops/_impl/view_layout.py)
        return provided.need("view_layout")(wrap(jnp.transpose(self._data)), self, lambda a: a.T)

    @property
    def mT(self):
        return provided.need("view_layout")(wrap(jnp.swapaxes(self._data, -1, -2)), self, lambda a: a.swapaxes(-1, -2))

    @property
    def H(self):
        """The conjugate transpose of a 2-D Tensor."""
        return wrap(jnp.conj(self._data.T))

    @property
    def mH(self):
        """The conjugate transpose of the last two dimensions."""
        return wrap(jnp.conj(jnp.swapaxes(self._data, -1, -2)))

    @property
    def data(self):
        return self

    def init_data(self, slice_index=None, shape=None, opt_shard_group=None):
        """The Tensor itself, once: MindSpore's lazy initialisation (here the values already
        exist); a Tensor without ``init`` (or already initialised) raises ``TypeError``."""
        if self.init is None:
            raise TypeError("init_data must be set Tensor.init, init can't be None")
        self.init = None
        return self

    @property
    def has_init(self):
        return self.init is not None

    def asnumpy(self):
        _check_concrete(self, "asnumpy")
        self.__dict__.pop("init", None)   # MindSpore initialises a lazy Tensor here
        d = self._data      # spread over several processes (a sharded step's Parameter): this rank's slice
        a = np.array(d if getattr(d, "is_fully_addressable", True) else provided.need("local_view")(d))
        # MindSpore hands 64-bit integers over as C long long ('q'/'Q'), which NumPy prints
        # with its dtype (``array([1, 2], dtype=int64)``); jax gives C long ('l'/'L').
        return a.view(_LONG_LONG[a.dtype.char]) if a.dtype.char in _LONG_LONG else a

    numpy = asnumpy

    def __array__(self, dtype=None, copy=None):
        a = self.asnumpy()
        return a if dtype is None else a.astype(dtype)

    def item(self, index=None):
        _check_concrete(self, "item")
        a = np.asarray(self._data)
        if index is None and a.size != 1:
            raise ValueError(f"The tensor should have only one element, but got {a.size}, "
                             "more than one element is ambiguous.")
        return (a.item() if index is None else a.item(index))

    def tolist(self):
        return self.asnumpy().tolist()

    def astype(self, dtype, copy=True):
        return wrap(float_to_int.astype(self._data, mstype.to_np(dtype)))

    def to(self, *args, **kwargs):
        """``to(dtype=None, non_blocking=False, copy=False)``, ``to(device, dtype=None, ...)`` or
        ``to(other, ...)``: a new Tensor cast to ``dtype`` (``other``'s dtype; the same dtype when
        ``None``). ``device`` is one of MindSpore's names; XLA places the data, so 'CPU',
        'cpu' and 'meta' are accepted as they are, 'Ascend'/'npu' raise as MindSpore does
        without an Ascend device. ``non_blocking``/``copy`` are type-checked only."""
        first = args[0] if args else kwargs.get("device", kwargs.get("other"))
        names = ("device", "dtype", "non_blocking", "copy") if isinstance(first, str) else \
            ("other", "non_blocking", "copy") if isinstance(first, Tensor) else ("dtype", "non_blocking", "copy")
        bound = dict(zip(names, args))
        types = {"device": (str, type(None)), "dtype": (mstype.Type, type(None)), "other": Tensor,
                 "non_blocking": bool, "copy": bool}
        if len(args) > len(names) or any(k in bound or k not in names for k in kwargs) or \
                any(not isinstance(v, types[k]) for k, v in {**bound, **kwargs}.items()):
            got = ", ".join([type(a).__name__ for a in args] + [f"{k}={type(v).__name__}" for k, v in kwargs.items()])
            raise TypeError(f'Failed calling to with "to({got})". The valid calling should be: "Tensor.to('
                            'device=<None, string>, dtype=<None, mstype>, non_blocking=<bool>, copy=<bool>)" or '
                            '"Tensor.to(dtype=<None, mstype>, non_blocking=<bool>, copy=<bool>)" or '
                            '"Tensor.to(other=<Tensor>, non_blocking=<bool>, copy=<bool>)".')
        bound.update(kwargs)
        device = bound.get("device")
        dtype = bound["other"].dtype if "other" in bound else bound.get("dtype")
        if device in ("Ascend", "npu"):
            raise RuntimeError(f"Create device context failed: msjax has no Ascend device ('{device}'); "
                               "XLA places the data on JAX's default backend.")
        if device is not None and device not in ("CPU", "cpu", "meta"):
            raise ValueError(f'Failed to convert the value "{device}" of input \'device\' of \'to\' to enum.')
        return self.astype(self.dtype if dtype is None else dtype)

    def float(self):
        return self.astype(mstype.float32)

    def half(self):
        return self.astype(mstype.float16)

    def int(self):
        return self.astype(mstype.int32)

    def long(self):
        return self.astype(mstype.int64)

    def bool(self):
        return self.astype(mstype.bool_)

    def double(self):
        return self.astype(mstype.float64)

    def copy(self):
        return wrap(self._data)

    def clone(self):
        return wrap(self._data)

    def is_floating_point(self):
        return self.dtype.kind == "float"

    def dim(self):
        return self.ndim

    def numel(self):
        return self.size

    def nelement(self):
        return self.size

    def set_dtype(self, dtype):
        self._data = float_to_int.astype(self._data, mstype.to_np(dtype))
        return self

    def assign_value(self, value):
        self._data = to_array(value, self.dtype)
        return self

    # --- text --------------------------------------------------------------
    def __repr__(self):
        if isinstance(self._data, DynamicShape):
            return f"Tensor(shape={list(self.shape)}, dtype={self.dtype}, value=" + \
                (" )" if self._data.shape == (-2,) else "\n)")
        if _is_traced(self):
            return f"Tensor(shape={list(self.shape)}, dtype={self.dtype}, value=<traced>)"
        if self.__dict__.get("_host_repr"):   # made from a numpy array (from_numpy, dataset iterators)
            return printing.host_tensor_repr(np.asarray(self._data), self.dtype)
        return printing.tensor_repr(np.asarray(self._data), self.dtype)

    def __str__(self):
        if self.init is not None:   # lazy in MindSpore until init_data() or asnumpy()
            return printing.head(self._data, self.dtype, "") + "<uninitialized>)"
        if _is_traced(self):
            return self.__repr__()
        return printing.tensor_str(np.asarray(self._data))

    def __format__(self, spec):
        if self.ndim == 0 and spec:
            return format(self.item(), spec)
        return format(str(self), spec)

    # --- Python protocol ----------------------------------------------------
    __hash__ = object.__hash__

    def register_hook(self, hook_fn):
        """``hook_fn(grad)`` sees, and by returning a Tensor replaces, this Tensor's
        gradient in the backward pass; returns a handle with ``remove()``. Works in
        PyNative and inside ``ms.jit``/GRAPH_MODE (MindSpore's GRAPH_MODE ignores Tensor
        hooks); on a value computed inside a differentiated function the hook covers
        the uses after the registration (see ``_core.hooks``)."""
        return provided.need("register_tensor_hook")(self, hook_fn)

    def hooks(self):
        """The hook functions registered on this Tensor, oldest first (a list)."""
        return list(self.__dict__.get("_ms_grad_hooks", {}).values())

    def _raw_get(self):     # a plain Tensor as transform state: a Cell attribute assigned inside a trace
        return self._data

    def _raw_set(self, value):
        self._data = value

    def __len__(self):
        if self.ndim == 0:
            raise TypeError("Not support len of a 0-D tensor")
        return self._data.shape[0]

    def __iter__(self):
        if self.ndim == 0:   # MindSpore's graph (sum, zip) and PyNative messages
            raise TypeError("'Cannot iterate over a scalar tensor.'" if isinstance(self._data, jax.core.Tracer) or
                            state.compiled() and state.in_transform() else "iteration over a 0-d tensor")
        return (wrap(self._data[i]) for i in range(self._data.shape[0]))

    def __bool__(self):
        if isinstance(self._data, jax.core.Tracer) and self._data.shape not in ((), (1,)):   # MindSpore's graph
            raise ValueError("Only tensor which shape is () or (1,) can be converted to bool, but got tensor shape "
                             f"is ({', '.join(map(str, self._data.shape))})")
        if self.size != 1:
            raise ValueError(f"The tensor should have only one element, but got {self.size}, "
                             "more than one element is ambiguous.")
        return bool(self._data)

    def _one_element(self):   # int(Tensor([10])) is 10
        if self.size != 1:
            raise ValueError("Only one element tensors can be converted to Python scalars")
        return self._data.reshape(())

    def __float__(self):
        return float(self._one_element())

    def __int__(self):
        return int(self._one_element())

    def __index__(self):
        if self.dtype.kind not in ("int", "uint") or self.size != 1:
            raise ValueError("Only integer tensors of a single element can be converted to an index.")
        return int(self._one_element())

    def __complex__(self):
        return complex(self._one_element())

    def __getitem__(self, index):
        _check_index(self._data.shape, index)
        return wrap(self._data[_index(index, self._data.shape)])

    def __setitem__(self, index, value):
        _check_index(self._data.shape, index, True)
        v = jnp.asarray(jax.tree_util.tree_map(lambda e: e._data if isinstance(e, Tensor) else e, value,   # traced items
                                               is_leaf=lambda e: isinstance(e, Tensor)), self._data.dtype)
        if index is Ellipsis and v.ndim > self._data.ndim:   # MindSpore reshapes a value of higher rank
            if v.size != self._data.size:
                raise ValueError(f"proposed_shape {list(self._data.shape)} is invalid for input of size {v.size}")
            v = v.reshape(self._data.shape)
        self._data = self._data.at[_index(index, self._data.shape)].set(v)

    def __contains__(self, value):
        return bool(jnp.any(self._data == _operand(value, self._data)))

    def __reduce__(self):
        return (Tensor, (self.asnumpy(),))

    def __deepcopy__(self, memo):
        return wrap(self._data)

    def __copy__(self):
        return wrap(self._data)

    # --- operators ------------------------------------------------------------
    __add__ = _binary(jnp.add, "__add__", overload="add")
    __radd__ = _binary(jnp.add, "__radd__", True)
    __sub__ = _binary(_sub, "__sub__", overload="sub")
    __rsub__ = _binary(_sub, "__rsub__", True)
    __mul__ = _binary(_mul, "__mul__", seq="Mul")
    __rmul__ = _binary(_mul, "__rmul__", True, "Mul")
    __truediv__ = _binary(_truediv, "__truediv__")
    __rtruediv__ = _binary(_truediv, "__rtruediv__", True, "Mul")
    __floordiv__ = _binary(jnp.floor_divide, "__floordiv__")
    __rfloordiv__ = _binary(jnp.floor_divide, "__rfloordiv__", True)
    __mod__ = _binary(jnp.mod, "__mod__")
    __rmod__ = _binary(jnp.mod, "__rmod__", True)
    __pow__ = _binary(_pow, "__pow__")
    __rpow__ = _binary(_pow, "__rpow__", True)
    __matmul__ = _binary(jnp.matmul, "__matmul__")
    __rmatmul__ = _binary(jnp.matmul, "__rmatmul__", True)
    __and__ = _binary(jnp.bitwise_and, "__and__")
    __rand__ = _binary(jnp.bitwise_and, "__rand__", True)
    __or__ = _binary(jnp.bitwise_or, "__or__")
    __ror__ = _binary(jnp.bitwise_or, "__ror__", True)
    __xor__ = _binary(jnp.bitwise_xor, "__xor__")
    __rxor__ = _binary(jnp.bitwise_xor, "__rxor__", True)
    __lt__ = _binary(jnp.less, "__lt__")
    __le__ = _binary(jnp.less_equal, "__le__")
    __gt__ = _binary(jnp.greater, "__gt__")
    __ge__ = _binary(jnp.greater_equal, "__ge__")

    def __eq__(self, other):
        if not isinstance(other, (int, float, bool, Tensor, np.ndarray, np.generic)):
            return False
        return wrap(jnp.equal(self._data, _operand(other, self._data)))

    def __ne__(self, other):
        if not isinstance(other, (int, float, bool, Tensor, np.ndarray, np.generic)):
            return True
        return wrap(jnp.not_equal(self._data, _operand(other, self._data)))

    def __neg__(self):
        if self._data.dtype == jnp.bool_:
            raise TypeError("For 'Neg', the input must be a number Tensor, but got Bool.")
        return wrap(jnp.negative(self._data))

    def __pos__(self):
        return wrap(self._data)

    def __abs__(self):
        return wrap(jnp.abs(self._data))

    def __invert__(self):   # MindSpore's ``~`` is LogicalNot on every dtype (``~Tensor([1, 0])`` is [False, True])
        return wrap(jnp.logical_not(self._data))

    # ``x += y``: MindSpore 2.10's PyNative binds x to a new Tensor (the operand, a Parameter too, keeps its
    # value); compiled code (ms.jit, a GRAPH_MODE call) rebinds the slot (Parameters write through their setter).
    def _augmented(self, result):   # compiled in place unless compile_config.JIT_ENABLE_AUGASSIGN_INPLACE = '0'
        inplace = provided.lent("augassign_inplace")
        if not (state.COMPILED_SCOPE[0] > 0 or state.frames and state.compiled()) or inplace and not inplace():
            return result
        self._data = result._data
        return self

    def __iadd__(self, other, *more, **kwargs):     # ``alpha=``: MindSpore's __iadd__ is Tensor.add
        return self._augmented(self.__add__(other, *more, **kwargs))

    def __isub__(self, other, *more, **kwargs):
        return self._augmented(self.__sub__(other, *more, **kwargs))

    def __imul__(self, other):
        return self._augmented(self * other)

    def __itruediv__(self, other):
        return self._augmented(self / other)


def _index(index, shape):
    """The index as JAX reads it (MindSpore's rules, lent by ``msjax.ops``)."""
    return provided.need("normalize_index")(index, shape)


def _check_index(shape, index, setting=False):
    """JAX clamps or wraps what MindSpore rejects (the check is lent by ``msjax.ops``)."""
    provided.need("check_index")(shape, index, setting)


def _is_traced(t):
    return isinstance(t._data, jax.core.Tracer)


class TracedValueError(RuntimeError, jax.errors.ConcretizationTypeError):
    """A concretization error: ``ms.jit``/GRAPH_MODE then run uncompiled (MindSpore's JIT Fallback)."""


def _check_concrete(t, what):
    if _is_traced(t):
        raise TracedValueError(
            f"Tensor.{what}() needs a concrete value, but this Tensor is being traced "
            "(a gradient function or vmap). Move the call outside that function.")


jax.tree_util.register_pytree_node(
    Tensor, lambda t: ((t._data,), None), lambda _, c: wrap(c[0]))
