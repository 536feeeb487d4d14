"""PyNative first calls: what an op costs the first time it meets a shape.

Each round starts a fresh process per side (msjax, JAX eager, MindSpore 2.10 with
``--ms-python``, torch eager when torch is importable) and runs the same workload:

* 30 common ops on an (8, 16) float32 Tensor, each for the first time in the process;
* the same 30 ops again (same shapes: the warm, in-memory path);
* 10 of them on 5 new shapes each (a new shape for an op already compiled);
* the small net (Dense-ReLU-Dense) called in PyNative: first call, second call, a new batch;
* ``grad`` of it with an MSE loss: first call, second call, a new batch.

Every timed call is followed by a sync (``block_until_ready``/``asnumpy``), which is
counted. Times are the process's CPU time (all its threads) by default, steady while
other jobs share the machine; ``--clock wall`` gives elapsed time. The rounds' medians are printed as a table, milliseconds per op. Pin to one
core for steadier numbers (``taskset -c 0``; the children inherit it).

msjax runs in three modes (``--msjax``): ``empty``, the host path for first calls of
exact primitives (``msjax/runtime/_host_eager.py``) with an empty eager store
(``common/_eager_store.py``: every other first call compiles and is stored); ``warm``,
the same with the store a previous process filled (an unmeasured run before the
rounds: a script run again, a notebook kernel restarted); ``off``, neither
(``MSJAX_HOST_EAGER=0 MSJAX_EAGER_STORE=0``: every first call compiles); ``fresh-ir``, the
empty mode with a fresh MLIR context for every lowering, as JAX makes one (``runtime/_ir_context.py``
off: ``REUSES = 1``). msjax's
compile-cache and store directories point into a temporary directory removed at the end.

    python bench/eager_first.py [--rounds 3] [--sides msjax,jax,mindspore,torch]
                                [--msjax empty,warm,off,fresh-ir] [--ms-python /tmp/ms/bin/python]
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# name, MindSpore/msjax call (ops, x, y), JAX call (jnp, a, b), torch call (torch, t, u)
OPS = [
    ("add", lambda o, x, y: o.add(x, y), lambda n, a, b: n.add(a, b), lambda t, a, b: t.add(a, b)),
    ("sub", lambda o, x, y: o.sub(x, y), lambda n, a, b: n.subtract(a, b), lambda t, a, b: t.sub(a, b)),
    ("mul", lambda o, x, y: o.mul(x, y), lambda n, a, b: n.multiply(a, b), lambda t, a, b: t.mul(a, b)),
    ("div", lambda o, x, y: o.div(x, y), lambda n, a, b: n.divide(a, b), lambda t, a, b: t.div(a, b)),
    ("x + y", lambda o, x, y: x + y, lambda n, a, b: a + b, lambda t, a, b: a + b),
    ("x * 2.0", lambda o, x, y: x * 2.0, lambda n, a, b: a * 2.0, lambda t, a, b: a * 2.0),
    ("exp", lambda o, x, y: o.exp(x), lambda n, a, b: n.exp(a), lambda t, a, b: t.exp(a)),
    ("log", lambda o, x, y: o.log(y), lambda n, a, b: n.log(b), lambda t, a, b: t.log(b)),
    ("sqrt", lambda o, x, y: o.sqrt(y), lambda n, a, b: n.sqrt(b), lambda t, a, b: t.sqrt(b)),
    ("sin", lambda o, x, y: o.sin(x), lambda n, a, b: n.sin(a), lambda t, a, b: t.sin(a)),
    ("cos", lambda o, x, y: o.cos(x), lambda n, a, b: n.cos(a), lambda t, a, b: t.cos(a)),
    ("tanh", lambda o, x, y: o.tanh(x), lambda n, a, b: n.tanh(a), lambda t, a, b: t.tanh(a)),
    ("sigmoid", lambda o, x, y: o.sigmoid(x), lambda n, a, b: 1 / (1 + n.exp(-a)), lambda t, a, b: t.sigmoid(a)),
    ("relu", lambda o, x, y: o.relu(x), lambda n, a, b: n.maximum(a, 0), lambda t, a, b: t.relu(a)),
    ("neg", lambda o, x, y: o.neg(x), lambda n, a, b: n.negative(a), lambda t, a, b: t.neg(a)),
    ("abs", lambda o, x, y: o.abs(x), lambda n, a, b: n.abs(a), lambda t, a, b: t.abs(a)),
    ("square", lambda o, x, y: o.square(x), lambda n, a, b: n.square(a), lambda t, a, b: t.square(a)),
    ("pow", lambda o, x, y: o.pow(y, 1.5), lambda n, a, b: n.power(b, 1.5), lambda t, a, b: t.pow(b, 1.5)),
    ("maximum", lambda o, x, y: o.maximum(x, y), lambda n, a, b: n.maximum(a, b), lambda t, a, b: t.maximum(a, b)),
    ("greater", lambda o, x, y: o.greater(x, y), lambda n, a, b: n.greater(a, b), lambda t, a, b: t.gt(a, b)),
    ("clamp", lambda o, x, y: o.clamp(x, -0.5, 0.5), lambda n, a, b: n.clip(a, -0.5, 0.5),
     lambda t, a, b: t.clamp(a, -0.5, 0.5)),
    ("sum", lambda o, x, y: o.sum(x, 1), lambda n, a, b: n.sum(a, 1), lambda t, a, b: t.sum(a, 1)),
    ("mean", lambda o, x, y: o.mean(x, 0), lambda n, a, b: n.mean(a, 0), lambda t, a, b: t.mean(a, 0)),
    ("amax", lambda o, x, y: o.amax(x, 1), lambda n, a, b: n.max(a, 1), lambda t, a, b: t.amax(a, 1)),
    ("argmax", lambda o, x, y: o.argmax(x, 1), lambda n, a, b: n.argmax(a, 1), lambda t, a, b: t.argmax(a, 1)),
    ("matmul", lambda o, x, y: o.matmul(x, y.T), lambda n, a, b: n.matmul(a, b.T), lambda t, a, b: t.matmul(a, b.T)),
    ("transpose", lambda o, x, y: o.transpose(x, (1, 0)), lambda n, a, b: n.transpose(a, (1, 0)),
     lambda t, a, b: t.permute(a, (1, 0))),
    ("reshape", lambda o, x, y: o.reshape(x, (-1,)), lambda n, a, b: n.reshape(a, (-1,)),
     lambda t, a, b: t.reshape(a, (-1,))),
    ("concat", lambda o, x, y: o.cat((x, y), 0), lambda n, a, b: n.concatenate((a, b), 0),
     lambda t, a, b: t.cat((a, b), 0)),
    ("softmax", lambda o, x, y: o.softmax(x, -1), lambda n, a, b: _jax_softmax(a), lambda t, a, b: t.softmax(a, -1)),
]
NEW_SHAPE_OPS = ("add", "x * 2.0", "exp", "sqrt", "tanh", "relu", "sum", "mean", "matmul", "softmax")
SHAPE = (8, 16)
NEW_SHAPES = ((4, 16), (8, 32), (16, 16), (3, 5), (32, 8))


def _jax_softmax(a):
    import jax
    return jax.nn.softmax(a, -1)


CLOCK = time.perf_counter


def _timed(call, sync):
    t0 = CLOCK()
    sync(call())
    return (CLOCK() - t0) * 1e3


def _arrays(shape, make):
    import numpy as np
    rs = np.random.RandomState(0)
    xn = rs.standard_normal(shape).astype(np.float32)
    return make(xn), make(np.abs(xn) + 0.5)


def _side(name):
    """(make array, module the calls get, sync, grad workload) for one side."""
    if name in ("msjax", "mindspore"):
        if name == "msjax":
            sys.path.insert(0, ROOT)
            import msjax as ms
            from msjax import nn, ops
            if os.environ.get("EAGER_FIRST_FRESH_IR") == "1":
                from msjax.runtime import _ir_context
                _ir_context.REUSES = 1
        else:
            import mindspore as ms
            from mindspore import nn, ops
        ms.set_context(mode=ms.PYNATIVE_MODE)

        def sync(out):
            out.asnumpy() if name == "mindspore" else out._data.block_until_ready()

        def grad_work():
            net = nn.SequentialCell([nn.Dense(16, 32), nn.ReLU(), nn.Dense(32, 1)])
            loss = nn.MSELoss()

            def forward(x, y):
                return loss(net(x), y)
            g = ms.grad(forward, grad_position=None, weights=net.trainable_params())
            return g, lambda out: sync(out[0]), net, sync
        return ms.Tensor, ops, sync, grad_work
    if name == "jax":
        import jax
        import jax.numpy as jnp

        def jgrad_work():
            import numpy as np
            rs = np.random.RandomState(1)
            params = [jnp.asarray(rs.standard_normal(s).astype(np.float32) * 0.1) for s in ((16, 32), (32,), (32, 1), (1,))]

            def forward(p, x, y):
                h = jnp.maximum(x @ p[0] + p[1], 0)
                return jnp.mean((h @ p[2] + p[3] - y) ** 2)
            g = jax.grad(forward)

            def net(x):
                return jnp.maximum(x @ params[0] + params[1], 0) @ params[2] + params[3]
            return (lambda x, y: g(params, x, y)), lambda out: out[0].block_until_ready(), net, \
                lambda out: out.block_until_ready()
        return jnp.asarray, jnp, lambda out: out.block_until_ready(), jgrad_work
    if name == "torch":
        import torch
        torch.set_num_threads(1)

        def tgrad_work():
            net = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.ReLU(), torch.nn.Linear(32, 1))

            def g(x, y):
                return torch.autograd.grad(torch.nn.functional.mse_loss(net(x), y), list(net.parameters()))
            return g, lambda out: None, lambda x: net(x).detach(), lambda out: None
        return torch.from_numpy, torch, lambda out: None, tgrad_work
    raise SystemExit(f"unknown side {name}")


def child(name, clock):
    global CLOCK
    CLOCK = time.process_time if clock == "cpu" else time.perf_counter
    t0 = CLOCK()
    make, mod, sync, grad_work = _side(name)
    import_ms = (CLOCK() - t0) * 1e3
    col = {"msjax": 1, "mindspore": 1, "jax": 2, "torch": 3}[name]
    x, y = _arrays(SHAPE, make)
    sync(x + y)       # the arrays exist and one op ran: the backend is up
    first = {op[0]: _timed(lambda op=op: op[col](mod, x, y), sync) for op in OPS}
    again = {op[0]: _timed(lambda op=op: op[col](mod, x, y), sync) for op in OPS}
    new = []
    by_name = {op[0]: op for op in OPS}
    for shape in NEW_SHAPES:
        a, b = _arrays(shape, make)
        for n in NEW_SHAPE_OPS:
            new.append(_timed(lambda op=by_name[n]: op[col](mod, a, b), sync))
    g, gsync, net, nsync = grad_work()
    cx, cx2 = _arrays((6, 16), make)[0], _arrays((11, 16), make)[0]
    cells = [_timed(lambda: net(cx), nsync), _timed(lambda: net(cx), nsync), _timed(lambda: net(cx2), nsync)]
    gx, gy = _arrays((8, 16), make)
    gy = make(_arrays((8, 1), lambda v: v)[0])
    grads = [_timed(lambda: g(gx, gy), gsync), _timed(lambda: g(gx, gy), gsync)]
    gx2 = _arrays((5, 16), make)[0]
    gy2 = make(_arrays((5, 1), lambda v: v)[0])
    grads.append(_timed(lambda: g(gx2, gy2), gsync))
    print(json.dumps({"import_ms": import_ms, "first": first, "again": again, "new": new, "grad": grads, "cell": cells}))


def run_child(side, env, python, clock):
    out = subprocess.run([python, os.path.abspath(__file__), "--child", side, "--clock", clock], env=env, capture_output=True,
                         text=True, check=False)
    if out.returncode != 0:
        print(f"{side}: failed\n{out.stderr[-2000:]}", file=sys.stderr)
        return None
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--sides", default="msjax,jax,mindspore,torch")
    ap.add_argument("--msjax", default="empty,warm,off",
                    help="msjax's modes: host path + empty store, host path + warm store, neither")
    ap.add_argument("--ms-python", default="/tmp/ms/bin/python")
    ap.add_argument("--child")
    ap.add_argument("--clock", choices=("cpu", "wall"), default="cpu",
                    help="cpu: the process's CPU time (all threads; steady on a shared machine), wall: elapsed")
    ap.add_argument("--per-op", action="store_true", help="also print msjax's first call per op")
    args = ap.parse_args()
    if args.child:
        return child(args.child, args.clock)
    tmp = tempfile.mkdtemp(prefix="eager-first-")
    os.chmod(tmp, 0o700)
    columns = []
    for side in args.sides.split(","):
        if side == "msjax":
            columns += [("msjax", m) for m in args.msjax.split(",")]
        elif side == "mindspore":
            if os.path.exists(args.ms_python):
                columns.append(("mindspore", None))
        elif side == "torch":
            if subprocess.run([sys.executable, "-c", "import torch"], capture_output=True).returncode == 0:
                columns.append(("torch", None))
        else:
            columns.append((side, None))
    results = {c: [] for c in columns}

    def environment(mode, n):
        env = dict(os.environ, PYTHONPATH=ROOT, MSJAX_CACHE_DIR=os.path.join(tmp, "cache"),
                   MSJAX_CACHE_KEY_DIR=os.path.join(tmp, "key"))
        env["MSJAX_EAGER_STORE_DIR"] = os.path.join(tmp, "warm" if mode == "warm" else f"{mode}{n}")
        if mode == "off":
            env.update(MSJAX_HOST_EAGER="0", MSJAX_EAGER_STORE="0")
        if mode == "fresh-ir":
            env.update(EAGER_FIRST_FRESH_IR="1")
        return env
    try:
        if ("msjax", "warm") in columns:      # fills the warm store, not measured
            run_child("msjax", environment("warm", 0), sys.executable, args.clock)
        for n in range(args.rounds):
            for side, mode in columns:
                env = environment(mode, n)
                python = args.ms_python if side == "mindspore" else sys.executable
                r = run_child(side, env, python, args.clock)
                if r is not None:
                    results[(side, mode)].append(r)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    _report(columns, results, args)


def _report(columns, results, args):
    def med(rs, f):
        return statistics.median(f(r) for r in rs) if rs else float("nan")
    modes = {"empty": " (empty store)", "warm": " (warm store)", "off": " (no host path, no store)",
             "fresh-ir": " (empty store, a fresh MLIR context per lowering)"}
    names = [f"{s}" + (modes.get(m, f" ({m})") if m else "") for s, m in columns]
    rows = [
        ("import", lambda r: r["import_ms"]),
        ("first call in a process, per op", lambda r: statistics.mean(r["first"].values())),
        ("same op, a new shape, per op", lambda r: statistics.mean(r["new"])),
        ("same op and shape again, per op", lambda r: statistics.mean(r["again"].values())),
        ("Cell.__call__ of a small net (PyNative): first call", lambda r: r["cell"][0]),
        ("Cell.__call__: second call", lambda r: r["cell"][1]),
        ("Cell.__call__: a new batch size", lambda r: r["cell"][2]),
        ("grad of a small net: first call", lambda r: r["grad"][0]),
        ("grad: second call", lambda r: r["grad"][1]),
        ("grad: a new batch size", lambda r: r["grad"][2]),
    ]
    print(f"ms ({args.clock} time), median of {args.rounds} fresh processes per side")
    print("| | " + " | ".join(names) + " |")
    print("|---|" + "---:|" * len(names))
    for label, f in rows:
        print(f"| {label} | " + " | ".join(f"{med(results[c], f):.2f}" for c in columns) + " |")
    if args.per_op:
        for c in columns:
            if results[c]:
                print(c, {k: round(statistics.median(r["first"][k] for r in results[c]), 2)
                          for k in results[c][0]["first"]})


if __name__ == "__main__":
    main()
