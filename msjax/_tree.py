"""MindSpore's module tree on msjax: every ``mindspore.x.y`` path resolves.

``_data/mindspore_tree.json`` (recorded from MindSpore 2.10 by
``tests/fixtures/record_module_tree.py``) lists every MindSpore module, its
public names (plus the private ones real code imports) and, by identity, the
public places each object lives.  Resolution is data-driven:

* ``mindspore.x.y`` is the msjax module ``msjax.x.y``: msjax's own module where
  it has one, otherwise a *re-export module* built here (no code of its own).
* A name missing from a module is looked up in the tree and taken from the one
  place msjax defines it: the first of the object's MindSpore homes
  (``mindspore.nn.loss.loss.L1Loss`` -> ``mindspore.nn.L1Loss``) whose msjax
  module defines it.  Modules are modules, outside objects (``numpy``,
  ``logging``) are imported.
* A name msjax does not provide raises :class:`UnsupportedError` (an
  ``AttributeError``; ``ImportError`` inside ``from ... import``) naming the
  MindSpore path.

Two finders: :class:`MsjaxTreeFinder` (always on, last in ``sys.meta_path``)
creates the ``msjax.x.y`` re-export modules, so ``from msjax import context``
works; ``_compat.install`` puts :class:`MindsporeFinder` first so that
``mindspore.x.y`` is the same module object as ``msjax.x.y``.

Run as MindSpore (``python -m msjax run``, ``%load_ext msjax``: :class:`MindsporeFinder`
installed), a missing name is reported by its MindSpore path, as MindSpore reports it:
``module 'mindspore.dataset' has no attribute 'X'`` (every msjax module, also the private
ones and those imported later, gets that ``__getattr__``); the modules' ``__name__`` stays
``msjax.x.y``.
"""
from __future__ import annotations

import dis
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import types

_DATA = None
_REAL = {}            # msjax module name -> bool (msjax has a module file for it)
_IMPORT_FROM = dis.opmap.get("IMPORT_FROM")


# MindSpore modules msjax has no file for, whose own (often private) helpers msjax
# keeps in another module: names the identity homes do not find are looked up there.
_FALLBACK_MODULES = {
    "mindspore.ops.operations.comm_ops": "msjax.ops.operations",
    # Primitives MindSpore exports only from these modules (math_ops.AddV2): msjax keeps every Primitive in one
    "mindspore.ops.operations.math_ops": "msjax.ops.operations",
    "mindspore.ops.operations.array_ops": "msjax.ops.operations",
    "mindspore.ops.operations.nn_ops": "msjax.ops.operations",
    "mindspore.ops.operations.sparse_ops": "msjax.ops.operations",
    "mindspore.dataset.core.validator_helpers": "msjax.dataset.config",
    # parallel.nn's cells are classes of their own in MindSpore; msjax keeps them in the nn layer
    "mindspore.parallel.nn": "msjax.nn.wrap._parallel_nn",
    "mindspore.parallel.nn.parallel_cell_wrapper": "msjax.nn.wrap._parallel_nn",
    "mindspore.parallel.nn.parallel_grad_reducer": "msjax.nn.wrap._parallel_nn",
    "mindspore.utils": "msjax.nn.wrap._graceful_exit",
    "mindspore.utils.utils": "msjax.nn.wrap._graceful_exit",
    "mindspore.hal": "msjax.runtime",
    "mindspore.parallel.auto_parallel": "msjax.train.auto_parallel",   # a Cell: lives in the train layer     # hal is the deprecated name of runtime's streams, events, memory stats
}


class UnsupportedError(AttributeError):
    """A MindSpore name msjax does not provide yet."""


def _data():
    global _DATA
    if _DATA is None:
        path = os.path.join(os.path.dirname(__file__), "_data", "mindspore_tree.json")
        with open(path) as f:
            raw = json.load(f)
        names = list(raw["modules"])
        raw["index"] = names
        # module paths MindSpore also reaches under another name (mindspore.dataset.config
        # is mindspore.dataset.core.config): path -> [other spellings]
        same = {}
        for path, (_, entries) in raw["modules"].items():
            for name, ref in entries.items():
                if isinstance(ref, str) and ref.startswith("@") and ref[1:] != f"{path}.{name}":
                    same.setdefault(ref[1:], []).append(f"{path}.{name}")
        raw["same"] = same
        for path in (*_PRIVATE_NAMES, *_PRIVATE_MODULES):   # private modules outside the recorded tree
            raw["modules"].setdefault(path, [0, {}])
        _DATA = raw
    return _DATA


def modules():
    """MindSpore module paths of the recorded tree."""
    return list(_data()["modules"])


def ms_path(msjax_name):
    return "mindspore" + msjax_name[len("msjax"):]


def msjax_name(mindspore_path):
    return "msjax" + mindspore_path[len("mindspore"):]


def as_mindspore():
    """Whether ``mindspore`` resolves to msjax in this process (:class:`MindsporeFinder` installed)."""
    return any(isinstance(f, MindsporeFinder) for f in sys.meta_path)


def shown_name(name):
    """The module name ``msjax.x.y`` as the user's code spells it: ``mindspore.x.y`` when run as MindSpore."""
    if as_mindspore() and (name == "msjax" or name.startswith("msjax.")):
        return ms_path(name)
    return name


# Private names MindSpore's own tests import that the recorded tree (public names
# plus the zoo's private imports) does not list: MindSpore path -> name -> the
# msjax module that defines it.
_PRIVATE_NAMES = {
    "mindspore.graph.api": {"_no_grad": "msjax._core.nograd", "_cell_graph_executor": "msjax.common.api"},
    "mindspore.common.recompute": {"_no_grad": "msjax._core.nograd"},
    "mindspore.common.parameter": {"_Buffer": "msjax.nn._buffers", "_is_parameter_generated": "msjax._core.parameter"},
    "mindspore.ops.function.array_func": {"max_ext": "msjax.ops._impl.extremum_ext",
                                          "min_ext": "msjax.ops._impl.extremum_ext",
                                          "new_ones": "msjax.ops._impl.function_ext",
                                          "new_zeros": "msjax.ops._impl.function_ext",
                                          "one_hot_ext": "msjax.mint._function_ext",
                                          "split_ext": "msjax.mint._function_ext"},
    "mindspore.ops.function.math_func": {"norm_ext": "msjax.mint._function_ext",
                                          "diff_ext": "msjax.mint._diff_ext"},
    "mindspore.ops.function.nn_func": {"interpolate_ext": "msjax.mint._function_ext"},
    "mindspore.ops.function.grad.grad_func": {"custom_vjp": "msjax._core.custom_grad"},
    "mindspore.ops.operations._inner_ops": {"ConvertToDynamic": "msjax.ops._impl.dynamic_shape",
                                            "ClipByNorm": "msjax.ops._impl.clip",
                                            "TensorCopySlices": "msjax.ops.operations",
                                            "TopTypeof": "msjax.ops._impl.top_typeof"},
    "mindspore.ops.composite.base": {"GradOperation": "msjax._core.grad", "HyperMap": "msjax.ops.composite",
                                     "MultitypeFuncGraph": "msjax.ops.composite", "Map": "msjax.ops.composite"},
}

# Private MindSpore modules outside the recorded tree that MindSpore's own tests import, whole:
# MindSpore path -> the msjax module whose ``__all__`` are its names.
_PRIVATE_MODULES = {
    "mindspore.ops.operations._sequence_ops": "msjax.ops._impl.sequence_ops",
    "mindspore.ops.operations._grad_ops": "msjax.ops._impl.grad_prims",
}
_PRIVATE_NAMES["mindspore.ops.operations._rl_inner_ops"] = {"GRUV2": "msjax.ops._impl.gru_v2"}


def _tree_entry(path):
    return _data()["modules"].get(path)


def _is_real(name):
    """Whether msjax has a module of its own (a file) at ``name`` (found on disk,
    nothing is imported)."""
    hit = _REAL.get(name)
    if hit is None:
        parts = name.split(".")
        search = list(sys.modules["msjax"].__path__)
        hit = True
        for i in range(1, len(parts)):
            spec = importlib.machinery.PathFinder.find_spec(".".join(parts[:i + 1]), search) if search else None
            if spec is None:
                hit = False
                break
            search = spec.submodule_search_locations
        _REAL[name] = hit
    return hit


def _unsupported(path, name):
    msg = (f"msjax does not support `{path}.{name}` yet (MindSpore 2.10 has it; "
           f"see docs/migrating.md, 'Module tree')")
    frame = sys._getframe(2)
    if _IMPORT_FROM is not None and frame is not None:
        try:
            if frame.f_code.co_code[frame.f_lasti] == _IMPORT_FROM:
                return ImportError(msg, name=path)
        except (IndexError, AttributeError):
            pass
    return UnsupportedError(msg)


def _external(ref):
    mod, _, qual = ref[1:].partition(":")
    obj = importlib.import_module(mod)
    for part in qual.split(".") if qual else ():
        obj = getattr(obj, part)
    return obj


def lookup(path, name):
    """The msjax object for MindSpore's ``path.name``; raises ``LookupError``
    when msjax does not provide it and ``KeyError`` when MindSpore has no such name."""
    data = _data()
    entry = data["modules"].get(path)
    sub = f"{path}.{name}"
    ref = entry[1].get(name) if entry else None
    if ref is None:
        home = _PRIVATE_NAMES.get(path, {}).get(name)
        if home is not None:
            return getattr(importlib.import_module(home), name)
        if path in _PRIVATE_MODULES:
            mod = importlib.import_module(_PRIVATE_MODULES[path])
            if name in mod.__all__:
                return getattr(mod, name)
        if sub in data["modules"]:
            return importlib.import_module(msjax_name(sub))
        raise KeyError(sub)
    if isinstance(ref, str):
        if ref.startswith("@"):
            if ref[1:] not in data["modules"] and not _is_real(msjax_name(ref[1:])):
                raise LookupError(sub)   # a MindSpore-internal module outside the recorded tree
            return importlib.import_module(msjax_name(ref[1:]))
        try:
            return _external(ref)
        except (ImportError, AttributeError):   # an outside package that is not installed here
            raise LookupError(sub) from None
    homes = [(data["index"][mi], n) for mi, n in data["objects"][ref]]
    if not path.startswith("mindspore.mint"):
        # msjax.mint wraps msjax.ops with torch-style signatures: elsewhere prefer the op itself
        homes.sort(key=lambda h: h[0].startswith("mindspore.mint"))
    for home, home_name in homes:
        home = msjax_name(home)
        if _is_real(home):
            mod = importlib.import_module(home)
            if home_name in vars(mod):
                return vars(mod)[home_name]
    fallback = _FALLBACK_MODULES.get(path)
    if fallback is not None:
        mod = importlib.import_module(fallback)
        if name in vars(mod):
            return vars(mod)[name]
    if path == "mindspore.ops.auto_generate.gen_ops_prim":   # generated instances: tracev2_grad_op = TraceV2Grad()
        cls = importlib.import_module("msjax.ops.auto_generate.gen_ops_prim").primitive_for_instance(name)
        if cls is not None:
            return cls()
    raise LookupError(sub)


def _make_getattr(module, paths, previous=None):
    """A module ``__getattr__`` resolving the names of the MindSpore module paths
    ``paths`` (a list: one msjax module can be several MindSpore paths)."""
    def __getattr__(name):
        if previous is not None:
            try:
                return previous(name)
            except AttributeError:
                pass
        dunder = name.startswith("__") and name.endswith("__")
        for path in paths:
            if dunder and name not in _tree_entry(path)[1]:
                continue
            try:
                value = lookup(path, name)
            except KeyError:
                continue
            except LookupError:
                raise _unsupported(path, name) from None
            setattr(module, name, value)
            return value
        if name == "__all__" and getattr(module, "__msjax_reexport__", False):
            return _supported_names(module, paths[0])
        raise AttributeError(f"module {shown_name(module.__name__)!r} has no attribute {name!r}",
                             name=name, obj=module)
    __getattr__.__msjax_tree__ = paths
    return __getattr__


def _supported_names(module, path):
    out = []
    for n in _tree_entry(path)[1]:
        if n.startswith("_"):
            continue
        try:
            getattr(module, n)
        except AttributeError:
            continue
        out.append(n)
    return out


def attach(module, path=None):
    """Give msjax's own module ``module`` the names of its MindSpore twin ``path``
    (default: the same dotted path) that live elsewhere in msjax (a module
    ``__getattr__``), and a ``__path__`` when MindSpore's twin is a package (so
    its submodules import)."""
    path = path or ms_path(module.__name__)
    entry = _tree_entry(path)
    current = vars(module).get("__getattr__")
    if entry is None:
        if current is None and as_mindspore():
            module.__getattr__ = _make_getattr(module, [])   # only names the module by its MindSpore path
        return module
    paths = getattr(current, "__msjax_tree__", None)
    if paths is None:
        module.__getattr__ = _make_getattr(module, [path], current)
    elif path not in paths:
        paths.append(path)
    if entry[0] and not hasattr(module, "__path__"):
        module.__path__ = []
    return module


def attach_loaded():
    """:func:`attach` every msjax module imported so far (called by ``import msjax``)."""
    for name, mod in list(sys.modules.items()):
        if (name == "msjax" or name.startswith("msjax.")) and mod is not None \
                and not getattr(mod, "__msjax_reexport__", False):
            attach(mod)


class _ReexportLoader(importlib.abc.Loader):
    def __init__(self, path):
        self.path = path

    def create_module(self, spec):
        mod = types.ModuleType(spec.name)
        mod.__msjax_reexport__ = True
        mod.__doc__ = (f"``{self.path}`` on msjax: re-exports each name from the one place msjax "
                       f"defines it; names msjax does not provide raise UnsupportedError.")
        mod.__getattr__ = _make_getattr(mod, [self.path])
        mod.__dir__ = lambda: sorted(set(_tree_entry(self.path)[1]) | set(vars(mod)))
        folder = os.path.join(os.path.dirname(__file__), *spec.name.split(".")[1:])
        if os.path.isdir(folder):   # a re-export package with some module files of msjax's own
            mod.__path__ = [folder]
        return mod

    def exec_module(self, module):
        return None


class _KeepAttributes(types.ModuleType):
    """A module whose attribute is not replaced by a same-named submodule when that
    submodule is imported: ``mindspore.run_check`` stays the function, as in
    MindSpore (where the submodule is imported before the attribute is set), and
    ``msjax.dataset.engine.queue`` stays the ``queue`` module engine.py uses."""

    def __setattr__(self, name, value):
        old = vars(self).get(name)
        if isinstance(value, types.ModuleType) and old is not None and old is not value \
                and value.__name__ == f"{self.__name__}.{name}":
            return
        super().__setattr__(name, value)


def _keep_parent_attribute(fullname):
    """Before ``fullname`` is imported: when its parent has (or, in MindSpore's tree, will
    have) an attribute of the same name that is not this submodule (``mindspore.ops.
    function.grad`` is the function), keep that attribute."""
    parent_name, _, child = fullname.rpartition(".")
    parent = sys.modules.get(parent_name)
    if parent is None or type(parent) not in (types.ModuleType, _KeepAttributes):
        return
    if vars(parent).get(child) is None:
        entry = _tree_entry(ms_path(parent_name))
        ref = entry[1].get(child) if entry is not None else None
        if ref is None or (isinstance(ref, str) and ref.startswith("@")):
            return
        try:
            value = getattr(parent, child)   # resolve the name now, before the submodule would take its place
        except (AttributeError, ImportError):
            return
        if vars(parent).get(child) is None:
            # a lazily resolved name (the parent's __getattr__) is bound now, so it is kept
            types.ModuleType.__setattr__(parent, child, value)
    parent.__class__ = _KeepAttributes


def _reexport_folder(fullname):
    """Whether ``fullname`` is a folder of msjax's own module files without an ``__init__.py``
    (``msjax/hal``): a re-export package, not the namespace package Python's path finder
    would make of it."""
    folder = os.path.join(os.path.dirname(__file__), *fullname.split(".")[1:])
    return os.path.isdir(folder) and not os.path.exists(os.path.join(folder, "__init__.py")) \
        and not os.path.exists(folder + ".py")


class MsjaxTreeFinder(importlib.abc.MetaPathFinder):
    """``msjax.x.y`` for a MindSpore module msjax has no file for: msjax's own module
    where MindSpore reaches the same module under another path, else a re-export module."""

    def __init__(self, folders_only=False):
        self.folders_only = folders_only

    def find_spec(self, fullname, path=None, target=None):
        if not fullname.startswith("msjax."):
            return None
        entry = _tree_entry(ms_path(fullname))
        if entry is None:
            return None
        if self.folders_only and not _reexport_folder(fullname):
            return None
        _keep_parent_attribute(fullname)
        for other in _data()["same"].get(ms_path(fullname), ()):
            if _is_real(msjax_name(other)):
                return importlib.util.spec_from_loader(fullname, _AliasLoader(msjax_name(other), ms_path(fullname)))
        return importlib.util.spec_from_loader(fullname, _ReexportLoader(ms_path(fullname)),
                                               is_package=bool(entry[0]))


class _AliasLoader(importlib.abc.Loader):
    def __init__(self, target, path):
        self.target = target
        self.path = path
        self.spec = None

    def create_module(self, spec):
        mod = importlib.import_module(self.target)
        self.spec = mod.__spec__
        return attach(mod, self.path)

    def exec_module(self, module):
        module.__spec__ = self.spec   # the import system stamped the mindspore spec on it


class _AttachingLoader(importlib.abc.Loader):
    """An msjax module file's own loader, then :func:`attach` (a module msjax imports after
    ``mindspore`` resolves to it gets MindSpore's names and error messages too)."""

    def __init__(self, loader):
        self._loader = loader

    def __getattr__(self, name):   # get_source, get_filename, get_resource_reader...
        return getattr(self._loader, name)

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module):
        self._loader.exec_module(module)
        attach(module)


class MindsporeFinder(importlib.abc.MetaPathFinder):
    """``mindspore.x.y`` is the module ``msjax.x.y`` (same object)."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname.startswith("msjax."):
            spec = importlib.machinery.PathFinder.find_spec(fullname, path)
            if spec is None or spec.loader is None or spec.origin is None:
                return None   # a re-export module: MsjaxTreeFinder's loaders attach it
            spec.loader = _AttachingLoader(spec.loader)
            return spec
        if fullname != "mindspore" and not fullname.startswith("mindspore."):
            return None
        real = msjax_name(fullname)
        _keep_parent_attribute(real)
        try:
            if importlib.util.find_spec(real) is None:
                return None
        except ModuleNotFoundError:
            return None
        return importlib.util.spec_from_loader(fullname, _AliasLoader(real, fullname))


def install_msjax_finder():
    if not any(isinstance(f, MsjaxTreeFinder) for f in sys.meta_path):
        sys.meta_path.append(MsjaxTreeFinder())
        # before Python's path finder: a re-export package with module files of its own
        sys.meta_path.insert(0, MsjaxTreeFinder(folders_only=True))


def install_mindspore_finder():
    if not any(isinstance(f, MindsporeFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, MindsporeFinder())
    install_msjax_finder()
    if "msjax" in sys.modules:
        attach_loaded()   # the modules without a MindSpore twin: MindSpore's names in their errors
