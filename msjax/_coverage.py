"""``python -m msjax coverage``: how much of MindSpore 2.10's public API msjax
provides, and how much of it is checked against MindSpore.

* **provided**: the name exists in the msjax namespace mirroring MindSpore's
  (``msjax.ops.matmul`` for ``mindspore.ops.matmul``, ``msjax.Tensor.abs`` ...).
  Names that exist only to raise a clear "unsupported" error are reported apart.
* **checked**: the name's implementation ran inside a golden case whose result
  matched the one recorded from MindSpore 2.10 (``tests/golden``), or inside a
  passing distribution test (random ops). Calls are traced with
  ``sys.setprofile``; an op registered once counts for its function, Primitive
  and Tensor method names together. A class also counts when an msjax method
  ran on an instance whose nearest msjax class (in its MRO) is that class: an
  inherited ``__init__``/``update``/``eval`` run on a ``Precision`` checks
  ``Precision`` (not ``Recall``), a user subclass of ``Callback`` driven by
  ``Model`` checks ``Callback``. Values without code (dtypes, mode
  constants, ...) count when a passing golden case declares them in its
  ``checks`` attribute (``case_x.checks = ("mindspore.float16", ...)``): such a
  case returns the value so that it is compared with MindSpore's.
* **reference-checked**: names MindSpore 2.10's CPU build cannot run (no
  kernel; no golden output can exist) listed in ``tests/reference_checks.py``
  with the test that compares them with a hand-written NumPy/JAX reference;
  they count when that test passes and the name's code ran in it. The table
  shows them apart (``; N ref``) and the report lists them with the reason.

The checklist (``_data/mindspore_api.json``) is a copy of the project's
``shared/mindspore_api.json``: MindSpore 2.10's public names with priorities.
"""
from __future__ import annotations

import argparse
import glob
import importlib
import importlib.util
import inspect
import json
import os
import sys
from collections import defaultdict
from pathlib import Path

NAMESPACES = {
    "mindspore": "msjax",
    "mindspore.Parameter(extra)": "msjax.Parameter",
    "mindspore.Tensor": "msjax.Tensor",
    "mindspore.amp": "msjax.amp",
    "mindspore.common.initializer": "msjax.common.initializer",
    "mindspore.communication": "msjax.communication",
    "mindspore.dataset": "msjax.dataset",
    "mindspore.nn": "msjax.nn",
    "mindspore.ops": "msjax.ops",
    "mindspore.ops.operations": "msjax.ops.operations",
    "mindspore.train": "msjax.train",
}
# Random ops cannot match MindSpore's bit stream: their distribution tests count.
DISTRIBUTION_TESTS = ("test_random_ops.py", "test_initializer_distributions.py")


def checklist():
    with open(Path(__file__).with_name("_data") / "mindspore_api.json") as f:
        return json.load(f)["namespaces"]


def _resolve(target):
    """The msjax object a dotted target names, or None."""
    parts = target.split(".")
    try:
        obj = importlib.import_module(parts[0])
    except ImportError:
        return None
    for i, part in enumerate(parts[1:], 1):
        if hasattr(obj, part):
            obj = getattr(obj, part)
            continue
        try:
            obj = importlib.import_module(".".join(parts[:i + 1]))
        except ImportError:
            return None
    return obj


_MISSING = object()


def lookup(namespace, name):
    base = _resolve(NAMESPACES[namespace])
    if base is None:
        return _MISSING
    try:
        return inspect.getattr_static(base, name) if isinstance(base, type) else getattr(base, name)
    except AttributeError:
        return _MISSING


def _codes_of(obj):
    """Code objects whose execution means ``obj``'s implementation ran."""
    codes = []
    fn = obj
    if isinstance(fn, (staticmethod, classmethod)):
        fn = fn.__func__
    if isinstance(fn, property):
        fn = fn.fget
    if inspect.isfunction(fn):
        codes.append(fn.__code__)
        op = getattr(fn, "__ms_op__", None)
        if op is not None:
            codes.append(fn.__code__)
    elif inspect.isclass(fn):
        prim_fn = getattr(fn, "_fn", None)
        if prim_fn is not None and hasattr(prim_fn, "__code__"):
            codes.append(prim_fn.__code__)
        for attr in ("construct", "__call__", "__init__", "step", "update", "eval", "__iter__"):
            meth = fn.__dict__.get(attr)
            if meth is None:
                for klass in fn.__mro__[1:]:
                    if klass.__module__.startswith("msjax") and attr in klass.__dict__ and attr == "construct":
                        meth = klass.__dict__[attr]
                        break
            if meth is not None and hasattr(meth, "__code__"):
                codes.append(meth.__code__)
    return codes


_MSJAX_DIR = str(Path(__file__).resolve().parent) + os.sep


def _msjax_class(klass):
    """The nearest msjax class in ``klass``'s MRO (``klass`` itself when it is one)."""
    for k in klass.__mro__:
        if k.__module__.split(".")[0] == "msjax":
            return k
    return None


# Methods run on objects a case merely touches (hashing, printing): they do not check a class.
_BOOKKEEPING = frozenset({"__repr__", "__str__", "__format__", "__hash__", "__eq__", "__ne__", "__del__",
                          "__getattr__", "__getattribute__", "__setattr__", "__bool__", "__len__"})


class Tracer:
    """Records, while ``run`` calls a function, the code objects that executed
    (``codes``) and the types of the ``self`` of every msjax method that ran
    (``types``)."""

    def __init__(self):
        self.codes = set()
        self.types = set()
        self._is_method = {}

    def _prof(self, frame, event, arg):
        if event != "call":
            return
        code = frame.f_code
        self.codes.add(code)
        is_method = self._is_method.get(code)
        if is_method is None:
            is_method = self._is_method[code] = (
                code.co_argcount > 0 and code.co_varnames[0] == "self"
                and code.co_filename.startswith(_MSJAX_DIR) and code.co_name not in _BOOKKEEPING)
        if is_method:
            self.types.add(type(frame.f_locals.get("self")))

    def run(self, fn, *args, **kwargs):
        self.codes.clear()
        self.types.clear()
        sys.setprofile(self._prof)
        try:
            return fn(*args, **kwargs)
        finally:
            sys.setprofile(None)

    def classes(self):
        """The msjax classes whose instances had an msjax method run during the last ``run``."""
        return {c for c in map(_msjax_class, self.types) if c is not None}


def is_checked(obj, codes, classes=(), declared=(), qualname=None):
    """Whether ``obj``'s implementation ran in a passing check (see the module doc)."""
    if qualname is not None and qualname in declared:
        return True
    if inspect.isclass(obj) and obj in classes:
        return True
    return any(c in codes for c in _codes_of(obj))


def _repo_root():
    here = Path(__file__).resolve().parents[1]
    for cand in (here, Path.cwd()):
        if (cand / "tests" / "golden").is_dir():
            return cand
    return None


def trace_checked(root, verbose=False):
    """Run every golden case (and the distribution tests) under a profiler;
    return the set of code objects executed by passing ones."""
    sys.path[:0] = [str(root), str(root / "tests")]
    import msjax as ms
    from golden.serialize import compare, run_case

    checked = set()
    checked_types = set()
    declared = set()
    tracer = Tracer()
    seen = tracer.codes

    fixtures = sorted(glob.glob(str(root / "tests" / "golden" / "*_pynative.json")))
    n_pass = n_total = 0
    for path in fixtures:
        suite = os.path.basename(path)[:-len("_pynative.json")]
        try:
            mod = importlib.import_module("golden.cases_" + suite)
        except ImportError:
            continue
        with open(path) as f:
            expected = json.load(f)["cases"]
        cases = mod.all_cases()
        for name, exp in expected.items():
            if name not in cases:
                continue
            ms.set_context(mode=ms.PYNATIVE_MODE)
            actual = tracer.run(run_case, cases[name], ms)
            n_total += 1
            kw = {k.lower(): getattr(mod, k) for k in ("RTOL", "ATOL") if hasattr(mod, k)}
            if exp.get("kind") != "error" and not compare(exp, actual, **kw):
                checked |= seen
                checked_types |= tracer.classes()
                declared.update(getattr(cases[name], "checks", ()))
                n_pass += 1
            elif exp.get("kind") == "error" and actual.get("kind") == "error" and not compare(exp, actual):
                n_pass += 1
    for test_file in DISTRIBUTION_TESTS:
        path = root / "tests" / test_file
        if path.exists():
            import pytest
            rc = tracer.run(pytest.main, ["-q", "-p", "no:cacheprovider", str(path)])
            if rc == 0:
                checked |= seen
                checked_types |= tracer.classes()
    if verbose:
        print(f"golden cases passing: {n_pass}/{n_total}")
    return checked, declared, checked_types


def reference_checked(root):
    """Run the tests named in ``tests/reference_checks.py``; return
    ``{qualified name: reason}`` for those whose test passed with their code run."""
    path = root / "tests" / "reference_checks.py"
    if not path.exists():
        return {}
    spec = importlib.util.spec_from_file_location("_msjax_reference_checks", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    checks = mod.REFERENCE_CHECKS
    import pytest

    class PerTest:
        """The code objects and msjax classes each test ran, and which tests passed."""

        def __init__(self):
            self.codes, self.classes, self.passed = {}, {}, set()

        @pytest.hookimpl(hookwrapper=True)
        def pytest_runtest_call(self, item):
            tracer = Tracer()
            sys.setprofile(tracer._prof)
            try:
                yield
            finally:
                sys.setprofile(None)
                self.codes[item.nodeid] = set(tracer.codes)
                self.classes[item.nodeid] = tracer.classes()

        def pytest_runtest_logreport(self, report):
            if report.when == "call" and report.passed:
                self.passed.add(report.nodeid)

    plugin = PerTest()
    nodes = sorted({node for node, _ in checks.values()})
    pytest.main(["-q", "-p", "no:cacheprovider", "--rootdir", str(root)]
                + [str(root / "tests" / n) for n in nodes], plugins=[plugin])
    done = {}
    for qualname, (node, reason) in checks.items():
        namespace, _, name = qualname.rpartition(".")
        hits = [k for k in plugin.passed if k.endswith(node) or k.split("[")[0].endswith(node)]
        if namespace not in NAMESPACES or not hits:
            continue
        obj = lookup(namespace, name)
        if obj is not _MISSING and any(is_checked(obj, plugin.codes.get(k, ()), plugin.classes.get(k, ()))
                                       for k in hits):
            done[qualname] = reason
    return done


def report(priorities=("P0", "P1"), verbose=False, out=sys.stdout):
    import msjax  # noqa: F401  (fills every namespace)
    root = _repo_root()
    checked_codes, declared, checked_classes = trace_checked(root, verbose) if root is not None \
        else (set(), set(), set())
    by_reference = reference_checked(root) if root is not None else {}
    reference = defaultdict(list)
    rows = []
    missing = defaultdict(list)
    unchecked = defaultdict(list)
    unsupported = defaultdict(list)
    totals = defaultdict(int)
    for namespace, names in checklist().items():
        counts = defaultdict(int)
        for name, info in sorted(names.items()):
            prio = info["priority"]
            counts[prio, "all"] += 1
            obj = lookup(namespace, name)
            if obj is _MISSING:
                if prio in priorities:
                    missing[namespace].append(f"{name} ({prio})")
                continue
            counts[prio, "provided"] += 1
            if getattr(obj, "__ms_unsupported__", False):
                counts[prio, "unsupported"] += 1
                if prio in priorities:
                    unsupported[namespace].append(f"{name} ({prio})")
            if is_checked(obj, checked_codes, checked_classes, declared, f"{namespace}.{name}"):
                counts[prio, "checked"] += 1
            elif f"{namespace}.{name}" in by_reference:
                counts[prio, "checked"] += 1
                counts[prio, "reference"] += 1
                if prio in priorities:
                    reference[namespace].append(f"{name} ({prio}; {by_reference[namespace + '.' + name]})")
            elif prio in priorities and not getattr(obj, "__ms_unsupported__", False):
                unchecked[namespace].append(f"{name} ({prio})")
        rows.append((namespace, counts))
        for k, v in counts.items():
            totals[k] += v
    rows.append(("total", totals))

    def cell(c, p):
        ref = f"; {c[p, 'reference']} ref" if c[p, "reference"] else ""
        return f"{c[p, 'provided']}/{c[p, 'all']} ({c[p, 'checked']}{ref})"

    header = "| namespace | P0 provided (checked) | P1 provided (checked) | P2 provided (checked) | unsupported |"
    print(header, file=out)
    print("| --- | --- | --- | --- | --- |", file=out)
    for namespace, c in rows:
        unsup = sum(c[p, "unsupported"] for p in ("P0", "P1", "P2"))
        print(f"| {namespace} | {cell(c, 'P0')} | {cell(c, 'P1')} | {cell(c, 'P2')} | {unsup} |", file=out)
    if missing:
        print("\nMissing P0/P1 names:", file=out)
        for namespace, names in missing.items():
            print(f"- {namespace} ({len(names)}): " + ", ".join(names), file=out)
    if reference:
        print("\nChecked against hand-written references, not golden cases (MindSpore 2.10's CPU build "
              "cannot run them; tests/reference_checks.py):", file=out)
        for namespace, names in reference.items():
            print(f"- {namespace} ({len(names)}): " + ", ".join(names), file=out)
    if unsupported:
        print("\nUnsupported P0/P1 names (they exist and raise a clear error naming the feature):", file=out)
        for namespace, names in unsupported.items():
            print(f"- {namespace} ({len(names)}): " + ", ".join(names), file=out)
    if unchecked:
        print("\nProvided but not checked against a golden case (P0/P1):", file=out)
        for namespace, names in unchecked.items():
            print(f"- {namespace} ({len(names)}): " + ", ".join(names), file=out)
    return rows, missing


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m msjax coverage", description=__doc__.splitlines()[0])
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)
    report(verbose=args.verbose)
    return 0
