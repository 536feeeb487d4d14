"""The zoo's own ``export.py`` of LeNet5, ResNet18 (CIFAR-10 config), MobileNetV2 and VGG16, run
unmodified under ``python -m msjax run`` on a checkpoint msjax trained, then the ``.mindir`` loaded
in MindSpore 2.10 (``ms.load`` + ``nn.GraphCell``) and in msjax, each compared with msjax's logits.

    python bench/zoo/export_check.py /path/to/models [--work /tmp/export_check] [--models lenet ...]
        [--ms-python /tmp/ms/bin/python] [--out bench/zoo/export_check.json]

``/path/to/models``: a checkout of mindspore-ai/models (``git --git-dir=<mirror> archive HEAD
research/cv/lenet official/cv/ResNet official/cv/MobileNet/mobilenetv2 official/cv/VGG/vgg16 |
tar -x -C /tmp/zoo``). Per model, in the model's folder:

1. ``python -m msjax run export_check.py --train <model> <config args>``: builds the zoo's network
   from its own ``src`` and config, trains one step (Momentum, random images and labels, seed 0),
   saves ``<model>.ckpt``; then a fresh network loads it and its logits in inference mode on a
   fixed random input of the export shape go to ``<model>_io.npz``.
2. ``python -m msjax run export.py <config args> --<ckpt option>=<model>.ckpt --file_name=...``: the
   zoo's script, unmodified.
3. MindSpore 2.10 (``--ms-python``) loads the ``.mindir`` and runs the input through ``nn.GraphCell``;
   msjax does the same (when its MindIR reader is there).

Prints and writes (``--out``) the largest relative differences; the check passes at rtol 1e-5
(atol 1e-6 for values near zero). Not run in CI: CI replays recorded MindSpore outputs of small
networks (tests/test_export_*.py).
"""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SELF = os.path.abspath(__file__)
RTOL, ATOL = 1e-5, 1e-6

# model -> (folder in the zoo, config arguments, the checkpoint option of its export.py)
MODELS = {
    "lenet": ("research/cv/lenet", ["--device_target=CPU", "--batch_size=2"], "--ckpt_file"),
    "resnet18": ("official/cv/ResNet", ["--config_path=config/resnet18_cifar10_config.yaml", "--device_target=CPU",
                                        "--batch_size=2"], "--checkpoint_file_path"),
    "mobilenetv2": ("official/cv/MobileNet/mobilenetv2", ["--config_path=default_config_cpu.yaml", "--platform=CPU"],
                    "--ckpt_file"),
    "vgg16": ("official/cv/VGG/vgg16", ["--config_path=@vgg16_cifar10_32.yaml", "--device_target=CPU",
                                        "--batch_size=2"], "--ckpt_file"),
}


def _build(model):
    """The zoo's network and its export input shape, from the model's own modules (run in its folder)."""
    if model == "vgg16":
        from model_utils.moxing_adapter import config
    else:
        from src.model_utils.config import config
    if model == "lenet":
        from src.lenet import LeNet5
        return LeNet5(config.num_classes), [config.batch_size, 1, config.image_height, config.image_width]
    if model == "resnet18":
        from src.resnet import resnet18
        return resnet18(config.class_num), [config.batch_size, 3, config.height, config.width]
    if model == "mobilenetv2":
        from src.models import define_net
        _, _, net = define_net(config, config.is_training_export)
        return net, [config.batch_size_export, 3, config.image_height, config.image_width]
    from src.vgg import vgg16
    return vgg16(num_classes=config.num_classes, args=config), [config.batch_size, 3, *config.image_size]


def train_side(model, work):
    """(under msjax) one training step, the checkpoint, and msjax's logits of a fresh net loading it."""
    import numpy as np
    import mindspore as ms
    from mindspore import nn
    ms.set_seed(0)
    net, shape = _build(model)
    rng = np.random.default_rng(0)
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), nn.Momentum(net.trainable_params(), 0.01, 0.9))
    step.set_train(True)
    x = ms.Tensor(rng.standard_normal(shape).astype(np.float32))
    print("train loss", step(x, ms.Tensor(rng.integers(0, 10, shape[0]).astype(np.int32))))
    ckpt = os.path.join(work, f"{model}.ckpt")
    ms.save_checkpoint(net, ckpt)
    fresh, _ = _build(model)
    ms.load_param_into_net(fresh, ms.load_checkpoint(ckpt), strict_load=True)
    fresh.set_train(False)
    x = rng.standard_normal(shape).astype(np.float32)
    np.savez(os.path.join(work, f"{model}_io.npz"), x=x, msjax=fresh(ms.Tensor(x)).asnumpy())


def graph_cell_side(mindir, io_file, key, out_file):
    """(under MindSpore 2.10 or msjax) ``nn.GraphCell(ms.load(mindir))`` on the recorded input."""
    import numpy as np
    import mindspore as ms
    from mindspore import nn
    out = nn.GraphCell(ms.load(mindir))(ms.Tensor(np.load(io_file)["x"]))
    np.save(out_file, (out[0] if isinstance(out, (tuple, list)) else out).asnumpy())
    print(key, "ran", mindir)


def compare(got, ref):
    """Largest absolute and relative (where |ref| > ATOL) differences, and allclose at RTOL/ATOL."""
    import numpy as np
    diff = np.abs(got.astype(np.float64) - ref)
    big = np.abs(ref) > ATOL
    return {"max_abs_diff": float(diff.max()),
            "max_rel_diff": float((diff[big] / np.abs(ref[big])).max()) if big.any() else 0.0,
            "allclose": bool(np.allclose(got, ref, rtol=RTOL, atol=ATOL))}


def _run(cmd, cwd, log):
    with open(log, "w") as f:
        p = subprocess.run(cmd, cwd=cwd, stdout=f, stderr=subprocess.STDOUT, timeout=3600)
    if p.returncode:
        raise RuntimeError(f"{' '.join(cmd)} failed (rc {p.returncode}); see {log}")


def check(zoo, work, model, ms_python):
    import numpy as np
    folder, args, ckpt_opt = MODELS[model]
    cwd = os.path.join(zoo, folder)
    args = [a.replace("@", work + "/") for a in args]
    msjax = [sys.executable, "-m", "msjax", "run"]
    _run(msjax + [SELF, "--train", model, "--work", work, *args], cwd, os.path.join(work, f"{model}_train.log"))
    _run(msjax + ["export.py", *args, f"{ckpt_opt}={work}/{model}.ckpt", f"--file_name={work}/{model}",
                  "--file_format=MINDIR"], cwd, os.path.join(work, f"{model}_export.log"))
    mindir, io_file = os.path.join(work, f"{model}.mindir"), os.path.join(work, f"{model}_io.npz")
    ref = np.load(io_file)["msjax"]
    row = {"model": model, "mindir_bytes": os.path.getsize(mindir), "output_shape": list(ref.shape)}
    for side, python in (("mindspore", [ms_python]), ("msjax_load", msjax)):
        out = os.path.join(work, f"{model}_{side}.npy")
        try:
            _run(python + [SELF, "--graph-cell", mindir, io_file, side, out], work,
                 os.path.join(work, f"{model}_{side}.log"))
        except RuntimeError as e:
            row[side] = f"failed: {e}"
            continue
        row[side] = compare(np.load(out), ref)
    return row


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("zoo", nargs="?")
    ap.add_argument("--work", default="/tmp/export_check")
    ap.add_argument("--models", nargs="+", default=list(MODELS))
    ap.add_argument("--ms-python", default="/tmp/ms/bin/python")
    ap.add_argument("--out", default=os.path.join(HERE, "export_check.json"))
    ap.add_argument("--train", help=argparse.SUPPRESS)
    ap.add_argument("--graph-cell", nargs=4, help=argparse.SUPPRESS)
    ns, rest = ap.parse_known_args(argv)
    if ns.train:
        sys.argv = [sys.argv[0], *rest]          # the zoo's config parser reads the model's arguments
        sys.path.insert(0, os.getcwd())          # the model's folder: its src/ and model_utils/
        return train_side(ns.train, ns.work)
    if ns.graph_cell:
        return graph_cell_side(*ns.graph_cell)
    os.makedirs(ns.work, exist_ok=True)
    if "vgg16" in ns.models:                      # CIFAR-10's 32x32 images (the yaml's list option)
        sys.path.insert(0, HERE)
        from run_zoo import patched_yaml
        patched_yaml(os.path.join(ns.zoo, MODELS["vgg16"][0], "cifar10_config.yaml"),
                     os.path.join(ns.work, "vgg16_cifar10_32.yaml"), {"image_size": "[32,32]"})
    rows = []
    for model in ns.models:
        try:
            rows.append(check(ns.zoo, ns.work, model, ns.ms_python))
        except (RuntimeError, subprocess.TimeoutExpired) as e:
            rows.append({"model": model, "error": str(e)})
        print(json.dumps(rows[-1]), flush=True)
    with open(ns.out, "w") as f:
        json.dump({"rtol": RTOL, "atol": ATOL, "rows": rows}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
