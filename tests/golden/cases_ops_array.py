"""Golden cases for the array ops: shape and layout, indexing (gather/scatter),
creation, state (assign & co) and the functional plumbing (HyperMap, vmap, ...).

Each ``case_<name>(ms)`` uses only the module passed in (``mindspore`` or ``msjax``).
Many cases bundle several small results in a dict; each ``_try(...)`` entry is an
expected error, recorded as a case of its own (``<case>__err<k>``). ``_cell`` runs an op inside a Cell's ``construct`` (compiled by msjax in
GRAPH_MODE). Random ops are tested by distribution in ``tests/test_random_ops.py``.
"""
import numpy as np


class _Skip:
    """Placeholder for an error check while the main case runs."""


_TRY = {"target": None, "count": 0}


def _try(f):
    """An expected error. The main case leaves it out; ``case_<name>__err<k>`` runs the
    setup again and raises the k-th error (MindSpore's PyNative executor misbehaves
    after a caught error, so each error gets its own fresh process when recording)."""
    _TRY["count"] += 1
    if _TRY["target"] == _TRY["count"]:
        return f()
    return _Skip


def _strip(result):
    if isinstance(result, dict):
        return {k: v for k, v in result.items() if v is not _Skip}
    return result


def _cell(ms, fn):
    class Net(ms.nn.Cell):
        def construct(self, *args):
            return fn(*args)
    return Net()


def _x234(ms):
    return ms.Tensor(np.arange(24).reshape(2, 3, 4).astype(np.float32))


def _rand(ms, *shape, seed=0):
    return ms.Tensor(np.random.RandomState(seed).randn(*shape).astype(np.float32))


# ===========================================================================
# shape and layout
# ===========================================================================
def case_reshape(ms):
    ops, T = ms.ops, ms.Tensor
    x = _x234(ms)
    return {
        "bad_size": _try(lambda: ops.reshape(x, (5, -1))),
        "two_infer": _try(lambda: ops.reshape(x, (-1, -1))),
        "float_dim": _try(lambda: ops.reshape(x, (6.0, 4))),
        "fn": ops.reshape(x, (4, -1)),
        "list": ops.reshape(x, [6, 4]),
        "tensor_shape": ops.reshape(x, T([6, 4])),
        "prim": ops.Reshape()(x, (2, 12)),
        "method": x.reshape(6, 4),
        "method_tuple": x.reshape((3, 8)),
        "view": x.view(6, 4),
        "view_tuple": x.view((2, -1)),
        "view_dtype": x.view(ms.int32),
        "view_as": x.view_as(T(np.zeros((4, 6)))),
        "cell": _cell(ms, lambda a: ops.reshape(a, (4, 6)) * 2)(x),
    }


def case_reshape_grad(ms):
    ops = ms.ops
    x = _x234(ms)
    w = _rand(ms, 6, 4)

    def f(a, b):
        return (ops.reshape(a, (6, 4)) * b).sum() + (a.view(4, 6) ** 2).sum()
    return ms.grad(f, grad_position=(0, 1))(x, w)


def case_squeeze_expand(ms):
    ops, T = ms.ops, ms.Tensor
    x = T(np.arange(3).reshape(1, 3, 1).astype(np.float32))
    return {
        "squeeze_oob": _try(lambda: ops.squeeze(x, 5)),
        "expand_oob": _try(lambda: ops.expand_dims(x, 5)),
        "unsqueeze_oob": _try(lambda: ops.unsqueeze(x, -5)),
        "method_two": _try(lambda: x.squeeze(0, 2)),
        "all": ops.squeeze(x),
        "non1_axis": ops.squeeze(x, 1),
        "tuple": ops.squeeze(x, (0, 2)),
        "prim": ops.Squeeze(2)(x),
        "prim_all": ops.Squeeze()(x),
        "method": x.squeeze(0),
        "method_none": x.squeeze(),
        "expand": ops.expand_dims(x, -1),
        "expand0": ops.ExpandDims()(x, 0),
        "method_expand": x.expand_dims(1),
        "unsqueeze": ops.unsqueeze(x, 3),
        "method_unsqueeze": x.unsqueeze(-2),
        "cell": _cell(ms, lambda a: ops.expand_dims(ops.squeeze(a), 0))(x),
    }


def case_transpose(ms):
    ops = ms.ops
    x = _x234(ms)
    return {
        "bad_len": _try(lambda: ops.transpose(x, (1, 0))),
        "dup": _try(lambda: ops.transpose(x, (1, 1, 0))),
        "oob": _try(lambda: ops.transpose(x, (0, 1, 5))),
        "fn": ops.transpose(x, (2, 0, 1)),
        "neg": ops.transpose(x, (-1, 0, 1)),
        "prim": ops.Transpose()(x, (1, 2, 0)),
        "method_swap": x.transpose(0, 2),
        "method_perm": x.transpose(2, 0, 1),
        "method_tuple": x.transpose((1, 0, 2)),
        "method_rev": x.transpose(),
        "permute": ops.permute(x, (2, 0, 1)),
        "method_permute": x.permute(1, 2, 0),
        "method_permute_tuple": x.permute((2, 1, 0)),
        "swapaxes": ops.swapaxes(x, 0, 1),
    }


def case_transpose_grad(ms):
    ops = ms.ops
    x = _x234(ms)
    w = _rand(ms, 4, 2, 3)

    def f(a, b):
        return (ops.transpose(a, (2, 0, 1)) * b).sum() + (a.permute(1, 0, 2) * 3).sum()
    return ms.grad(f, grad_position=(0, 1))(x, w)


def case_flatten(ms):
    ops, T = ms.ops, ms.Tensor
    x = _x234(ms)
    return {
        "bad_order": _try(lambda: ops.flatten(x, "X")),
        "fn": ops.flatten(x),
        "start0": ops.flatten(x, start_dim=0, end_dim=1),
        "end": ops.flatten(x, start_dim=1, end_dim=2),
        "order_f": ops.flatten(x, "F"),
        "scalar": ops.flatten(T(1.5)),
        "vector": ops.flatten(T([1.0, 2.0])),
        "prim": ops.Flatten()(x),
        "prim_1d": ops.Flatten()(T([1.0, 2.0])),
        "method": x.flatten(),
        "method_start": x.flatten(1),
        "method_f": x.flatten("F"),
        "method_kw": x.flatten(start_dim=1, end_dim=2),
        "cell": _cell(ms, lambda a: ops.Flatten()(a) + 1)(x),
    }


def case_broadcast_tile_repeat(ms):
    ops, T = ms.ops, ms.Tensor
    v = T([1.0, 2.0])
    m = T([[1, 2]])
    return {
        "broadcast_bad": _try(lambda: ops.broadcast_to(v, (3, 3))),
        "broadcast": ops.broadcast_to(v, (3, -1)),
        "broadcast_prim": ops.BroadcastTo((2, 2))(v),
        "broadcast_method": v.broadcast_to((2, 2)),
        "broadcast_method_args": v.broadcast_to(2, 2),
        "tile": ops.tile(m, (2, 2)),
        "tile_short": ops.tile(m, (2,)),
        "tile_long": ops.tile(T([1, 2]), (2, 1, 2)),
        "tile_prim": ops.Tile()(T([1, 2]), (2,)),
        "tile_method": T([1, 2]).tile((2,)),
        "tile_method_args": T([1, 2]).tile(2, 2),
        "repeat_elements": ops.repeat_elements(T([[1, 2], [3, 4]]), 2, 1),
        "repeat_elements_default": ops.repeat_elements(T([[1, 2], [3, 4]]), 3),
        "repeat_interleave": ops.repeat_interleave(T([[1, 2], [3, 4]]), 2),
        "repeat_interleave_axis": ops.repeat_interleave(T([[1, 2], [3, 4]]), 2, 0),
        "method_repeat_interleave": T([1, 2]).repeat_interleave(2),
        "cell": _cell(ms, lambda a: ops.tile(ops.broadcast_to(a, (2, 2)), (1, 2)))(v),
    }


def case_broadcast_tile_grad(ms):
    ops = ms.ops
    x = _rand(ms, 1, 3)
    w = _rand(ms, 4, 6, seed=1)

    def f(a, b):
        y = ops.tile(ops.broadcast_to(a, (2, 3)), (2, 2))
        z = ops.repeat_elements(a, 2, 1)
        return (y * b).sum() + (z * z).sum()
    return ms.grad(f, grad_position=(0, 1))(x, w)


def case_flip(ms):
    ops, T = ms.ops, ms.Tensor
    x = T([[1, 2], [3, 4]])
    return {
        "flip_int": _try(lambda: ops.flip(x, 1)),
        "prim_int": _try(lambda: ops.ReverseV2(1)(x)),
        "flip0": ops.flip(x, (0,)),
        "flip_list": ops.flip(x, [0, 1]),
        "method": x.flip((1,)),
        "prim": ops.ReverseV2((1,))(x),
        "prim_both": ops.ReverseV2([0, -1])(x),
        "grad": ms.grad(lambda a: (ops.flip(a, (1,)) * T([[1.0, 2.0], [3.0, 4.0]])).sum())(
            T([[1.0, 2.0], [3.0, 4.0]])),
    }


def case_concat_stack(ms):
    ops, T = ms.ops, ms.Tensor
    a = T([[1.0, 2.0], [3.0, 4.0]])
    b = T([[5.0, 6.0]])
    return {
        "concat_rank": _try(lambda: ops.concat([a, T([1.0, 2.0])])),
        "concat_shape": _try(lambda: ops.concat([a, T([[1.0, 2.0, 3.0]])])),
        "concat_axis_oob": _try(lambda: ops.concat([a, a], 2)),
        "concat_prim_args": _try(lambda: ops.Concat(1)(a, a)),
        "stack_dtype": _try(lambda: ops.stack((T([1], ms.int32), T([1.5])))),
        "stack_shape": _try(lambda: ops.stack((a, T([1.0, 2.0])))),
        "concat": ops.concat((a, b)),
        "concat_axis": ops.concat([a, a], 1),
        "concat_neg": ops.concat([a, a], -1),
        "cat": ops.cat((a, b), 0),
        "prim": ops.Concat(1)((a, a)),
        "prim_default": ops.Concat()((a, b)),
        "stack": ops.stack((a, a), 1),
        "stack_default": ops.stack([a, a]),
        "stack_prim": ops.Stack(1)((a, a)),
        "stack_prim_args": ops.Stack(-1)(a, a),
        "unstack": ops.unstack(a, 1),
        "unstack_prim": ops.Unstack()(a),
        "unstack_prim_num": ops.Unstack(0, 2)(a),
        "cell": _cell(ms, lambda p, q: ops.concat((ops.stack((p, p)), ops.stack((p, p))), 2))(a, b),
    }


def case_concat_stack_grad(ms):
    ops = ms.ops
    a = _rand(ms, 2, 3)
    b = _rand(ms, 1, 3, seed=1)
    w = _rand(ms, 3, 3, seed=2)

    def f(p, q):
        c = ops.concat((p, q * 2), 0)
        s = ops.stack((p, p * p), 1)
        u = ops.unstack(p, 1)
        return (c * w).sum() + s.sum() + (u[0] * u[2]).sum()
    return ms.grad(f, grad_position=(0, 1))(a, b)


def case_split_chunk(ms):
    ops, T = ms.ops, ms.Tensor
    v = T(np.arange(5.0).astype(np.float32))
    a = T([[1.0, 2.0], [3.0, 4.0]])
    return {
        "split_bad_sum": _try(lambda: ops.split(v, [1, 3])),
        "prim_indivisible": _try(lambda: ops.Split(0, 3)(v)),
        "chunk_zero": _try(lambda: ops.chunk(v, 0)),
        "split_int": ops.split(v, 2),
        "split_list": ops.split(v, [1, 4]),
        "split_axis": ops.split(a, 1, 1),
        "split_axis_kw": ops.split(a, 1, axis=1),
        "prim": ops.Split(1, 2)(a),
        "prim_default": ops.Split()(a),
        "method": a.split(1, 1),
        "method_dim": a.split(1, dim=1),
        "method_axis": a.split(1, axis=1),
        "chunk": ops.chunk(v, 2),
        "chunk3": ops.chunk(v, 3),
        "chunk4of6": ops.chunk(T(np.arange(6.0).astype(np.float32)), 4),
        "chunk_many": ops.chunk(T([1.0, 2.0]), 4),
        "chunk_method": a.chunk(2, 1),
        "chunk_method_dim": a.chunk(2, dim=1),
        "tensor_split": ops.tensor_split(v, 3),
        "tensor_split_idx": ops.tensor_split(v, [1, 3]),
        "cell": _cell(ms, lambda p: ops.Split(0, 2)(p)[1] * 2)(a),
    }


def case_split_grad(ms):
    ops = ms.ops
    x = _rand(ms, 4, 3)

    def f(a):
        p, q = ops.split(a, [1, 3])
        r = ops.Split(1, 3)(a)
        c = ops.chunk(a, 2)
        return (p * 2).sum() + (q * q).sum() + (r[1] * 3).sum() + (c[1] * 5).sum()
    return ms.grad(f)(x)


def case_slice(ms):
    ops, T = ms.ops, ms.Tensor
    m = T(np.arange(12.0).reshape(3, 4).astype(np.float32))
    x = _x234(ms)
    SS = ops.StridedSlice
    return {
        "slice_oob": _try(lambda: ops.Slice()(m, (1, 1), (3, 2))),
        "ss_zero_stride": _try(lambda: SS()(x, (1,), (2,), (0,))),
        "prim": ops.Slice()(m, (1, 1), (2, -1)),
        "fn": ops.slice(m, (1, 1), (2, 2)),
        "list": ops.Slice()(m, [0, 2], [3, 1]),
        "ss": SS()(x, (0, 1, 0), (2, 3, 4), (1, 1, 2)),
        "ss_neg": SS()(x, (1, -1, 3), (0, 0, 0), (-1, -1, -1)),
        "ss_begin_mask": SS(begin_mask=0b10)(x, (0, 2, 0), (2, 3, 4), (1, 1, 1)),
        "ss_end_mask": SS(end_mask=0b10)(x, (0, 1, 0), (2, 2, 4), (1, 1, 1)),
        "ss_shrink": SS(shrink_axis_mask=0b1)(x, (1, 0, 0), (2, 3, 4), (1, 1, 1)),
        "ss_new_axis": SS(new_axis_mask=0b1)(x, (0, 0, 0), (1, 3, 4), (1, 1, 1)),
        "ss_ellipsis": SS(ellipsis_mask=0b10)(x, (1, 0, 1), (2, 1, 3), (1, 1, 1)),
        "ss_ellipsis_last": SS(ellipsis_mask=0b10)(x, (1, 0), (2, 1), (1, 1)),
        "ss_short": SS()(x, (1,), (2,), (1,)),
        "strided_slice": ops.strided_slice(x, (0, 0, 0), (2, 3, 4), (1, 2, 3)),
        "narrow": ops.narrow(m, 1, 1, 2),
        "cell": _cell(ms, lambda a: SS(shrink_axis_mask=1)(a, (1, 0, 0), (2, 3, 4), (1, 1, 2)) * 2)(x),
    }


def case_slice_grad(ms):
    ops = ms.ops
    x = _x234(ms)

    def f(a):
        s = ops.StridedSlice()(a, (0, 1, 0), (2, 3, 4), (1, 1, 2))
        t = ops.Slice()(a, (1, 0, 1), (1, 2, 3))
        return (s * s).sum() + (t * 3).sum()
    return ms.grad(f)(x)


def case_meshgrid(ms):
    ops, T = ms.ops, ms.Tensor
    a, b = T([1, 2]), T([3, 4, 5])
    return {
        "bad_indexing": _try(lambda: ops.meshgrid(a, b, indexing="xx")),
        "tuple_arg": _try(lambda: ops.meshgrid((a, b))),
        "xy": ops.meshgrid(a, b),
        "ij": ops.meshgrid(a, b, indexing="ij"),
        "mixed_dtypes": _try(lambda: ops.meshgrid(a, T([6.0]))),
        "three": ops.meshgrid(a, b, T([6]), indexing="ij"),
        "prim": ops.Meshgrid()((a, b)),
        "prim_ij": ops.Meshgrid("ij")((a, b)),
    }


def case_resize(ms):
    T = ms.Tensor
    x = T([[1, 2], [3, 4]])
    return {
        "grow": x.resize(3, 3),
        "shrink": x.resize((1, 3)),
        "flat": x.resize(5),
        "float": T([[1.5, 2.5]]).resize(2, 2),
    }


def case_fold_unfold(ms):
    ops, T = ms.ops, ms.Tensor
    cols = T(np.arange(16.0).reshape(1, 4, 4).astype(np.float32))
    img = T(np.arange(18.0).reshape(1, 2, 3, 3).astype(np.float32))
    img5 = T(np.arange(50.0).reshape(1, 2, 5, 5).astype(np.float32))
    return {
        "fold": ops.fold(cols, T([3, 3], ms.int32), 2),
        "fold_list": ops.fold(cols, T([3, 3], ms.int32), [2, 2]),
        "fold_method": cols.fold(T([3, 3], ms.int32), 2),
        "fold_stride_pad": ops.fold(T(np.arange(36.0).reshape(1, 4, 9).astype(np.float32)),
                                    T([4, 4], ms.int32), 2, 1, 1, 2),
        "unfold": ops.unfold(img, 2),
        "unfold_args": ops.unfold(img5, 3, dilation=1, padding=1, stride=2),
        "unfold_dilation": ops.unfold(img5, 2, dilation=2),
    }


def case_fold_unfold_grad(ms):
    ops, T = ms.ops, ms.Tensor
    cols = _rand(ms, 1, 4, 4)
    img = _rand(ms, 1, 2, 3, 3, seed=1)
    w = _rand(ms, 1, 8, 4, seed=2)

    def f(c, i):
        return (ops.fold(c, T([3, 3], ms.int32), 2) ** 2).sum() + (ops.unfold(i, 2) * w).sum()
    return ms.grad(f, grad_position=(0, 1))(cols, img)


# ===========================================================================
# gather / index
# ===========================================================================
def case_gather(ms):
    ops, T = ms.ops, ms.Tensor
    a = T([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    return {
        "float_idx": _try(lambda: ops.gather(a, T([1.0, 0.0]), 1)),
        "int_idx": _try(lambda: ops.gather(a, 1, 1)),
        "axis1": ops.gather(a, T([2, 0], ms.int32), 1),
        "idx2d": ops.gather(a, T([[1, 0], [0, 0]]), 0),
        "neg": ops.gather(a, T([-1, 0]), 1),
        "batch_dims": ops.gather(a, T([[2, 0], [1, 1]]), 1, 1),
        "axis_tensor": ops.gather(a, T([2, 0]), T(1)),
        "scalar_idx": ops.gather(a, T(1), 0),
        "prim": ops.Gather()(a, T([2, 0]), 1),
        "prim_batch": ops.Gather(1)(a, T([[2, 0], [1, 1]]), 1),
        "method_old": a.gather(T([2, 0]), 1),
        "method_new": a.gather(1, T([[2, 0], [1, 1]])),
        "method_kw": a.gather(dim=1, index=T([[2, 0], [1, 1]])),
        "method_old_kw": a.gather(input_indices=T([2, 0]), axis=1),
        "cell": _cell(ms, lambda p, i: ops.gather(p, i, 0) * 2)(a, T([1, 1, 0])),
    }


def case_gather_grad(ms):
    ops, T = ms.ops, ms.Tensor
    a = _rand(ms, 3, 4)
    w = _rand(ms, 3, 3, seed=1)

    def f(p):
        g = ops.gather(p, T([2, 0, 2], ms.int32), 1)
        h = ops.gather(p, T([[1, 1], [0, 2]]), 0)
        return (g * w).sum() + (h * h).sum()
    return ms.grad(f)(a)


def case_gather_elements_nd(ms):
    ops, T = ms.ops, ms.Tensor
    a = T([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    return {
        "ge_oob": _try(lambda: ops.gather_elements(a, 1, T([[3, 0], [1, 1]]))),
        "ge_rank": _try(lambda: ops.gather_elements(a, 1, T([2, 0]))),
        "ge_float": _try(lambda: ops.gather_elements(a, 1, T([[2.0, 0.0], [1.0, 1.0]]))),
        "nd_oob": _try(lambda: ops.gather_nd(a, T([[5, 1]]))),
        "ge": ops.gather_elements(a, 1, T([[2, 0], [1, 1]])),
        "ge_small": ops.gather_elements(a, 1, T([[2], [1]])),
        "ge_dim0": ops.gather_elements(a, 0, T([[1, 0, 1]], ms.int32)),
        "ge_neg_idx": ops.gather_elements(a, 1, T([[-1, 0], [1, -3]])),
        "gather_d": ops.gather_d(a, 1, T([[2, 0], [1, 1]])),
        "GatherD": ops.GatherD()(a, -1, T([[2, 0], [1, 1]])),
        "method": a.gather_elements(1, T([[2, 0], [1, 1]])),
        "nd": ops.gather_nd(a, T([[0, 1], [1, 2]])),
        "nd_partial": ops.gather_nd(a, T([[1], [0]])),
        "nd_prim": ops.GatherNd()(a, T([[0, 1], [1, 2]], ms.int32)),
        "cell": _cell(ms, lambda p, i: ops.gather_nd(p, i) + ops.gather_elements(p, 0, i).sum())(
            a, T([[0, 1], [1, 0]])),
    }


def case_gather_elements_nd_grad(ms):
    ops, T = ms.ops, ms.Tensor
    a = _rand(ms, 2, 3)

    def f(p):
        g = ops.gather_elements(p, 1, T([[2, 0, 0], [1, 1, 2]]))
        n = ops.gather_nd(p, T([[0, 1], [1, 2], [0, 1]]))
        return (g * g).sum() + (n * 3).sum()
    return ms.grad(f)(a)


def case_index_list_with_tensors(ms):
    """A list index holding a Tensor is a tuple of indices (``x[[Tensor(1), 0]]`` is ``x[1, 0]``),
    getting and setting; a list of Python ints or bools stays an array index."""
    T = ms.Tensor
    out = {}
    for k, idx in enumerate(([T(1), 0], [T([0, 2]), 1], [T(0), T(1)], [0, T(2)],
                             [T(np.array([True, False, True])), 2], [1, 2], [True, False, True])):
        x = T(np.arange(12).reshape(3, 4), ms.float32)
        got = x[idx]
        x[idx] = -1
        out[f"i{k}"] = (got, x)
    return out


def _raised(f):
    """``f()``, or the name of the exception it raises (for errors inside a loop, where ``_try``'s
    one-error-per-occurrence bookkeeping does not apply)."""
    try:
        return f()
    except Exception as e:  # noqa: BLE001 - the type is the result
        return type(e).__name__


def case_index_python_bools_in_tuples(ms):
    """A Python bool among other items of a tuple index reads as NumPy's (setting through False
    sets nothing; getting through it raises); a tuple inside the tuple is an array index."""
    T = ms.Tensor
    x0 = np.arange(24).reshape(2, 3, 4).astype(np.float32)
    out = {}
    for k, idx in enumerate(((..., 2, False, 1), (0, True, 0, None, True), (..., 0, None, 1, True, True, None),
                             (None, True, [1, 0], (False, True, True), [2]), (..., (0, 1, 2), None, slice(None), True,
                                                                              None), (T(-1), True, slice(0, 1)))):
        x = T(x0)
        out[f"get{k}"] = _raised(lambda: x[idx])
        x[idx] = -1 - k
        out[f"set{k}"] = x
    out["false_alone"] = _try(lambda: T(x0)[False])
    out["false_list_get"] = _try(lambda: T(x0)[[False, False]])
    return out


def case_index_bool_tensor_shape_errors(ms):
    T = ms.Tensor
    a = T(np.arange(60).reshape(3, 4, 5), ms.float32)
    out = {}
    for k, m in enumerate((T([True, True]), T(np.ones((3, 5), bool)), T(np.ones((3, 4, 6), bool)),
                           T(np.ones((3, 4), bool)))):
        out[f"get{k}"] = _raised(lambda: a[m])

        def put():
            b = a.copy()
            b[m] = 1.0
            return b
        out[f"set{k}"] = _raised(put)
    out["first"] = _try(lambda: a[T([True, True])])
    return out


def case_tensor_itemset(ms):
    T = ms.Tensor
    t = T(np.arange(6).reshape(2, 3).astype(np.float32))
    out = {f"a{k}": _raised(lambda: t.itemset(*args))
           for k, args in enumerate(((), (1,), ((1, 2), 9), (4, 7), (0, 7.5), ((1,), 3), (6, 1), (-1, 2),
                                     ((-1, -1), 4), (1, 2, 3), ((1, 2), T(5.0))))}
    out["one"] = T(np.array([1.0], np.float32)).itemset(5.5)
    out["int"] = T(np.array([[3, 4]], np.int32)).itemset(1, 2.7)
    out["unchanged"] = t
    out["err"] = _try(lambda: t.itemset(1))
    return out


def case_index_select(ms):
    ops, T = ms.ops, ms.Tensor
    a = T([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    return {
        "idx_2d": _try(lambda: ops.index_select(a, 0, T([[1]]))),
        "idx_list": _try(lambda: ops.index_select(a, 0, [1])),
        "axis1": ops.index_select(a, 1, T([0, 2], ms.int32)),
        "axis0": ops.index_select(a, 0, T([1])),
        "dup": ops.index_select(a, 1, T([2, 2, 0])),
        "method": a.index_select(1, T([0, 2])),
        "method_dim": a.index_select(dim=1, index=T([0, 2])),
        "method_axis": a.index_select(axis=0, index=T([1, 0])),
        "grad": ms.grad(lambda p: (ops.index_select(p, 1, T([2, 2, 0])) ** 2).sum())(a),
        "cell": _cell(ms, lambda p, i: ops.index_select(p, 0, i))(a, T([1, 0, 1])),
    }


def case_index_add(ms):
    ops, T = ms.ops, ms.Tensor
    P = ms.Parameter
    y = T([[1.0, 1.0], [2.0, 2.0]])
    x = P(T([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]), name="x")
    r = ops.index_add(x, T([0, 2], ms.int32), y, 1) + 0
    t = T([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    r2 = ops.index_add(t, T([0, 0], ms.int32), y, 1) + 0
    t2 = T([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    r3 = t2.index_add(1, T([0, 2], ms.int32), y, alpha=2) + 0
    return {
        "i64_idx": _try(lambda: ops.index_add(T([[1.0, 2.0]]), T([0]), T([[5.0]]), 1)),
        "param_result": r, "param_after": x.value(),
        "tensor_dup": r2, "tensor_after": t,
        "method_new": r3,
        "method_old": T([[1.0, 2.0, 3.0]]).index_add(T([1], ms.int32), T([[5.0]]), 1),
        "int": ops.index_add(T([[1, 2, 3]], ms.int32), T([0], ms.int32), T([[5]], ms.int32), 1),
    }


def case_index_add_grad(ms):
    ops, T = ms.ops, ms.Tensor
    y = _rand(ms, 2, 2)

    def f(b):
        base = T(np.ones((2, 3), np.float32))
        return (ops.index_add(base, T([0, 2], ms.int32), b, 1) ** 2).sum()
    return ms.grad(f)(y)


def case_masked(ms):
    ops, T = ms.ops, ms.Tensor
    a = T([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    m = T([[True, False, True], [False, False, True]])
    return {
        "fill_int_mask": _try(lambda: ops.masked_fill(a, T([1, 0, 1]), 0.0)),
        "select": ops.masked_select(a, m),
        "select_bcast": ops.masked_select(a, T([True, False, True])),
        "select_method": a.masked_select(m),
        "fill": ops.masked_fill(a, m, 0.5),
        "fill_tensor": ops.masked_fill(a, m, T(7.0)),
        "fill_bcast": ops.masked_fill(a, T([True, False, True]), 0.0),
        "fill_prim": ops.MaskedFill()(a, m, T(0.0)),
        "fill_method": a.masked_fill(m, 9.0),
        "fill_grad": ms.grad(lambda p: (ops.masked_fill(p, m, 0.0) * p).sum())(a),
        "select_grad": ms.grad(lambda p: (ops.masked_select(p, m) ** 2).sum())(a),
        "fill_cell": _cell(ms, lambda p, q: ops.masked_fill(p, q, -1.0))(a, m),
    }


def case_select_where(ms):
    ops, T = ms.ops, ms.Tensor
    a = T([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    z = T(np.zeros((2, 3), np.float32))
    m = T([[True, False, True], [False, False, True]])
    return {
        "where_one_arg": _try(lambda: ops.where(m)),
        "select": ops.select(m, a, z),
        "select_scalar": ops.select(m, a, 0.0),
        "select_int_scalar": ops.select(m, a, 0),
        "select_scalar_first": ops.select(m, 1.0, a),
        "select_both_scalar": ops.select(m, 1.0, 0.0),
        "select_bcast": ops.select(T([True, False, True]), a, T([0.0, 0.0, 0.0])),
        "select_mixed": ops.select(m, a, T(np.zeros((2, 3), np.int32))),
        "prim": ops.Select()(m, a, z),
        "where": ops.where(m, a, 0.0),
        "where_f64": ops.where(m, T([1, 2, 3], ms.int32), T([1.0, 2.0, 3.0], ms.float64)),
        "where_int_scalar": ops.where(m, T([1, 2, 3], ms.int32), 5),
        "where_float_scalar": ops.where(m, T([1, 2, 3], ms.int32), 5.0),
        "method_where": a.where(m, 0.0),
        "method_select_cond": a.select(m, 0.0),
        "method_select_dim": a.select(1, 2),
        "method_select_neg": a.select(0, -1),
        "cell": _cell(ms, lambda c, p, q: ops.select(c, p, q) * 2)(m, a, z),
    }


def case_select_where_grad(ms):
    ops, T = ms.ops, ms.Tensor
    a = _rand(ms, 2, 3)
    b = _rand(ms, 2, 3, seed=1)
    m = T([[True, False, True], [False, False, True]])

    def f(p, q):
        return (ops.select(m, p * p, q) * 2).sum() + (ops.where(m, 1.0, q) * q).sum()
    return ms.grad(f, grad_position=(0, 1))(a, b)


def case_nonzero_unique(ms):
    ops, T = ms.ops, ms.Tensor
    return {
        "nonzero": ops.nonzero(T([[0, 1], [2, 0]])),
        "nonzero_float": ops.nonzero(T([0.0, 1.5, -2.0])),
        "nonzero_bool": ops.nonzero(T([[True, False, True]])),
        "nonzero_method": T([0.0, 1.5]).nonzero(),
        "argwhere": ops.argwhere(T([[0, 1], [2, 0]])),
        "unique": ops.unique(T([3, 1, 3, 2], ms.int32)),
        "unique_2d": ops.unique(T([[3, 1], [3, 2]])),
        "unique_float": ops.unique(T([3.0, 1.0, 3.0])),
        "unique_i8": ops.unique(T([1, 1, 0], ms.int8)),
        "unique_prim": ops.Unique()(T([3, 1, 3, 2])),
        "unique_consecutive": ops.unique_consecutive(T([1, 1, 2, 2, 3, 1, 1, 2]), True, True),
        "cell": _cell(ms, lambda p: ops.nonzero(p))(T([[0, 1], [2, 0]])),
    }


def case_scatter(ms):
    ops, T = ms.ops, ms.Tensor
    a = T([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    idx = T([[2, 0], [1, 1]])
    upd = T([[9.0, 8.0], [7.0, 6.0]])
    return {
        "tse_bad_reduction": _try(lambda: ops.tensor_scatter_elements(a, idx, upd, 0, "mul")),
        "tse_dtype": _try(lambda: ops.tensor_scatter_elements(a, idx, T([[9, 8], [7, 6]]))),
        "nd_tensor_shape": _try(lambda: ops.ScatterNd()(T([[0]]), T([1], ms.int32), T([4]))),
        "nd_oob": _try(lambda: ops.scatter_nd(T([[5]]), T([1.0]), (4,))),
        "tse": ops.tensor_scatter_elements(a, idx, upd, 1),
        "tse_neg": ops.tensor_scatter_elements(a, T([[-1, 0, 1]]), T([[9.0, 8.0, 7.0]])),
        "tse_add": ops.tensor_scatter_elements(a, idx, upd, 1, "add"),
        "tse_axis0": ops.tensor_scatter_elements(a, T([[1, 0, 1]]), T([[9.0, 8.0, 7.0]])),
        "tse_prim": ops.TensorScatterElements(1, "add")(a, idx, upd),
        "scatter": ops.scatter(a, 1, idx, upd),
        "scatter_scalar": ops.scatter(a, 1, idx, 3.0),
        "method": a.scatter(1, idx, upd),
        "method_axis_kw": a.scatter(axis=1, index=idx, src=upd),
        "method_scalar": a.scatter(1, idx, 3.0),
        "nd": ops.scatter_nd(T([[0], [2], [0]], ms.int32), T([1.0, 2.0, 3.0]), (4,)),
        "nd_2d": ops.scatter_nd(T([[0, 1], [1, 1]]), T([1.0, 2.0]), (2, 2)),
        "nd_slices": ops.scatter_nd(T([[1]]), T([[1.0, 2.0]]), (2, 2)),
        "nd_prim": ops.ScatterNd()(T([[0], [2], [0]]), T([1, 2, 3], ms.int32), (4,)),
        "cell": _cell(ms, lambda p, i, u: ops.tensor_scatter_elements(p, i, u, 1, "add"))(a, idx, upd),
    }


def case_scatter_method_reduce(ms):
    # own case: MindSpore's PyNative op cache ignores ``reduce`` after a plain Tensor.scatter
    T = ms.Tensor
    a = T([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    return a.scatter(1, T([[2, 0], [1, 1]]), T([[9.0, 8.0], [7.0, 6.0]]), reduce="add")


def case_scatter_out_of_range(ms):
    # MindSpore's CPU kernel stops at the first out-of-range index (one call per process:
    # the result of a later call depends on the earlier ones)
    ops, T = ms.ops, ms.Tensor
    a = T([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    return ops.tensor_scatter_elements(a, T([[1, 0, 1], [5, 1, 1]]), T([[9.0, 8.0, 7.0], [1.0, 1.0, 1.0]]))


def case_scatter_grad(ms):
    ops, T = ms.ops, ms.Tensor
    a = _rand(ms, 2, 3)
    u = _rand(ms, 2, 2, seed=1)
    v = _rand(ms, 3, seed=2)

    def f(p, q, r):
        s = ops.tensor_scatter_elements(p, T([[2, 0], [1, 1]]), q, 1)
        t = ops.tensor_scatter_elements(p, T([[2, 0], [1, 1]]), q, 1, "add")
        n = ops.scatter_nd(T([[0], [2], [0]]), r, (4,))
        return (s * s).sum() + (t * 3).sum() + (n * T([1.0, 2.0, 3.0, 4.0])).sum()
    return ms.grad(f, grad_position=(0, 1, 2))(a, u, v)


def case_segment_sum(ms):
    ops, T = ms.ops, ms.Tensor
    a = T([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    return {
        "vec": ops.unsorted_segment_sum(T([1.0, 2.0, 3.0, 4.0]), T([0, 0, 2, 1], ms.int32), 4),
        "rows": ops.unsorted_segment_sum(a, T([1, 1]), 2),
        "ids_2d": ops.unsorted_segment_sum(a, T([[0, 1, 0], [1, 1, 2]]), 3),
        "prim": ops.UnsortedSegmentSum()(T([1, 2, 3, 4]), T([0, 0, 2, 1]), 3),
        "prim_tensor_num": ops.UnsortedSegmentSum()(T([1, 2, 3, 4]), T([0, 0, 2, 1]), T(3)),
        "grad": ms.grad(lambda p: (ops.unsorted_segment_sum(p, T([0, 1]), 3) ** 2).sum())(a),
        "cell": _cell(ms, lambda p, i: ops.unsorted_segment_sum(p, i, 2))(a, T([1, 0])),
    }


def case_sequence_mask_diag_eye(ms):
    ops, T = ms.ops, ms.Tensor
    return {
        "mask_float": _try(lambda: ops.sequence_mask(T([1.0, 3.0]), 4)),
        "diag_method_off": _try(lambda: T([1, 2, 3]).diag(1)),
        "eye_float": _try(lambda: ops.eye(2.0)),
        "eye_neg": _try(lambda: ops.eye(-1)),
        "mask": ops.sequence_mask(T([1, 3, 2]), 4),
        "mask_none": ops.sequence_mask(T([1, 3, 2])),
        "mask_2d": ops.sequence_mask(T([[1, 3], [2, 0]]), 3),
        "mask_i32": ops.sequence_mask(T([1, 3, 2], ms.int32), 4),
        "diag": ops.diag(T([1, 2, 3])),
        "diag_2d": ops.diag(T([[1, 2], [3, 4]])),
        "diag_prim": ops.Diag()(T([1.0, 2.0])),
        "diag_method": T([1.0, 2.0]).diag(),
        "eye": ops.eye(2),
        "eye_nm": ops.eye(2, 3, ms.int32),
        "eye_tensor": ops.eye(T(2), 3),
        "eye_prim": ops.Eye()(2, 3, ms.float32),
        "tril": ops.tril(T([[1, 2, 3], [4, 5, 6], [7, 8, 9]])),
        "tril_k": ops.tril(T([[1, 2, 3], [4, 5, 6], [7, 8, 9]]), 1),
        "triu": ops.triu(T([[1, 2, 3], [4, 5, 6], [7, 8, 9]]), -1),
        "diag_grad": ms.grad(lambda p: (ops.diag(p) * T([[1.0, 2.0], [3.0, 4.0]])).sum())(T([1.0, 2.0])),
        "cell": _cell(ms, lambda l: ops.sequence_mask(l, 3))(T([1, 2])),
    }


def case_one_hot(ms):
    ops, T = ms.ops, ms.Tensor
    return {
        "prim_mixed": _try(lambda: ops.OneHot()(T([0, 2], ms.int32), 3, T(1.0, ms.float32),
                                                T(0.0, ms.float16))),
        "default": ops.one_hot(T([0, 2, 1]), 3),
        "tensor_values": ops.one_hot(T([0, 2, 1], ms.int32), 3, T(1.0), T(0.0)),
        "float_values": ops.one_hot(T([0, 2, -1]), 3, 1.0, 0.0),
        "axis0": ops.one_hot(T([0, 2]), 3, 5, 1, 0),
        "oob": ops.one_hot(T([0, 5]), 3),
        "matrix": ops.one_hot(T([[0, 1], [2, 0]]), 3, 2.0, -1.0, 1),
        "prim": ops.OneHot()(T([0, 2], ms.int32), 3, T(1.0, ms.float32), T(0.0, ms.float32)),
        "prim_axis": ops.OneHot(0)(T([0, 2], ms.int32), 3, T(1.0, ms.float32), T(0.0, ms.float32)),
        "cell": _cell(ms, lambda i: ops.one_hot(i, 4, T(1.0), T(0.0)))(T([3, 1])),
    }


# ===========================================================================
# Tensor indexing
# ===========================================================================
def case_getitem(ms):
    T = ms.Tensor
    a = T(np.arange(12.0).reshape(3, 4).astype(np.float32))
    return {
        "int_oob": _try(lambda: a[3]),
        "int_neg_oob": _try(lambda: a[-4]),
        "scalar_index": _try(lambda: T(1.0)[0]),
        "bool_mask": a[a > 5],
        "bool_rows": a[T([True, False, True])],
        "bool_list": a[[True, False, True]],
        "list": a[[0, 2]],
        "list_neg": a[[-1, 0]],
        "tuple_of_lists": a[[0, 2], [1, 3]],
        "tensor": a[T([0, 2])],
        "tensor_0d": a[T(1)],
        "slice_oob": a[1:10],
        "slice_rev": a[::-1],
        "slice_steps": a[::2, 1::2],
        "none": a[None, 1],
        "ellipsis": a[..., 1],
        "bool_true": a[True],
        "slice_list": a[1:, [0, 3]],
        "int_list": a[1, [0, 3]],
        "mask_2d": a[T(np.array([[True] * 4, [False] * 4, [True] * 4]))],
    }


def case_getitem_errors(ms):
    T = ms.Tensor
    a = T(np.arange(12.0).reshape(3, 4).astype(np.float32))
    return {
        "list_oob": _try(lambda: a[[3]]),
        "bool_false": _try(lambda: a[False]),
        "float": _try(lambda: a[1.0]),
        "tensor_float": _try(lambda: a[T([1.0])]),
        "empty_list": _try(lambda: a[[]]),
        "nested_list": a[[[0, 1], [2, 2]]],
    }


def case_setitem(ms):
    T = ms.Tensor

    def s(idx, v):
        b = T(np.arange(12.0).reshape(3, 4).astype(np.float32))
        b[idx] = v
        return b
    a = T(np.arange(12.0).reshape(3, 4).astype(np.float32))
    i = T([1, 2, 3])
    i[0] = 2.7
    return {
        "bad_shape": _try(lambda: s(0, T([1.0, 2.0]))),
        "mask": s(a > 5, 0.0),
        "mask_tensor": s(a > 5, T(-1.0)),
        "list": s([0, 2], 1.0),
        "list_rows": s([0, 2], T([1.0, 2.0, 3.0, 4.0])),
        "neg": s(-1, 5.0),
        "tensor_idx": s(T([0, 2]), 9.0),
        "column": s((slice(None), 1), T([7.0, 8.0, 9.0])),
        "int_value": s(0, 3),
        "bool_list": s([True, False, True], 0.0),
        "ellipsis": s(Ellipsis, 1.0),
        "tuple_lists": s(([0, 2], [1, 3]), T([5.0, 6.0])),
        "f64_value": s(0, T([1.0, 2.0, 3.0, 4.0], ms.float64)),
        "int_tensor_value": s(0, T([1, 2, 3, 4])),
        "int_target_float_value": i,
    }


# ===========================================================================
# creation
# ===========================================================================
def case_creation(ms):
    ops, T = ms.ops, ms.Tensor
    return {
        "ones_neg": _try(lambda: ops.ones(-1)),
        "ones": ops.ones((2,), ms.int32),
        "ones_int": ops.ones(2),
        "ones_tensor_shape": ops.ones(T([2, 1])),
        "ones_prim": ops.Ones()((2,), ms.float16),
        "ones_prim_default": ops.Ones()(2),
        "zeros": ops.zeros((1, 2)),
        "zeros_prim": ops.Zeros()((2, 2), ms.int64),
        "ones_like": ops.ones_like(T([1, 2])),
        "zeros_like_dtype": ops.zeros_like(T([1, 2]), dtype=ms.float32),
        "ones_like_prim": ops.OnesLike()(T([1, 2])),
        "zeros_like_prim": ops.ZerosLike()(T([[1.5]])),
        "fill": ops.fill(ms.float32, (2,), 3),
        "fill_tensor_value": ops.fill(ms.int32, (2,), T(3.5)),
        "fill_prim": ops.Fill()(ms.float32, (2, 1), 3),
        "full": ops.full((2,), 3),
        "full_float": ops.full((2,), 3.5),
        "full_dtype": ops.full((2,), 3, dtype=ms.float32),
        "full_like": ops.full_like(T([1.0, 2.0]), 3),
        "full_like_int": ops.full_like(T([1, 2]), 3.7),
        "method_fill": T([1.0, 2.0]).fill(3),
        "cell": _cell(ms, lambda x: ops.ones_like(x) + ops.zeros((2,)) + ops.fill(ms.float32, (2,), 2))(
            T([1.0, 2.0])),
    }


def case_range_linspace_arange(ms):
    ops, T = ms.ops, ms.Tensor
    return {
        "range_mixed": _try(lambda: ops.range(T(0), T(5.0), T(2))),
        "range_sign": _try(lambda: ops.range(T(5), T(0), T(2))),
        "range_zero": _try(lambda: ops.range(T(0), T(5), T(0))),
        "make_range_float": _try(lambda: ops.make_range(1.0, 5)),
        "linspace_int": _try(lambda: ops.linspace(T(0), T(4), 3)),
        "range": ops.range(T(0), T(5), T(2)),
        "range_float": ops.range(T(0.0), T(1.0), T(0.25)),
        "range_i32": ops.range(T(0, ms.int32), T(5, ms.int32), T(2, ms.int32)),
        "range_py": ops.range(0, 5, 2),
        "range_neg": ops.range(T(5), T(0), T(-2)),
        "range_prim": ops.Range()(T(0), T(5), T(2)),
        "make_range": ops.make_range(5),
        "make_range2": ops.make_range(1, 5),
        "make_range3": ops.make_range(1, 5, 2),
        "linspace": ops.linspace(0, 1, 5),
        "linspace_tensor": ops.linspace(T(0.0), T(1.0), 5),
        "linspace_f64": ops.linspace(T(0.0, ms.float64), T(1.0, ms.float64), 3),
        "linspace_one": ops.linspace(0, 1, 1),
        "linspace_tensor_steps": ops.linspace(0, 1, T(3)),
        "linspace_prim": ops.LinSpace()(T(0.0), T(1.0), 3),
        "arange": ops.arange(5),
        "arange_float": ops.arange(0, 1, 0.25),
        "arange_tensor": ops.arange(T(1), 5),
        "arange_dtype": ops.arange(5, dtype=ms.float32),
    }


def case_scalar_tuple(ms):
    ops, T = ms.ops, ms.Tensor
    return {
        "s2t": ops.scalar_to_tensor(3),
        "s2t_int": ops.scalar_to_tensor(3.5, ms.int32),
        "s2t_bool": ops.scalar_to_tensor(True),
        "s2t_prim": ops.ScalarToTensor()(2, ms.float16),
        "t2a": ops.tuple_to_array((1, 2)),
        "t2a_float": ops.tuple_to_array((1.0, 2)),
        "t2a_prim": ops.TupleToArray()((3, 4, 5)),
        "tuple_len": ops.tuple_len((1, 2, 3)),
        "tuple_len_list": ops.tuple_len([1, 2]),
        "from_numpy": T.from_numpy(np.array([1, 2], np.int32)),
        "ms_from_numpy": ms.from_numpy(np.array([1.0, 2.0])),
        "value": T([1.0, 2.0]).value(),
        "param_value": ms.Parameter(T([1.0, 2.0]), name="w").value(),
        "dtype": str(ops.dtype(T([1], ms.int32))),
        "shape": ops.shape(T(np.zeros((2, 3)))),
        "shape_prim": ops.Shape()(T(np.zeros((2, 3)))),
        "dtype_prim": str(ops.DType()(T([1.0], ms.float16))),
        "size": ops.size(T(np.zeros((2, 3)))),
        "cast": ops.cast(T([1.7, -2.2]), ms.int32),
    }


# ===========================================================================
# state
# ===========================================================================
def case_assign(ms):
    ops, T, P = ms.ops, ms.Tensor, ms.Parameter
    w = P(T([1.0, 2.0]), name="w")
    r1 = ops.assign(w, T([3.0, 4.0])) + 0
    after1 = w.value()
    r2 = ops.Assign()(w, T([5, 6])) + 0
    after2 = w.value()
    r3 = ops.assign_add(w, T([1.0, 1.0])) + 0
    r4 = ops.AssignAdd()(w, T([1.0, 1.0])) + 0
    r5 = ops.assign_sub(w, T([0.5, 0.5])) + 0
    r6 = ops.AssignSub()(w, T([0.5, 0.5])) + 0
    t = T([1.0, 2.0])
    r7 = ops.assign(t, T([7.0, 8.0])) + 0
    i = P(T([1, 2], ms.int32), name="i")
    return {
        "shape": _try(lambda: ops.assign(P(T([1.0, 2.0]), name="a"), T([3.0, 4.0, 5.0]))),
        "rank": _try(lambda: ops.assign(P(T([1.0, 2.0]), name="b"), 5.0)),
        "bcast": _try(lambda: ops.assign(P(T([1.0, 2.0]), name="c"), T([5.0]))),
        "widen": _try(lambda: ops.assign(P(T([1.0, 2.0]), name="d"), T([5.0, 6.0], ms.float64))),
        "int_widen": _try(lambda: ops.assign_add(i, T([1, 1], ms.int64))),
        "r1": r1, "after1": after1, "r2": r2, "after2": after2, "r3": r3, "r4": r4, "r5": r5, "r6": r6,
        "final": w.value(), "tensor_result": r7, "tensor_after": t,
        "int_ok": ops.assign_add(i, T([1, 1], ms.int32)) + 0,
    }


def case_assign_jit(ms):
    ops, T, P = ms.ops, ms.Tensor, ms.Parameter
    w = P(T([1.0, 2.0]), name="w")
    c = P(T(0.0), name="c")

    @ms.jit
    def step(x):
        ops.assign(w, w * x)
        ops.assign_add(c, T(1.0))
        return w + 1

    out1 = step(T([2.0, 3.0]))
    out2 = step(T([2.0, 3.0]))
    return {"out1": out1, "out2": out2, "w": w.value(), "c": c.value()}


def case_assign_cell(ms):
    ops, T, P, nn = ms.ops, ms.Tensor, ms.Parameter, ms.nn

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = P(T([1.0, 2.0]), name="w")
            self.steps = P(T(0, ms.int32), name="steps", requires_grad=False)

        def construct(self, x):
            ops.assign_add(self.steps, T(1, ms.int32))
            ops.assign(self.w, self.w + x)
            return self.w * 2

    net = Net()
    o1 = net(T([1.0, 1.0]))
    o2 = net(T([0.5, 0.5]))
    return {"o1": o1, "o2": o2, "w": net.w.value(), "steps": net.steps.value()}


def case_assign_grad(ms):
    ops, T, P, nn = ms.ops, ms.Tensor, ms.Parameter, ms.nn

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = P(T([1.0, 2.0]), name="w")
            self.count = P(T(0.0), name="count", requires_grad=False)

        def construct(self, x):
            ops.assign_add(self.count, T(1.0))
            return (self.w * x * x).sum()

    net = Net()
    gfn = ms.grad(net, grad_position=0, weights=net.trainable_params())
    g1 = gfn(T([1.0, 3.0]))
    g2 = gfn(T([2.0, 1.0]))
    return {"g1": g1, "g2": g2, "count": net.count.value(), "w": net.w.value()}


def case_depend_identity(ms):
    ops, T = ms.ops, ms.Tensor
    a = T([1.0, 2.0])
    return {
        "depend": ops.depend(a, T([5.0])),
        "prim_depend": ops.Depend()(a, a * 2),
        "prim_identity_tuple": _try(lambda: ops.Identity()((a, a))),
        "identity": ops.identity(a),
        "identity_tuple": ops.identity((a, a * 2)),
        "identity_int": ops.identity(3),
        "prim_identity": ops.Identity()(a),
        "operations_identity": ops.operations.identity()(a),
        "stop_gradient": ops.stop_gradient(a),
        "grad": ms.grad(lambda x: (ops.identity(x) * ops.stop_gradient(x) + ops.depend(x, x * 3)).sum())(a),
    }


# ===========================================================================
# functional plumbing
# ===========================================================================
def case_multitype_hypermap(ms):
    ops, T = ms.ops, ms.Tensor
    add = ops.MultitypeFuncGraph("add")

    @add.register("Number", "Number")
    def _a(x, y):
        return x + y

    @add.register("Tensor", "Tensor")
    def _b(x, y):
        return ops.add(x, y)

    @add.register("Tensor", "Number")
    def _c(x, y):
        return x * y

    square = ops.MultitypeFuncGraph("square")

    @square.register("Tensor")
    def _s(x):
        return ops.square(x)

    hm = ops.HyperMap()
    nested = ((T(1.0), T(2.0)), (T(3.0), T(4.0)))
    return {
        "no_match": _try(lambda: add(3, T([1.0]))),
        "numpy_arg": _try(lambda: add(np.ones(2), np.ones(2))),
        "nn": add(1, 2),
        "tt": add(T([1.0]), T([2.0])),
        "tn": add(T([1.0]), 3),
        "bool": add(True, 2),
        "hm": hm(add, (1, T([1.0])), (2, T([2.0]))),
        "hm_nested": hm(add, ((1, 2), T([1.0])), ((3, 4), T([2.0]))),
        "hm_list": hm(add, [1, 2], [3, 4]),
        "hm_zip": hm(add, (1, 2), (3,)),
        "hm_leaf": hm(add, 1, 2),
        "hm_ops": ops.HyperMap(add)((1, 2), (3, 4)),
        "hm_square": hm(square, nested),
        "hm_square_ops": ops.HyperMap(square, False)(nested),
        "hm_partial": hm(ops.partial(add, T([5.0])), (T([1.0]), T([2.0]))),
        "hm_pyfunc": hm(lambda x: x * 2, (T([1.0]), 3)),
    }


def case_partial(ms):
    ops, T = ms.ops, ms.Tensor
    f = ops.partial(ops.mul, T([2.0, 3.0]))
    g = ops.Partial()(ops.add, T([1.0]))
    return {
        "partial": f(T([4.0, 5.0])),
        "prim": g(T([2.0])),
        "grad": ms.grad(lambda x: f(x).sum())(T([1.0, 1.0])),
    }


def _vm_mul(x, y):
    return x * y


def _vm_sum(x):
    return x.sum()


def _vm_pair(x):
    return (x, x * 2)


def _vm_add(x, y):
    return x + y


def _vm_id(x):
    return x


def _vm_nested(x, y):
    return x * y[0] + y[1]


def case_vmap(ms):
    ops, T = ms.ops, ms.Tensor
    a = T([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    return {
        "size_mismatch": _try(lambda: ops.vmap(_vm_add, in_axes=(0, 0))(T([1.0, 2.0]), T([1.0, 2.0, 3.0]))),
        "axis_oob": _try(lambda: ops.vmap(_vm_id, in_axes=3)(T([1.0, 2.0]))),
        "in_none": _try(lambda: ops.vmap(_vm_id, in_axes=None)(T([1.0, 2.0]))),
        "out_none": _try(lambda: ops.vmap(_vm_sum, in_axes=1, out_axes=None)(a)),
        "in_axes_len": _try(lambda: ops.vmap(_vm_mul, in_axes=(0,))(a, a)),
        "basic": ops.vmap(_vm_mul, in_axes=(0, None))(a, T([10.0, 20.0, 30.0])),
        "axis1": ops.vmap(_vm_mul, in_axes=(1, None))(a, T([10.0, 20.0])),
        "reduce": ops.vmap(_vm_sum, in_axes=1, out_axes=0)(a),
        "out_axes": ops.vmap(_vm_pair, in_axes=1, out_axes=(0, 1))(a),
        "nested": ops.vmap(_vm_nested, in_axes=(0, (0, None)))(a, (a, T(1.0))),
        "neg_axis": ops.vmap(_vm_sum, in_axes=-1)(a),
        "scalar_arg": ops.vmap(_vm_mul, in_axes=(0, None))(a, 2.0),
        "top_level": ms.vmap(_vm_id)(T([1.0, 2.0])),
        "grad": ms.grad(lambda x: ops.vmap(_vm_sum, in_axes=0)(x * x).sum())(a),
    }


def case_vmap_cell(ms):
    ops, T, nn = ms.ops, ms.Tensor, ms.nn
    net = nn.Dense(3, 2)
    net.weight.set_data(T([[1.0, 0.0, -1.0], [0.5, 0.5, 0.5]]))
    net.bias.set_data(T([0.1, -0.1]))
    x = T(np.arange(12.0).reshape(4, 3).astype(np.float32))

    def single(v):
        return net(ops.expand_dims(v, 0))[0]
    return {"vmap": ops.vmap(single)(x), "direct": net(x)}


def case_mixed_precision_cast(ms):
    ops, T = ms.ops, ms.Tensor
    return {
        "float": ops.mixed_precision_cast(ms.float16, T([1.0, 2.0])),
        "int": ops.mixed_precision_cast(ms.float16, T([1, 2])),
        "tuple": ops.mixed_precision_cast(ms.float16, (T([1.0, 2.0]), T([1]), 3.0)),
        "to32": ops.mixed_precision_cast(ms.float32, T([1.0], ms.float16)),
        "scalar": ops.mixed_precision_cast(ms.float16, 3.0),
    }


def case_cast_bad_input(ms):
    """``ops.Cast()`` of None (DeepText's inference ``construct`` casts its None ground truths) or a string."""
    ops = ms.ops
    return {"ok": ops.Cast()(ms.Tensor([1.5]), ms.int32),
            "none": _try(lambda: ops.Cast()(None, ms.int32)),
            "str": _try(lambda: ops.cast("a", ms.float32))}


def case_constexpr_flags(ms):
    ops, T = ms.ops, ms.Tensor

    @ops.constexpr
    def double(n):
        return n * 2

    @ops.constexpr(reuse_result=False)
    def shape_prod(shape):
        p = 1
        for s in shape:
            p *= s
        return p

    @ops.add_flags(has_effect=True)
    def flagged(x):
        return x + 1

    x = T(np.ones((2, 3), np.float32))
    return {
        "constexpr": double(3),
        "constexpr_kw": shape_prod(x.shape),
        "add_flags": flagged(T([1.0])),
        "isconstant_tensor": ops.isconstant(x),
        "isconstant_int": ops.isconstant(1),
        "cell": _cell(ms, lambda a: a * double(2) + shape_prod(a.shape))(x),
    }


def case_hook_backward(ms):
    ops, T = ms.ops, ms.Tensor
    seen = []

    def record(grad):
        seen.append(len(grad))

    hook = ops.HookBackward(record)

    def f(x, y):
        z = hook(x * y)
        return z * y

    def scale(grad):
        return (grad[0] * 10,)
    h2 = ops.HookBackward(scale)

    def g(x, y):
        return h2(x * y) * y

    h3 = ops.HookBackward(lambda grad: None)

    def k(x, y):
        a, b = h3(x, y)
        return a * b

    def tensor_ret(grad):
        return grad[0] * 10
    h4 = ops.HookBackward(tensor_ret)
    x, y = T(1.0, ms.float32), T(2.0, ms.float32)
    return {
        "not_callable": _try(lambda: ops.HookBackward(1)),
        "grad": ms.grad(f, grad_position=(0, 1))(x, y),
        "scaled": ms.grad(g, grad_position=(0, 1))(x, y),
        "two_inputs": ms.grad(k, grad_position=(0, 1))(T(3.0), T(2.0)),
        "forward_two": h3(T(3.0), T(2.0)),
        "forward_one": hook(T([3.0, 4.0])),
        "tensor_return": ms.grad(lambda v: h4(v) * 2)(T(1.0)),
    }


def case_custom_pyfunc(ms):
    ops, T = ms.ops, ms.Tensor

    def host_add(a, b):
        return a + b

    add = ops.Custom(host_add, out_shape=lambda a, b: a, out_dtype=lambda a, b: a, func_type="pyfunc")
    fixed = ops.Custom(lambda a: a * 3, out_shape=[2], out_dtype=ms.float32, func_type="pyfunc")
    return {
        "add": add(T([1.0, 2.0]), T([3.0, 4.0])),
        "fixed": fixed(T([1.0, 2.0])),
    }


def case_collectives_getnext(ms):
    ops = ms.ops
    return {
        "get_next": _try(lambda: ops.GetNext([ms.float32], [[2]], 1, "queue")()),
        "reduce_op": (ops.ReduceOp.SUM, ops.ReduceOp.MAX, ops.ReduceOp.MIN, ops.ReduceOp.PROD),
        "operations_reduce_op": ops.operations.ReduceOp.SUM,
    }


def case_print_returns_none(ms):
    ops, T = ms.ops, ms.Tensor
    return {"print_": ops.print_("x", T([1.0])) is None, "Print": ops.Print()(T(1)) is None}


def _main(fn):
    def run(ms):
        _TRY["target"], _TRY["count"] = None, 0
        return _strip(fn(ms))
    return run


def _error(fn, k):
    def run(ms):
        _TRY["target"], _TRY["count"] = k, 0
        try:
            return _strip(fn(ms))
        finally:
            _TRY["target"] = None
    return run


_ERRORS = {}   # case function -> its number of _try( entries (reading the source costs ~2 ms a case)


def all_cases():
    import inspect
    out = {}
    for k, v in sorted(globals().items()):
        if k.startswith("case_") and callable(v):
            name = k[len("case_"):]
            out[name] = _main(v)
            if v not in _ERRORS:
                _ERRORS[v] = inspect.getsource(v).count("_try(")
            for i in range(1, _ERRORS[v] + 1):
                out[f"{name}__err{i}"] = _error(v, i)
    return out
