"""Rank the ``mindspore.ops.operations`` Primitive names the model zoo uses, and say which msjax lacks.

Run with the msjax venv (nothing of MindSpore is needed)::

    mkdir -p /tmp/zooD && git --git-dir=/work/.mirror/mindspore-ai+models/repo archive HEAD \\
        -- 'official/*.py' 'research/*.py' | tar -x -C /tmp/zooD
    python bench/zoo/rank_ops.py /tmp/zooD [--top 40] [--missing-only]

A *model* is a folder ``official/<area>/<model>`` or ``research/<area>/<model>``; its
files are every ``train.py`` and every ``*.py`` under a ``src`` folder in it.  Each
file's imports are read with ``ast`` (``from mindspore.ops import operations as P``,
``import mindspore.ops as ops``, ``from mindspore.ops.operations import _inner_ops as
inner``, ``from mindspore.ops.operations.nn_ops import X`` ...), and every dotted name
rooted at such an alias is resolved to its full MindSpore path.  A use is
``mindspore.ops.operations[.<module>].<Name>`` or ``mindspore.ops.<Name>`` where the
recorded MindSpore 2.10 tree (``msjax/_data/mindspore_tree.json``) says that object is a
``mindspore.ops.operations`` name.  Files ``ast`` cannot parse fall back to a regular
expression on ``P.``/``ops.``/``inner.`` style names.

Each name is then resolved the way ``python -m msjax run`` resolves it (``import
mindspore`` is msjax), through every module path the zoo used for it: *present* when
all resolve, *partial* when only some do, *missing* when none do (an msjax name that
only raises "unsupported" counts as missing).
"""
from __future__ import annotations

import argparse
import ast
import importlib
import json
import os
import re
import sys
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
TREE = os.path.join(HERE, "..", "..", "msjax", "_data", "mindspore_tree.json")
OPS_MOD = "mindspore.ops.operations"


def _tree():
    with open(TREE) as f:
        data = json.load(f)
    mods = data["modules"]
    prim_objs = set()
    for path, (_, names) in mods.items():
        if path == OPS_MOD or path.startswith(OPS_MOD + "."):
            prim_objs.update(r for r in names.values() if isinstance(r, int))
    return mods, prim_objs


MODS, PRIM_OBJS = _tree()


def _is_primitive(path, name):
    """Whether ``path.name`` (``path`` under ``mindspore.ops``) is an ``ops.operations`` name."""
    if not name[:1].isupper():
        return False
    entry = MODS.get(path)
    ref = entry[1].get(name) if entry else None
    if isinstance(ref, int):
        return ref in PRIM_OBJS
    # private modules (``_inner_ops``, ``_grad_ops`` ...) are not listed in the tree: their
    # capitalised names are Primitives
    return path.startswith(OPS_MOD + ".") and path.split(".")[-1].startswith("_")


def _aliases(tree):
    """alias -> dotted module/object path, from every import statement in the file."""
    out = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.asname:
                    out[a.asname] = a.name
                else:
                    root = a.name.split(".")[0]
                    out[root] = root
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for a in node.names:
                if a.name != "*":
                    out[a.asname or a.name] = f"{node.module}.{a.name}"
    return out


def _dotted(node):
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return list(reversed(parts))
    return None


def _classify(full):
    """``(module path, Name)`` if the dotted path ``full`` names an ops.operations Primitive."""
    if not full.startswith("mindspore.ops."):
        return None
    parts = full.split(".")
    for cut in range(len(parts) - 1, 1, -1):      # longest module prefix first
        path, name = ".".join(parts[:cut]), parts[cut]
        if path == "mindspore.ops" or path == OPS_MOD or path.startswith(OPS_MOD + "."):
            if _is_primitive(path, name):
                return path, name
            return None
    return None


_RX = re.compile(r"\b(P|ops|inner|nn_ops|array_ops|math_ops|_inner_ops|operations)\.([A-Z]\w*)\s*\(")
_RX_PATH = {"P": OPS_MOD, "ops": "mindspore.ops", "inner": OPS_MOD + "._inner_ops",
            "_inner_ops": OPS_MOD + "._inner_ops", "nn_ops": OPS_MOD + ".nn_ops",
            "array_ops": OPS_MOD + ".array_ops", "math_ops": OPS_MOD + ".math_ops", "operations": OPS_MOD}


def uses_in_file(path):
    """Set of (module path, Name) the file refers to."""
    with open(path, encoding="utf-8", errors="replace") as f:
        src = f.read()
    found = set()
    try:
        tree = ast.parse(src)
    except (SyntaxError, ValueError):
        for alias, name in _RX.findall(src):
            hit = _classify(f"{_RX_PATH[alias]}.{name}")
            if hit:
                found.add(hit)
        return found
    aliases = _aliases(tree)
    for full in aliases.values():             # from mindspore.ops.operations import Name
        hit = _classify(full)
        if hit:
            found.add(hit)
    for node in ast.walk(tree):
        parts = _dotted(node) if isinstance(node, ast.Attribute) else None
        if parts and parts[0] in aliases:
            # the shortest prefix that names a Primitive: P.Name, ops.operations.nn_ops.Name ...
            for k in range(1, len(parts)):
                hit = _classify(".".join([aliases[parts[0]]] + parts[1:k + 1]))
                if hit:
                    found.add(hit)
                    break
    return found


def models(root):
    """model folder -> list of its train.py and src/**.py files."""
    out = defaultdict(list)
    for top in ("official", "research"):
        base = os.path.join(root, top)
        for dirpath, _, files in os.walk(base):
            rel = os.path.relpath(dirpath, root).split(os.sep)
            if len(rel) < 3:
                continue
            model = "/".join(rel[:3])
            in_src = "src" in rel[3:]
            for fn in files:
                if fn.endswith(".py") and (in_src or fn == "train.py"):
                    out[model].append(os.path.join(dirpath, fn))
    return out


def rank(root):
    """name -> (set of models, set of module paths used)."""
    users, paths = defaultdict(set), defaultdict(set)
    for model, files in models(root).items():
        for fn in files:
            for path, name in uses_in_file(fn):
                users[name].add(model)
                paths[name].add(path)
    return users, paths


def resolve(path, name):
    """Whether ``path.name`` resolves under msjax's ``import mindspore`` (and is not an
    "unsupported" placeholder)."""
    try:
        mod = importlib.import_module(path)
        obj = getattr(mod, name)
    except Exception:   # noqa: BLE001  (ImportError, AttributeError, the tree's UnsupportedError ...)
        return False
    return not getattr(obj, "__ms_unsupported__", False)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("root", nargs="?", default="/tmp/zooD")
    ap.add_argument("--top", type=int, default=0, help="rows of the table (0: all)")
    ap.add_argument("--missing-only", action="store_true")
    args = ap.parse_args(argv)
    sys.path.insert(0, os.path.join(HERE, "..", ".."))
    import msjax  # noqa: F401
    from msjax import _compat
    _compat.install()
    users, paths = rank(args.root)
    order = sorted(users, key=lambda n: (-len(users[n]), n))
    rows, missing = [], []
    for i, name in enumerate(order, 1):
        ok = {p: resolve(p, name) for p in sorted(paths[name])}
        state = "present" if all(ok.values()) else ("partial" if any(ok.values()) else "missing")
        if state != "present":
            missing.append((name, len(users[name]), [p for p, v in ok.items() if not v]))
        if args.missing_only and state == "present":
            continue
        if not args.top or i <= args.top:
            via = ", ".join(p.replace("mindspore.ops.operations", "P").replace("mindspore.ops", "ops") for p in ok)
            rows.append(f"| {i} | {name} | {len(users[name])} | {state} | {via} |")
    print(f"{len(order)} ops.operations names used by {len(set().union(*users.values()))} models")
    print("| rank | name | models | msjax | used as |")
    print("|---:|---|---:|---|---|")
    print("\n".join(rows))
    print(f"\nmissing or partial ({len(missing)}):")
    for name, n, where in missing:
        print(f"  {name:32s} {n:4d}  {', '.join(where)}")


if __name__ == "__main__":
    main()
