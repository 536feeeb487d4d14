"""``mindspore.mint.nn.functional``: torch-style neural-network functions over ``msjax.ops``
(``padding`` as an int, tuple or ``'same'``/``'valid'``, ``inplace`` flags, ``dim=None``
softmax dimension chosen as torch does).

Differences from MindSpore 2.10: ``dropout``/``dropout2d`` draw from msjax's JAX key (the
same distribution, other values); MindSpore's CPU build has no kernel for most of these
(``conv2d``, ``gelu``, ``max_pool2d``, ``log_softmax``...), msjax runs them everywhere.
"""
from __future__ import annotations

from ... import ops as _ops
from ...ops._impl.image import pad_any_rank as _pad_any_rank
from ...ops._impl import upsample_ext as _upsample_ext
from ...ops._impl.linalg import vector_norm_ext as _vector_norm
from ..._core import dtype as _mstype
from ..._core.tensor import Tensor

from ...ops import (adaptive_avg_pool2d, adaptive_avg_pool3d, adaptive_max_pool2d,  # noqa: F401
                    binary_cross_entropy, conv_transpose2d, cosine_embedding_loss, cross_entropy, embedding, fold,
                    gelu, grid_sample, group_norm, hardshrink, hardsigmoid, hardswish, l1_loss,
                    layer_norm, logsigmoid, mish, mse_loss, pixel_shuffle, prelu, sigmoid, soft_margin_loss,
                    softplus, softshrink, tanh, unfold)


def _need(name, x, arg="input"):
    if not isinstance(x, Tensor):
        raise TypeError(f"For '{name}', the '{arg}' must be a Tensor, but got {type(x).__name__}.")
    return x


def _maybe_inplace(input, out, inplace):
    return input.copy_(out) if inplace else out


def _implicit_dim(ndim):
    """torch's (and MindSpore's) dimension for ``softmax(dim=None)``."""
    return 0 if ndim in (0, 1, 3) else 1


# ---------------------------------------------------------------------------
# activations
# ---------------------------------------------------------------------------

def relu(input, inplace=False):
    """``relu(input, inplace=False)``."""
    return _ops.relu(input, inplace)


def relu_(input):
    """``relu_(input)``: ``relu`` written into ``input``."""
    return relu(input, True)


def relu6(input, inplace=False):
    """``relu6(input, inplace=False)``."""
    return _maybe_inplace(input, _ops.relu6(input), inplace)


def sigmoid_(input):
    """``sigmoid_(input)``: ``sigmoid`` written into ``input``."""
    return _need("sigmoid_", input).copy_(_ops.sigmoid(input))


def silu(input, inplace=False):
    """``silu(input, inplace=False)``."""
    return _maybe_inplace(input, _ops.silu(input), inplace)


def elu(input, alpha=1.0, inplace=False):
    """``elu(input, alpha=1.0, inplace=False)``: any ``alpha`` (``ops.elu`` takes only 1.0)."""
    out = _ops.elu(input) if alpha == 1.0 else _ops.where(input > 0, input, _ops.expm1(input) * alpha)
    return _maybe_inplace(input, out, inplace)


def elu_(input, alpha=1.0):
    """``elu_(input, alpha=1.0)``."""
    return elu(input, alpha, True)


_SELU_ALPHA, _SELU_SCALE = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946


def selu(input):
    """``selu(input)``: ``scale * elu(input, alpha)``, with the analytic gradient (``ops.selu`` keeps
    MindSpore 2.10's SeLU gradient rule, ``scale * (selu(x) + 1)`` for ``x <= 0``)."""
    return elu(_need("selu", input), _SELU_ALPHA) * _SELU_SCALE


def hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False):
    """``hardtanh(input, min_val=-1.0, max_val=1.0, inplace=False)``."""
    return _maybe_inplace(input, _ops.hardtanh(input, min_val, max_val), inplace)


def hardtanh_(input, min_val=-1, max_val=1):
    """``hardtanh_(input, min_val=-1, max_val=1)``."""
    return hardtanh(input, min_val, max_val, True)


def threshold(input, threshold, value, inplace=False):  # noqa: A002
    """``threshold(input, threshold, value, inplace=False)``: ``value`` where ``input <= threshold``."""
    return _maybe_inplace(input, _ops.threshold(input, threshold, value), inplace)


def threshold_(input, threshold, value):  # noqa: A002
    """``threshold_(input, threshold, value)``."""
    return _need("threshold_", input).copy_(_ops.threshold(input, threshold, value))


def leaky_relu(input, negative_slope=0.01):
    """``leaky_relu(input, negative_slope=0.01)``."""
    return _ops.leaky_relu(input, negative_slope)


def glu(input, dim=-1):
    """``glu(input, dim=-1)``."""
    return _ops.glu(input, dim)


def softmax(input, dim=None, dtype=None):
    """``softmax(input, dim=None, dtype=None)``: ``dim=None`` picks 0 for 0-, 1- and 3-D inputs,
    else 1 (torch's rule, as MindSpore)."""
    _need("softmax", input)
    dim = _implicit_dim(input.ndim) if dim is None else dim
    if not isinstance(dim, int) or isinstance(dim, bool):
        raise TypeError(f" the type of 'dim' must be 'int', but got '{dim}' with type '{type(dim).__name__}'.")
    return _ops.softmax(input, dim, dtype=dtype)


def log_softmax(input, dim=None, *, dtype=None):
    """``log_softmax(input, dim=None, *, dtype=None)``: ``dim=None`` as ``softmax``."""
    _need("log_softmax", input)
    if dtype is not None:
        input = input.astype(dtype)
    return _ops.log_softmax(input, _implicit_dim(input.ndim) if dim is None else dim)


# ---------------------------------------------------------------------------
# linear, convolution, pooling
# ---------------------------------------------------------------------------

def linear(input, weight, bias=None):
    """``linear(input, weight, bias=None)``: ``input @ weight.T + bias`` (``ops.dense``)."""
    return _ops.dense(input, weight, bias)


def _conv_padding(padding):
    if isinstance(padding, str):
        if padding not in ("same", "valid"):
            raise ValueError(f"For 'conv', 'padding' must be 'same', 'valid', an int or a tuple, but got {padding!r}.")
        return padding, 0
    return "pad", padding


def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """``conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1)``."""
    mode, pad = _conv_padding(padding)
    return _ops.conv1d(input, weight, bias, stride, mode, pad, dilation, groups)


def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """``conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1)``."""
    mode, pad = _conv_padding(padding)
    return _ops.conv2d(input, weight, bias, stride, mode, pad, dilation, groups)


def conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    """``conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1)``."""
    mode, pad = _conv_padding(padding)
    return _ops.conv3d(input, weight, bias, stride, mode, pad, dilation, groups)


def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
    """``avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True)``."""
    return _ops.avg_pool1d(input, kernel_size, kernel_size if stride is None else stride, padding, ceil_mode,
                           count_include_pad)


def avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    """``avg_pool2d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
    divisor_override=None)``."""
    return _ops.avg_pool2d(input, kernel_size, kernel_size if stride is None else stride, padding, ceil_mode,
                           count_include_pad, divisor_override or 0)


def avg_pool3d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    """``avg_pool3d(...)``: as ``avg_pool2d`` in three dimensions."""
    return _ops.avg_pool3d(input, kernel_size, kernel_size if stride is None else stride, padding, ceil_mode,
                           count_include_pad, divisor_override or 0)


def max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    """``max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False,
    return_indices=False)``."""
    return _ops.max_pool2d(input, kernel_size, stride, padding, dilation, return_indices, ceil_mode)


def max_unpool2d(input, indices, kernel_size, stride=None, padding=0, output_size=None):
    """``max_unpool2d(input, indices, kernel_size, stride=None, padding=0, output_size=None)``:
    ``nn.MaxUnpool2d``'s computation."""
    from ...nn.layer.pooling import MaxUnpool2d
    if isinstance(output_size, list):
        output_size = tuple(output_size)
    return MaxUnpool2d(kernel_size, stride, padding)(input, indices, output_size)


def adaptive_avg_pool1d(input, output_size):
    """``adaptive_avg_pool1d(input, output_size)``: (N, C, L) or (C, L), any ``output_size`` (windows
    ``[floor(i L / out), ceil((i + 1) L / out))``), as MindSpore's Ascend kernel (its CPU build has none);
    ``ops.adaptive_avg_pool1d`` keeps its own 3-D, divisible-length rule."""
    return _ops.adaptive_avg_pool2d(input.unsqueeze(-2), (1, output_size)).squeeze(-2)


def adaptive_max_pool1d(input, output_size, return_indices=False):
    """``adaptive_max_pool1d(input, output_size, return_indices=False)``: (N, C, L) or (C, L), any
    ``output_size``, as ``adaptive_avg_pool1d``."""
    out = _ops.adaptive_max_pool2d(input.unsqueeze(-2), (1, output_size), return_indices)
    if not return_indices:
        return out.squeeze(-2)
    return out[0].squeeze(-2), out[1].squeeze(-2)


# ---------------------------------------------------------------------------
# normalisation, dropout, embedding-style
# ---------------------------------------------------------------------------

def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1, eps=1e-05):
    """``batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False,
    momentum=0.1, eps=1e-05)``: missing ``weight``/``bias`` are ones/zeros."""
    _need("batch_norm", input)
    c = input.shape[1]
    if weight is None:
        weight = _ops.ones((c,), input.dtype)
    if bias is None:
        bias = _ops.zeros((c,), input.dtype)
    return _ops.batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps)


def dropout(input, p=0.5, training=True, inplace=False):
    """``dropout(input, p=0.5, training=True, inplace=False)``."""
    return _maybe_inplace(input, _ops.dropout(input, p, training), inplace)


def dropout2d(input, p=0.5, training=True, inplace=False):
    """``dropout2d(input, p=0.5, training=True, inplace=False)``."""
    return _maybe_inplace(input, _ops.dropout2d(input, p, training), inplace)


def normalize(input, p=2.0, dim=1, eps=1e-12):
    """``normalize(input, p=2.0, dim=1, eps=1e-12)``: ``input / max(||input||_p, eps)`` along ``dim``."""
    n = _vector_norm(_need("normalize", input), p, dim, True)
    return input / _ops.clamp(n, eps)


def one_hot(tensor, num_classes=-1):
    """``one_hot(tensor, num_classes=-1)``: Int64; ``-1`` means ``max(tensor) + 1`` classes."""
    _need("one_hot", tensor, "tensor")
    if num_classes == -1:
        num_classes = int(tensor.max()) + 1
    return _ops.one_hot(tensor, num_classes, 1, 0).astype(_mstype.int64)


def pad(input, pad, mode="constant", value=None):  # noqa: A002
    """``pad(input, pad, mode='constant', value=None)``: ``ops.pad`` without its PadV3 rank rules (MindSpore's
    mint has a kernel per mode and rank; its CPU build lacks ReflectionPad3D)."""
    return _pad_any_rank(input, pad, mode, value)


def flatten(input, start_dim=0, end_dim=-1):
    """``flatten(input, start_dim=0, end_dim=-1)``."""
    return _ops.flatten(input, start_dim=start_dim, end_dim=end_dim)


def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None,
                recompute_scale_factor=None):
    """``interpolate(input, size=None, scale_factor=None, mode='nearest', align_corners=None,
    recompute_scale_factor=None)``: MindSpore's ``interpolate_ext`` (modes nearest, linear, bilinear,
    bicubic, trilinear; a ``scale_factor`` of floats samples with ``1 / scale``), see
    ``msjax/ops/_impl/upsample_ext.py`` for its one difference (bicubic)."""
    return _upsample_ext.interpolate(input, size, scale_factor, mode, align_corners, recompute_scale_factor)


def upsample(input, size=None, scale_factor=None, mode="nearest", align_corners=None):
    """``upsample(input, size=None, scale_factor=None, mode='nearest', align_corners=None)``: ``interpolate``."""
    return interpolate(input, size, scale_factor, mode, align_corners)


# ---------------------------------------------------------------------------
# losses
# ---------------------------------------------------------------------------

def binary_cross_entropy_with_logits(input, target, weight=None, reduction="mean", pos_weight=None):
    """``binary_cross_entropy_with_logits(input, target, weight=None, reduction='mean', pos_weight=None)``."""
    return _ops.binary_cross_entropy_with_logits(input, target, weight, pos_weight, reduction)


def kl_div(input, target, reduction="mean", log_target=False):
    """``kl_div(input, target, reduction='mean', log_target=False)``: ``'batchmean'`` divides the sum
    by the batch size; ``log_target`` takes ``target`` in log space."""
    _need("kl_div", input)
    if reduction not in ("none", "mean", "sum", "batchmean"):
        raise ValueError(f"For 'kl_div', 'reduction' must be 'none', 'mean', 'sum' or 'batchmean', but got "
                         f"{reduction!r}.")
    if log_target:
        target = _ops.exp(target)
    if reduction != "batchmean":
        return _ops.kl_div(input, target, reduction)
    total = _ops.kl_div(input, target, "sum")
    return total / input.shape[0] if input.ndim else total


def nll_loss(input, target, weight=None, ignore_index=-100, reduction="mean"):
    """``nll_loss(input, target, weight=None, ignore_index=-100, reduction='mean')``."""
    return _ops.nll_loss(input, target, weight, ignore_index, reduction)


def smooth_l1_loss(input, target, reduction="mean", beta=1.0):
    """``smooth_l1_loss(input, target, reduction='mean', beta=1.0)``."""
    return _ops.smooth_l1_loss(input, target, beta, reduction)


__all__ = sorted(n for n in list(globals()) if not n.startswith("_") and n not in ("annotations", "Tensor"))
