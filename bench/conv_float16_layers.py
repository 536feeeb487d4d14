"""The zoo Unet's float16 convolution layers (AMP O3: ``to_float(float16)``), forward and backward,
timed under msjax and MindSpore 2.10 on the same shapes (issue 36: Unet's O3 step was 0.26x
MindSpore's speed while XLA:CPU ran float16 convolutions itself):

    python -m msjax run bench/conv_float16_layers.py      # msjax
    /tmp/ms/bin/python bench/conv_float16_layers.py       # MindSpore 2.10

Each layer (a ``Conv2d`` or ``Conv2dTranspose`` with bias, then ReLU, batch 1 at the sizes of
UNetMedical on 572x572 inputs) runs as one GRAPH_MODE gradient (input and Parameters); prints the
wall and process CPU seconds of a call, the mean of two after a warm-up. Heavy (about 2 GB):
``flock /tmp/heavy.lock``.
"""
import time

import numpy as np

try:
    import mindspore as ms
except ImportError:          # run directly with msjax's Python
    import msjax as ms

# (in channels, out channels, spatial size, kind)
LAYERS = ((1, 64, 572, "conv3x3"), (64, 64, 570, "conv3x3"), (128, 128, 280, "conv3x3"),
          (1024, 512, 28, "up2x2"), (128, 64, 196, "up2x2"), (64, 2, 388, "conv1x1"))


def layer(cin, cout, kind):
    nn = ms.nn
    if kind == "up2x2":
        return nn.Conv2dTranspose(cin, cout, 2, stride=2, has_bias=True, weight_init="normal")
    return nn.Conv2d(cin, cout, 3 if kind == "conv3x3" else 1, has_bias=True, pad_mode="valid",
                     weight_init="normal")


def main():
    ms.set_context(mode=ms.GRAPH_MODE)
    for cin, cout, hw, kind in LAYERS:
        conv = layer(cin, cout, kind)
        conv.to_float(ms.float16)
        net = ms.nn.SequentialCell([conv, ms.nn.ReLU()])
        grad = ms.ops.GradOperation(get_all=True, get_by_list=True)(net, conv.trainable_params())
        x = ms.Tensor(np.random.RandomState(0).rand(1, cin, hw, hw).astype(np.float16))
        grad(x)[0][0].asnumpy()
        t, c = time.perf_counter(), time.process_time()
        for _ in range(2):
            grad(x)[0][0].asnumpy()
        print(f"{kind} {cin}->{cout} at {hw}x{hw}: wall {(time.perf_counter() - t) / 2:.3f} s, "
              f"cpu {(time.process_time() - c) / 2:.3f} s", flush=True)


if __name__ == "__main__":
    main()
