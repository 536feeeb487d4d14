"""Where does MindSpore's run of a MindIR file part from msjax's? Every floating node's output, both ways.

    python bench/mindir_taps.py model.mindir io.npz [--ms-python /tmp/ms/bin/python] [--first 40]

``io.npz``: the inputs as ``x0, x1, ...`` (the export census's ``net<n>_<side>_io.npz``). The file is
rewritten with every float16/float32 node's output (``--max-values N``: of at most N values) as a graph
output (a ``MakeTuple`` of them), run by msjax's ``load`` + ``nn.GraphCell`` here and by MindSpore 2.10's in ``--ms-python``; the script prints,
node by node in graph order, the largest difference and how many values differ, from the first node
that differs (``--first`` lines). Found the census's BERT mismatch (MindSpore's own LayerNorm kernels,
docs/export.md). Not run in CI.
"""
import argparse
import os
import subprocess
import sys
import tempfile

import numpy as np

_RUN = """import sys, numpy as np
import {module} as ms
from {module} import nn
d = np.load(sys.argv[2])
xs = [ms.Tensor(d[k]) for k in sorted((k for k in d.files if k[0] == "x"), key=lambda k: int(k[1:]))]
out = nn.GraphCell(ms.load(sys.argv[1]))(*xs)
np.savez(sys.argv[3], *[o.asnumpy() for o in out])
"""


def tapped(src, dst, max_values=None):
    """Write ``src`` to ``dst`` with every floating node's output as a graph output (of at most
    ``max_values`` values, when given); their names and ops."""
    from msjax.train._mind_ir_pb import AttributeProto, ModelProto, PrimitiveProto, TensorProto
    m = ModelProto()
    with open(src, "rb") as f:
        m.ParseFromString(f.read())
    prims = {p.name: p.op_type for p in m.primitives}
    taps = []
    for n in m.graph.node:
        shape = [a for a in n.attribute if a.name == "shape" and a.type == AttributeProto.TENSORS]
        if n.op_type != "Constant" and shape and shape[0].tensors[0].data_type in (TensorProto.FLOAT,
                                                                                    TensorProto.FLOAT16) \
                and (max_values is None or np.prod(shape[0].tensors[0].dims) <= max_values):
            taps.append((n, shape[0]))
    m.primitives.add(name="MakeTuple:taps", op_type="MakeTuple", instance_name="",
                     prim_type=PrimitiveProto.PRIMITIVE)
    m.graph.node.add(input=[n.output[0] for n, _ in taps], output=["taps"], name="taps", op_type="REF::MakeTuple:taps")
    del m.graph.output[:]
    info = m.graph.output.add(name="taps", denotation="Tuple")
    info.attr_info.type = AttributeProto.TUPLE
    for _, a in taps:
        v = info.attr_info.values.add()
        v.CopyFrom(a)
        v.name = ""
    with open(dst, "wb") as f:
        f.write(m.SerializeToString())
    return [(n.output[0], prims.get(n.op_type[len("REF::"):], n.op_type)) for n, _ in taps]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mindir")
    ap.add_argument("io")
    ap.add_argument("--ms-python", default="/tmp/ms/bin/python")
    ap.add_argument("--first", type=int, default=40)
    ap.add_argument("--max-values", type=int, default=None,
                    help="tap only nodes of at most this many values (every tap is kept in memory: "
                         "FasterRCNN's 1,300 floating nodes at 768x1280 need 18 GB in msjax)")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "taps.mindir")
        names = tapped(a.mindir, path, a.max_values)
        outs = {}
        for side, python in (("msjax", sys.executable), ("mindspore", a.ms_python)):
            runner = os.path.join(tmp, f"run_{side}.py")
            with open(runner, "w") as f:
                f.write(_RUN.format(module=side))
            out = os.path.join(tmp, f"{side}.npz")
            subprocess.run([python, runner, path, os.path.abspath(a.io), out], check=True)
            outs[side] = dict(np.load(out))
    shown = 0
    for i, (name, op) in enumerate(names):
        x, y = outs["mindspore"][f"arr_{i}"], outs["msjax"][f"arr_{i}"]
        d = np.abs(x.astype(np.float64) - y)
        if shown or (d.size and d.max() > 0):
            print(f"{i:5d} {op:16s} {str(x.dtype):8s} {str(x.shape):22s} max {d.max() if d.size else 0:.2e} "
                  f"differ {int((d > 0).sum())} of {x.size}  {name.rsplit(':', 1)[-1]}")
            shown += 1
            if shown >= a.first:
                break
    if not shown:
        print(f"all {len(names)} floating nodes equal")


if __name__ == "__main__":
    main()
