"""Export census over the model zoo's official ``export.py`` scripts (issue 34), both ways, per model:

    python bench/zoo/export_census.py /path/to/models [--work /tmp/export_census] [--models crnn ...]
        [--ms-python /tmp/ms/bin/python] [--out bench/zoo/export_census.json] [--table docs/export.md] [--keep]

``/path/to/models``: a checkout of mindspore-ai/models (the ``official/`` tree is enough). Each
model's ``export.py`` runs unmodified, in its folder, through ``export_census_hook.py`` (which
redirects its checkpoint loading and its ``export`` calls; see there):

1. under msjax (``python -m msjax run``) with seeded initial weights: each exported network's
   checkpoint, its outputs in inference mode on seeded inputs of the export shape, its ``.mindir``
   and ``.onnx``;
2. under MindSpore 2.10 with msjax's checkpoint: its outputs and its ``.mindir``;
3. MindSpore 2.10 runs msjax's ``.mindir`` (``ms.load`` + ``nn.GraphCell``) against msjax's
   outputs, msjax runs its own ``.mindir``, onnxruntime runs msjax's ``.onnx``, and msjax runs
   MindSpore's ``.mindir`` against MindSpore's outputs.

A cell passes on ``np.allclose(rtol=1e-5, atol=1e-6)`` for every output of every network the
script exports; else it holds the failing step's error. ``--table`` rewrites the census table in
docs/export.md (between its ``census-table`` markers) from ``--out``; ``--table`` alone (no zoo)
regenerates the table from the recorded json. ``--keep`` leaves each model's files (checkpoint,
``.mindir``, ``.onnx``, inputs and outputs) in its work folder, for ``bench/mindir_taps.py``. Not run in CI.
"""
import argparse
import glob
import json
import os
import re
import subprocess
import sys

import numpy as np

RTOL, ATOL = 1e-5, 1e-6
HERE = os.path.dirname(os.path.abspath(__file__))
_CPU = ["--device_target=CPU"]
_CKPT_GPU = ["--checkpoint_path=none", "--device_target=GPU"]     # scripts that offer no CPU choice

# model -> (folder, export script in it, its arguments, files). Arguments choose the CPU (or GPU where
# a script offers no CPU; the hook runs on the CPU whatever the script selects), batch 1 and a small
# input where the script takes them; ``{work}`` is the model's work folder, where ``files`` (name ->
# text, or a function giving it) are written first (``{folder}/...``: in the script's folder).


def _embedding_table(rows, cols):
    """A seeded stand-in for the preprocessing's GloVe table (``weight.txt``, one row per word)."""
    rng = np.random.default_rng(7)
    return "\n".join(" ".join(f"{v:.5f}" for v in row) for row in rng.standard_normal((rows, cols))) + "\n"


def _stand_in_checkpoint(*names):
    """A checkpoint holding ``names`` (one seeded row each), for a script that reads entries of its
    training checkpoint by name before the hook's ``load_param_into_net`` (which loads nothing)."""
    import tempfile
    import msjax
    rng = np.random.default_rng(11)
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "stand_in.ckpt")
        msjax.save_checkpoint([{"name": n, "data": msjax.Tensor(rng.standard_normal((1, 8)).astype(np.float32))}
                               for n in names], path)
        with open(path, "rb") as f:
            return f.read()


MODELS = {
    "DeepSpeech2": ("official/audio/DeepSpeech2", "export.py", _CPU, ""),
    "EcapaTDNN": ("official/audio/EcapaTDNN", "export.py", [], ""),
    # the script writes ascend310_infer/inc/maxlen.h, a folder the zoo renamed cpp_infer
    "LPCNet": ("official/audio/LPCNet", "export.py", [], {"{folder}/ascend310_infer/inc/maxlen.h": ""}),
    "MELGAN": ("official/audio/MELGAN", "export.py", [], ""),
    "Arcface": ("official/cv/Arcface", "export.py", _CPU + ["--batch_size=1", "--ckpt_file=none"], ""),
    "Arcface_modelarts": ("official/cv/Arcface", "modelarts/export.py", [], ""),
    "CRNN": ("official/cv/CRNN", "export.py", _CPU + ["--model_version=V2"], ""),
    "CTPN": ("official/cv/CTPN", "export.py", _CPU, ""),
    "CycleGAN": ("official/cv/CycleGAN", "export.py",
                 ["--platform=CPU", "--image_size=32", "--ngf=16", "--gl_num=2"], ""),
    "DBNet": ("official/cv/DBNet", "export.py", _CPU, ""),
    "DeepLabV3P": ("official/cv/DeepLabV3P", "export.py", [], ""),
    "DeepLabv3": ("official/cv/DeepLabv3", "export.py", _CPU, ""),
    "DeepText": ("official/cv/DeepText", "export.py", [], ""),
    "EDSR": ("official/cv/EDSR", "export.py", ["--config_path=DIV2K_config.yaml", "--pre_trained={work}/edsr.ckpt",
                                               "--output_path={work}", "--n_feats=16", "--n_resblocks=2"],
             {"edsr.ckpt": ""}),
    "EfficientNet-B0": ("official/cv/Efficientnet/efficientnet-b0", "export.py",
                        ["--config_path=efficientnet_b0_imagenet_config.yaml"], ""),
    "EfficientNet-B1": ("official/cv/Efficientnet/efficientnet-b1", "export.py", ["--checkpoint_path=none"], ""),
    "EfficientNet-B2": ("official/cv/Efficientnet/efficientnet-b2", "export.py", _CKPT_GPU, ""),
    "EfficientNet-B3": ("official/cv/Efficientnet/efficientnet-b3", "export.py", _CKPT_GPU, ""),
    "EfficientNetV2": ("official/cv/Efficientnet/efficientnetv2", "export.py",
                       _CPU + ["--pretrained=none", "--config=src/configs/effnetv2_s_finetune.yaml"], ""),
    "FasterRCNN": ("official/cv/FasterRCNN", "export.py", _CPU, ""),
    "Inception-v3": ("official/cv/Inception/inceptionv3", "export.py",
                     ["--config_path=default_config_cpu.yaml"] + _CPU, ""),
    "Inception-v4": ("official/cv/Inception/inceptionv4", "export.py", _CPU, ""),
    "Xception": ("official/cv/Inception/xception", "export.py", [], ""),
    "MaskRCNN-MobileNetV1": ("official/cv/MaskRCNN/maskrcnn_mobilenetv1", "export.py", _CPU, ""),
    "MaskRCNN-ResNet50": ("official/cv/MaskRCNN/maskrcnn_resnet50", "export.py", _CPU, ""),
    "MobileNetV1": ("official/cv/MobileNet/mobilenetv1", "export.py", _CPU + ["--batch_size=1"], ""),
    "MobileNetV2": ("official/cv/MobileNet/mobilenetv2", "export.py", ["--platform=CPU"], ""),
    "MobileNetV3": ("official/cv/MobileNet/mobilenetv3", "export.py", _CPU + ["--checkpoint_path=none"], ""),
    "OCRNet": ("official/cv/OCRNet", "export.py", [], ""),
    "OpenPose": ("official/cv/OpenPose", "export.py", _CPU, ""),
    "PVNet": ("official/cv/PVNet", "export.py", [], ""),
    "PointNet": ("official/cv/PointNet", "src/export.py", [], ""),
    "PointNet2": ("official/cv/PointNet2", "export.py", ["--ckpt_file=none", "--batch_size=1"], ""),
    "ResNet": ("official/cv/ResNet", "export.py", _CPU + ["--batch_size=1"], ""),
    "ResNet-UniPruning": ("official/cv/ResNet", "golden_stick/pruner/uni_pruning/export.py", _CPU, ""),
    "RetinaFace-ResNet50": ("official/cv/RetinaFace_ResNet50", "export.py", [], ""),
    "RetinaNet": ("official/cv/RetinaNet", "export.py", _CPU, ""),
    "SSD": ("official/cv/SSD", "export.py", _CPU, ""),
    "ShuffleNetV1": ("official/cv/ShuffleNet/shufflenetv1", "export.py", _CPU + ["--batch_size=1"], ""),
    "ShuffleNetV2": ("official/cv/ShuffleNet/shufflenetv2", "export.py", _CPU + ["--batch_size=1", "--ckpt_file=none"],
                     ""),
    "SwinTransformer": ("official/cv/SwinTransformer", "export.py",
                        _CPU + ["--swin_config=src/configs/swin_tiny_patch4_window7_224.yaml", "--pretrained=none"], ""),
    "Unet": ("official/cv/Unet", "export.py", _CPU + ["--batch_size=1"], ""),
    "VGG16": ("official/cv/VGG/vgg16", "export.py", _CPU + ["--batch_size=1"], ""),
    "VGG19": ("official/cv/VGG/vgg19", "export.py", ["--device_target=GPU", "--batch_size=1"], ""),
    "ViT": ("official/cv/VIT", "export.py", _CPU + ["--batch_size=1", "--config_path=config/vit_export.yml"], ""),
    "WGAN": ("official/cv/WGAN", "export.py", _CPU + ["--config={work}/wgan.json", "--ckpt_file=none", "--nimages=1"],
             {"wgan.json": '{"imageSize": 64, "nz": 100, "nc": 3, "ngf": 64, "noBN": false, "n_extra_layers": 0}'}),
    "YOLOX": ("official/cv/YOLOX", "export.py", _CPU, ""),
    "YOLOv3": ("official/cv/YOLOv3", "export.py", _CPU + ["--batch_size=1"], ""),
    "YOLOv4": ("official/cv/YOLOv4", "export.py", _CPU + ["--batch_size=1"], ""),
    "YOLOv5": ("official/cv/YOLOv5", "export.py", _CPU + ["--batch_size=1"], ""),
    "GCN": ("official/gnn/GCN", "export.py", _CPU + ["--ckpt_file=none"], ""),
    "BERT": ("official/nlp/Bert", "export.py", ["--config_path=../../task_classifier_cpu_config.yaml"], ""),
    # the script's word ids are drawn from [0, 1e5): a table of 1e5 words, 8 wide (the zoo's is 300)
    "LSTM": ("official/nlp/LSTM", "export.py", _CPU + ["--batch_size=1", "--embed_size=8", "--preprocess_path={work}"],
             {"weight.txt": lambda: _embedding_table(100000, 8)}),
    # eval.load_weights copies the training checkpoint's embedding table to the decoder's name; a
    # smaller decoder (2 layers, 8 decoding steps, 16 source tokens) keeps the traced beam search short
    "Transformer": ("official/nlp/Transformer", "export.py",
                    _CPU + ["--batch_size=1", "--model_file={work}/transformer.ckpt", "--num_hidden_layers=2",
                            "--max_decode_length=8", "--seq_length=16"],
                    {"transformer.ckpt": lambda: _stand_in_checkpoint("tfm_embedding_lookup.embedding_table")}),
    "DeepFM": ("official/recommend/DeepFM", "export.py", _CPU + ["--batch_size=1"], ""),
    "Wide_and_Deep": ("official/recommend/Wide_and_Deep", "export.py", _CPU + ["--batch_size=1"], ""),
}

_RUN_GRAPH = """import sys
import numpy as np
import {module} as ms
from {module} import nn
d = np.load(sys.argv[2])
xs = [ms.Tensor(d[k]) for k in sorted((k for k in d.files if k[0] == "x"), key=lambda k: int(k[1:]))]
out = nn.GraphCell(ms.load(sys.argv[1]))(*xs)
flat = lambda o: [a for i in o for a in flat(i)] if isinstance(o, (tuple, list)) else [o]
out = flat(out)
{compare}"""

_RUN_ORT = """import sys
import numpy as np
import onnxruntime as ort
d = np.load(sys.argv[2])
sess = ort.InferenceSession(sys.argv[1], providers=["CPUExecutionProvider"])
xs = [d[f"x{{i}}"] for i in range(len(sess.get_inputs()))]
out = sess.run(None, {{i.name: x for i, x in zip(sess.get_inputs(), xs)}})
{compare}"""

_COMPARE = """ys = [d[k] for k in sorted((k for k in d.files if k[0] == "y"), key=lambda k: int(k[1:]))]
out = [o.asnumpy() if hasattr(o, "asnumpy") else np.asarray(o) for o in out]
if len(out) != len(ys):
    print("RESULT nan False", len(out), "outputs, expected", len(ys))
else:
    diff = max([float(np.abs(o.astype(np.float64) - y).max()) if o.size else 0.0 for o, y in zip(out, ys)] + [0.0])
    ok = all(o.shape == y.shape and np.allclose(o, y, rtol={rtol}, atol={atol}) for o, y in zip(out, ys))
    print("RESULT", diff, ok)
""".format(rtol=RTOL, atol=ATOL)


def _run(cmd, cwd, env=None, timeout=1500):
    try:
        p = subprocess.run(cmd, cwd=cwd, env={**os.environ, **(env or {})}, capture_output=True, text=True,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        return -1, [f"timed out after {timeout} s"]
    lines = [ln for ln in (p.stdout + p.stderr).splitlines() if ln.strip() and "Warning" not in ln]
    return p.returncode, lines


def _error(code, lines):
    """The failing run's exception line (its last line naming an Error), else its last line."""
    named = [ln for ln in lines if re.match(r"^[\w.]*(Error|Exception)\b", ln) or "Error:" in ln[:80]]
    named = [ln for ln in named if not ln.startswith(" ")]
    return (named or lines or [f"exit {code}"])[-1].strip()[:300]


def _result(code, lines):
    for ln in reversed(lines):
        if ln.startswith("RESULT "):
            _, diff, ok = ln.split()[:3]
            return {"max_abs_diff": float(diff), "ok": ok == "True"}
    return {"ok": False, "error": _error(code, lines)}


def _forward_diff(a, b):
    da, db = dict(a), dict(b)
    ys = sorted(k for k in da if k[0] == "y")
    if sorted(k for k in db if k[0] == "y") != ys:
        return {"ok": False, "error": "different numbers of outputs"}
    diff = max([float(np.abs(da[k].astype(np.float64) - db[k]).max()) if da[k].size else 0.0 for k in ys] + [0.0])
    ok = all(da[k].shape == db[k].shape and np.allclose(da[k], db[k], rtol=RTOL, atol=ATOL) for k in ys)
    return {"max_abs_diff": diff, "ok": ok}


def _merge(results):
    """One cell from the per-network results: the first failure, else the largest difference."""
    for r in results:
        if not r.get("ok"):
            return r
    return {"ok": True, "max_abs_diff": max(r.get("max_abs_diff", 0.0) for r in results)}


def _pythonpath(*extra):
    return os.pathsep.join(p for p in (os.environ.get("PYTHONPATH", ""), *extra) if p)


def census(model, zoo, work, ms_python, timeout, pythonpath=(), ms_pythonpath=(), keep=False):
    folder, script, args, files = MODELS[model]
    cwd = os.path.join(zoo, folder)
    os.makedirs(work, exist_ok=True)
    for f in glob.glob(os.path.join(work, "*")):
        if os.path.isfile(f):
            os.chmod(f, 0o600)
            os.remove(f)
    for name, text in (files or {}).items():
        name = os.path.join(cwd, name[len("{folder}/"):]) if name.startswith("{folder}/") else os.path.join(work, name)
        os.makedirs(os.path.dirname(name), exist_ok=True)
        text = text() if callable(text) else text
        with open(name, "wb" if isinstance(text, bytes) else "w") as f:
            f.write(text)
    args = [a.replace("{work}", work) for a in args]
    hook = os.path.join(HERE, "export_census_hook.py")
    runners = {}
    for name, text in (("msjax", _RUN_GRAPH.format(module="msjax", compare=_COMPARE)),
                       ("mindspore", _RUN_GRAPH.format(module="mindspore", compare=_COMPARE)),
                       ("ort", _RUN_ORT.format(compare=_COMPARE))):
        runners[name] = os.path.join(work, f"run_{name}.py")
        with open(runners[name], "w") as f:
            f.write(text)
    entry = {"folder": folder, "script": script, "args": MODELS[model][2]}
    sides = {"msjax": [sys.executable, "-m", "msjax", "run", hook],
             "mindspore": [ms_python, hook]}
    paths = {"msjax": _pythonpath(*pythonpath), "mindspore": _pythonpath(*pythonpath, *ms_pythonpath)}
    for side, cmd in sides.items():
        code, lines = _run(cmd + [script, *args], cwd,
                           {"CENSUS_SIDE": side, "CENSUS_WORK": work, "PYTHONPATH": paths[side]}, timeout)
        if not os.path.exists(os.path.join(work, f"{side}_done.json")) and not glob.glob(
                os.path.join(work, f"net*_{side}.json")):
            entry[f"{side}_script"] = _error(code, lines)
        elif code:
            entry[f"{side}_script_after_export"] = _error(code, lines)
    nets = sorted({int(re.match(r"net(\d+)_", os.path.basename(p)).group(1))
                   for p in glob.glob(os.path.join(work, "net*_*.json"))})
    entry["networks"] = len(nets)
    cells = {k: [] for k in ("mindspore_runs_msjax_mindir", "msjax_runs_msjax_mindir", "onnxruntime_runs_msjax_onnx",
                             "msjax_runs_mindspore_mindir", "forward_msjax_vs_mindspore")}
    for n in nets:
        stem = os.path.join(work, f"net{n}")
        rep = {}
        for side in sides:
            if os.path.exists(f"{stem}_{side}.json"):
                with open(f"{stem}_{side}.json") as f:
                    rep[side] = json.load(f)
        io_jx, io_ms = f"{stem}_msjax_io.npz", f"{stem}_mindspore_io.npz"

        def cell(key, side, fmt, path, io, runner):
            report = rep.get(side)
            if report is None:
                cells[key].append({"ok": False, "error": entry.get(f"{side}_script", "the script did not reach export")})
            elif fmt in report:
                cells[key].append({"ok": False, "export": report[fmt]})
            elif not os.path.exists(io):
                cells[key].append({"ok": False, "error": "forward: " + report.get("forward", "no outputs")})
            else:
                cells[key].append(_result(*_run([*runner, path, io], work, timeout=timeout)))

        cell("mindspore_runs_msjax_mindir", "msjax", "MINDIR", f"{stem}_msjax.mindir", io_jx,
             [ms_python, runners["mindspore"]])
        cell("msjax_runs_msjax_mindir", "msjax", "MINDIR", f"{stem}_msjax.mindir", io_jx,
             [sys.executable, runners["msjax"]])
        cell("onnxruntime_runs_msjax_onnx", "msjax", "ONNX", f"{stem}_msjax.onnx", io_jx,
             [sys.executable, runners["ort"]])
        cell("msjax_runs_mindspore_mindir", "mindspore", "MINDIR", f"{stem}_mindspore.mindir", io_ms,
             [sys.executable, runners["msjax"]])
        if os.path.exists(io_jx):
            d = np.load(io_jx)
            ys = [abs(d[k]).max() for k in d.files if k[0] == "y" and d[k].size]
            entry["max_abs_output"] = max([float(y) for y in ys] + [entry.get("max_abs_output", 0.0)])
        if os.path.exists(io_jx) and os.path.exists(io_ms):
            cells["forward_msjax_vs_mindspore"].append(_forward_diff(np.load(io_jx), np.load(io_ms)))
        for side, r in rep.items():
            if r.get("not_loaded"):
                entry.setdefault("not_loaded", {})[side] = r["not_loaded"]
    for k, v in cells.items():
        entry[k] = _merge(v) if v else {"ok": False, "error": "no network exported"}
    for f in glob.glob(os.path.join(work, "*")) if not keep else ():
        if os.path.isfile(f):
            os.chmod(f, 0o600)
            os.remove(f)
    return entry


_COLUMNS = ("mindspore_runs_msjax_mindir", "msjax_runs_msjax_mindir", "onnxruntime_runs_msjax_onnx",
            "msjax_runs_mindspore_mindir")


def _cell(r):
    if r.get("ok"):
        return f"{r['max_abs_diff']:.1e}"
    why = r.get("export") or r.get("error") or r.get("mindspore_export") or ""
    if "max_abs_diff" in r:
        why = f"differs: {r['max_abs_diff']:.1e}"
    return "✗ " + why.replace("|", "\\|").replace("\n", " ")[:160]


def table(results):
    rows = ["| model (`official/...`) | MindSpore 2.10 runs msjax's `.mindir` | msjax runs its own `.mindir` "
            "| onnxruntime runs msjax's `.onnx` | msjax runs MindSpore's `.mindir` | both ways |",
            "| --- | --- | --- | --- | --- | --- |"]
    both = 0
    for model in sorted(MODELS, key=str.lower):
        if model not in results:
            folder, script = MODELS[model][:2]
            rows.append(f"| {model} (`{folder[len('official/'):]}/{script}`) | not run yet | | | | |")
            continue
        e = results[model]
        ok = e[_COLUMNS[0]].get("ok") and e[_COLUMNS[3]].get("ok")
        both += bool(ok)
        script_error = e.get("msjax_script") or e.get("mindspore_script")
        cells = [_cell(e[c]) if e[c].get("error") != "no network exported" or not script_error
                 else "✗ the script: " + _cell({"error": script_error})[2:] for c in _COLUMNS]
        if e.get("mindspore_script") and e["msjax_runs_mindspore_mindir"].get(
                "error") == "no network exported":
            cells[3] = "✗ MindSpore's run of the script: " + _cell({"error": e["mindspore_script"]})[2:]
        rows.append(f"| {model} (`{e['folder'][len('official/'):]}/{e['script']}`) | "
                    + " | ".join(cells) + f" | {'yes' if ok else 'no'} |")
    rows.append("")
    rows.append(f"MINDIR both ways: {both} of {len(MODELS)} ({len(results)} run).")
    return "\n".join(rows)


def write_table(results, path):
    with open(path) as f:
        text = f.read()
    start, end = "<!-- census-table -->", "<!-- /census-table -->"
    i, j = text.index(start) + len(start), text.index(end)
    with open(path, "w") as f:
        f.write(text[:i] + "\n" + table(results) + "\n" + text[j:])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("zoo", nargs="?")
    ap.add_argument("--work", default="/tmp/export_census")
    ap.add_argument("--models", nargs="*", default=list(MODELS))
    ap.add_argument("--ms-python", default="/tmp/ms/bin/python")
    ap.add_argument("--timeout", type=int, default=1500)
    ap.add_argument("--out", default=os.path.join(HERE, "export_census.json"))
    ap.add_argument("--table", default=None)
    ap.add_argument("--keep", action="store_true", help="keep each model's files (checkpoints, .mindir, .onnx)")
    ap.add_argument("--pythonpath", nargs="*", default=[],
                    help="folders with the packages the zoo's scripts import (easydict...), for both sides")
    ap.add_argument("--ms-pythonpath", nargs="*", default=[], help="the same, for MindSpore's side only (cv2)")
    a = ap.parse_args()
    results = {}
    if os.path.exists(a.out):
        with open(a.out) as f:
            results = json.load(f)
    if a.zoo:
        for model in a.models:
            results[model] = census(model, os.path.abspath(a.zoo), os.path.join(os.path.abspath(a.work), model),
                                    a.ms_python, a.timeout, a.pythonpath, a.ms_pythonpath, a.keep)
            print(model, json.dumps(results[model]), flush=True)
            with open(a.out, "w") as f:
                json.dump(results, f, indent=1, sort_keys=True)
                f.write("\n")
    if a.table:
        write_table({k: v for k, v in results.items() if k in MODELS}, a.table)


if __name__ == "__main__":
    main()
