"""Record MindSpore 2.10's run of its own file of a float16 ``nn.Conv1d`` with a bias
(tests/test_kernel_order.py::test_float16_conv_bias_loaded_file).

    /tmp/ms/bin/python tests/golden/record_conv_bias_f16.py

MindSpore's exporter writes the layer as ``ExpandDims``, ``Conv2D``, ``BiasAdd``, ``Squeeze`` (LPCNet's
``Conv1d`` layers); its CPU runtime computes the ``Conv2D`` and its ``BiasAdd`` as one kernel (the
float32 convolution plus the bias, rounded to float16 once). Writes tests/fixtures/conv_bias_f16.mindir
and tests/fixtures/conv_bias_f16.npz (``x``, MindSpore's output ``y``).
"""
import os
import sys

import numpy as np
import mindspore as ms
from mindspore import nn

FIXTURES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fixtures")


def main():
    ms.set_context(mode=ms.GRAPH_MODE, device_target="CPU")
    rng = np.random.default_rng(0)
    w = (rng.standard_normal((32, 32, 3)) * 0.3).astype(np.float16)
    b = rng.standard_normal(32).astype(np.float16)
    net = nn.Conv1d(32, 32, 3, has_bias=True, pad_mode="same", weight_init=ms.Tensor(w),
                    bias_init=ms.Tensor(b)).to_float(ms.float16)
    x = rng.standard_normal((2, 32, 40)).astype(np.float16)
    stem = os.path.join(FIXTURES, "conv_bias_f16")
    ms.export(net, ms.Tensor(x), file_name=stem, file_format="MINDIR")
    y = nn.GraphCell(ms.load(stem + ".mindir"))(ms.Tensor(x)).asnumpy()
    np.savez_compressed(stem + ".npz", x=x, y=y)
    print("wrote", os.path.relpath(stem), file=sys.stderr)


if __name__ == "__main__":
    main()
