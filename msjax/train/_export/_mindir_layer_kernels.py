"""MindIR op types of the model zoo's layers (issue 34's census): activations, normalizations,
resizing, sorting and the pooling forms MindSpore 2.10's exporter writes for them. Importing this
module adds them to ``_mindir_kernels.KERNELS`` (the reader imports it).

Forms recorded from MindSpore 2.10's files (``tests/fixtures/record_mindir_load.py``'s ``layers2``
cases): ``ResizeBilinearV2(x, size, align_corners, half_pixel_centers)``, ``Elu(x, alpha)``,
``Round(x, decimals)``, ``InplaceAddExt(x, y, alpha, U)`` (``out += y``), ``GatherNd(x, indices)``, ``PReLU(x, w)``, ``Mish(x)``, ``Softplus(x)``,
``GroupNorm(x, num_groups, gamma, beta, eps)`` -> ``(y, mean, rstd)`` as ``PRIMITIVE_FUNCTION``s;
``TopK(x, k)`` (``sorted``), ``Sort(x)`` (``axis``, ``descending``), ``Unstack(x)`` (``axis``),
``L2Normalize(x)`` (``axis``, ``epsilon``), ``LRN(x)`` and ``MaxPool3DWithArgmax(x)`` (``ksize``,
``strides``, ``pads``, ``dilation``, ``ceil_mode``: ``nn.MaxPool2d(pad_mode='pad')`` on an
expanded depth axis) and ``Conv2DBackpropInput`` (``nn.Conv1dTranspose`` on an expanded axis;
``Conv2DTranspose``'s attributes), ``NMSWithMask``, ``ROIAlign``, ``BoundingBoxDecode``, ``Conv3D``, ``Conv3DTranspose``
and ``MaxPool3D`` (``nn.Conv3d``, ``nn.Conv3dTranspose``, ``nn.MaxPool3d``) with attributes; ``TensorScatter*``, ``ScatterNd`` and ``ClampScalar(x, min, max)`` (``Tensor.clip``) as ``PRIMITIVE_FUNCTION``s. ``MaxPool3DWithArgmax``'s indices are not computed: a graph
that reads them raises when it runs.
"""
from __future__ import annotations

from ... import ops
from ..._core.tensor import Tensor
from ._mindir_kernels import _FN, KERNELS, STATIC_INPUTS, _attrs, _pad_mode, _prim

__all__ = []


class _NoArgmax:
    """``MaxPool3DWithArgmax``'s second output, which msjax does not compute."""

    def __getattr__(self, name):
        raise RuntimeError("Load MindIR failed: the indices output of 'MaxPool3DWithArgmax' is not supported by msjax "
                           "(its pooled values are).")


def _max_pool3d_argmax(args, attrs):
    x = args[0]
    pads = tuple(int(p) for p in attrs.get("pads", (0, 0, 0)))
    dil = tuple(int(d) for d in attrs.get("dilation", (1, 1, 1)))[-3:]
    y = ops.max_pool3d(x, tuple(attrs["ksize"])[-3:], tuple(attrs["strides"])[-3:], pads, dil,
                       bool(attrs.get("ceil_mode", False)))
    return y, _NoArgmax()


def _group_norm(args, attrs):
    x, groups, gamma, beta, eps = args
    y = ops.group_norm(x, int(groups), gamma, beta, float(eps))
    g = x.reshape(x.shape[0], int(groups), -1)
    mean = g.mean(axis=-1)
    var = ((g - mean.expand_dims(-1)) ** 2).mean(axis=-1)
    return y, mean, ops.rsqrt(var + float(eps))


def _l2_normalize(args, attrs):
    axis = attrs.get("axis", 0)
    axis = tuple(axis) if isinstance(axis, (list, tuple)) else axis
    if isinstance(axis, tuple) and len(axis) == 1:
        axis = axis[0]
    return _FN["L2Normalize"](args[0], axis, attrs.get("epsilon", 1e-4))


def _round(args, attrs):
    x, decimals = (list(args) + [0])[:2]
    return ops.round(x, decimals=int(decimals or 0))


def _inplace_add(args, attrs):
    """``InplaceAddExt(input, other, alpha)``/``InplaceAddsExt`` (a scalar ``other``; ``out += x`` in a
    ``construct``): ``input + alpha * other``, written to ``input`` (a Parameter of the GraphCell takes it)."""
    x, other = args[0], args[1]
    alpha = args[2] if len(args) > 2 else 1
    if isinstance(alpha, (int, float)) and alpha == 1:
        new = x + other
    else:
        new = x + other * alpha
    if isinstance(x, Tensor) and new.dtype == x.dtype and tuple(new.shape) == tuple(x.shape):
        ops.assign(x, new)
    return new


def _max_pool3d(args, attrs):
    """``MaxPool3D(x)``: MindSpore records the paddings its ``same`` mode computed in ``pad_list``,
    which the op itself takes only with ``pad_mode='pad'``."""
    attrs = dict(attrs)
    if str(_pad_mode(attrs.get("pad_mode", "VALID"))).upper() != "PAD":
        attrs.pop("pad_list", None)
    return _MAX_POOL3D(args, attrs)


def _conv3d_transpose(args, attrs):
    """``Conv3DTranspose(dout, weight)``: MindSpore records ``output_padding`` with the batch and
    channel axes (5 values) and, under ``same``, zeros in ``pad``; the op takes the 3 spatial values."""
    keep = ("in_channel", "out_channel", "kernel_size", "mode", "pad_mode", "pad", "stride", "dilation", "group",
            "output_padding")
    kw = {k: attrs[k] for k in keep if k in attrs}
    if "pad_mode" in kw:
        kw["pad_mode"] = _pad_mode(kw["pad_mode"])
    for k in ("stride", "dilation", "output_padding"):
        if isinstance(attrs.get(k), (tuple, list)):
            kw[k] = tuple(attrs[k])[-3:]
    if str(kw.get("pad_mode", "valid")).lower() != "pad":
        kw["pad"] = 0
    return _FN["Conv3DTranspose"](*args[:2], **kw)


_MAX_POOL3D = _attrs("MaxPool3D", ("kernel_size", "strides", "pad_mode", "pad_list", "ceil_mode", "format"),
                     {"format": "data_format"})


def _unstack(args, attrs):
    return tuple(ops.unstack(args[0], attrs.get("axis", 0)))


KERNELS.update({
    "ResizeBilinearV2": _prim("ResizeBilinearV2"),
    "Elu": _prim("Elu"),
    "Round": _round,
    "GatherNd": _prim("GatherNd"),
    "PReLU": _prim("PReLU"),
    "Mish": lambda args, attrs: ops.mish(args[0]),
    "Softplus": lambda args, attrs: ops.softplus(args[0]),
    "GroupNorm": _group_norm,
    "TopK": _attrs("TopK", ("sorted",)),
    "Sort": _attrs("Sort", ("axis", "descending")),
    "Unstack": _unstack,
    "L2Normalize": _l2_normalize,
    "LRN": _attrs("LRN", ("depth_radius", "bias", "alpha", "beta", "norm_region")),
    "MaxPool3DWithArgmax": _max_pool3d_argmax,
    "AdaptiveMaxPool2D": _prim("AdaptiveMaxPool2D"),
    # nn.Conv1dTranspose: the same node and attributes under the base class's name
    "Conv2DBackpropInput": KERNELS["Conv2DTranspose"],
    "InplaceAddExt": _inplace_add,
    "InplaceAddsExt": _inplace_add,
    # 3-D layers (nn.Conv3d, nn.MaxPool3d): attribute form
    "Conv3D": _attrs("Conv3D", ("out_channel", "kernel_size", "mode", "pad_mode", "pad", "stride", "dilation",
                                "group", "format"), {"format": "data_format"}),
    "MaxPool3D": _max_pool3d,
    "Conv3DTranspose": _conv3d_transpose,
    "NMSWithMask": _attrs("NMSWithMask", ("iou_threshold",)),
    "ROIAlign": _attrs("ROIAlign", ("pooled_height", "pooled_width", "spatial_scale", "sample_num", "roi_end_mode")),
    "BoundingBoxDecode": _attrs("BoundingBoxDecode", ("max_shape", "means", "stds", "wh_ratio_clip")),
    "ClampScalar": lambda args, attrs: ops.clamp(*args[:3]),         # Tensor.clip(lo, None): EcapaTDNN
    **{op: _prim(op) for op in ("TensorScatterUpdate", "TensorScatterAdd", "TensorScatterSub", "TensorScatterMul",
                                "TensorScatterDiv", "TensorScatterMax", "TensorScatterMin", "ScatterNd")},
})
STATIC_INPUTS.update({"ResizeBilinearV2": (1,), "AdaptiveMaxPool2D": (1,), "TopK": (1,), "Round": (1,),
                      "GroupNorm": (1, 4)})
