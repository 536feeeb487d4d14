"""Runs one of the zoo's ``export.py`` scripts unmodified, with the checkpoint and the export calls
redirected, under msjax (``python -m msjax run export_census_hook.py export.py args...``) or under
MindSpore 2.10 (``python export_census_hook.py export.py args...``); bench/zoo/export_census.py
starts it. Environment: ``CENSUS_SIDE`` (``msjax`` or ``mindspore``), ``CENSUS_WORK`` (a folder).

* ``load_checkpoint`` returns ``{}`` and ``load_param_into_net`` does nothing: the zoo's checkpoints
  are not available, so the network keeps its initial weights (msjax: ``set_seed(0)``). A checkpoint
  that the census itself put in ``CENSUS_WORK`` (a script that reads named entries of its training
  checkpoint, such as Transformer's ``load_weights``) is read, though still not loaded into the network.
* ``np.bool`` (gone from NumPy 1.24 to 1.26, MindSpore 2.10's NumPy here; back in NumPy 2 as
  ``np.bool_``) is ``np.bool_``, for the zoo's code that still writes it (Transformer's beam search).
* ``set_context(device_target=...)`` always selects ``CPU`` (MindSpore's CPU build is the reference).
* ``export(net, *inputs, ...)``, the n-th call: floating inputs are replaced by seeded values of
  the same shape and dtype (normal for a constant placeholder, else uniform over the script's range;
  ``_inputs``; integer inputs are kept); floating Parameters initialised to
  one value get seeded values (zoo networks zero their classifiers, FasterRCNN's backbone is all
  ones until its checkpoint loads): noise on vectors, a LeCun normal draw for matrices and kernels
  (``_perturb``). msjax saves the network's
  Parameters to ``net<n>.ckpt``; MindSpore loads that checkpoint into its network first, so both
  sides hold the same weights. Each side runs the network in inference mode
  (``net<n>_<side>_io.npz``: inputs ``x0...``, flattened outputs ``y0...``) and exports it as
  MINDIR (msjax also as ONNX) to ``net<n>_<side>.<suffix>``, whatever format the script asked for.
  ``net<n>_<side>.json`` records each step's error.
* NumPy's global generator is seeded with ``n`` before that forward and before each export, so a
  network that draws constants while it is traced (PointNet2's ``@constexpr generate_tensor_fps``:
  ``np.random.randint`` at compile time, once per trace) draws the same ones in the forward and in
  every exported file, on both sides.
"""
import json
import os
import runpy
import sys
import traceback

import numpy as np

SIDE = os.environ["CENSUS_SIDE"]
WORK = os.environ["CENSUS_WORK"]

if SIDE == "msjax":
    import msjax as ms
else:
    import mindspore as ms
from mindspore.train import serialization as _ser  # noqa: E402  (msjax under `msjax run`)

_real_export = _ser.export
_real_load_checkpoint = _ser.load_checkpoint
_real_load_param_into_net = _ser.load_param_into_net
_real_set_context = ms.set_context
_count = [0]
if not hasattr(np, "bool"):
    np.bool = np.bool_


def _last_error(e):
    return f"{type(e).__name__}: {e}".splitlines()[0][:400] if str(e) else type(e).__name__


def _flat(out):
    if isinstance(out, (tuple, list)):
        return [a for o in out for a in _flat(o)]
    if isinstance(out, dict):
        return [a for k in sorted(out) for a in _flat(out[k])]
    if hasattr(out, "asnumpy"):
        return [out.asnumpy()]
    return [np.asarray(out)]


def _inputs(inputs, n):
    """Seeded floating inputs, the same on both sides: where the script filled the input with one
    value (a placeholder image of zeros), ``N(0, 1)``, as a normalised image; where it drew varying
    values itself (FasterRCNN's ``img_metas``, heights, widths and scales from ``uniform(0, 1)``),
    uniform over the script's own range, so sizes and scales keep their sign."""
    rng = np.random.default_rng(n)
    out = []
    for x in inputs:
        if isinstance(x, ms.Tensor) and np.issubdtype(x.asnumpy().dtype, np.floating):
            a = x.asnumpy()
            lo, hi = (float(a.min()), float(a.max())) if a.size else (0.0, 0.0)
            new = rng.standard_normal(a.shape) if lo == hi else rng.uniform(lo, hi, a.shape)
            x = ms.Tensor(new.astype(a.dtype))
        out.append(x)
    return out


def _perturb(net, n):
    """Parameters initialised to one value get seeded values, so that every layer's output reaches
    the compared outputs. Vectors (biases, BatchNorm's statistics and scales, a zeroed bias) get
    ``0.1 * N(0, 1)`` noise (variances and gammas stay positive). Weight matrices and kernels
    (``ndim >= 2``; the zoo sets them to ones or zeros where its pretrained checkpoint is meant to
    be loaded: FasterRCNN's ResNet convolutions are all ones, a zeroed classifier) are redrawn
    variance-preserving, ``N(0, 1/fan_in)`` with ``fan_in`` the product of all but the first
    dimension (LeCun normal), so a normalised image keeps its scale through the network instead of
    overflowing to inf/NaN (ones: each layer multiplies the scale by ``fan_in``)."""
    rng = np.random.default_rng(1000 + n)
    for name, p in net.parameters_and_names():
        a = p.asnumpy()
        if not np.issubdtype(a.dtype, np.floating) or a.size == 0 or a.min() != a.max():
            continue
        if a.ndim >= 2:
            new = rng.standard_normal(a.shape) / np.sqrt(a.size // a.shape[0])
        else:
            noise = 0.1 * rng.standard_normal(a.shape)
            new = a + (np.abs(noise) if "variance" in name or "gamma" in name else noise)
        p.set_data(ms.Tensor(new.astype(a.dtype)))


def load_checkpoint(ckpt_file_name=None, *args, **kwargs):
    if isinstance(ckpt_file_name, str) and os.path.dirname(os.path.abspath(ckpt_file_name)) == os.path.abspath(WORK):
        return _real_load_checkpoint(ckpt_file_name, *args, **kwargs)
    return {}


def load_param_into_net(*args, **kwargs):
    return [], []


def set_context(*args, **kwargs):
    if "device_target" in kwargs:
        kwargs["device_target"] = "CPU"
    kwargs.pop("device_id", None)
    return _real_set_context(*args, **kwargs)


def export(net, *inputs, file_name=None, file_format="AIR", **kwargs):
    n = _count[0]
    _count[0] += 1
    stem = os.path.join(WORK, f"net{n}")
    report = {"script_format": str(file_format), "script_kwargs": sorted(kwargs)}
    inputs = _inputs(inputs, n)
    try:
        if SIDE == "msjax":
            _perturb(net, n)
            ms.save_checkpoint(net, stem + ".ckpt")
        elif os.path.exists(stem + ".ckpt"):
            not_loaded, _ = _real_load_param_into_net(net, _real_load_checkpoint(stem + ".ckpt"))
            report["not_loaded"] = list(not_loaded)[:20]
        else:
            report["weights"] = "MindSpore's own initial weights (msjax wrote no checkpoint)"
        net.set_train(False)
        np.random.seed(n)
        outs = _flat(net(*inputs))
        np.savez(f"{stem}_{SIDE}_io.npz", **{f"x{i}": x.asnumpy() if hasattr(x, "asnumpy") else np.asarray(x)
                                             for i, x in enumerate(inputs)},
                 **{f"y{i}": y for i, y in enumerate(outs)})
    except Exception as e:  # noqa: BLE001
        traceback.print_exc()
        report["forward"] = _last_error(e)
    for fmt in ("MINDIR", "ONNX") if SIDE == "msjax" else ("MINDIR",):
        try:
            np.random.seed(n)
            _real_export(net, *inputs, file_name=f"{stem}_{SIDE}", file_format=fmt, **kwargs)
        except Exception as e:  # noqa: BLE001
            traceback.print_exc()
            report[fmt] = _last_error(e)
    with open(f"{stem}_{SIDE}.json", "w") as f:
        json.dump(report, f)


def _patch(module, **names):
    for name, fn in names.items():
        if hasattr(module, name):
            setattr(module, name, fn)


def main():
    import mindspore
    import mindspore.context
    import mindspore.train
    for mod in (mindspore, mindspore.train, _ser):
        _patch(mod, export=export, load_checkpoint=load_checkpoint, load_param_into_net=load_param_into_net)
    for mod in (mindspore, mindspore.context):
        _patch(mod, set_context=set_context)
    ms.set_seed(0)
    np.random.seed(0)
    script = os.path.abspath(sys.argv[1])
    sys.argv = [script] + sys.argv[2:]
    sys.path[:0] = [os.path.dirname(script), os.getcwd()]     # as `python src/export.py` run from the folder
    runpy.run_path(script, run_name="__main__")
    with open(os.path.join(WORK, f"{SIDE}_done.json"), "w") as f:
        json.dump({"exports": _count[0]}, f)


if __name__ == "__main__":
    main()
