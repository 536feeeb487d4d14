"""MindIR rules for convolutions, pooling windows, padding, gathers and integer division: the
layer-shaped half of the writer's table (``_mindir_ops.RULES``; importing this module adds them).

Each rule writes a JAX primitive of the trace as MindSpore 2.10 primitives in the form its own
exporter writes them (recorded from its files):

* ``conv_general_dilated``: ``Conv2D`` (attribute form); with an input dilation, the form a
  transposed convolution takes in the trace, ``Conv2DTranspose(dout, weight, input_size)`` with
  MindSpore's attributes, the kernel's ``rev`` folded back into the weight (``nn.Conv2dTranspose``'s
  weight is written unchanged, as MindSpore writes it).
* 3-D (NCDHW) convolutions: ``Conv3D`` (attribute form, any stride, padding, dilation, groups);
  3-D transposed ones (``nn.Conv3dTranspose``): ``Conv3DTranspose(dout, weight)`` with MindSpore's
  attributes, ``output_padding`` included; a grouped one as its dilated input and a ``Conv3D``.
* ``reduce_window_max``: ``MaxPool``, ``MaxPool3D`` on NCDHW (MindSpore's ``same``/``valid`` windows).
* ``reduce_window_sum`` (average pooling's window sums, 1-D, 2-D and 3-D): zero ``Pad`` where padded,
  ``AvgPool``/``AvgPool3D`` (``VALID``) and a ``Mul`` by the window size; the division that follows in the
  trace (by the window size, or by the count of inputs under ``count_include_pad=False``) is
  written as it is. MindSpore writes one ``AvgPool``/``AvgPool3D`` node; the values agree to
  float rounding.
* ``pad`` with a value other than zero: ``PadV3(x, paddings, value)`` (``mode='constant'``).
* ``gather`` along one axis (``take``, nearest-neighbour resizing): ``Gather(x, indices, axis, 0)``;
  at points of several axes (``ops.GatherNd``, ``x[i, j]``): ``GatherNd(x, indices)``.
* ``top_k``: ``TopK(x, k)`` (``sorted``).
* ``scatter``/``scatter-add``/``-mul``/``-min``/``-max`` of whole slices (``x[i] = v``,
  ``x.at[i].add(v)``): ``TensorScatterUpdate``/``Add``/``Mul``/``Min``/``Max``.
* ``div``/``rem`` of integers: ``TruncateDiv``/``TruncateMod`` (C's rounding toward zero, as
  ``lax``); ``//`` and ``%`` are written as the trace computes them from these.
* ``nn.LSTM``: each direction of each layer is msjax's named kernel ``msjax_rnn_LSTM``, written as
  one MindSpore ``LSTM`` node (one layer, one direction) on the flat weight MindSpore's
  ``nn.LSTM`` builds on CPU; the reversed direction's ``ReverseV2`` and the layers' ``Concat``
  are written as traced. Other loops of static length (``nn.GRU``, ``nn.RNN``, an LSTM with
  ``seq_length``) are unrolled step by step, as MindSpore's exporter unrolls them.
"""
from __future__ import annotations

import math

import numpy as np

from ._layout import gather_layout, gather_nd_layout, gather_nd_out_perm, scatter_nd_layout
from ._mindir_ops import _out, _reshaped, _transposed, dims, rule, unsupported

__all__ = []


@rule("conv_general_dilated")
def _conv(em, eqn, ins, window_strides, padding, lhs_dilation, rhs_dilation, dimension_numbers,
          feature_group_count, batch_group_count, **_):
    x, w = (v.aval for v in eqn.invars)
    nd = len(x.shape) - 2
    plain = tuple(range(nd + 2))
    if (nd not in (2, 3) or batch_group_count != 1 or tuple(dimension_numbers.lhs_spec) != plain
            or tuple(dimension_numbers.out_spec) != plain):
        raise unsupported("conv_general_dilated", "only 2-D NCHW and 3-D NCDHW convolutions")
    pads = tuple(int(p) for pair in padding for p in pair)
    if any(d != 1 for d in lhs_dilation):
        if feature_group_count == 1 and all(int(s) == 1 for s in window_strides):
            done = (_conv_transpose if nd == 2 else _conv3d_transpose)(
                em, eqn, ins, window_strides, padding, lhs_dilation, rhs_dilation, dimension_numbers,
                feature_group_count)
            if done is not None:
                return done
        # grouped (or strided) transposed convolutions: the zeros of the input dilation written out
        x_in = _dilated(em, em.tensor(ins[0]), x, tuple(int(d) for d in lhs_dilation))
        x = x.update(shape=(*x.shape[:2], *((n - 1) * d + 1 for n, d in zip(x.shape[2:], lhs_dilation))))
        ins = [x_in, ins[1]]
    spec = tuple(int(d) for d in dimension_numbers.rhs_spec)
    w_in = em.tensor(ins[1])
    if spec != plain:         # the kernel in another layout (a transposed convolution's trace): OIHW
        w_in = _transposed(em, w_in, w, spec)
        w = w.update(shape=tuple(w.shape[d] for d in spec))
    if any(p < 0 for p in pads):
        raise unsupported("Conv3D" if nd == 3 else "conv_general_dilated", "negative padding")
    if nd == 3:
        return _conv3d(em, eqn, ins[0], w_in, w, window_strides, pads, rhs_dilation, feature_group_count)
    attrs = {"kernel_size": tuple(int(d) for d in w.shape[2:]), "mode": 1, "out_channel": int(w.shape[0]),
             "input_names": ["x", "w"], "pad": pads, "pad_mode": "pad", "format": "NCHW", "pad_list": pads,
             "groups": int(feature_group_count), "stride": (1, 1, *map(int, window_strides)),
             "group": int(feature_group_count), "dilation": (1, 1, *map(int, rhs_dilation)),
             "output_names": ["output"]}
    return em.op("Conv2D", [em.tensor(ins[0]), w_in], _out(eqn), attrs=attrs)


def _conv3d(em, eqn, x_in, w_in, w, window_strides, pads, rhs_dilation, groups):
    """A 3-D NCDHW convolution as MindSpore's ``Conv3D`` node (attribute form, MindSpore's attributes)."""
    stride, dilation = tuple(map(int, window_strides)), tuple(map(int, rhs_dilation))
    attrs = {"kernel_size": tuple(int(d) for d in w.shape[2:]), "mode": 1, "out_channel": int(w.shape[0]),
             "input_names": ["x", "w"], "pad": pads, "offset_x": 0, "pad_mode": "pad", "format": "NCDHW",
             "pad_list": pads, "groups": int(groups), "stride": stride, "dilations": (1, 1, *dilation),
             "strides": (1, 1, *stride), "group": int(groups), "dilation": dilation, "output_names": ["output"]}
    return em.op("Conv3D", [em.tensor(x_in), w_in], _out(eqn), attrs=attrs)


def _conv3d_transpose(em, eqn, ins, window_strides, padding, lhs_dilation, rhs_dilation, dimension_numbers, groups):
    """An input-dilated 3-D convolution (``nn.Conv3dTranspose``'s trace) as MindSpore's
    ``Conv3DTranspose(dout, weight)``: the weight ``W[c_in, c_out, kd, kh, kw]`` as in
    :func:`_conv_transpose`; the trace's trailing padding beyond ``d * (k - 1) - pad`` (the rows
    the forward convolution's stride leaves) is MindSpore's ``output_padding``. None where the
    trace's padding exceeds the dilated kernel (the caller writes the dilated input and ``Conv3D``)."""
    rhs = eqn.invars[1].aval
    spec = tuple(int(d) for d in dimension_numbers.rhs_spec)
    k = [int(rhs.shape[d]) for d in spec[2:]]
    dil, stride = [int(d) for d in rhs_dilation], [int(s) for s in lhs_dilation]
    pad_list, out_pad = [], []
    for (lo, hi), kk, d in zip(padding, k, dil):
        lo, hi = d * (kk - 1) - int(lo), d * (kk - 1) - int(hi)
        pad_list += [lo, max(hi, 0)]
        out_pad.append(max(-hi, 0))
    if any(p < 0 for p in pad_list) or any(o >= max(s, d) for o, s, d in zip(out_pad, stride, dil)):
        return None
    w = em.tensor(ins[1])
    src = em.reversed.get(w)
    flip = not (src is not None and sorted(src[1]) == sorted(spec[2:]))
    if not flip:
        w = src[0]              # the kernel is the reversed weight: use the weight itself
    perm = [spec[1], spec[0], *spec[2:]]
    w = _transposed(em, w, rhs, perm)
    wt = rhs.update(shape=tuple(rhs.shape[p] for p in perm))
    if flip:
        w = em.op("ReverseV2", [w, (2, 3, 4)], wt)
    out = _out(eqn)
    pads = tuple(pad_list)
    attrs = {"kernel_size": tuple(k), "mode": 1, "out_channel": int(wt.shape[1]), "input_names": ["x", "filter"],
             "pad": pads, "pad_mode": "pad", "format": "NCDHW", "pad_list": pads, "groups": 1, "stride": tuple(stride),
             "dilations": (1, 1, *dil), "strides": (1, 1, *stride), "group": 1, "dilation": tuple(dil),
             "output_names": ["output"], "output_padding": (0, 0, *out_pad), "input_size": dims(out.shape),
             "in_channel": int(wt.shape[0])}
    return em.op("Conv3DTranspose", [em.tensor(ins[0]), w], out, attrs=attrs)


def _dilated(em, v, aval, dilation):
    """``v`` with ``d - 1`` zeros between neighbours along each spatial axis (a convolution's input
    dilation): per axis a unit axis appended, zeros concatenated on it, the two merged and the
    trailing zeros sliced off."""
    for a, d in zip(range(2, len(aval.shape)), dilation):
        if d == 1:
            continue
        shape = tuple(int(n) for n in aval.shape)
        col = shape[:a + 1] + (1,) + shape[a + 1:]
        v = _reshaped(em, v, aval, col)
        zeros = np.zeros(shape[:a + 1] + (d - 1,) + shape[a + 1:], aval.dtype)
        tup = em.op("MakeTuple", [v, em.const(zeros)], None, function=False)
        wide = aval.update(shape=shape[:a + 1] + (d,) + shape[a + 1:])
        v = em.op("Concat", [tup, a + 1], wide)
        merged = aval.update(shape=shape[:a] + (shape[a] * d,) + shape[a + 1:])
        v = _reshaped(em, v, wide, merged.shape)
        end = tuple(merged.shape[:a]) + ((shape[a] - 1) * d + 1,) + tuple(merged.shape[a + 1:])
        aval = merged.update(shape=end)
        v = em.op("StridedSlice", [v, (0,) * len(end), end, (1,) * len(end), 0, 0, 0, 0, 0], aval)
    return v


def _conv_transpose(em, eqn, ins, window_strides, padding, lhs_dilation, rhs_dilation, dimension_numbers,
                    groups):
    """An input-dilated convolution (a transposed one) as MindSpore's ``Conv2DTranspose``: its
    weight ``W[c_in, c_out, kh, kw]`` is the trace's kernel with channels swapped and the window
    flipped; its padding is what the dilated convolution's padding leaves of ``d * (k - 1)``."""
    rhs = eqn.invars[1].aval
    spec = tuple(int(d) for d in dimension_numbers.rhs_spec)
    if any(int(s) != 1 for s in window_strides) or groups != 1:
        raise unsupported("conv_general_dilated", "a transposed convolution with strides on its dilated input "
                                                  "or groups")
    k = [int(rhs.shape[d]) for d in spec[2:]]
    dil = [int(d) for d in rhs_dilation]
    lo_hi = [(int(lo), int(hi)) for lo, hi in padding]
    pad_list = tuple(p for (lo, hi), kk, d in zip(lo_hi, k, dil) for p in (d * (kk - 1) - lo, d * (kk - 1) - hi))
    if any(p < 0 for p in pad_list):
        raise unsupported("conv_general_dilated", "a transposed convolution with output padding beyond its kernel")
    w = em.tensor(ins[1])
    src = em.reversed.get(w)
    flip = True
    if src is not None and sorted(src[1]) == sorted(spec[2:]):
        w, flip = src[0], False         # the kernel is the reversed weight: use the weight itself
    perm = [spec[1], spec[0], spec[2], spec[3]]
    w = _transposed(em, w, rhs, perm)
    wt = rhs.update(shape=tuple(rhs.shape[p] for p in perm))
    if flip:
        w = em.op("ReverseV2", [w, (2, 3)], wt)
    out = _out(eqn)
    attrs = {"kernel_size": tuple(k), "mode": 1, "out_channel": int(wt.shape[0]), "pad": pad_list, "pad_mode": 0,
             "format": 0, "pad_list": pad_list, "groups": 1, "stride": (1, 1, *map(int, lhs_dilation)), "group": 1,
             "dilation": (1, 1, *dil)}
    return em.op("Conv2DTranspose", [em.tensor(ins[0]), w, dims(out.shape)], out, attrs=attrs)


@rule("rev")
def _rev(em, eqn, ins, dimensions):
    axes = tuple(int(d) for d in dimensions)
    src = em.tensor(ins[0])
    out = em.op("ReverseV2", [src, axes], _out(eqn))
    em.reversed[out] = (src, axes)
    return out


def _same_pads(size, k, s):
    out = -(-size // s)
    total = max((out - 1) * s + k - size, 0)
    return total // 2, total - total // 2


def _window(eqn, window_dimensions, window_strides, padding, base_dilation, window_dilation):
    """(kernel, strides, pads) of a 1-D (NCL), 2-D (NCHW) or 3-D (NCDHW) window over the spatial axes."""
    x = eqn.invars[0].aval
    pads = [tuple(map(int, p)) for p in padding]
    if (len(x.shape) not in (3, 4, 5) or tuple(window_dimensions[:2]) != (1, 1) or tuple(window_strides[:2]) != (1, 1)
            or any(d != 1 for d in (*base_dilation, *window_dilation)) or pads[:2] != [(0, 0), (0, 0)]):
        raise unsupported(eqn.primitive.name, "only 1-D, 2-D and 3-D pooling over NCL/NCHW/NCDHW without dilation")
    return tuple(map(int, window_dimensions[2:])), tuple(map(int, window_strides[2:])), pads[2:]


@rule("reduce_window_max")
def _max_pool(em, eqn, ins, **params):
    x = eqn.invars[0].aval
    k, s, pads = _window(eqn, **params)
    if len(x.shape) == 3:
        raise unsupported("reduce_window_max", "1-D max pooling")
    if all(p == (0, 0) for p in pads):
        mode = "VALID"
    elif all(p == _same_pads(int(n), kk, ss) for p, n, kk, ss in zip(pads, x.shape[2:], k, s)):
        mode = "SAME"
    else:
        raise unsupported("reduce_window_max", f"padding {pads} is neither MindSpore's 'same' nor 'valid'")
    if len(x.shape) == 5:
        attrs = {"kernel_size": (1, 1, *k), "strides": (1, 1, *s), "input_names": ["x"], "ceil_mode": 0,
                 "pad_mode": mode, "output_names": ["output"], "format": "NCDHW", "pad_list": (0,) * 6}
        return em.op("MaxPool3D", [em.tensor(ins[0])], _out(eqn), attrs=attrs)
    attrs = {"pad_mode": mode, "output_names": ["output"], "kernel_size": (1, 1, *k), "format": "NCHW",
             "strides": (1, 1, *s), "input_names": ["x"]}
    return em.op("MaxPool", [em.tensor(ins[0])], _out(eqn), attrs=attrs)


@rule("reduce_window_sum")
def _sum_pool(em, eqn, ins, **params):
    """Window sums: ``AvgPool`` (VALID) of the zero-padded input times the window size."""
    x = eqn.invars[0].aval
    if not np.issubdtype(x.dtype, np.floating):
        raise unsupported("reduce_window_sum", "integer inputs")
    k, s, pads = _window(eqn, **params)
    if any(lo < 0 or hi < 0 for lo, hi in pads):
        raise unsupported("reduce_window_sum", "negative padding")
    v, aval = em.tensor(ins[0]), x
    if len(x.shape) == 3:                 # NCL as NC1L
        k, s, pads = (1, *k), (1, *s), [(0, 0), *pads]
        aval = x.update(shape=(x.shape[0], x.shape[1], 1, x.shape[2]))
        v = _reshaped(em, v, x, aval.shape)
    if any(p != (0, 0) for p in pads):
        shape = (*aval.shape[:2], *(n + lo + hi for n, (lo, hi) in zip(aval.shape[2:], pads)))
        v = em.op("Pad", [v], aval.update(shape=shape), attrs={"paddings": ((0, 0), (0, 0), *pads)})
    out = _out(eqn)
    if len(x.shape) == 5:
        attrs = {"kernel_size": (1, 1, *k), "strides": (1, 1, *s), "input_names": ["input"], "pad": (0,) * 6,
                 "ceil_mode": False, "divisor_override": 0, "pad_mode": "VALID", "output_names": ["output"],
                 "format": "NCDHW", "pad_list": (0,) * 6, "count_include_pad": True}
        avg = em.op("AvgPool3D", [v], out, attrs=attrs)
        return em.op("Mul", [avg, np.asarray(math.prod(k), x.dtype)], out)
    flat = out.update(shape=aval.shape[:2] + tuple(out.shape[-2:]) if len(x.shape) == 4
                      else (*out.shape[:2], 1, out.shape[2]))
    avg = em.op("AvgPool", [v, k, s, 2, 0], flat)         # pad_mode 2 = VALID, format 0 = NCHW
    total = em.op("Mul", [avg, np.asarray(math.prod(k), x.dtype)], flat)
    return _reshaped(em, total, flat, out.shape)


@rule("pad")
def _pad(em, eqn, ins, padding_config):
    """Zero padding as ``Pad``, another value as ``PadV3``; negative padding (a cut, as a padded
    layer's gradient or transposed convolution traces it) as the ``StridedSlice`` after the positive part."""
    if any(int(i) != 0 for _, _, i in padding_config):
        raise unsupported("pad", "interior padding")
    x, out = eqn.invars[0].aval, _out(eqn)
    pads = [(max(int(lo), 0), max(int(hi), 0)) for lo, hi, _ in padding_config]
    mid = x.update(shape=tuple(int(n) + lo + hi for n, (lo, hi) in zip(x.shape, pads)))
    v = em.tensor(ins[0])
    if any(lo or hi for lo, hi in pads):
        v = _pad_positive(em, eqn, v, ins[1], pads, mid)
    if mid.shape == out.shape:
        return v
    begin = tuple(max(-int(lo), 0) for lo, _, _ in padding_config)
    end = tuple(b + int(n) for b, n in zip(begin, out.shape))
    return em.op("StridedSlice", [v, begin, end, (1,) * len(end), 0, 0, 0, 0, 0], out)


def _pad_positive(em, eqn, v, value, pads, out):
    if not isinstance(value, str) and np.asarray(value) == 0:
        return em.op("Pad", [v], out, attrs={"paddings": tuple(pads)})
    # PadV3's paddings run from the last axis backwards: (lo_last, hi_last, lo_prev, hi_prev, ...)
    paddings = tuple(p for lo_hi in reversed(pads) for p in lo_hi)
    val = em.tensor(value, eqn.invars[1].aval)
    return em.op("PadV3", [v, paddings, val], out, attrs={"mode": "constant", "paddings_contiguous": True})


@rule("gather")
def _gather(em, eqn, ins, dimension_numbers, slice_sizes, mode, fill_value, **_):
    """The one-axis gather of ``take``/``Embedding``/nearest resizing: whole slices along ``axis``
    picked by an index array, as ``Gather(x, indices, axis, 0)`` (transposed where lax puts the
    index dimensions elsewhere than ``axis``)."""
    table, idx = (v.aval for v in eqn.invars)
    dn = dimension_numbers
    sizes = tuple(int(d) for d in slice_sizes)
    if (len(dn.start_index_map) != 1 or tuple(dn.collapsed_slice_dims) != tuple(dn.start_index_map)
            or idx.shape[-1:] != (1,) or getattr(dn, "operand_batching_dims", ())):
        return _gather_nd(em, eqn, ins, dn, sizes)
    axis = int(dn.start_index_map[0])
    if sizes[axis] != 1 or any(str(s) != str(d) for i, (s, d) in enumerate(zip(sizes, table.shape)) if i != axis):
        raise unsupported("gather", "partial slices")
    if not isinstance(ins[1], str):
        i = np.asarray(ins[1])
        if i.size and (i.min() < 0 or i.max() >= table.shape[axis]):
            raise unsupported("gather", "indices out of range")
    ishape = tuple(idx.shape[:-1])
    i = _reshaped(em, em.tensor(ins[1]), idx, ishape)
    out = _out(eqn)
    perm, _ = gather_layout(dn.offset_dims, len(ishape), len(table.shape), axis)
    inv = [perm.index(j) for j in range(len(perm))]
    g = em.op("Gather", [em.tensor(ins[0]), i, axis, 0], out.update(shape=tuple(out.shape[j] for j in inv)))
    return _transposed(em, g, out.update(shape=tuple(out.shape[j] for j in inv)), perm)


def _gather_nd(em, eqn, ins, dn, sizes):
    """A gather at points of the leading (indexed) dimensions, whole slices of the others
    (``ops.GatherNd``, ``x[i, j]``): ``GatherNd(x, indices)`` on the operand transposed so that the
    indexed dimensions come first, its result transposed into lax's layout."""
    table, idx = (v.aval for v in eqn.invars)
    layout = gather_nd_layout(dn, sizes, table.shape)
    if layout is None:
        raise unsupported("gather", "only whole slices at points of the operand (take, GatherNd)")
    perm, rest = layout
    x = _transposed(em, em.tensor(ins[0]), table, perm)
    out = _out(eqn)
    nb = len(idx.shape) - 1
    to_lax = gather_nd_out_perm(dn.offset_dims, nb, len(rest))
    nd_shape = tuple(idx.shape[:-1]) + tuple(table.shape[d] for d in rest)
    g = em.op("GatherNd", [x, em.tensor(ins[1])], out.update(shape=nd_shape))
    return _transposed(em, g, out.update(shape=nd_shape), to_lax)


@rule("top_k")
def _top_k(em, eqn, ins, k, **_):
    """``ops.TopK``/``ops.topk`` (the last axis): ``TopK(x, k)`` with ``sorted=True``, as MindSpore writes it."""
    node = em.op("TopK", [em.tensor(ins[0]), int(k)], None, attrs={"sorted": True})
    return tuple(em.op("TupleGetItem", [node, i], _out(eqn, i), function=False) for i in range(2))


_SCATTERS = {"scatter": "TensorScatterUpdate", "scatter-add": "TensorScatterAdd", "scatter_add": "TensorScatterAdd",
             "scatter-mul": "TensorScatterMul", "scatter_mul": "TensorScatterMul", "scatter-min": "TensorScatterMin",
             "scatter_min": "TensorScatterMin", "scatter-max": "TensorScatterMax", "scatter_max": "TensorScatterMax"}


@rule(*_SCATTERS)
def _scatter(em, eqn, ins, dimension_numbers, **_):
    """``x[i] = v`` and ``x.at[i, j].add(v)``: whole slices written at points of some axes, as
    ``TensorScatterUpdate``/``Add``/``Mul``/``Min``/``Max(x, indices, updates)`` on the operand
    transposed so that the indexed axes come first (indices out of range: MindSpore's kernels
    refuse them where lax drops the update)."""
    x_a, idx_a, upd_a = (v.aval for v in eqn.invars)
    name = eqn.primitive.name
    nb = len(idx_a.shape) - 1
    layout = scatter_nd_layout(dimension_numbers, x_a.shape, nb)
    if layout is None:
        raise unsupported(name, "only whole slices at points of the operand")
    perm, upd_perm = layout
    batch = tuple(idx_a.shape[:-1])
    rest = tuple(x_a.shape[d] for d in perm[len(perm) - (len(upd_perm) - nb):])     # the whole slices
    if tuple(upd_a.shape[j] for j in upd_perm) != batch + rest:
        raise unsupported(name, "partial windows")
    x = _transposed(em, em.tensor(ins[0]), x_a, perm)
    upd = _transposed(em, em.tensor(ins[2], upd_a), upd_a, upd_perm)
    idx = em.tensor(ins[1], idx_a)
    if not batch:        # one point: MindSpore's kernels want an index dimension
        k = int(idx_a.shape[-1])
        idx = _reshaped(em, idx, idx_a, (1, k))
        upd = _reshaped(em, upd, upd_a.update(shape=rest), (1, *rest))
    xt = x_a.update(shape=tuple(x_a.shape[d] for d in perm))
    y = em.op(_SCATTERS[name], [x, idx, upd], xt)
    return _transposed(em, y, xt, [perm.index(j) for j in range(len(perm))])


@rule("div", "rem")
def _div(em, eqn, ins, **_):
    a, b = (em.tensor(x, v.aval) for x, v in zip(ins, eqn.invars))
    if np.issubdtype(_out(eqn).dtype, np.floating):
        if eqn.primitive.name == "rem":
            raise unsupported("rem", "the remainder of floats")
        return em.op("RealDiv", [a, b], _out(eqn))
    return em.op("TruncateDiv" if eqn.primitive.name == "div" else "TruncateMod", [a, b], _out(eqn))


@rule("stack")
def _stack(em, eqn, ins, axis, **_):
    out = _out(eqn)
    one = out.update(shape=tuple(1 if d == axis else n for d, n in enumerate(out.shape)))
    parts = [_reshaped(em, em.tensor(x, v.aval), v.aval, one.shape) for x, v in zip(ins, eqn.invars)]
    tup = em.op("MakeTuple", parts, None, function=False)
    return em.op("Concat", [tup, int(axis)], out)


@rule("jit:msjax_rnn_LSTM")
def _lstm(em, eqn, ins):
    """One direction of ``nn.LSTM`` (msjax's named kernel: x (T, N, I), h0, c0 (N, H), w_ih, w_hh
    and the biases) as MindSpore's ``LSTM`` node, its weights flattened and concatenated (the two
    biases summed) as MindSpore's ``nn.LSTM`` does on CPU."""
    avals = [v.aval for v in eqn.invars]
    if len(ins) not in (5, 7) or not all(np.issubdtype(a.dtype, np.floating) for a in avals):
        return None         # seq_length: the masked loop is unrolled as traced
    t, n, i = (int(d) for d in avals[0].shape)
    h = int(avals[1].shape[-1])
    flat = [em.tensor(w) for w in ins[3:5]]
    if len(ins) == 7:
        flat.append(em.op("Add", [em.tensor(ins[5]), em.tensor(ins[6])], avals[5]))
    cols = [em.op("Reshape", [w, (-1, 1, 1)], a.update(shape=(math.prod(a.shape), 1, 1)))
            for w, a in zip(flat, avals[3:6])]
    size = sum(math.prod(a.shape) for a in avals[3:6])
    w = em.op("Concat", [em.op("MakeTuple", cols, None, function=False), 0], avals[3].update(shape=(size, 1, 1)))
    state = avals[1].update(shape=(1, n, h))
    h0, c0 = (_reshaped(em, em.tensor(x), a, state.shape) for x, a in zip(ins[1:3], avals[1:3]))
    attrs = {"dropout": 0.0, "proj_size": 0, "has_bias": len(ins) == 7, "num_layers": 1, "hidden_size": h,
             "bidirectional": False, "input_size": i}
    node = em.op("LSTM", [em.tensor(ins[0]), h0, c0, w], None, attrs=attrs)
    out = em.op("TupleGetItem", [node, 0], _out(eqn, 0), function=False)
    hn, cn = (_reshaped(em, em.op("TupleGetItem", [node, k], state, function=False), state, (n, h)) for k in (1, 2))
    return out, hn, cn


_UNROLL_LIMIT = 1024


@rule("scan")
def _scan(em, eqn, ins, jaxpr, length, reverse, num_consts, num_carry, **_):
    """A loop of static length (``nn.GRU``/``RNN``, an LSTM with ``seq_length``) unrolled, as
    MindSpore's exporter unrolls the loops of these layers: each step slices the scanned inputs
    (``StridedSlice``), writes the body once, and the per-step outputs are joined (``Concat``)."""
    if length > _UNROLL_LIMIT:
        raise unsupported("scan", f"a loop of {length} steps (msjax unrolls at most {_UNROLL_LIMIT})")
    parents = em.parents
    consts, carry, xs = ins[:num_consts], list(ins[num_consts:num_consts + num_carry]), ins[num_consts + num_carry:]
    x_avals = [v.aval for v in eqn.invars[num_consts + num_carry:]]
    steps = {}
    for t in (range(length - 1, -1, -1) if reverse else range(length)):
        x_t = [_step_slice(em, x, a, t) for x, a in zip(xs, x_avals)]
        outs = em.emit(jaxpr.jaxpr, [np.asarray(c) for c in jaxpr.consts], [*consts, *carry, *x_t], parents)
        carry, steps[t] = outs[:num_carry], outs[num_carry:]
    ys = []
    for j, v in enumerate(eqn.outvars[num_carry:]):
        per = [steps[t][j] for t in range(length)]
        if all(not isinstance(y, str) for y in per):
            ys.append(np.stack([np.asarray(y) for y in per]))
            continue
        one = v.aval.update(shape=(1, *v.aval.shape[1:]))
        parts = [_reshaped(em, em.tensor(y, v.aval.update(shape=v.aval.shape[1:])), one.update(shape=one.shape[1:]),
                           one.shape) for y in per]
        ys.append(em.op("Concat", [em.op("MakeTuple", parts, None, function=False), 0], v.aval))
    return [*carry, *ys]


def _step_slice(em, x, aval, t):
    """``x[t]`` of a scanned input."""
    if not isinstance(x, str):
        return np.asarray(x)[t]
    shape = tuple(aval.shape)
    begin, end = (t,) + (0,) * (len(shape) - 1), (t + 1,) + tuple(int(d) for d in shape[1:])
    row = em.op("StridedSlice", [x, begin, end, (1,) * len(shape), 0, 0, 0, 0, 0], aval.update(shape=(1, *shape[1:])))
    return _reshaped(em, row, aval.update(shape=(1, *shape[1:])), shape[1:])
