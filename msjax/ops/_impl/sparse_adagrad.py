"""``ops.SparseApplyAdagrad`` and ``ops.SparseApplyAdagradV2`` (both deprecated in MindSpore): Adagrad on
the rows of ``var`` and ``accum`` that ``indices`` names, as MindSpore 2.10's CPU kernels compute it::

    accum[i] += grad * grad        (if update_slots)
    var[i]   -= lr * grad / sqrt(accum[i])               (SparseApplyAdagrad)
    var[i]   -= lr * grad / (sqrt(accum[i]) + epsilon)   (SparseApplyAdagradV2)

``var`` and ``accum`` are updated in place; the op returns their new values ``(var, accum)``.

Index handling differs between the two kernels, and msjax follows each: ``SparseApplyAdagrad`` adds
the gradients of a repeated index first and skips an index outside ``[0, var.shape[0])``;
``SparseApplyAdagradV2`` raises ``RuntimeError`` for such an index (MindSpore's kernel throws it from a
worker thread and the process aborts). Differences from MindSpore: for a repeated index
``SparseApplyAdagradV2``'s result is documented as unpredictable (its kernel applies the rows one after
another in thread order); msjax adds their gradients first, as ``SparseApplyAdagrad``. With float16
inputs MindSpore returns the updated values but leaves the float16 Parameters as they were; msjax
updates them."""
from __future__ import annotations

import jax.numpy as jnp

from ... import _checkparam as _v
from ..._core import dtype as mstype
from ..._core.registry import op
from ._util import Tensor, arr, wrap
from .index_checks import check_values


def _check_v1(lr, update_slots=True, use_locking=False):
    _v.check_is_float(lr, "lr", "SparseApplyAdagrad")
    _v.check_value_type("update_slots", update_slots, [bool], "SparseApplyAdagrad")
    _v.check_value_type("use_locking", use_locking, [bool], "SparseApplyAdagrad")


def _check_v2(lr, epsilon, use_locking=False, update_slots=True):
    _v.check_value_type("lr", lr, [float], "SparseApplyAdagradV2")
    _v.check_value_type("epsilon", epsilon, [float], "SparseApplyAdagradV2")
    _v.check_value_type("update_slots", update_slots, [bool], "SparseApplyAdagradV2")
    _v.check_value_type("use_locking", use_locking, [bool], "SparseApplyAdagradV2")


def _vec(shape):
    return "[const vector]{" + ", ".join(map(str, shape)) + "}"


def _inputs(name, var, accum, grad, indices):
    """The arrays after MindSpore's infer checks (its messages)."""
    arrays = {}
    for arg, t in (("var", var), ("accum", accum), ("grad", grad)):
        a = arr(t)
        if a.dtype not in (jnp.float16, jnp.float32):
            ref = "Ref[" if arg != "grad" and isinstance(t, Tensor) and getattr(t, "name", None) else ""
            shown = f"{ref}Tensor[{mstype.from_np(a.dtype)}]{']' if ref else ''}"
            raise TypeError(f"For primitive[{name}], the input argument[{arg}] must be a type of "
                            f"{{Tensor[Float16], Tensor[Float32]}}, but got {shown}.")
        arrays[arg] = a
    w, a, g = arrays["var"], arrays["accum"], arrays["grad"]
    idx = arr(indices)
    if idx.dtype not in (jnp.int32, jnp.int64):
        raise TypeError(f"For primitive[{name}], the input argument[indices] must be a type of {{Int32, Int64, "
                        f"Tensor[Int32], Tensor[Int64]}}, but got Tensor[{mstype.from_np(idx.dtype)}].")
    if w.shape != a.shape:
        raise ValueError(f"For primitive[{name}], the var_shape must be equal to accum_shape which is "
                         f"{_vec(a.shape)} , but got {_vec(w.shape)}.")
    if w.shape[1:] != g.shape[1:]:
        raise ValueError(f"For primitive[{name}], the var_shape[1:] must be equal to grad_shape[1:] which is "
                         f"{_vec(g.shape[1:])} , but got {_vec(w.shape[1:])}.")
    if idx.ndim != 1:
        raise ValueError(f"For primitive[{name}], the indices dimension must be equal to 1, but got {idx.ndim}.")
    if idx.shape[0] != g.shape[0]:
        raise ValueError(f"For '{name}', the indices size must be equal to grad first dimension size. But got "
                         f"indices size: {idx.shape[0]}, grad first dimension size: {g.shape[0]}.")
    return w, a, g, idx


def _step(name, var, accum, grad, indices, lr, epsilon, update_slots):
    w, a, g, idx = _inputs(name, var, accum, grad, indices)
    n = w.shape[0]
    if epsilon is not None:
        check_values(idx, 0, n, [("RuntimeError", f"For '{name}', each element in 'indices' must be in range "
                                                  f"[0, {n}), but got {{0}}")])
    dt = w.dtype
    w32, a32 = w.astype(jnp.float32), a.astype(jnp.float32)
    rows = jnp.where((idx >= 0) & (idx < n), idx, n)            # out of range: dropped
    gs = jnp.zeros_like(w32).at[rows].add(g.astype(jnp.float32), mode="drop")
    hit = jnp.zeros((n,), bool).at[rows].set(True, mode="drop").reshape((n,) + (1,) * (w.ndim - 1))
    a_new = a32 + gs * gs if update_slots else a32
    denom = jnp.sqrt(a_new) if epsilon is None else jnp.sqrt(a_new) + jnp.float32(epsilon)
    w_new = jnp.where(hit, w32 - jnp.float32(lr) * gs / denom, w32).astype(dt)
    a_new = jnp.where(hit, a_new, a32).astype(dt)
    for t, value in ((var, w_new), (accum, a_new)):
        if isinstance(t, Tensor):
            t._data = value
    return wrap(w_new), wrap(a_new)


@op("prim_sparse_apply_adagrad", primitive="SparseApplyAdagrad", prim_args=("lr", "update_slots", "use_locking"),
    family="optim", prim_check=_check_v1)
def sparse_apply_adagrad(var, accum, grad, indices, lr, update_slots=True, use_locking=False):
    """``ops.SparseApplyAdagrad(lr, update_slots=True, use_locking=False)(var, accum, grad, indices)``
    (module docstring)."""
    return _step("SparseApplyAdagrad", var, accum, grad, indices, lr, None, update_slots)


@op("prim_sparse_apply_adagrad_v2", primitive="SparseApplyAdagradV2",
    prim_args=("lr", "epsilon", "use_locking", "update_slots"), family="optim", prim_check=_check_v2)
def sparse_apply_adagrad_v2(var, accum, grad, indices, lr, epsilon, use_locking=False, update_slots=True):
    """``ops.SparseApplyAdagradV2(lr, epsilon, use_locking=False, update_slots=True)(var, accum, grad,
    indices)`` (module docstring)."""
    return _step("SparseApplyAdagradV2", var, accum, grad, indices, lr, epsilon, update_slots)
