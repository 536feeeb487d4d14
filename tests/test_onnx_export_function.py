"""``mindspore.onnx.export`` (msjax/onnx/onnx_export.py): MindSpore 2.10's newer ONNX function on
msjax's writer. The graph's inputs and their names, dynamic axes, named outputs, Parameters as
initializers or inputs, the file's mode and the argument errors are compared with what MindSpore
2.10 wrote for the same net and options (tests/golden/record_onnx_export_function.py); the files
run in onnxruntime to msjax's outputs."""
import json
import os
import stat
import sys

import numpy as np
import pytest

onnx = pytest.importorskip("onnx")

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "golden"))

import msjax as ms  # noqa: E402
from msjax import onnx as ms_onnx  # noqa: E402
import record_onnx_export_function as rec  # noqa: E402

with open(os.path.join(HERE, "golden", "onnx_export_function.json")) as f:
    RECORD = json.load(f)


def _ort():
    from test_export_onnx import ort      # imported with its telemetry kept out of $TMPDIR
    return ort


sys.path.insert(0, HERE)


@pytest.mark.parametrize("key", sorted(rec.OPTIONS))
def test_options_as_mindspore_writes_them(key, tmp_path):
    net = rec.build_net(ms)
    net.set_train(True)
    x, y = rec.inputs(ms)
    old = os.umask(0o022)
    try:
        ms_onnx.export(net, x, y, file_name=str(tmp_path / key / "net"), **rec.OPTIONS[key])
    finally:
        os.umask(old)
    assert net.training
    path = str(tmp_path / key / "net.onnx")
    got = rec.describe(onnx, path, {p.name for p in net.get_parameters()})
    want = RECORD["options"][key]
    assert got["inputs"] == want["inputs"] and got["param_initializers"] == want["param_initializers"]
    assert got["mode"] == want["mode"] == "0o644"
    if key == "names":
        assert got["named_outputs"] == want["named_outputs"] == ["p", "q"]
    sess = _ort().InferenceSession(path, providers=["CPUExecutionProvider"])
    feeds = {"x": x, "y": y, "a": x, "b": y}
    batch = 3 if key == "dynamic" else 2                  # a dynamic axis takes another batch size
    arrays = {n: np.repeat(feeds[n].asnumpy()[:1], batch, 0) for n in feeds}
    params = {p.name: p.asnumpy() for p in net.get_parameters()}
    out = sess.run(None, {i.name: arrays.get(i.name, params.get(i.name)) for i in sess.get_inputs()})
    want_out = net(ms.Tensor(arrays["x"]), ms.Tensor(arrays["y"]))
    for o, w in zip(out, want_out):
        np.testing.assert_allclose(o, w.asnumpy(), rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("key", sorted(rec.BAD))
def test_argument_errors_are_mindspores(key, tmp_path):
    kw = {"file_name": str(tmp_path / "bad"), **rec.BAD[key]}
    kind, message = RECORD["errors"][key]
    with pytest.raises(Exception) as info:
        ms_onnx.export(rec.build_net(ms), *rec.inputs(ms), **kw)
    assert type(info.value).__name__ == kind and str(info.value) == message
    assert not os.listdir(tmp_path)


def test_function_is_refused(tmp_path):
    kind, message = RECORD["errors"]["function"]
    with pytest.raises(ValueError) as info:
        ms_onnx.export(lambda x: x, rec.inputs(ms)[0], file_name=str(tmp_path / "fn"))
    assert str(info.value).startswith("The parameter 'net' must be isinstance of <class '")
    assert message.startswith("The parameter 'net' must be isinstance of <class 'mindspore.nn.cell.Cell'>")
