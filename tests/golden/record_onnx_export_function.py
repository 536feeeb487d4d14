"""Record MindSpore 2.10's ``mindspore.onnx.export`` (its newer ONNX function) on a small net,
for tests/test_onnx_export_function.py; run with MindSpore's venv (needs onnx there):

    /tmp/ms/bin/python tests/golden/record_onnx_export_function.py

For each option set: the graph's inputs (name, dims; a dynamic axis by its name), the named
outputs, which Parameters are initializers and which are graph inputs, the file's mode bits;
for bad arguments: the exception type and message. Writes ``onnx_export_function.json``.
MindSpore's names for unnamed outputs and for its constants are its own and not recorded.
"""
import json
import os
import stat
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

OPTIONS = {
    "default": {},
    "names": {"input_names": ["a", "b"], "output_names": ["p", "q"]},
    "first_name": {"input_names": ["a"]},
    "no_params": {"export_params": False},
    "params_as_inputs": {"keep_initializers_as_inputs": True},
    "dynamic": {"input_names": ["a", "b"], "dynamic_axes": {"a": {0: "batch"}, "b": {0: "batch"}}},
}
BAD = {"input_names_str": {"input_names": "a"}, "output_names_tuple": {"output_names": ("p",)},
       "dynamic_axes_list": {"dynamic_axes": [1]}, "bad_file_name": {"file_name": "bad name!"}}


def build_net(ms):
    """A Dense and an elementwise op, two inputs and two outputs (MindSpore re-exports a Cell it
    exported once wrongly, so each export gets a fresh one)."""
    class OnnxFunctionNet(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc = ms.nn.Dense(4, 3)

        def construct(self, x, y):
            return self.fc(x) * 2, y + 1
    return OnnxFunctionNet()


def inputs(ms):
    return ms.Tensor(np.ones((2, 4), np.float32)), ms.Tensor(np.arange(2, dtype=np.float32))


def describe(onnx, path, params):
    m = onnx.load(path)
    dims = lambda v: [d.dim_param or d.dim_value for d in v.type.tensor_type.shape.dim]   # noqa: E731
    return {"inputs": [[i.name, dims(i)] for i in m.graph.input],
            "named_outputs": [o.name for o in m.graph.output if not o.name[:1].isdigit()],
            "param_initializers": sorted(i.name for i in m.graph.initializer if i.name in params),
            "mode": oct(stat.S_IMODE(os.stat(path).st_mode))}


def main():
    import mindspore as ms
    import onnx
    os.umask(0o022)
    record = {"mindspore": ms.__version__, "options": {}, "errors": {}}
    with tempfile.TemporaryDirectory() as tmp:
        for key, kw in OPTIONS.items():
            net = build_net(ms)
            path = os.path.join(tmp, key, "net")
            ms.onnx.export(net, *inputs(ms), file_name=path, **kw)
            record["options"][key] = describe(onnx, path + ".onnx", {p.name for p in net.get_parameters()})
        for key, kw in BAD.items():
            kw = {"file_name": os.path.join(tmp, "bad"), **kw}
            try:
                ms.onnx.export(build_net(ms), *inputs(ms), **kw)
                record["errors"][key] = None
            except Exception as e:      # pylint: disable=broad-except
                record["errors"][key] = [type(e).__name__, str(e).split("\n")[0]]
        try:
            ms.onnx.export(lambda x: x, inputs(ms)[0], file_name=os.path.join(tmp, "fn"))
        except Exception as e:      # pylint: disable=broad-except
            record["errors"]["function"] = [type(e).__name__, str(e).split("\n")[0].split(" at 0x")[0]]
    with open(os.path.join(HERE, "onnx_export_function.json"), "w") as f:
        json.dump(record, f, indent=1, sort_keys=True)
        f.write("\n")
    print(json.dumps(record, indent=1))


if __name__ == "__main__":
    main()
