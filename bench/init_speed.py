"""Time to build (initialise) a ResNet50-sized network, and the next ``np.random.random()``
after it (initializers advance NumPy's global generator as MindSpore's do).

Two networks: the zoo's ResNet50 (``official/cv/ResNet/src/resnet.py``: its own NumPy
initialisers plus the layers' defaults; pass the zoo's ``official/cv/ResNet`` folder) and
the same layout built from ``nn`` defaults only (every Conv2d/Dense draws through the
HeUniform/Uniform initializers: 25.6M values). Run it under msjax or MindSpore:

    python -m msjax run bench/init_speed.py [--zoo /path/to/models/official/cv/ResNet] [--rounds 3]
    /tmp/ms/bin/python bench/init_speed.py [--zoo ...]
"""
import argparse
import sys
import time

import numpy as np

import mindspore as ms
from mindspore import nn


class Bottleneck(nn.Cell):
    def __init__(self, cin, cout, stride):
        super().__init__()
        mid = cout // 4
        self.conv1 = nn.Conv2d(cin, mid, 1)
        self.bn1 = nn.BatchNorm2d(mid)
        self.conv2 = nn.Conv2d(mid, mid, 3, stride=stride)
        self.bn2 = nn.BatchNorm2d(mid)
        self.conv3 = nn.Conv2d(mid, cout, 1)
        self.bn3 = nn.BatchNorm2d(cout)
        self.down = nn.Conv2d(cin, cout, 1, stride=stride) if (stride != 1 or cin != cout) else None


class DefaultResNet50(nn.Cell):
    def __init__(self, classes=1001):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 64, 7, stride=2)
        self.bn1 = nn.BatchNorm2d(64)
        blocks, cin = [], 64
        for n, cout, stride in ((3, 256, 1), (4, 512, 2), (6, 1024, 2), (3, 2048, 2)):
            for i in range(n):
                blocks.append(Bottleneck(cin, cout, stride if i == 0 else 1))
                cin = cout
        self.blocks = nn.CellList(blocks)
        self.fc = nn.Dense(2048, classes)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--zoo", default=None)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    makers = {"nn defaults": DefaultResNet50}
    if args.zoo:
        sys.path.insert(0, args.zoo)
        sys.argv = sys.argv[:1]            # the zoo's config module parses the command line
        from src.resnet import resnet50   # the zoo's
        makers["zoo resnet50"] = lambda: resnet50(1001)
    for name, make in makers.items():
        times = []
        for _ in range(args.rounds):
            ms.set_seed(1)
            t = time.process_time()            # CPU time: steadier than wall time on a shared machine
            net = make()
            times.append(time.process_time() - t)
        n = sum(int(np.prod(p.shape)) for p in net.get_parameters())
        print(f"{name}: {n} values, best {min(times):.2f} s CPU of {args.rounds}, next np.random.random() "
              f"{np.random.random():.10f}")


if __name__ == "__main__":
    main()
