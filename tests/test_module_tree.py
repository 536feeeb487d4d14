"""MindSpore 2.10's module tree resolves on msjax (``msjax/_tree.py``).

The tree is recorded by ``tests/fixtures/record_module_tree.py``; the zoo's
import pairs (``tests/fixtures/zoo_imports.json``: module, name, number of
model-zoo files using it) are what real scripts import.
"""
import json
import os
import subprocess
import sys
import textwrap
import types

import pytest

from msjax import _compat, _tree

HERE = os.path.dirname(os.path.abspath(__file__))
ZOO = os.path.join(HERE, "fixtures", "zoo_imports.json")

# Zoo import pairs msjax does not resolve yet (each raises msjax's clear
# "does not support" error); this list only shrinks, and is empty: all 380 resolve.
KNOWN_GAPS = set()

# One object in MindSpore, two in msjax.  mindspore.mint's torch-style wrappers
# are msjax.mint's own (thin signatures over msjax.ops) and are left out above.
IDENTITY_GAPS = {("mindspore.ops", "tensor_pow")}   # registered as its own alias of ops.pow, like pows

_ZOO_SCRIPT = textwrap.dedent("""
    import json, sys
    failed = []
    for p in json.load(open(sys.argv[1]))["imports"]:
        src = f"import {p['module']}" if p["name"] is None else f"from {p['module']} import {p['name']}"
        try:
            exec(src, {})
        except Exception as e:
            failed.append([p["module"], p["name"], type(e).__name__, str(e)])
    # the zoo's opening lines, as a script runs them
    from mindspore import context
    from mindspore.context import ParallelMode
    from mindspore.communication.management import init, get_rank, get_group_size
    from mindspore.parallel._auto_parallel_context import auto_parallel_context
    from mindspore import log as logger
    import mindspore.runtime as rt
    context.set_context(mode=context.GRAPH_MODE, device_target="CPU", save_graphs=False, jit_syntax_level=0)
    context.set_auto_parallel_context(parallel_mode=ParallelMode.STAND_ALONE, gradients_mean=True)
    logger.warning("zoo-style script: mode %d", context.get_context("mode"))
    rt.synchronize()
    checks = [context.get_context("mode"), context.get_context("jit_syntax_level"),
              auto_parallel_context().get_parallel_mode(), auto_parallel_context().get_gradients_mean(),
              get_rank(), get_group_size()]
    print(json.dumps(checks))
    print(json.dumps(failed))
""")


def test_zoo_import_pairs_resolve_under_msjax_run(tmp_path):
    """Every (module, name) the model zoo imports, as a script under ``python -m msjax run``."""
    script = tmp_path / "zoo_imports.py"
    script.write_text(_ZOO_SCRIPT)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([os.path.dirname(HERE)] + sys.path))
    out = subprocess.run([sys.executable, "-m", "msjax", "run", str(script), ZOO], capture_output=True,
                         text=True, env=env, timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    lines = out.stdout.strip().splitlines()
    failed = json.loads(lines[-1])
    assert json.loads(lines[-2]) == [0, 0, "stand_alone", True, 0, 1]
    assert "zoo-style script: mode 0" in out.stderr and "[WARNING] ME(" in out.stderr
    pairs = json.load(open(ZOO))["imports"]
    assert len(pairs) == 380
    for module, name, kind, msg in failed:
        assert (module, name) in KNOWN_GAPS, (module, name, kind, msg)
        # what does not resolve says so, naming the MindSpore path
        assert kind == "ImportError" and f"msjax does not support `{module}.{name}`" in msg, msg


@pytest.fixture(scope="module")
def mindspore():
    _compat.install()
    import mindspore
    return mindspore


def test_whole_recorded_tree_imports(mindspore):
    """Each recorded module imports as ``mindspore.x.y``; each of its names is
    msjax's object or raises msjax's UnsupportedError, and names that are one
    object in MindSpore are one object in msjax."""
    import importlib
    data = _tree._data()
    seen = {}
    resolved = unsupported = 0
    for path, (is_pkg, names) in data["modules"].items():
        mod = importlib.import_module(path)
        # msjax's module of the same path, or msjax's module MindSpore also reaches under another path
        assert mod.__name__ == _tree.msjax_name(path) or path in data["same"], (path, mod.__name__)
        if is_pkg:
            assert hasattr(mod, "__path__"), path
        for name, ref in names.items():
            try:
                value = getattr(mod, name)
            except _tree.UnsupportedError as e:
                assert f"`{path}.{name}`" in str(e)
                unsupported += 1
                continue
            resolved += 1
            if isinstance(ref, int) and not path.startswith("mindspore.mint"):
                if ref in seen:
                    assert seen[ref][1] is value or (path, name) in IDENTITY_GAPS, (path, name, seen[ref][0])
                else:
                    seen[ref] = ((path, name), value)
            elif isinstance(ref, str) and ref.startswith("@"):
                # the module itself, or (a module's own import) another msjax module
                assert isinstance(value, types.ModuleType) and value.__name__.startswith("msjax"), (path, name)
    assert len(data["modules"]) > 600 and resolved > 5000, (resolved, unsupported)
    # a tree submodule never replaces what an msjax module already holds under its name
    import queue
    import msjax
    assert msjax.dataset.engine.queue is queue and callable(mindspore.run_check)


def test_from_import_spellings(mindspore):
    from mindspore import context, nn
    from mindspore.context import ParallelMode
    from mindspore.nn.loss.loss import L1Loss
    from mindspore.nn.optim.optimizer import Optimizer
    from mindspore.ops import operations as P
    import mindspore.common.dtype as mstype
    import mindspore.nn as nn2
    import msjax
    assert context is mindspore.context and nn is nn2 is msjax.nn
    assert context.set_context is msjax.set_context and ParallelMode is msjax.ParallelMode
    assert L1Loss is msjax.nn.L1Loss and Optimizer is msjax.nn.Optimizer
    assert P.Add is msjax.ops.Add and mstype.float32 is msjax.float32
    context.set_context(mode=context.PYNATIVE_MODE, device_target="CPU")
    assert context.get_context("mode") == msjax.PYNATIVE_MODE


def test_unsupported_name_error():
    import msjax.nn.probability.bijector as bij
    with pytest.raises(AttributeError, match=r"msjax does not support `mindspore.nn.probability.bijector.Exp`"):
        bij.Exp
    with pytest.raises(ImportError, match=r"msjax does not support `mindspore.nn.probability.bijector.Exp`"):
        from msjax.nn.probability.bijector import Exp  # noqa: F401
    assert not hasattr(bij, "Exp")
    with pytest.raises(AttributeError, match="has no attribute 'NotAMindSporeName'"):
        bij.NotAMindSporeName


def test_msjax_side_paths():
    """``import msjax`` users get the same paths: ``from msjax import context``."""
    from msjax import context
    from msjax.train.serialization import export
    import msjax
    assert context.set_context is msjax.set_context and export is msjax.export


def test_virtual_dataset_cell_is_the_backbone():
    """``_VirtualDatasetCell`` (no CPU kernel for ``_VirtualDataset`` in MindSpore 2.10):
    the backbone's output and Parameter names."""
    import numpy as np
    import msjax as ms
    from msjax.nn.wrap.cell_wrapper import _VirtualDatasetCell
    net = ms.nn.Dense(3, 2)
    wrapped = _VirtualDatasetCell(net)
    x = ms.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    np.testing.assert_array_equal(wrapped(x).asnumpy(), net(x).asnumpy())
    assert [p.name for p in wrapped.get_parameters()] == [p.name for p in net.get_parameters()]


def test_graph_seed(monkeypatch):
    """``mindspore.common.seed._get_graph_seed``: MindSpore's per-kernel op-seed sequence."""
    import importlib
    from msjax._core import rng
    seed = importlib.import_module("msjax.common.seed")   # msjax.common.seed is the function ms.seed, as in MindSpore
    monkeypatch.setattr(rng, "_seed", None)
    monkeypatch.setattr(seed, "_KERNEL_SEEDS", {})
    assert seed._get_graph_seed(None, "normal") == (0, 0)
    monkeypatch.setattr(rng, "_seed", 0)
    step = 3528531795 ^ 3449720151
    assert seed._get_graph_seed(5, "normal") == (87654321, 5)
    assert seed._get_graph_seed(5, "normal") == (87654321, (5 + step) % (2**31 - 1)) == (87654321, 533697033)
    assert seed._get_graph_seed(5, "uniform") == (87654321, 5)
    with pytest.raises(ValueError, match="'seed' must be int and must >= 0"):
        seed._get_graph_seed(-1, "normal")


def test_load_ext_installs_the_finder():
    """``%load_ext msjax`` (IPython calls ``load_ipython_extension``): mindspore paths resolve."""
    import sys
    import msjax
    msjax.load_ipython_extension(None)
    assert any(isinstance(f, _tree.MindsporeFinder) for f in sys.meta_path)
    from mindspore import context
    assert context.GRAPH_MODE == 0


def test_submodule_import_keeps_same_named_function_of_parent():
    """MindSpore's ``mindspore.ops.function.grad`` is the function even though a package of
    that name exists (``...grad.grad_func``): importing the package must not rebind it."""
    import importlib
    import sys
    for name in [n for n in sys.modules if n.startswith("msjax.ops.function")]:
        if n_is_tree_module(sys.modules[name]):
            del sys.modules[name]
    importlib.import_module("msjax.ops.function.grad.grad_func")
    import msjax
    assert importlib.import_module("msjax.ops.function").grad is msjax.grad
    assert importlib.import_module("msjax.ops.function.grad").grad is msjax.grad


def test_common_names_that_are_also_module_names_are_the_functions(mindspore):
    """``from mindspore.common import mutable`` is the function (MindSpore's tests/st/ops TEST_OP
    calls it), as are ``lazy_inline``/``no_inline``: MindSpore's ``mindspore.common.mutable``
    module exists but is not what the package's attribute names (the recorder read the
    attribute after importing that module itself, and recorded the module)."""
    import msjax
    from mindspore.common import lazy_inline, mutable, no_inline
    assert mutable is msjax.mutable and callable(mutable)
    assert lazy_inline is msjax.lazy_inline and no_inline is msjax.no_inline


def n_is_tree_module(mod):
    return getattr(mod, "__msjax_reexport__", False)


def test_op_info_register_records_info_and_refuses_kernels(mindspore):
    """``op_info_register`` is the decorator (not its module) on every path; the
    builders record the info (golden cases ``tree:opinfo_*``), and registering a
    kernel raises naming it: XLA cannot run Ascend TBE/AiCPU kernels."""
    from mindspore.ops import TBERegOp, DataType, op_info_register
    from mindspore.ops.op_info_register import op_info_register as same
    import mindspore.ops as ops
    assert same is op_info_register is ops.op_info_register and callable(op_info_register)
    info = TBERegOp("ReduceSum").fusion_type("OPAQUE").input(0, "x", False, "required", "all") \
        .output(0, "y", False, "required", "all").dtype_format(DataType.F16_None, DataType.F16_None).get_op_info()
    with pytest.raises(NotImplementedError, match=r"cannot register the TBE kernel 'ReduceSum' \(_reduce_sum_tbe\)"):
        @op_info_register(info)
        def _reduce_sum_tbe():
            return None
    with pytest.raises(NotImplementedError, match="AiCPU kernel 'Stack'"):
        op_info_register(json.dumps({"op_name": "Stack", "imply_type": "AiCPU"}))(lambda: None)
    with pytest.raises(TypeError, match="'op_info' should be 'str'"):
        op_info_register(3)(lambda: None)


def test_thor_dataset_helper_iterates_from_the_host(mindspore):
    """THOR's ``DatasetHelper`` without sink mode gives the dataset's rows as tuples
    of Tensors, ``epoch_num`` epochs, as ``mindspore.train.DatasetHelper`` does."""
    import numpy as np
    import mindspore.dataset as ds
    from mindspore.train.train_thor.dataset_helper import DatasetHelper
    from mindspore.train.dataset_helper import DatasetHelper as HostHelper
    a = np.arange(6, dtype=np.float32).reshape(3, 2)
    b = np.array([1, 0, 1], np.int32)

    def rows(helper):
        return [[t.asnumpy() for t in row] for row in helper]

    def data():
        return ds.NumpySlicesDataset({"a": a, "b": b}, shuffle=False)

    helper = DatasetHelper(data(), dataset_sink_mode=False, epoch_num=2, iter_first_order=2)
    assert isinstance(helper, HostHelper) and helper.iter_first_order == 2
    got = rows(helper) + rows(helper)
    assert len(got) == 6
    for i, (x, y) in enumerate(got):
        np.testing.assert_array_equal(x, a[i % 3])
        assert y == b[i % 3] and y.dtype == np.int32
    assert [[x.tolist() for x in r] for r in rows(HostHelper(data(), dataset_sink_mode=False))] == \
        [[x.tolist() for x in r] for r in rows(DatasetHelper(data(), dataset_sink_mode=False))]
    with pytest.raises(RuntimeError, match="dataset sink mode is not supported"):
        DatasetHelper(data())


def test_lazy_name_kept_when_same_named_submodule_imports_later():
    """``mindspore.common.recompute`` is the function even when the module of that name is
    imported after its parent was already guarding another name (order-dependent before)."""
    code = ("import importlib, msjax.common as c\nfrom msjax import _tree\n"
            "c.__class__ = _tree._KeepAttributes\nassert 'recompute' not in vars(c)\n"
            "importlib.import_module('msjax.common.recompute')\nprint(type(c.recompute).__name__)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "function"
