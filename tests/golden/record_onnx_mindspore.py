"""Record MindSpore 2.10's own ONNX export of the zoo-style networks of
tests/fixtures/mindir_export_cases.py (the zoo's LeNet5, ResNet18, MobileNetV2, VGG16 and BERT
sources under examples/zoo, small; a misc-ops net), same weights; run with MindSpore's venv:

    /tmp/ms/bin/python tests/golden/record_onnx_mindspore.py      # needs onnxruntime there

For each network: MindSpore's forward output, and (where its CPU build exports the network)
what onnxruntime computes from MindSpore's .onnx file, with the file's opset and operators.
Writes ``onnx_mindspore.npz`` (outputs) and ``onnx_mindspore.json`` (status, opset, operators,
parameter names); the .onnx files themselves are not kept.
"""
import json
import os
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "fixtures"))

import mindspore as ms  # noqa: E402
import mindir_export_cases as cases  # noqa: E402

NETS = ("lenet", "resnet18", "mobilenetv2", "vgg16", "bert", "misc", "layers", "recurrent")
ZOO_DIR = {"resnet18": "resnet", "mobilenetv2": "mobilenetv2", "vgg16": "vgg16", "bert": "bert"}


def _zoo_importable(name):
    """MindSpore's graph compiler imports the network's module (``src.<model>``) again by name:
    keep that model's ``src`` package importable while it exports."""
    for mod in [m for m in sys.modules if m == "src" or m.startswith("src.")]:
        del sys.modules[mod]
    sys.path[:] = [p for p in sys.path if not p.startswith(cases.ZOO)]
    if name in ZOO_DIR:
        sys.path.insert(0, os.path.join(cases.ZOO, ZOO_DIR[name]))


def main():
    import onnx
    import onnxruntime as ort
    arrays, meta = {}, {"mindspore": ms.__version__, "onnxruntime": ort.__version__, "nets": {}}
    with tempfile.TemporaryDirectory() as tmp:
        for name in NETS:
            net, inputs = cases.build(ms, name)
            outs = net(*[ms.Tensor(x) for x in inputs])
            outs = outs if isinstance(outs, tuple) else (outs,)
            for i, o in enumerate(outs):
                arrays[f"{name}__ms_{i}"] = o.asnumpy()
            entry = {"parameters": sorted(p.name for p in net.get_parameters())}
            path = os.path.join(tmp, name)
            _zoo_importable(name)
            try:
                ms.export(net, *[ms.Tensor(x) for x in inputs], file_name=path, file_format="ONNX")
            except Exception as e:      # recorded: MindSpore's CPU build cannot export this network
                entry["exported"] = False
                entry["error"] = f"{type(e).__name__}: {str(e).split(chr(10))[0]}"
            else:
                model = onnx.load(path + ".onnx")
                entry.update(exported=True, opset=[o.version for o in model.opset_import if o.domain in ("", "ai.onnx")],
                             operators=sorted({n.op_type for n in model.graph.node}))
                sess = ort.InferenceSession(path + ".onnx", providers=["CPUExecutionProvider"])
                feed = {i.name: x for i, x in zip(sess.get_inputs(), inputs)}
                for i, o in enumerate(sess.run(None, feed)):
                    arrays[f"{name}__ort_{i}"] = o
            meta["nets"][name] = entry
            print(name, entry.get("exported"), entry.get("error", ""), flush=True)
    np.savez_compressed(os.path.join(HERE, "onnx_mindspore.npz"), **arrays)
    with open(os.path.join(HERE, "onnx_mindspore.json"), "w") as f:
        json.dump(meta, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
