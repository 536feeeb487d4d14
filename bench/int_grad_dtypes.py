"""Gradients of an Int32 input, op by op, PyNative and GRAPH_MODE: msjax beside MindSpore 2.10.

MindSpore differentiates integer inputs as real numbers; each op's backward rule decides the
dtype of the gradient it passes on (some cast it to their input's dtype, truncating, others keep
the Float32 their kernel made), and the rules differ between PyNative and the graph compiler.
This prints, per expression of ``x = Tensor([1, 2], int32)``, the gradient's dtype and values in
both frameworks and modes (docs/differences.md, "Static-graph syntax", quotes the table).

    python bench/int_grad_dtypes.py --ms /tmp/ms/bin/python

``--child pynative|graph`` is the part that runs inside each framework (``import mindspore``;
under ``python -m msjax run`` that is msjax).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# name -> expression of x (an Int32 Tensor); ``ops`` and ``ms`` are in scope
CASES = {
    "x / 3": "x / 3",
    "x / 3.0": "x / 3.0",
    "(x + 1) / 3": "(x + 1) / 3",
    "(x * 2) / 3": "(x * 2) / 3",
    "-x / 3": "-x / 3",
    "(x * x) / 3": "(x * x) / 3",
    "(x / 3).sum()": "(x / 3).sum()",
    "3 / x": "3 / x",
    "x / Tensor([3, 3], int32)": "x / ms.Tensor([3, 3], ms.int32)",
    "cast(x, float32) / 3": "ops.cast(x, ms.float32) / 3",
    "x * 2.5": "x * 2.5",
    "(x / 2) * 2.5": "(x / 2) * 2.5",
    "x + Tensor([0.5, 0.5])": "x + ms.Tensor([0.5, 0.5], ms.float32)",
    "sqrt(x)": "ops.sqrt(x)",
    "log(x)": "ops.log(x)",
    "x.mean()": "x.mean()",
    "x + x * 2": "x + x * 2",
    "x * x": "x * x",
    "(x / 3).astype(int32)": "(x / 3).astype(ms.int32)",
    "(x * 2.5).astype(int32)": "(x * 2.5).astype(ms.int32)",
}


def child(mode):
    import importlib
    import tempfile

    import mindspore as ms
    ms.set_context(mode=ms.GRAPH_MODE if mode == "graph" else ms.PYNATIVE_MODE)
    x = ms.Tensor([1, 2], ms.int32)
    with tempfile.TemporaryDirectory() as tmp:
        # a module of named functions: MindSpore's graph compiler reads their source
        src = ["import mindspore as ms", "from mindspore import ops", ""]
        for i, expr in enumerate(CASES.values()):
            src += [f"def f{i}(x):", f"    return {expr}", "", "", f"def g{i}(x):",
                    f"    return ms.grad(f{i})(x)", ""]
        with open(os.path.join(tmp, "int_grad_cases.py"), "w", encoding="utf-8") as fh:
            fh.write("\n".join(src))
        sys.path.insert(0, tmp)
        mod = importlib.import_module("int_grad_cases")
        for i, name in enumerate(CASES):
            try:
                out = ms.jit(getattr(mod, f"g{i}"))(x) if mode == "graph" else getattr(mod, f"g{i}")(x)
                res = f"{out.dtype} {out.asnumpy().tolist()}"
            except Exception as e:  # noqa: BLE001 - the type is the result
                res = f"{type(e).__name__}"
            print(json.dumps([name, res]), flush=True)


def collect(cmd, mode):
    env = dict(os.environ, PYTHONPATH=ROOT)
    out = subprocess.run(cmd + [os.path.abspath(__file__), "--child", mode], capture_output=True, text=True,
                         env=env, timeout=900).stdout
    return dict(json.loads(line) for line in out.splitlines() if line.startswith("["))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ms", help="MindSpore 2.10's python")
    ap.add_argument("--child", choices=("pynative", "graph"))
    args = ap.parse_args()
    if args.child:
        return child(args.child)
    cols = []
    for mode in ("pynative", "graph"):
        if args.ms:
            cols.append((f"MindSpore {mode}", collect([args.ms], mode)))
        cols.append((f"msjax {mode}", collect([sys.executable, "-m", "msjax", "run"], mode)))
    print("| gradient of | " + " | ".join(c for c, _ in cols) + " |")
    print("|---" * (len(cols) + 1) + "|")
    for name in CASES:
        print(f"| `{name}` | " + " | ".join(r.get(name, "-") for _, r in cols) + " |")


if __name__ == "__main__":
    main()
