"""How the census's seeded weights scale a normalised image through a zoo network's ResNet backbone
(FasterRCNN's ``src/FasterRcnn/resnet.py``, whose convolutions are all 0.01 until its checkpoint
loads): max |feature| per stage with the census's earlier rule (every constant Parameter plus
``0.1 * N(0, 1)``) and with ``export_census_hook._perturb`` (LeCun normal for matrices and kernels).

    PYTHONPATH=. python -m msjax run bench/zoo/census_weight_scale.py /path/to/models [old|new] [size]

Measured (2026-11-30, 128x128): old C2..C5 4.5e3, 1.7e11, 4.9e27, 1.7e38 (float32's max is 3.4e38:
the FPN and RPN then overflow to inf/NaN); new 10.1, 8.5, 12.8, 13.6.
"""
import importlib.util
import os
import sys

import numpy as np

os.environ.setdefault("CENSUS_SIDE", "msjax")
os.environ.setdefault("CENSUS_WORK", os.getcwd())
import mindspore as ms  # noqa: E402  (msjax under `msjax run`)


def main(zoo, rule="new", size=128):
    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("census_hook", os.path.join(here, "export_census_hook.py"))
    hook = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hook)
    sys.path.insert(0, os.path.join(zoo, "official/cv/FasterRCNN/src/FasterRcnn"))
    import resnet  # the zoo's file, read from the checkout
    ms.set_seed(0)
    net = resnet.ResNetFea(resnet.ResidualBlockUsing, [3, 4, 6, 3], [64, 256, 512, 1024],
                           [256, 512, 1024, 2048], False)
    net.set_train(False)
    if rule == "old":
        rng = np.random.default_rng(1000)
        for name, p in net.parameters_and_names():
            a = p.asnumpy()
            if a.min() == a.max():
                noise = 0.1 * rng.standard_normal(a.shape)
                noise = np.abs(noise) if "variance" in name or "gamma" in name else noise
                p.set_data(ms.Tensor((a + noise).astype(a.dtype)))
    else:
        hook._perturb(net, 0)
    x = ms.Tensor(np.random.default_rng(0).standard_normal((1, 3, size, size)).astype(np.float32))
    for i, y in enumerate(net(x)):
        y = y.asnumpy()
        finite = y[np.isfinite(y)]
        print(f"{rule} C{i + 2} {y.shape} max|y| {np.abs(finite).max() if finite.size else float('nan'):.3g}"
              f" non-finite {int(y.size - finite.size)} of {y.size}")


if __name__ == "__main__":
    main(sys.argv[1], *(sys.argv[2:3] or ["new"]), *[int(a) for a in sys.argv[3:4]])
