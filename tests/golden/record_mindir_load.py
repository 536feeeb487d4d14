"""Record MindIR files written by MindSpore 2.10 and MindSpore's own outputs for them.

    /tmp/ms/bin/python tests/golden/record_mindir_load.py            # writes tests/fixtures/mindir/
    /tmp/ms/bin/python tests/golden/record_mindir_load.py --ops      # also print each file's op types
    /tmp/ms/bin/python tests/golden/record_mindir_load.py NAME...    # only these nets, the others kept

Small zoo-style networks with fixed (seeded) weights: LeNet5 exactly as the zoo's
``official/cv/LeNet/src/lenet.py`` (``cases_nn_models._lenet5``); a ResNet stem + residual
block with BatchNorm, Pad and MaxPool; a MobileNetV2 inverted-residual block (depthwise conv,
ReLU6) exported with a dynamic batch (``Tensor(shape=[None, ...])``); a VGG-style stack
(``pad_mode='same'`` convs, MaxPool, Dropout in eval); a BERT-style Transformer encoder layer
(two inputs, a tuple of two outputs: LayerNorm, Softmax, GELU, BatchMatMul, Reshape,
Transpose); MindSpore's own ``nn.TransformerEncoderLayer``; and two nets of assorted ops
(Embedding, Concat, AvgPool, reductions, Cast, Split, hard activations, StridedSlice, OneHot,
Conv2dTranspose, resizing...); issue 34's CycleGAN-style generator block (reflect padding,
BatchNorm on batch statistics, Conv2dTranspose), EDSR-style block (DepthToSpace, PixelShuffle,
average pooling in every form, nearest resizing), a float16 attention-score block (a 0-d
float32 constant times float16), integer division ops and the census's layers (bilinear resizing,
GroupNorm, PReLU, TopK, padded max pooling..., 3-D convolution and pooling). Each is exported with ``ms.export(..., file_format='MINDIR')``
into ``tests/fixtures/mindir/<name>.mindir`` and run through ``ms.load`` + ``nn.GraphCell``;
inputs and outputs go into ``tests/fixtures/mindir/outputs.npz`` as ``<name>/in<i>`` and
``<name>/out<i>`` (``<name>@<batch>/...`` for extra batch sizes of a dynamic-batch file).
GraphCell's errors for bad calls go into ``errors.json``. ``tests/test_mindir_load.py`` replays
them under msjax (MindSpore is never imported there).
"""
import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from cases_nn_models import _lenet5    # noqa: E402  (the zoo's LeNet5, shared with the golden model cases)
OUT = os.path.join(os.path.dirname(HERE), "fixtures", "mindir")


def build_nets(ms):
    """name -> (net, export inputs, run inputs per batch). Weights come from ``ms.set_seed``."""
    from mindspore import nn, ops, Tensor
    import mindspore.common.dtype as mstype

    def bn(c):
        # non-trivial moving statistics so that BatchNorm's inference path is tested
        b = nn.BatchNorm2d(c, eps=1e-4, momentum=0.9)
        rng = np.random.RandomState(c)
        b.moving_mean.set_data(Tensor(rng.randn(c).astype(np.float32) * 0.1))
        b.moving_variance.set_data(Tensor(rng.rand(c).astype(np.float32) + 0.5))
        b.gamma.set_data(Tensor(rng.rand(c).astype(np.float32) + 0.5))
        b.beta.set_data(Tensor(rng.randn(c).astype(np.float32) * 0.1))
        return b

    class ResidualBlockBase(nn.Cell):
        """The zoo ResNet18's basic block (res_base=True): conv3x3 pad_mode='pad', BN, ReLU."""
        def __init__(self, cin, cout, stride):
            super().__init__()
            self.conv1 = nn.Conv2d(cin, cout, 3, stride=stride, pad_mode='pad', padding=1)
            self.bn1d = bn(cout)
            self.conv2 = nn.Conv2d(cout, cout, 3, stride=1, pad_mode='pad', padding=1)
            self.bn2d = bn(cout)
            self.relu = nn.ReLU()
            self.down_sample_layer = nn.SequentialCell([nn.Conv2d(cin, cout, 1, stride=stride), bn(cout)])

        def construct(self, x):
            identity = x
            out = self.relu(self.bn1d(self.conv1(x)))
            out = self.bn2d(self.conv2(out))
            identity = self.down_sample_layer(identity)
            return self.relu(out + identity)

    class ResNetTiny(nn.Cell):
        def __init__(self):
            super().__init__()
            self.conv1 = nn.Conv2d(3, 8, 7, stride=2, pad_mode='pad', padding=3)
            self.bn1 = bn(8)
            self.relu = ops.ReLU()
            self.pad = nn.Pad(paddings=((0, 0), (0, 0), (1, 1), (1, 1)))
            self.maxpool = nn.MaxPool2d(kernel_size=3, stride=2, pad_mode="valid")
            self.layer1 = ResidualBlockBase(8, 16, 2)
            self.mean = ops.ReduceMean(keep_dims=True)
            self.flatten = nn.Flatten()
            self.end_point = nn.Dense(16, 10, has_bias=True)

        def construct(self, x):
            x = self.relu(self.bn1(self.conv1(x)))
            x = self.maxpool(self.pad(x))
            x = self.layer1(x)
            x = self.mean(x, (2, 3))
            return self.end_point(self.flatten(x))

    class ConvBNReLU(nn.Cell):
        def __init__(self, cin, cout, k=3, stride=1, groups=1):
            super().__init__()
            pad = (k - 1) // 2
            conv = nn.Conv2d(cin, cout, k, stride, pad_mode='pad', padding=pad, group=groups)
            self.features = nn.SequentialCell([conv, bn(cout), nn.ReLU6()])

        def construct(self, x):
            return self.features(x)

    class InvertedResidual(nn.Cell):
        def __init__(self, inp, oup, stride, expand_ratio):
            super().__init__()
            hidden = inp * expand_ratio
            self.use_res_connect = stride == 1 and inp == oup
            self.conv = nn.SequentialCell([
                ConvBNReLU(inp, hidden, k=1), ConvBNReLU(hidden, hidden, stride=stride, groups=hidden),
                nn.Conv2d(hidden, oup, kernel_size=1, stride=1, has_bias=False), bn(oup)])
            self.add = ops.Add()

        def construct(self, x):
            identity = x
            x = self.conv(x)
            if self.use_res_connect:
                return self.add(identity, x)
            return x

    class MobileNetTiny(nn.Cell):
        def __init__(self):
            super().__init__()
            self.features = nn.SequentialCell([ConvBNReLU(3, 8, stride=2), InvertedResidual(8, 8, 1, 4),
                                               InvertedResidual(8, 16, 2, 2)])
            self.mean = ops.ReduceMean(keep_dims=False)
            self.dense = nn.Dense(16, 5, has_bias=True)

        def construct(self, x):
            x = self.features(x)
            return self.dense(self.mean(x, (2, 3)))

    class VggTiny(nn.Cell):
        def __init__(self):
            super().__init__()
            self.layers = nn.SequentialCell([
                nn.Conv2d(3, 8, 3, pad_mode='same', has_bias=False, weight_init='XavierUniform'), bn(8), nn.ReLU(),
                nn.MaxPool2d(kernel_size=2, stride=2),
                nn.Conv2d(8, 16, 3, pad_mode='same', has_bias=True), nn.ReLU(),
                nn.MaxPool2d(kernel_size=2, stride=2)])
            self.flatten = nn.Flatten()
            self.classifier = nn.SequentialCell([nn.Dense(16 * 4 * 4, 32), nn.ReLU(), nn.Dropout(p=0.5),
                                                 nn.Dense(32, 10)])

        def construct(self, x):
            return self.classifier(self.flatten(self.layers(x)))

    class BertLayer(nn.Cell):
        """A BERT encoder layer written like the zoo's bert_model.py (post-LayerNorm)."""
        def __init__(self, hidden=32, heads=4, inter=64):
            super().__init__()
            self.heads, self.size = heads, hidden // heads
            self.query = nn.Dense(hidden, hidden)
            self.key = nn.Dense(hidden, hidden)
            self.value = nn.Dense(hidden, hidden)
            self.out = nn.Dense(hidden, hidden)
            self.ln1 = nn.LayerNorm((hidden,), epsilon=1e-12)
            self.inter = nn.Dense(hidden, inter)
            self.gelu = nn.GELU(approximate=False)
            self.output = nn.Dense(inter, hidden)
            self.ln2 = nn.LayerNorm((hidden,), epsilon=1e-12)
            self.softmax = nn.Softmax()
            self.matmul_trans_b = ops.BatchMatMul(transpose_b=True)
            self.matmul = ops.BatchMatMul()
            self.scale = 1.0 / np.sqrt(self.size)
            self.dropout = nn.Dropout(p=0.1)

        def split(self, t, b, s):
            return ops.transpose(ops.reshape(t, (b, s, self.heads, self.size)), (0, 2, 1, 3))

        def construct(self, x, mask):
            b, s, h = x.shape
            x2 = ops.reshape(x, (-1, h))
            q = self.split(self.query(x2), b, s)
            k = self.split(self.key(x2), b, s)
            v = self.split(self.value(x2), b, s)
            scores = self.matmul_trans_b(q, k) * self.scale
            adder = (1.0 - ops.cast(ops.expand_dims(mask, 1), mstype.float32)) * -10000.0
            probs = self.dropout(self.softmax(scores + adder))
            ctx = ops.reshape(ops.transpose(self.matmul(probs, v), (0, 2, 1, 3)), (-1, h))
            a = self.ln1(self.out(ctx) + x2)
            y = self.ln2(self.output(self.gelu(self.inter(a))) + a)
            return ops.reshape(y, (b, s, h)), probs

    class MsEncoder(nn.Cell):
        def __init__(self):
            super().__init__()
            self.layer = nn.TransformerEncoderLayer(d_model=16, nhead=2, dim_feedforward=32, dropout=0.0,
                                                    batch_first=True)

        def construct(self, x):
            return self.layer(x)

    class Misc(nn.Cell):
        """Assorted ops seen in zoo nets beyond the five above."""
        def __init__(self):
            super().__init__()
            self.embed = nn.Embedding(20, 8)
            self.conv = nn.Conv2d(2, 4, 3, pad_mode='valid', has_bias=True)
            self.avg = nn.AvgPool2d(kernel_size=2, stride=2)
            self.dense = nn.Dense(8, 6, activation='tanh')

        def construct(self, ids, img):
            e = self.embed(ids)                                    # (2, 4, 8)
            s = ops.sigmoid(e) * ops.tanh(e) - ops.exp(-ops.abs(e)) / 2.0
            s = ops.sqrt(ops.square(s) + 1.0)
            c = ops.concat((s, e), axis=1)                         # (2, 8, 8)
            r = ops.sum(c, 1) + ops.amax(c, 1)        # (2, 8)
            m = ops.maximum(r, 0.1) - ops.minimum(r, -0.1)
            m = ops.div(m, 3.0) + ops.sub(m, 1.0)
            d = self.dense(m * 0.1)     # (2, 6); tanh away from saturation (MindSpore's CPU tanh rounds to +-1 there)
            a, b = ops.split(d, 3, axis=1)
            p = self.avg(self.conv(img))                           # (2, 4, 3, 3)
            p = ops.squeeze(ops.mean(p, (2, 3), keep_dims=True), (2, 3))   # (2, 4)
            q = ops.expand_dims(ops.log(ops.abs(p) + 1.0), 2)     # (2, 4, 1)
            am = ops.argmax(d, 1)
            out = ops.cast(ops.pow(a, 2.0), mstype.float16)
            return out, b, q, ops.softmax(d, -1), am

    class Misc2(nn.Cell):
        """More ops of zoo nets: MobileNetV3's hard activations, BERT's pooler slice, masks..."""
        def __init__(self):
            super().__init__()
            self.gelu_tanh = nn.GELU()
            self.hswish = nn.HSwish()
            self.hsigmoid = nn.HSigmoid()
            self.leaky = nn.LeakyReLU(0.2)
            self.log_softmax = nn.LogSoftmax(axis=-1)
            self.deconv = nn.Conv2dTranspose(3, 2, 2, stride=2)
            self.adaptive = nn.AdaptiveAvgPool2d((2, 2))
            self.resize = ops.ResizeNearestNeighbor((8, 8))
            self.one_hot = ops.OneHot()
            self.argmax_value = ops.ArgMaxWithValue(axis=1)
            self.reduce_sum = ops.ReduceSum(keep_dims=True)
            self.reduce_min = ops.ReduceMin()

        def construct(self, x, img, labels):
            g = self.gelu_tanh(x) + ops.fast_gelu(x) + self.hswish(x) * self.hsigmoid(x) + self.leaky(x)
            cls = g[:, 0]                                          # StridedSlice
            s = ops.slice(g, (0, 1, 0), (2, 2, 4))                 # (2, 2, 4)
            t = ops.tile(cls, (1, 2))                              # (2, 8)
            w = ops.where(t > 0.1, t, ops.zeros_like(t)) + ops.ones_like(t)
            w = w * ops.cast(ops.equal(ops.floor(t * 3.0), 0.0), mstype.float32) + ops.rsqrt(ops.abs(t) + 1.0)
            w = w + ops.reciprocal(ops.abs(t) + 2.0) + ops.sin(t) * ops.cos(t)
            idx, val = self.argmax_value(w)
            oh = self.one_hot(labels, 4, Tensor(1.0, mstype.float32), Tensor(0.0, mstype.float32))
            st = ops.stack((oh, oh * 2.0), axis=1)                # (2, 2, 4)
            b = ops.broadcast_to(self.reduce_sum(st, 1), (2, 3, 4)) + self.reduce_min(s, 1).expand_dims(1)
            up = self.resize(self.deconv(img))                     # (2, 2, 8, 8)
            p = self.adaptive(up)
            return self.log_softmax(w), idx, val, b, p, ops.less(t, 0.0), ops.greater_equal(t, 0.2)

    class Misc3(nn.Cell):
        """Element-wise ops msjax's own MindIR writer emits (no weights)."""
        def __init__(self):
            super().__init__()
            self.real_div = ops.RealDiv()
            self.reduce_prod = ops.ReduceProd(keep_dims=False)
            self.argmin = ops.Argmin(axis=1)
            self.cumsum = ops.CumSum(reverse=True)

        def construct(self, x, y):
            u = x * 0.5                                            # in (-1, 1)
            a = ops.acos(u) + ops.asin(u) + ops.atan(x) + ops.atanh(u * 0.9) + ops.asinh(x)
            b = ops.acosh(ops.abs(x) + 1.5) + ops.cosh(u) + ops.sinh(u) + ops.tan(u) + ops.atan2(x, y)
            c = ops.erfc(x) + ops.expm1(u) + ops.log1p(ops.abs(x)) + ops.sign(x) + ops.ceil(x * 2.0)
            m = ops.logical_or(ops.logical_and(ops.less(x, y), ops.not_equal(x, 0.5)),
                               ops.logical_not(ops.less_equal(y, 0.0)))
            fin = ops.isfinite(self.real_div(x, y))
            return a, b, c, m, fin, self.reduce_prod(u + 1.0, 1), self.argmin(x), self.cumsum(x, 1)

    class GeneratorBlock(nn.Cell):
        """CycleGAN's ResNet generator in small (zoo official/cv/CycleGAN, src/models): reflect
        padding, convolutions with BatchNorm on batch statistics (``use_batch_statistics=True``,
        a BatchNorm node with a U monad as its 10th input), a residual block, Conv2dTranspose
        up-sampling ('same' and 'pad'), Tanh."""
        def __init__(self):
            super().__init__()
            self.pad = nn.Pad(((0, 0), (0, 0), (1, 1), (1, 1)), mode="REFLECT")
            self.conv_in = nn.Conv2d(3, 8, 3, pad_mode="valid")
            self.bn_in = nn.BatchNorm2d(8, use_batch_statistics=True)
            self.down = nn.Conv2d(8, 16, 3, stride=2, pad_mode="pad", padding=1)
            self.bn_down = bn(16)
            self.res_conv = nn.Conv2d(16, 16, 3, pad_mode="pad", padding=1)
            self.res_bn = bn(16)
            self.up = nn.Conv2dTranspose(16, 8, 3, stride=2, pad_mode="same")
            self.up_pad = nn.Conv2dTranspose(16, 8, 3, stride=2, pad_mode="pad", padding=1, has_bias=True)
            self.bn_up = bn(8)
            self.out = nn.Conv2d(8, 3, 1, has_bias=True)
            self.relu = nn.ReLU()
            self.tanh = nn.Tanh()

        def construct(self, x):
            h = self.relu(self.bn_in(self.conv_in(self.pad(x))))
            h = self.relu(self.bn_down(self.down(h)))
            h = h + self.res_bn(self.res_conv(h))
            u = self.relu(self.bn_up(self.up(h)))
            return self.tanh(self.out(u)), self.up_pad(h)

    class EdsrBlock(nn.Cell):
        """EDSR in small (zoo official/cv/EDSR): a residual body scaled by 0.1, up-sampling by a
        convolution to 4x the channels then DepthToSpace (and nn.PixelShuffle), nearest resizing,
        average pooling in MindSpore's three forms (AvgPool; AvgPool3D for padding; 1-D)."""
        def __init__(self):
            super().__init__()
            self.head = nn.Conv2d(3, 4, 3, pad_mode="same", has_bias=True)
            self.body1 = nn.Conv2d(4, 4, 3, pad_mode="same", has_bias=True)
            self.body2 = nn.Conv2d(4, 4, 3, pad_mode="same", has_bias=True)
            self.up = nn.Conv2d(4, 16, 3, pad_mode="same", has_bias=True)
            self.d2s = ops.DepthToSpace(2)
            self.shuffle = nn.PixelShuffle(2)
            self.resize = nn.Upsample(scale_factor=2.0, mode="nearest", recompute_scale_factor=True)
            self.avg = nn.AvgPool2d(3, 2, pad_mode="pad", padding=1, count_include_pad=False)
            self.avg_same = nn.AvgPool2d(3, 2, pad_mode="same")
            self.avg1 = nn.AvgPool1d(3, 2)
            self.relu = nn.ReLU()

        def construct(self, x):
            h = self.head(x)
            h = h + self.body2(self.relu(self.body1(h))) * 0.1
            u = self.up(h)
            y = self.d2s(u) + self.shuffle(u)                      # (N, 4, 2H, 2W)
            p = self.avg(y) + self.avg_same(y) + h                 # (N, 4, H, W)
            q = self.avg1(ops.reshape(p, (p.shape[0], 4, -1)))
            return y, self.resize(p) - y, q

    class AttentionF16(nn.Cell):
        """BERT's attention scores in float16: ``ops.Mul()(0.25, q)`` keeps float16 (MindSpore
        stores 0.25 as a 0-d float32 constant), then BatchMatMul, Softmax in float32."""
        def __init__(self):
            super().__init__()
            self.mul = ops.Mul()
            self.bmm = ops.BatchMatMul(transpose_b=True)
            self.softmax = nn.Softmax()

        def construct(self, q, k):
            s = self.bmm(self.mul(0.25, q), k)
            p = self.softmax(ops.cast(s, mstype.float32))
            return ops.cast(p, mstype.float16), s - 1.0, ops.maximum(s, 0.5)

    class IntOps(nn.Cell):
        """Integer division in MindSpore's forms (FloorDiv, DivMod, RemainderTensorScalar,
        TruncateDiv/TruncateMod), ReverseV2 and PadV3 with a fill value."""
        def construct(self, n, m, x):
            a = n // 3 + ops.div(n, m, rounding_mode="trunc") + n % 3 + ops.floor_divide(n, m)
            b = ops.TruncateDiv()(n, m) + ops.TruncateMod()(n, m) + ops.remainder(n, m)
            r = ops.ReverseV2(axis=(1,))(x)
            return a, b, ops.pad(r, (1, 2), value=0.5)

    class CrnnHead(nn.Cell):
        """CRNN's recurrent head in small (zoo official/cv/CRNN): convolution features as a
        time-major sequence, a two-layer bidirectional nn.LSTM (MindSpore's LSTM nodes), Dense."""
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(1, 4, 3, pad_mode="same", has_bias=True)
            self.lstm = nn.LSTM(8, 5, num_layers=2, bidirectional=True)
            self.fc = nn.Dense(10, 6)

        def construct(self, x):
            f = self.conv(x)                                       # (N, 4, 2, T)
            seq = ops.transpose(ops.reshape(f, (f.shape[0], 8, f.shape[3])), (2, 0, 1))   # (T, N, 8)
            y, (h, c) = self.lstm(seq)
            return self.fc(y), h, c

    class ZooLayers(nn.Cell):
        """Layers of the zoo's official models that MindSpore writes as their own op types (issue 34's
        census): ResizeBilinearV2 (both corner modes), Elu, Round, GatherNd, PReLU, Mish, Softplus,
        GroupNorm, TopK, Sort, Unstack, L2Normalize, LRN, MaxPool2d(pad_mode='pad')
        (MaxPool3DWithArgmax), AdaptiveMaxPool2d, ``+=`` (InplaceAddExt)."""
        def __init__(self):
            super().__init__()
            self.prelu = nn.PReLU(4)
            self.elu = nn.ELU()
            self.gn = nn.GroupNorm(2, 4)
            self.pool = nn.MaxPool2d(3, 2, pad_mode="pad", padding=1)
            self.amax = nn.AdaptiveMaxPool2d((2, 3))

        def construct(self, x):
            r = ops.ResizeBilinearV2()(x, (7, 9)) + ops.interpolate(x, size=(7, 9), mode="bilinear",
                                                                    align_corners=True)
            a = self.elu(x) + ops.round(x * 3) + self.prelu(x) + ops.mish(x) + ops.softplus(x)
            a = self.gn(a) + ops.L2Normalize(axis=1)(x) + ops.LRN(depth_radius=2)(x)
            a += x                                                  # InplaceAddExt
            g = ops.GatherNd()(x, Tensor(np.array([[0, 1], [0, 3]], np.int32)))
            t = ops.TopK()(ops.reshape(x, (4, -1)), 3)[0] + ops.Sort(descending=True)(ops.reshape(x, (4, -1)))[0][:, :3]
            u = ops.Unstack(axis=1)(x)[2]
            return r, a, g, t, u, self.pool(x), self.amax(x)

    class Scatters(nn.Cell):
        """The scatters of issue 34's census (PointNet2's ``centroids[i] = farthest``):
        TensorScatterUpdate/Add/Max/Min and ``x[i] = v`` with a tensor index; EcapaTDNN's
        ``Tensor.clip(lo, None)`` (ClampScalar)."""
        def construct(self, x, v):
            idx = Tensor(np.array([[2], [0]], np.int32))
            a = ops.TensorScatterUpdate()(x, idx, v) + ops.TensorScatterAdd()(x, idx, v)
            b = ops.TensorScatterMax()(x, idx, v) - ops.TensorScatterMin()(x, Tensor(np.array([[1, 2]], np.int32)),
                                                                           v[:1, 0])
            y = x * 1
            y[Tensor(np.array([3, 1], np.int32))] = v
            return a, b, y, x.clip(0.1, None) + x.clip(None, 0.2) + x.clip(-0.3, 0.4)      # ClampScalar

    class ListOut(nn.Cell):
        """OpenPose's outputs: a list built in ``construct`` (``make_list``; GraphCell returns a list)."""
        def construct(self, x):
            out = []
            out.append(x * 2)
            out.append(x + 1)
            return out

    class Layers3d(nn.Cell):
        """3-D layers (``Conv3D``, ``MaxPool3D``, ``AvgPool3D``): padded, strided, dilated, grouped
        ``nn.Conv3d`` with a bias, a ``same`` one, max pooling ``valid``/``same``, average pooling."""
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv3d(2, 4, (3, 3, 2), stride=(1, 2, 1), pad_mode="pad", padding=(1, 1, 0, 1, 1, 0),
                                  dilation=(1, 1, 2), group=2, has_bias=True)
            self.same = nn.Conv3d(4, 3, 3, pad_mode="same")
            self.mp = nn.MaxPool3d(kernel_size=2, stride=2)
            self.mp_same = nn.MaxPool3d(kernel_size=3, stride=2, pad_mode="same")
            self.ap = nn.AvgPool3d(kernel_size=2, stride=1)

        def construct(self, x):
            y = self.same(self.conv(x))
            return self.mp(y), self.mp_same(y), self.ap(y)

    class Conv3dTransposes(nn.Cell):
        """``nn.Conv3dTranspose`` (``Conv3DTranspose`` nodes): padded with ``output_padding`` and a bias,
        ``same``, ``valid`` dilated, grouped; ``ops.Conv3DTranspose`` with ``output_padding``."""
        def __init__(self):
            super().__init__()
            self.up = nn.Conv3dTranspose(2, 3, (3, 2, 2), stride=(2, 1, 2), pad_mode="pad", padding=(1, 0, 0, 1, 1, 0),
                                         output_padding=(1, 0, 1), has_bias=True)
            self.same = nn.Conv3dTranspose(3, 2, 2, stride=2, pad_mode="same")
            self.valid = nn.Conv3dTranspose(2, 2, (2, 3, 2), stride=(1, 2, 1), dilation=(1, 2, 1), pad_mode="valid")
            self.grp = nn.Conv3dTranspose(2, 4, 2, stride=2, group=2, pad_mode="valid")
            self.op = ms.ops.Conv3DTranspose(2, 2, 2, pad_mode="pad", stride=2, output_padding=1)
            self.op_w = ms.Parameter(ms.Tensor(np.random.RandomState(18).randn(2, 2, 2, 2, 2).astype(np.float32)))

        def construct(self, x):
            y = self.same(self.up(x))
            return y, self.valid(y), self.grp(x), self.op(x, self.op_w)

    class Nms(nn.Cell):
        """``ops.NMSWithMask`` (the ``NMSWithMask`` node, attribute ``iou_threshold``)."""
        def __init__(self):
            super().__init__()
            self.nms = ops.NMSWithMask(0.3)

        def construct(self, b):
            boxes, idx, mask = self.nms(b)
            return boxes * 2, idx, mask

    class RoiAlign(nn.Cell):
        """``ops.ROIAlign`` (``ROIAlign`` nodes, attribute form): ``roi_end_mode`` 1 and 0, two images."""
        def __init__(self):
            super().__init__()
            self.roi = ops.ROIAlign(3, 2, 0.5, 2)
            self.roi0 = ops.ROIAlign(2, 2, 0.25, 1, 0)

        def construct(self, x, r):
            return self.roi(x, r), self.roi0(x, r)

    class BoxDecode(nn.Cell):
        """``ops.BoundingBoxDecode`` (``BoundingBoxDecode`` nodes, attribute form), a clipping
        ``max_shape`` near and far, as the detection models' proposal stage decodes its anchors."""
        def __init__(self):
            super().__init__()
            self.dec = ops.BoundingBoxDecode(max_shape=(20, 24), means=(0.0, 0.1, 0.0, -0.1),
                                             stds=(1.0, 1.0, 0.5, 2.0), wh_ratio_clip=0.016)
            self.wide = ops.BoundingBoxDecode(max_shape=(64, 48), wh_ratio_clip=0.1)

        def construct(self, a, d):
            return self.dec(a, d), self.wide(a, d * 0.5)

    def anchors(n, seed):
        rng = np.random.RandomState(seed)
        xy = rng.uniform(0, 20, (n, 2))
        return np.concatenate([xy, xy + rng.uniform(1, 10, (n, 2))], 1).astype(np.float32)

    def rois(seed):
        rng = np.random.RandomState(seed)
        xy, wh = rng.uniform(0, 12, (5, 2)), rng.uniform(1, 8, (5, 2))
        return np.concatenate([np.array([[0], [1], [0], [1], [1]]), xy, xy + wh], 1).astype(np.float32)

    def boxes(n, seed):
        rng = np.random.RandomState(seed)
        xy, wh = rng.uniform(0, 20, (n, 2)), rng.uniform(2, 10, (n, 2))
        b = np.concatenate([xy, xy + wh, rng.uniform(0, 1, (n, 1))], 1).astype(np.float32)
        b[5, 4] = b[2, 4]        # two equal scores
        return b

    def f32(*shape, seed=0):
        return np.random.RandomState(seed).randn(*shape).astype(np.float32)

    mask = np.ones((2, 8, 8), np.int32)
    mask[1, :, 6:] = 0
    ids = np.array([[1, 5, 19, 0], [7, 7, 3, 12]], np.int32)
    return {
        "lenet": (_lenet5(ms), [f32(2, 1, 32, 32)], None),
        "resnet_block": (ResNetTiny(), [f32(2, 3, 32, 32)], None),
        "mobilenet_block": (MobileNetTiny(), [Tensor(shape=[None, 3, 16, 16], dtype=mstype.float32)],
                            {2: [f32(2, 3, 16, 16, seed=1)], 3: [f32(3, 3, 16, 16, seed=2)]}),
        "vgg_stack": (VggTiny(), [f32(2, 3, 16, 16)], None),
        "bert_layer": (BertLayer(), [f32(2, 8, 32), mask], None),
        "ms_encoder": (MsEncoder(), [f32(2, 5, 16)], None),
        "misc_ops": (Misc(), [ids, f32(2, 2, 8, 8)], None),
        "misc_ops2": (Misc2(), [f32(2, 3, 4), f32(2, 3, 4, 4, seed=3), np.array([1, 3], np.int32)], None),
        "misc_ops3": (Misc3(), [np.tanh(f32(3, 5, seed=4)) * 1.8, f32(3, 5, seed=5)], None),
        "generator_block": (GeneratorBlock(), [f32(2, 3, 8, 8, seed=6)], None),
        "edsr_block": (EdsrBlock(), [f32(1, 3, 6, 6, seed=7)], None),
        "attention_f16": (AttentionF16(), [f32(2, 4, 8, seed=8).astype(np.float16),
                                           f32(2, 4, 8, seed=9).astype(np.float16)], None),
        "crnn_head": (CrnnHead(), [f32(2, 1, 2, 6, seed=11)], None),
        "zoo_layers": (ZooLayers(), [f32(1, 4, 5, 6, seed=12)], None),
        "scatters": (Scatters(), [f32(4, 3, seed=13), f32(2, 3, seed=14)], None),
        "make_list": (ListOut(), [f32(2, 3, seed=15)], None),
        "layers3d": (Layers3d(), [f32(1, 2, 6, 8, 7, seed=16)], None),
        "conv3d_transpose": (Conv3dTransposes(), [f32(1, 2, 3, 4, 3, seed=17)], None),
        "nms": (Nms(), [boxes(12, seed=19)], None),
        "roi_align": (RoiAlign(), [f32(2, 3, 12, 10, seed=20), rois(21)], None),
        "box_decode": (BoxDecode(), [anchors(10, seed=22), f32(10, 4, seed=23) * 3], None),
        "int_ops": (IntOps(), [np.arange(-6, 6, dtype=np.int32).reshape(2, 6),
                               np.array([[3, -3, 2, 5, -4, 7]] * 2, np.int32), f32(2, 3, seed=10)], None),
    }


def main():
    import mindspore as ms
    from mindspore import nn, Tensor
    ms.set_context(mode=ms.GRAPH_MODE)
    show_ops = "--ops" in sys.argv
    only = [a for a in sys.argv[1:] if not a.startswith("--")]     # re-record these nets, keep the others
    os.makedirs(OUT, exist_ok=True)
    arrays = {}
    if only:
        arrays = {k: v for k, v in np.load(os.path.join(OUT, "outputs.npz")).items()
                  if k.split("/")[0].split("@")[0] not in only}
    errors = {}
    ms.set_seed(1)      # the networks' initial weights
    for name, (net, export_in, runs) in build_nets(ms).items():
        if only and name not in only:
            continue
        net.set_train(False)
        path = os.path.join(OUT, name)
        ms.export(net, *[x if isinstance(x, Tensor) else Tensor(x) for x in export_in],
                  file_name=path, file_format="MINDIR")
        os.chmod(path + ".mindir", 0o644)      # MindSpore writes it read-only
        graph_cell = nn.GraphCell(ms.load(path + ".mindir"))
        for key, inputs in ({name: export_in} if runs is None else
                            {f"{name}@{b}": v for b, v in runs.items()}).items():
            outs = graph_cell(*[Tensor(x) for x in inputs])
            outs = outs if isinstance(outs, (tuple, list)) else (outs,)
            for i, x in enumerate(inputs):
                arrays[f"{key}/in{i}"] = x
            for i, y in enumerate(outs):
                arrays[f"{key}/out{i}"] = y.asnumpy()
            print(key, os.path.getsize(path + ".mindir"), [o.shape for o in outs])
        if show_ops:
            from mindspore.train import mind_ir_pb2
            model = mind_ir_pb2.ModelProto()
            with open(path + ".mindir", "rb") as f:
                model.ParseFromString(f.read())
            print("   ", sorted({p.op_type for p in model.primitives}), "functions:", len(model.functions))
    np.savez_compressed(os.path.join(OUT, "outputs.npz"), **arrays)
    lenet = nn.GraphCell(ms.load(os.path.join(OUT, "lenet.mindir")))
    x = np.ones((2, 1, 32, 32), np.float32)
    for case, args in {"count0": (), "count2": (Tensor(x), Tensor(x)), "rank": (Tensor(x[0]),),
                       "dtype": (Tensor(x.astype(np.float16)),), "numpy": (x,)}.items():
        try:
            lenet(*args)
            errors[case] = None
        except Exception as e:    # pylint: disable=broad-except
            errors[case] = [type(e).__name__, str(e).split("\n\n---")[0]]
    with open(os.path.join(OUT, "errors.json"), "w") as f:
        json.dump(errors, f, indent=1, sort_keys=True)
    print(json.dumps(errors, indent=1))


if __name__ == "__main__":
    main()
