"""Issue 36's float16 convolutions, run the same way under MindSpore 2.10 (``record_conv_float16.py``)
and msjax (``tests/test_conv_float16.py``).

``conv_float16_cases(ms)`` (``ms`` is ``mindspore`` or ``msjax``): small chains of ``nn.Conv2d`` /
``nn.Conv2dTranspose`` layers and ReLUs cast to float16 with ``to_float`` (what AMP level O3 does to
the zoo's Unet), forward and backward (``GradOperation`` w.r.t. the float16 input and the float32
Parameters): in GRAPH_MODE a 3x3 'same' convolution, a strided padded one with dilation, a depthwise
one and Unet's 2x2 stride-2 transposed convolution; in PyNative mode a convolution and a transposed
one with biases. MindSpore's CPU kernels compute each pass in float32 and round it to float16 once. Each record holds the array's
SHA-256 (float32 bytes), first values and sum of absolute values. Only numpy and hashlib here.
"""
import numpy as np

try:
    from .lenet_step import _summary
except ImportError:          # run as a script from tests/golden (the recorder)
    from lenet_step import _summary

# name -> (mode, input shape, layers: (class name, kwargs) with a ReLU after each but the last)
CASES = {
    # GRAPH_MODE without biases: MindSpore's graph compiler drops the float32 -> float16 -> float32 cast
    # pair between a convolution and a following BiasAdd or convolution (both float32-only kernels on
    # its CPU), so there a bias is added before the one rounding; msjax rounds after each op, as
    # MindSpore's PyNative mode does (docs/differences.md). A ReLU (float16 kernel) keeps the rounding.
    "graph_chain": ("graph", (2, 4, 11, 11), (
        ("Conv2d", dict(in_channels=4, out_channels=6, kernel_size=3, pad_mode="same")),
        ("Conv2d", dict(in_channels=6, out_channels=6, kernel_size=3, stride=2, pad_mode="pad", padding=1,
                        dilation=2)),
        ("Conv2d", dict(in_channels=6, out_channels=6, kernel_size=3, pad_mode="same", group=6)),
        ("Conv2dTranspose", dict(in_channels=6, out_channels=4, kernel_size=2, stride=2)))),
    # PyNative: each op rounds, the biases too (BiasAdd and its gradient's float32 sum, rounded once)
    "pynative_bias": ("pynative", (2, 3, 9, 9), (
        ("Conv2d", dict(in_channels=3, out_channels=8, kernel_size=3, pad_mode="same", has_bias=True)),
        ("Conv2dTranspose", dict(in_channels=8, out_channels=4, kernel_size=2, stride=2, has_bias=True)))),
}


def conv_float16_cases(ms):
    """name -> summary of the output, the input gradient and each Parameter's gradient."""
    out = {}
    nn = ms.nn
    for i, (name, (mode, shape, layers)) in enumerate(sorted(CASES.items())):
        ms.set_context(mode=ms.GRAPH_MODE if mode == "graph" else ms.PYNATIVE_MODE)
        rs = np.random.RandomState(i)
        cells = []
        for cls, kwargs in layers:
            cells += [getattr(nn, cls)(**kwargs, weight_init="normal", bias_init="normal"), nn.ReLU()]
        net = nn.SequentialCell(cells[:-1])
        for p in net.trainable_params():       # seeded values, the same in both frameworks
            p.set_data(ms.Tensor((rs.randn(*p.shape) * 0.5).astype(np.float32)))
        net.to_float(ms.float16)
        x = ms.Tensor(rs.randn(*shape).astype(np.float16))
        y = net(x)
        dy = ms.Tensor(rs.randn(*y.shape).astype(np.float16))
        grad = ms.ops.GradOperation(get_all=True, get_by_list=True, sens_param=True)
        gx, gp = grad(net, net.trainable_params())(x, dy)
        rec = {"y": _summary(y.asnumpy()), "dx": _summary(gx[0].asnumpy())}
        rec.update({f"d/{p.name}": _summary(g.asnumpy()) for p, g in zip(net.trainable_params(), gp)})
        rec["dtypes"] = [str(y.dtype), str(gx[0].dtype)] + [str(g.dtype) for g in gp]
        out[name] = rec
    ms.set_context(mode=ms.PYNATIVE_MODE)
    return out
