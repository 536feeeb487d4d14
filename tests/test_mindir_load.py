"""MindIR files written by MindSpore 2.10 run in msjax (``nn.GraphCell``) with MindSpore's outputs.

The files, their inputs and MindSpore's outputs (``ms.load`` + ``nn.GraphCell`` in MindSpore)
are recorded by ``tests/golden/record_mindir_load.py`` into ``tests/fixtures/mindir/``: LeNet5
as in the zoo, a ResNet stem and block, MobileNetV2 inverted residuals exported with a dynamic
batch, a VGG stack, a BERT encoder layer (two inputs, two outputs), ``nn.TransformerEncoderLayer``
two nets of assorted ops, and issue 34's CycleGAN-style generator block (MirrorPad, BatchNorm on
batch statistics with a U monad as its 10th input, Conv2DTranspose), EDSR-style block
(DepthToSpace, AvgPool/AvgPool3D, ResizeNearestNeighborV2), float16 attention scores (a 0-d
float32 constant times float16 stays float16) and integer division ops. MindSpore is not
imported here.
"""
import json
import os

import numpy as np
import pytest

import msjax as ms
from msjax import nn
from msjax.train._export import mindir_reader
from msjax.train._export.mindir_reader import load_mindir_graph
from msjax.train._mind_ir_pb import ModelProto

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "mindir")
OUTPUTS = np.load(os.path.join(HERE, "outputs.npz"))
CASES = sorted({k.split("/")[0] for k in OUTPUTS.files})
_CELLS = {}


def _graph_cell(name):
    if name not in _CELLS:
        _CELLS[name] = nn.GraphCell(load_mindir_graph(os.path.join(HERE, name + ".mindir")))
    return _CELLS[name]


def _inputs(key):
    return [ms.Tensor(OUTPUTS[f"{key}/in{i}"]) for i in range(8) if f"{key}/in{i}" in OUTPUTS.files]


def _expected(key):
    return [OUTPUTS[f"{key}/out{i}"] for i in range(8) if f"{key}/out{i}" in OUTPUTS.files]


@pytest.mark.parametrize("key", CASES)
def test_mindspore_outputs(key):
    cell = _graph_cell(key.split("@")[0])
    out = cell(*_inputs(key))
    expected = _expected(key)
    out = out if len(expected) > 1 else (out,)
    assert isinstance(out, list if key == "make_list" else tuple) and len(out) == len(expected)
    for got, want in zip(out, expected):
        assert isinstance(got, ms.Tensor)
        got = got.asnumpy()
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_every_fixture_covered():
    files = sorted(f[:-len(".mindir")] for f in os.listdir(HERE) if f.endswith(".mindir"))
    assert files == sorted({c.split("@")[0] for c in CASES})


def test_parameters_named_as_exported():
    cell = _graph_cell("lenet")
    names = [(p.name, p.shape) for p in cell.get_parameters()]
    assert names == [("conv1.weight", (6, 1, 5, 5)), ("conv2.weight", (16, 6, 5, 5)), ("fc1.weight", (120, 400)),
                     ("fc1.bias", (120,)), ("fc2.weight", (84, 120)), ("fc2.bias", (84,)),
                     ("fc3.weight", (10, 84)), ("fc3.bias", (10,))]
    assert list(cell.parameters_dict()) == [n for n, _ in names]
    assert cell.graph.inputs == [("x", (2, 1, 32, 32), ms.float32)]
    dyn = _graph_cell("mobilenet_block").graph
    assert dyn.inputs[0][1] == (-1, 3, 16, 16)


def test_weights_are_arguments_not_constants():
    """Changing a Parameter after the first call changes the result (the compiled program
    takes the weights as arguments); params_init replaces them at construction."""
    graph = _graph_cell("lenet").graph      # a new GraphCell of a graph shares its compiled code
    x = _inputs("lenet")
    want = _expected("lenet")[0]
    cell = nn.GraphCell(graph)
    np.testing.assert_allclose(cell(*x).asnumpy(), want, rtol=1e-5, atol=1e-6)
    bias = dict(cell.parameters_and_names())["fc3.bias"]
    bias.set_data(ms.Tensor(graph.params["fc3.bias"] + 1.0))
    np.testing.assert_allclose(cell(*x).asnumpy(), want + 1.0, rtol=1e-5, atol=1e-5)
    cell2 = nn.GraphCell(graph, params_init={"fc3.bias": ms.Tensor(graph.params["fc3.bias"] - 2.0),
                                             "no.such": ms.Tensor(np.ones(3, np.float32))})
    np.testing.assert_allclose(cell2(*x).asnumpy(), want - 2.0, rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(dict(cell2.parameters_and_names())["fc3.bias"].asnumpy(),
                                  graph.params["fc3.bias"] - np.float32(2.0))


def test_graph_cell_argument_errors():
    graph = _graph_cell("lenet").graph
    with pytest.raises(TypeError, match="must be a FuncGraph loaded from MindIR, but got type <class 'str'>"):
        nn.GraphCell("graph")
    with pytest.raises(TypeError, match="'params_init' must be a dict"):
        nn.GraphCell(graph, params_init=[1])
    with pytest.raises(TypeError, match="the value must be Tensor or Parameter"):
        nn.GraphCell(graph, params_init={"fc3.bias": np.ones(10, np.float32)})
    with pytest.raises(ValueError, match=r"The parameter 'fc3.bias' has shape \[const vector\]\{10\} and dtype "
                                         r"Float32, but got the update value with shape \[const vector\]\{4\}"):
        nn.GraphCell(graph, params_init={"fc3.bias": ms.Tensor(np.ones(4, np.float32))})
    with pytest.raises(NotImplementedError, match="Dynamic structure obfuscation is not supported now."):
        nn.GraphCell(graph, obf_random_seed=1)


def test_call_errors_as_mindspore():
    """Wrong input count: MindSpore's message; wrong rank, dtype or a non-Tensor: RuntimeError
    (MindSpore's type) naming the primitive or the input."""
    with open(os.path.join(HERE, "errors.json")) as f:
        recorded = json.load(f)
    cell = _graph_cell("lenet")
    x = np.ones((2, 1, 32, 32), np.float32)
    cases = {"count0": (), "count2": (ms.Tensor(x), ms.Tensor(x)), "rank": (ms.Tensor(x[0]),),
             "dtype": (ms.Tensor(x.astype(np.float16)),), "numpy": (x,)}
    for case, args in cases.items():
        kind, message = recorded[case]
        with pytest.raises(RuntimeError) as info:
            cell(*args)
        assert type(info.value).__name__ == kind
        text = str(info.value)
        if case.startswith("count"):    # MindSpore's message, up to its graph's name
            assert text.split("FuncGraph:")[0] == message.split("FuncGraph:")[0]
        elif case == "rank":
            assert text.startswith("Catch primitive:Conv2D exception:")
        else:
            assert "input[0] 'x'" in text
    # a batch size other than the exported one runs, as in MindSpore
    out = cell(ms.Tensor(np.concatenate([OUTPUTS["lenet/in0"]] * 2)))
    np.testing.assert_allclose(out.asnumpy()[2:], _expected("lenet")[0], rtol=1e-5, atol=1e-6)


def _model(name):
    model = ModelProto()
    with open(os.path.join(HERE, name + ".mindir"), "rb") as f:
        model.ParseFromString(f.read())
    return model


def _write(model, path):
    with open(path, "wb") as f:
        f.write(model.SerializeToString())
    return str(path)


def test_unknown_op_type_named_at_load(tmp_path):
    model = _model("vgg_stack")
    for p in model.primitives:
        if p.op_type == "MaxPool":
            p.op_type = "FractionalMaxPool"
    with pytest.raises(RuntimeError, match="the op type 'FractionalMaxPool' .* has no msjax implementation"):
        load_mindir_graph(_write(model, tmp_path / "bad.mindir"))


def test_constant_named_like_an_input(tmp_path):
    """MindSpore names some constants after the Python variable (CycleGAN's LeakyReLU slope is a
    Constant node named ``x``, as its graph input ``<graph>:x`` is called ``x``): each keeps its value."""
    model = _model("lenet")
    prims = {p.name: p.op_type for p in model.primitives}
    consts = {n.output[0]: n for n in model.graph.node if n.op_type == "Constant"}
    matmul = next(n for n in model.graph.node if prims.get(n.op_type[5:]) == "MatMul")
    const = consts[next(i for i in matmul.input if i in consts)]          # its transpose_a flag
    old_name = const.output[0]
    const.output[0] = const.name = "x"
    for n in model.graph.node:
        n.input[:] = ["x" if i == old_name else i for i in n.input]
    cell = nn.GraphCell(load_mindir_graph(_write(model, tmp_path / "x.mindir")))
    np.testing.assert_allclose(cell(*_inputs("lenet")).asnumpy(), _expected("lenet")[0], rtol=1e-5, atol=1e-6)


def test_subgraph_call_named_at_load(tmp_path):
    model = _model("vgg_stack")
    model.functions.add().name = "branch_1"
    node = next(n for n in model.graph.node if "ReLU" in n.op_type)
    node.op_type = "REF::branch_1"
    with pytest.raises(RuntimeError, match="calls the sub-graph 'branch_1' .* not supported by msjax"):
        load_mindir_graph(_write(model, tmp_path / "sub.mindir"))


def test_external_weight_file(tmp_path):
    """Weights kept outside the file (MindSpore does so for models over 1 GB) are read from it."""
    model = _model("vgg_stack")
    os.makedirs(tmp_path / "vgg_variables")
    with open(tmp_path / "vgg_variables" / "data_0", "wb") as f:
        offset = 0
        for p in model.graph.parameter:
            raw = p.raw_data
            f.write(raw)
            p.ClearField("raw_data")
            p.external_data.location = "vgg_variables/data_0"
            p.external_data.offset, p.external_data.length = offset, len(raw)
            offset += len(raw)
    cell = nn.GraphCell(load_mindir_graph(_write(model, tmp_path / "vgg.mindir")))
    np.testing.assert_allclose(cell(*_inputs("vgg_stack")).asnumpy(), _expected("vgg_stack")[0],
                               rtol=1e-5, atol=1e-6)


def test_bad_and_encrypted_files(tmp_path):
    junk = tmp_path / "junk.mindir"
    junk.write_bytes(b"\x0a\xff\xff\xff\xff\x0f not a model")
    with pytest.raises(RuntimeError, match="^Load MindIR failed.$"):
        load_mindir_graph(str(junk))
    cipher = tmp_path / "cipher.mindir"
    cipher.write_bytes((0x7F3A5ED8).to_bytes(4, "little") + os.urandom(64))
    with pytest.raises(RuntimeError, match="The file may be encrypted and decrypt failed"):
        load_mindir_graph(str(cipher))
    with pytest.raises(NotImplementedError, match="built-in 'AES-GCM' mode is not supported by msjax"):
        load_mindir_graph(str(cipher), dec_key=b"0123456789abcdef")
    with pytest.raises(RuntimeError, match="^Load MindIR failed.$"):      # MindSpore: a key for a plain file
        load_mindir_graph(os.path.join(HERE, "lenet.mindir"), dec_key=b"0123456789abcdef")
    # customized decryption, called as MindSpore calls it: dec_mode(file_name, dec_key) -> bytes
    def xor(data, key):
        return bytes(b ^ key[i % len(key)] for i, b in enumerate(data))

    def decrypt(path, key):
        with open(path, "rb") as f:
            return xor(f.read(), key)

    with open(os.path.join(HERE, "misc_ops.mindir"), "rb") as f:
        plain = f.read()
    secret = tmp_path / "secret.mindir"
    secret.write_bytes(xor(plain, b"k3y"))
    graph = load_mindir_graph(str(secret), dec_key=b"k3y", dec_mode=decrypt)
    assert graph.op_types() == _graph_cell("misc_ops").graph.op_types()
    with pytest.raises(RuntimeError, match="^Load MindIR failed.$"):
        load_mindir_graph(str(secret), dec_key=b"k3y", dec_mode=lambda path, key: None)
    with pytest.raises(NotImplementedError, match="obfuscation"):
        load_mindir_graph(os.path.join(HERE, "lenet.mindir"), obf_func=lambda x: x)


def test_load_through_mindspore_api():
    """``mindspore.load`` (the front end) returns the reader's graph."""
    graph = ms.load(os.path.join(HERE, "misc_ops.mindir"))
    assert isinstance(graph, mindir_reader.FuncGraph)
    ref = _graph_cell("misc_ops").graph
    assert graph.inputs == ref.inputs and graph.op_types() == ref.op_types()
    assert all(np.array_equal(graph.params[k], v) for k, v in ref.params.items())
