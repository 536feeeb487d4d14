"""The zoo's networks exported as MindIR by MindSpore 2.10, loaded and run by msjax.

MindSpore (its own venv) builds LeNet5 (the zoo's definition, ``tests/golden/cases_nn_models``),
ResNet18 (``official/cv/ResNet``, CIFAR-10 config, ``class_num=10``), MobileNetV2
(``official/cv/MobileNet/mobilenetv2``, backbone + 10-class head) and VGG16
(``official/cv/VGG/vgg16``, CIFAR-10 config, 224x224 input) from the model zoo's source with
seeded random weights, exports each with ``ms.export(..., file_format='MINDIR')`` and records
its own ``ms.load`` + ``nn.GraphCell`` outputs on a random input. msjax then loads each file
(``ms.load`` + ``nn.GraphCell``) and compares (rtol 1e-5, atol 1e-6). Not part of CI: the
files are 0.3-540 MB and MindSpore must be installed.

    python -m msjax run bench/mindir_load_zoo.py [--nets lenet resnet18 mobilenetv2 vgg16]
        [--ms-python /tmp/ms/bin/python] [--zoo-git /work/.mirror/mindspore-ai+models/repo] [--keep DIR]

Results (2026-11-27, shared 2-core CPU, msjax on JAX 0.10.2 CPU; MindSpore 2.10 CPU):

    net          file MB  batch  max |msjax - MindSpore|  max |MindSpore|  load s  first call s  next call s
    lenet             0.2      2               5.36e-07            0.895     0.0           0.6        0.002  ok
    resnet18         42.8      2               1.43e-06            1.914     0.3           3.7        0.011  ok
    mobilenetv2       9.0      2               2.98e-07            0.368     0.1           5.7        0.472  ok
    vgg16           512.4      1               4.12e-07            0.244     7.3           7.3        2.903  ok

(MobileNetV2 and VGG16 at 224x224; "first call" includes tracing and XLA compilation; the
machine was shared, so the times are rough.)
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
ZOO_DIRS = {"resnet18": "official/cv/ResNet", "mobilenetv2": "official/cv/MobileNet/mobilenetv2",
            "vgg16": "official/cv/VGG/vgg16"}


def build(name, zoo):
    """(net, input shape) of a zoo network, in MindSpore (run by the MindSpore venv)."""
    import mindspore as ms
    if name == "lenet":
        sys.path.insert(0, os.path.join(ROOT, "tests", "golden"))
        from cases_nn_models import _lenet5
        return _lenet5(ms), (2, 1, 32, 32)
    src = os.path.join(zoo, ZOO_DIRS[name])
    sys.path.insert(0, src)
    argv, sys.argv = sys.argv, [sys.argv[0]]
    try:
        if name == "resnet18":
            sys.argv += ["--config_path", os.path.join(src, "config", "resnet18_cifar10_config.yaml")]
            from src.resnet import resnet18
            return resnet18(class_num=10), (2, 3, 32, 32)
        if name == "vgg16":
            sys.argv += ["--config_path", os.path.join(src, "cifar10_config.yaml")]
            from model_utils.moxing_adapter import config
            from src.vgg import vgg16
            return vgg16(num_classes=10, args=config), (1, 3, 224, 224)
        from src.mobilenetV2 import MobileNetV2Backbone, MobileNetV2Head, mobilenet_v2
        backbone = MobileNetV2Backbone()
        return mobilenet_v2(backbone, MobileNetV2Head(input_channel=backbone.out_channels, num_classes=10)), \
            (2, 3, 224, 224)
    finally:
        sys.argv = argv


def randomize(ms, net, seed=0):
    """Seeded weights of a trained-looking scale (some zoo heads start at zero, which would
    make every logit 0): fan-in scaled normals, BatchNorm statistics around their defaults."""
    rng = np.random.RandomState(seed)
    for name, p in net.parameters_and_names():
        shape = p.shape
        if "variance" in name:
            v = rng.uniform(0.5, 1.5, shape)
        elif "gamma" in name:
            v = 1.0 + 0.1 * rng.randn(*shape)
        elif len(shape) > 1:
            v = rng.randn(*shape) / np.sqrt(np.prod(shape[1:]))
        else:
            v = 0.1 * rng.randn(*shape)
        p.set_data(ms.Tensor(v.astype(np.float32)))


def record(name, zoo, out_dir):
    """MindSpore side: export ``name`` and record its GraphCell's output."""
    import mindspore as ms
    from mindspore import nn
    ms.set_context(mode=ms.GRAPH_MODE)
    net, shape = build(name, zoo)
    randomize(ms, net)
    net.set_train(False)
    x = np.random.RandomState(0).randn(*shape).astype(np.float32)
    path = os.path.join(out_dir, name)
    ms.export(net, ms.Tensor(x), file_name=path, file_format="MINDIR")
    out = nn.GraphCell(ms.load(path + ".mindir"))(ms.Tensor(x)).asnumpy()
    np.savez(path + ".npz", x=x, out=out)


def check(name, out_dir):
    """msjax side: load the file, run it, compare with MindSpore's output."""
    import mindspore as ms     # msjax under ``python -m msjax run``
    from mindspore import nn
    path = os.path.join(out_dir, name)
    ref = np.load(path + ".npz")
    t0 = time.perf_counter()
    cell = nn.GraphCell(ms.load(path + ".mindir"))
    t1 = time.perf_counter()
    out = cell(ms.Tensor(ref["x"])).asnumpy()
    t2 = time.perf_counter()
    cell(ms.Tensor(ref["x"])).asnumpy()
    t3 = time.perf_counter()
    err = float(np.abs(out.astype(np.float64) - ref["out"]).max())
    ok = out.shape == ref["out"].shape and np.allclose(out, ref["out"], rtol=1e-5, atol=1e-6)
    print(f"{name:12s} {os.path.getsize(path + '.mindir') / 2**20:8.1f} {ref['x'].shape[0]:6d} {err:22.2e} "
          f"{float(np.abs(ref['out']).max()):16.3f} {t1 - t0:7.1f} {t2 - t1:13.1f} {t3 - t2:12.3f}  "
          f"{'ok' if ok else 'MISMATCH'}", flush=True)
    return ok


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--nets", nargs="+", default=["lenet", "resnet18", "mobilenetv2", "vgg16"])
    ap.add_argument("--ms-python", default="/tmp/ms/bin/python")
    ap.add_argument("--zoo-git", default="/work/.mirror/mindspore-ai+models/repo")
    ap.add_argument("--keep", help="directory for the files (kept); default: a temporary one, removed")
    ap.add_argument("--record", help=argparse.SUPPRESS)     # internal: the MindSpore side
    ap.add_argument("--zoo", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.record:
        for name in args.nets:
            record(name, args.zoo, args.record)
        return
    work = args.keep or tempfile.mkdtemp(prefix="mindir-zoo-")
    os.makedirs(work, exist_ok=True)
    try:
        zoo = os.path.join(work, "zoo")
        if not os.path.isdir(zoo):
            os.makedirs(zoo)
            archive = subprocess.run(["git", f"--git-dir={args.zoo_git}", "archive", "HEAD",
                                      *ZOO_DIRS.values()], check=True, capture_output=True).stdout
            subprocess.run(["tar", "-x", "-C", zoo], input=archive, check=True)
        for name in args.nets:      # one MindSpore process per net (its graph state leaks between exports)
            subprocess.run([args.ms_python, os.path.abspath(__file__), "--record", work, "--zoo", zoo,
                            "--nets", name], check=True, cwd=work, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        print("net          file MB  batch  max |msjax - MindSpore|  max |MindSpore|  load s  first call s  "
              "next call s")
        results = [check(name, work) for name in args.nets]
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    sys.exit(0 if all(results) else 1)


if __name__ == "__main__":
    main()
