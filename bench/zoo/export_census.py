"""Export census over the model zoo's own ``export.py`` scripts (issue 34), both ways, per model:

    python bench/zoo/export_census.py /path/to/models [--work /tmp/export_census] [--models crnn_v2 ...]
        [--ms-python /tmp/ms/bin/python] [--out bench/zoo/export_census.json]

``/path/to/models``: a checkout of mindspore-ai/models (``git --git-dir=<mirror> archive HEAD
official/cv/CRNN official/cv/CycleGAN | tar -x -C /tmp/zoo``). For each model, in its folder:

1. msjax (``python -m msjax run``) builds the zoo's network from its own ``src`` with seeded
   weights (``ms.set_seed(0)``), saves them as a checkpoint and its outputs in inference mode on a
   fixed random input of the export shape (``<model>_io.npz``).
2. the zoo's ``export.py``, unmodified, under msjax with that checkpoint: the ``.mindir``, which
   MindSpore 2.10 loads and runs (``ms.load`` + ``nn.GraphCell``), and msjax too; the ``.onnx``
   where the script takes a format, run by onnxruntime.
3. the same ``export.py`` under MindSpore 2.10 with the same checkpoint: its ``.mindir``, which
   msjax loads and runs.

Every run is compared with msjax's outputs of step 1 (``np.allclose(rtol=1e-5, atol=1e-6)``); a
step that fails records its last error line. Prints a table, writes ``--out``. Not run in CI: CI
replays small recorded MindSpore files (tests/test_mindir_load.py, tests/test_mindir_export.py).

Only the models in ``MODELS`` are covered so far (the scripts' network builders differ per model);
docs/export.md lists the result and what the remaining models need.
"""
import argparse
import json
import os
import subprocess
import sys

RTOL, ATOL = 1e-5, 1e-6

_CRNN = "from src.crnn import crnn\nfrom src.model_utils.config import config\nconfig.batch_size = 1\n" \
        "net = crnn(config, full_precision=True)\nshape = [1, 3, config.image_height, config.image_width]\n"
_CYCLEGAN = "from src.models.cycle_gan import get_generator\nfrom src.utils.args import get_args\n" \
            "from src.utils.tools import enable_batch_statistics\nargs = get_args('export')\n" \
            "net = get_generator(args)\nenable_batch_statistics(net)\n" \
            "shape = [args.export_batch_size, 3, args.image_size, args.image_size]\n"
_CYCLEGAN_ARGS = ["--platform=CPU", "--image_size=32", "--ngf=16", "--gl_num=2"]


def _crnn_export(version):
    def export(ckpt, out, fmt):
        return (["export.py", "--device_target=CPU", f"--model_version={version}", f"--ckpt_file={ckpt}",
                 f"--file_name={out}", f"--file_format={fmt}"], f"{out}.{fmt.lower()}")
    return export


def _cyclegan_export(ckpt, out, fmt):
    return (["export.py", *_CYCLEGAN_ARGS, f"--G_A_ckpt={ckpt}", f"--G_B_ckpt={ckpt}", f"--export_file_name={out}",
             f"--export_file_format={fmt}"], f"{out}_AtoB.{fmt.lower()}")


_INCEPTIONV3 = "from src.inception_v3 import InceptionV3\nfrom src.model_utils.config import config\n" \
               "config.batch_size = 1\nnet = InceptionV3(num_classes=config.num_classes, is_training=False)\n" \
               "shape = [1, 3, config.width, config.height]\n"
_INCEPTIONV3_ARGS = ["--config_path=default_config_cpu.yaml", "--device_target=CPU"]


def _inceptionv3_export(ckpt, out, fmt):
    return (["export.py", *_INCEPTIONV3_ARGS, f"--ckpt_file={ckpt}", f"--file_name={out}",
             f"--file_format={fmt}"], f"{out}.{fmt.lower()}")


_MOBILENETV3 = "from src.config import config_cpu as cfg\nfrom src.mobilenetV3 import mobilenet_v3_large\n" \
               "net = mobilenet_v3_large(num_classes=cfg.num_classes, activation='Softmax')\n" \
               "shape = [1, 3, cfg.image_height, cfg.image_width]\n"


def _mobilenetv3_export(ckpt, out, fmt):
    return (["export.py", "--device_target=CPU", f"--checkpoint_path={ckpt}", f"--file_name={out}",
             f"--file_format={fmt}"], f"{out}.{fmt.lower()}")


# model -> (folder, build arguments, network builder source, export command, formats)
MODELS = {
    "crnn_v1": ("official/cv/CRNN", ["--device_target=CPU", "--model_version=V1"], _CRNN, _crnn_export("V1"),
                ("MINDIR",)),
    "crnn_v2": ("official/cv/CRNN", ["--device_target=CPU", "--model_version=V2"], _CRNN, _crnn_export("V2"),
                ("MINDIR", "ONNX")),
    "cyclegan": ("official/cv/CycleGAN", _CYCLEGAN_ARGS, _CYCLEGAN, _cyclegan_export, ("MINDIR", "ONNX")),
    "inceptionv3": ("official/cv/Inception/inceptionv3", _INCEPTIONV3_ARGS, _INCEPTIONV3, _inceptionv3_export,
                    ("MINDIR", "ONNX")),
    "mobilenetv3": ("official/cv/MobileNet/mobilenetv3", [], _MOBILENETV3, _mobilenetv3_export, ("MINDIR", "ONNX")),
}

_BUILD = """import os
import numpy as np
import mindspore as ms
ms.set_seed(0)
{build}
ms.save_checkpoint(net, os.environ["CENSUS_CKPT"])
net.set_train(False)
x = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
y = net(ms.Tensor(x))
np.savez(os.environ["CENSUS_IO"], x=x, y=y.asnumpy())
"""

_RUN_GRAPH = """import sys
import numpy as np
import {module} as ms
from {module} import nn
d = np.load(sys.argv[2])
out = nn.GraphCell(ms.load(sys.argv[1]))(ms.Tensor(d["x"])).asnumpy()
print("RESULT", float(np.abs(out - d["y"]).max()), bool(np.allclose(out, d["y"], rtol={rtol}, atol={atol})))
"""

_RUN_ORT = """import sys
import numpy as np
import onnxruntime as ort
d = np.load(sys.argv[2])
sess = ort.InferenceSession(sys.argv[1], providers=["CPUExecutionProvider"])
out = sess.run(None, {{sess.get_inputs()[0].name: d["x"]}})[0]
print("RESULT", float(np.abs(out - d["y"]).max()), bool(np.allclose(out, d["y"], rtol={rtol}, atol={atol})))
"""


def _run(cmd, cwd, env=None, timeout=1800):
    p = subprocess.run(cmd, cwd=cwd, env={**os.environ, **(env or {})}, capture_output=True, text=True,
                       timeout=timeout)
    lines = [ln for ln in (p.stdout + p.stderr).splitlines() if ln.strip() and "Warning" not in ln]
    return p.returncode, lines


def _error(code, lines):
    """The failing run's exception line (its last line naming an Error), else its last line."""
    named = [ln for ln in lines if "Error" in ln and not ln.startswith(" ")]
    return (named or lines or [f"exit {code}"])[-1].strip()[:300]


def _result(code, lines):
    for ln in reversed(lines):
        if ln.startswith("RESULT "):
            _, diff, ok = ln.split()
            return {"max_abs_diff": float(diff), "ok": ok == "True"}
    return {"ok": False, "error": _error(code, lines)}


def census(model, zoo, work, ms_python):
    folder, args, build, export, formats = MODELS[model]
    cwd = os.path.join(zoo, folder)
    os.makedirs(work, exist_ok=True)
    ckpt, io = os.path.join(work, f"{model}.ckpt"), os.path.join(work, f"{model}_io.npz")
    script = os.path.join(work, f"{model}_build.py")
    with open(script, "w") as f:
        f.write(_BUILD.format(build=build))
    runners = {}
    for name, text in (("msjax", _RUN_GRAPH.format(module="msjax", rtol=RTOL, atol=ATOL)),
                       ("mindspore", _RUN_GRAPH.format(module="mindspore", rtol=RTOL, atol=ATOL)),
                       ("ort", _RUN_ORT.format(rtol=RTOL, atol=ATOL))):
        runners[name] = os.path.join(work, f"run_{name}.py")
        with open(runners[name], "w") as f:
            f.write(text)
    msjax = [sys.executable, "-m", "msjax", "run"]
    entry = {"folder": folder}
    code, lines = _run(msjax + [script, *args], cwd, {"CENSUS_CKPT": ckpt, "CENSUS_IO": io})
    if code:
        entry["build"] = _error(code, lines)
        return entry
    for fmt in formats:
        cmd, path = export(ckpt, os.path.join(work, f"{model}_msjax"), fmt)
        code, lines = _run(msjax + cmd, cwd)
        if code or not os.path.exists(path):
            entry[f"msjax_{fmt.lower()}"] = {"ok": False, "error": _error(code, lines)}
            continue
        if fmt == "MINDIR":
            entry["mindspore_runs_msjax_mindir"] = _result(*_run([ms_python, runners["mindspore"], path, io], work))
            entry["msjax_runs_msjax_mindir"] = _result(*_run([sys.executable, runners["msjax"], path, io], work))
        else:
            entry["onnxruntime_runs_msjax_onnx"] = _result(*_run([sys.executable, runners["ort"], path, io], work))
    cmd, path = export(ckpt, os.path.join(work, f"{model}_ms"), "MINDIR")
    code, lines = _run([ms_python] + cmd, cwd)
    if code or not os.path.exists(path):
        entry["msjax_runs_mindspore_mindir"] = {"ok": False, "mindspore_export": _error(code, lines)}
    else:
        entry["msjax_runs_mindspore_mindir"] = _result(*_run([sys.executable, runners["msjax"], path, io], work))
    return entry


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("zoo")
    ap.add_argument("--work", default="/tmp/export_census")
    ap.add_argument("--models", nargs="*", default=list(MODELS))
    ap.add_argument("--ms-python", default="/tmp/ms/bin/python")
    ap.add_argument("--out", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "export_census.json"))
    a = ap.parse_args()
    results = {}
    for model in a.models:
        results[model] = census(model, os.path.abspath(a.zoo), os.path.join(os.path.abspath(a.work), model),
                                a.ms_python)
        print(model, json.dumps(results[model]), flush=True)
    with open(a.out, "w") as f:
        json.dump(results, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
