"""Golden cases: MindSpore 2.10's behaviour at the edges a user of the model zoo meets (issue 36).

``vision.Decode`` of the encoded bytes as ``np.fromfile(path, 'int8')`` reads them (YOLOv5's
loader), as uint8 and as ``bytes``, eagerly and in a pipeline, and the errors for other arrays; the
type of ``optimizer.parameters``; the ``Tensor`` constructor's and the arithmetic operators'
TypeErrors; ``set_context``'s deprecation warnings; the texts of common shape errors (MatMul, BatchMatMul, Concat, Reshape, Conv2D). An
error is returned as ``[type name, first line of its message]`` so that the texts compare exactly.
(NaN through activations and pools: ``cases_nan_edges.py``; a reseeding sampler's passes:
``cases_dataset_tail.case_python_sampler_passes``.) ``ms`` is ``mindspore`` or ``msjax``; only
numpy and Pillow (to make PNG bytes) are imported.
"""
import importlib
import io
import os
import tempfile

import numpy as np


def _error(fn):
    try:
        out = fn()
        if hasattr(out, "asnumpy"):     # MindSpore's PyNative raises a kernel's error when the value is read
            out.asnumpy()
    except Exception as e:  # noqa: BLE001 - the type and text are the result
        lines = str(e).strip().splitlines()
        return [type(e).__name__, lines[0] if lines else ""]
    return "no error"


def _png():
    from PIL import Image
    buf = io.BytesIO()
    Image.fromarray((np.arange(5 * 6 * 3).reshape(5, 6, 3) * 7 % 256).astype(np.uint8)).save(buf, "PNG")
    return buf.getvalue()


def case_decode_int8_uint8_bytes(ms):
    """YOLOv5 reads a picture with ``np.fromfile(path, dtype='int8')`` and decodes it."""
    v = importlib.import_module(ms.__name__ + ".dataset.vision")
    ds = importlib.import_module(ms.__name__ + ".dataset")
    png = _png()
    eager = [v.Decode()(x) for x in (np.frombuffer(png, np.uint8), np.frombuffer(png, np.int8), png)]
    piped = [r[0] for r in ds.GeneratorDataset([(np.frombuffer(png, np.int8),), (np.frombuffer(png, np.uint8),)],
                                               ["image"], shuffle=False)
             .map(v.Decode(), ["image"]).create_tuple_iterator(output_numpy=True)]
    return eager + piped


def case_decode_refuses(ms):
    v = importlib.import_module(ms.__name__ + ".dataset.vision")
    png = _png()
    return [_error(lambda: v.Decode()(np.zeros((2, 5), np.int8))),
            _error(lambda: v.Decode()(np.zeros((2, 5), np.uint8))),
            type(_error_obj(lambda: v.Decode()(np.frombuffer(png[:len(png) // 2 * 2], np.int16)))).__name__,
            type(_error_obj(lambda: v.Decode()(np.zeros(10, np.float32)))).__name__]


def _error_obj(fn):
    try:
        out = fn()
        if hasattr(out, "asnumpy"):
            out.asnumpy()
    except Exception as e:  # noqa: BLE001
        return e
    return None


def case_optimizer_parameters_type(ms):
    net = ms.nn.Dense(2, 3)
    momentum = ms.nn.Momentum(net.trainable_params(), 0.1, 0.9)
    grouped = ms.nn.Adam([{"params": net.trainable_params()[:1], "weight_decay": 0.1},
                          {"params": net.trainable_params()[1:]}])
    return [[type(o.parameters).__name__, [type(p).__name__ for p in o.parameters], [p.name for p in o.parameters]]
            for o in (momentum, grouped)]


def case_tensor_constructor_type_errors(ms):
    return [_error(lambda: ms.Tensor(np.ones(2), np.float32)),
            _error(lambda: ms.Tensor(np.ones(2), dtype=np.float32)),
            _error(lambda: ms.Tensor([1, 2], np.int32)),
            _error(lambda: ms.Tensor(np.ones(2), "float32")),
            _error(lambda: ms.Tensor([1.0], float)),
            _error(lambda: ms.Tensor({"a": 1}))]


def case_operator_type_errors(ms):
    t = ms.Tensor(np.array([1.0, 2.0], np.float32))
    out = []
    for other in (None, "a", {}):
        out += [_error(lambda: t + other), _error(lambda: other + t), _error(lambda: t - other),
                _error(lambda: other - t), _error(lambda: t * other), _error(lambda: other * t),
                _error(lambda: t / other), _error(lambda: other / t)]
    return out + [_error(lambda: t * (1, 2)), _error(lambda: (1, 2) * t), t + (1, 2), [1, 2] + t]


def _f32(ms, *shape):
    return ms.Tensor(np.ones(shape, np.float32))


# Shape errors, one a case: after a kernel's error MindSpore's PyNative may raise that error's text
# again from the next failing op of the process (the recorder runs each case in a fresh one).
_SHAPE_ERRORS = {
    "dense": lambda ms: ms.nn.Dense(3, 4)(_f32(ms, 2, 5)),
    "matmul": lambda ms: ms.ops.MatMul()(_f32(ms, 2, 3), _f32(ms, 4, 2)),
    "batch_matmul": lambda ms: ms.ops.BatchMatMul()(_f32(ms, 2, 2, 3), _f32(ms, 2, 4, 2)),
    "batch_matmul_transpose_a": lambda ms: ms.ops.BatchMatMul(transpose_a=True)(_f32(ms, 2, 3, 2), _f32(ms, 2, 4, 2)),
    "concat_one_axis": lambda ms: ms.ops.concat((_f32(ms, 2, 3, 4), _f32(ms, 2, 3, 4), _f32(ms, 2, 5, 4))),
    "concat_two_axes": lambda ms: ms.ops.Concat(1)((_f32(ms, 2, 3, 4), _f32(ms, 3, 3, 5))),
    "reshape": lambda ms: ms.ops.reshape(_f32(ms, 2, 3), (-1, 4)),
    "tensor_reshape": lambda ms: _f32(ms, 2, 3).reshape(4, 2),
    "matmul_ext": lambda ms: ms.ops.matmul(_f32(ms, 2, 2, 3), _f32(ms, 2, 4, 2)),
    "conv2d": lambda ms: ms.nn.Conv2d(3, 8, 3)(_f32(ms, 1, 4, 8, 8)),
    "batch_norm_channels": lambda ms: ms.nn.BatchNorm2d(4)(_f32(ms, 2, 3, 4, 4)),
    "batch_norm_channels_train": lambda ms: ms.nn.BatchNorm2d(4).set_train()(_f32(ms, 2, 3, 4, 4)),
    "batch_norm1d_channels": lambda ms: ms.nn.BatchNorm1d(4).set_train()(_f32(ms, 2, 3)),
    "conv2d_rank": lambda ms: ms.nn.Conv2d(3, 4, 3)(_f32(ms, 3, 8, 8)),
    "conv2d_int_input": lambda ms: ms.nn.Conv2d(3, 4, 3)(ms.Tensor(np.ones((1, 3, 8, 8), np.int32))),
    "tensor_sum_axis": lambda ms: _f32(ms, 2, 3).sum(axis=4),
    "sparse_ce_labels": lambda ms: ms.nn.SoftmaxCrossEntropyWithLogits(sparse=True)(
        _f32(ms, 2, 5), ms.Tensor(np.ones((3,), np.int32))),
}
for _name, _fn in _SHAPE_ERRORS.items():
    globals()[f"case_text_{_name}"] = (lambda fn: lambda ms: _error(lambda: fn(ms)))(_fn)


def case_tuple_to_array_range(ms):
    """YOLOv3's grid: ``ops.tuple_to_array(range(n))`` inside a Cell and eagerly."""
    class Grid(ms.nn.Cell):
        def construct(self, x):
            return ms.ops.tuple_to_array(range(x.shape[0])), ms.ops.TupleToArray()(range(2, 5))
    return [ms.ops.tuple_to_array(range(3)), Grid()(ms.Tensor(np.ones(4, np.float32)))]


def case_model_checkpoint_files(ms):
    """The files ``ModelCheckpoint`` leaves after ``Model.train`` in GRAPH_MODE and in PyNative:
    MindSpore writes ``<prefix>-graph.meta`` (its compiled graph) beside the checkpoints in
    GRAPH_MODE only."""
    ds = importlib.import_module(ms.__name__ + ".dataset")
    out = []
    for mode in (ms.GRAPH_MODE, ms.PYNATIVE_MODE):
        ms.set_context(mode=mode)
        net = ms.nn.Dense(3, 2)
        data = ds.NumpySlicesDataset({"x": np.ones((4, 3), np.float32), "y": np.ones((4, 2), np.float32)},
                                     shuffle=False).batch(2)
        with tempfile.TemporaryDirectory() as tmp:
            ckpt = ms.train.ModelCheckpoint(prefix="net", directory=tmp,
                                            config=ms.train.CheckpointConfig(save_checkpoint_steps=2))
            ms.Model(net, ms.nn.MSELoss(), ms.nn.SGD(net.trainable_params())).train(2, data, callbacks=[ckpt])
            out.append(sorted(os.listdir(tmp)))
    ms.set_context(mode=ms.PYNATIVE_MODE)
    return out


def case_set_context_deprecation_warnings(ms):
    """The WARNING lines MindSpore's logger gives for ``set_context`` keys it will remove (and none
    for ``mode``, ``ms.runtime.launch_blocking()``, ``set_device``), each call's messages in order."""
    import logging
    seen = []

    class Keep(logging.Handler):
        def emit(self, record):
            seen[-1].append([record.levelname, record.getMessage()])

    logger = ms.log._get_logger()
    keep, level = Keep(logging.WARNING), logger.level
    logger.addHandler(keep)
    logger.setLevel(logging.WARNING)     # the recorder runs MindSpore with GLOG_v=3
    try:
        for call in (lambda: ms.set_context(device_target="CPU"), lambda: ms.set_context(device_target="CPU"),
                     lambda: ms.set_context(mode=ms.PYNATIVE_MODE),
                     lambda: ms.set_context(device_id=0), lambda: ms.set_context(max_call_depth=1000),
                     lambda: ms.set_context(save_graphs=False), lambda: ms.set_context(pynative_synchronize=False),
                     lambda: ms.runtime.launch_blocking(), lambda: ms.set_device("CPU")):
            seen.append([])
            call()
    finally:
        logger.removeHandler(keep)
        logger.setLevel(level)
    return seen


def all_cases():
    return {k[len("case_"):]: v for k, v in sorted(globals().items()) if k.startswith("case_") and callable(v)}


def case_graph_meta_when_and_what(ms):
    """When ``<prefix>-graph.meta`` appears (the directory after each step: at the first step, before
    any checkpoint), its permission bits, and what its ANF IR ``ModelProto`` says of the step: the
    batch inputs' names and types, the Parameters it uses (by name), its one output's type."""
    ds = importlib.import_module(ms.__name__ + ".dataset")
    anf = importlib.import_module(ms.__name__ + ".train.anf_ir_pb2")
    ms.set_context(mode=ms.GRAPH_MODE)
    net = ms.nn.Dense(3, 2)
    data = ds.NumpySlicesDataset({"x": np.ones((6, 3), np.float32), "y": np.ones((6, 2), np.float32)},
                                 shuffle=False).batch(2)
    seen = []

    class Lister(ms.train.Callback):
        def step_end(self, run_context):
            seen.append(sorted(os.listdir(tmp)))

    with tempfile.TemporaryDirectory() as tmp:
        ckpt = ms.train.ModelCheckpoint(prefix="net", directory=tmp,
                                        config=ms.train.CheckpointConfig(save_checkpoint_steps=2))
        opt = ms.nn.Momentum(net.trainable_params(), 0.1, 0.9)
        ms.Model(net, ms.nn.MSELoss(), opt).train(1, data, callbacks=[ckpt, Lister()])
        path = os.path.join(tmp, "net-graph.meta")
        mode = oct(os.stat(path).st_mode & 0o777)
        model = anf.ModelProto()
        with open(path, "rb") as f:
            model.ParseFromString(f.read())
    ms.set_context(mode=ms.PYNATIVE_MODE)
    g = model.graph

    def typ(t):
        return [anf.DataType.Name(t.data_type), anf.DataType.Name(t.tensor_type.elem_type),
                [d.size for d in t.tensor_type.shape.dim]]
    inputs = [[p.name] + typ(p.type) for p in g.parameters if p.name.startswith("inputs")]
    params = sorted(p.name for p in g.parameters if not p.name.startswith("inputs"))
    return [seen, mode, model.ir_version, inputs, params, [typ(o.type) for o in g.outputs]]
