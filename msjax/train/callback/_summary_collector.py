"""``SummaryCollector``: a training callback writing TensorBoard scalars, histograms
and input images through ``SummaryRecord`` (``msjax.train.summary``)."""
from __future__ import annotations

import re

import numpy as np

from ..._core.parameter import Parameter
from ..._core.tensor import Tensor
from ..summary import SummaryRecord
from ._callback import Callback

__all__ = ["SummaryCollector"]

_DEFAULT = {"collect_metric": True, "collect_graph": True, "collect_train_lineage": True,
            "collect_eval_lineage": True, "collect_input_data": True, "collect_dataset_graph": True,
            "histogram_regular": None, "collect_landscape": None}


class SummaryCollector(Callback):
    """Collect the loss (``loss/auto``), the learning rate (``learning_rate/auto``), the
    trainable parameters' histograms (``<name>/auto``: those matching
    ``collect_specified_data["histogram_regular"]``, default the first five) and 4-D
    input images (``input_data/auto``) at the first step and every ``collect_freq``
    steps, into TensorBoard event files in ``summary_dir``.

    Differences from MindSpore: TensorBoard event files instead of MindInsight's;
    graphs, lineage, dataset graphs and loss landscapes are not collected (their
    switches are accepted; ``collect_landscape`` raises).
    """

    def __init__(self, summary_dir, collect_freq=10, num_process=32, collect_specified_data=None,
                 keep_default_action=True, custom_lineage_data=None, collect_tensor_freq=None,
                 max_file_size=None, export_options=None):
        super().__init__()
        if not isinstance(summary_dir, str) or not summary_dir:
            raise ValueError(f"For 'SummaryCollector', 'summary_dir' should be a non-empty str, but got "
                             f"{summary_dir!r}.")
        if not isinstance(collect_freq, int) or isinstance(collect_freq, bool) or collect_freq <= 0:
            raise ValueError(f"For 'SummaryCollector', 'collect_freq' should be a positive int, but got "
                             f"{collect_freq!r}.")
        if not isinstance(keep_default_action, bool):
            raise TypeError(f"For 'SummaryCollector', 'keep_default_action' should be bool, but got "
                            f"{type(keep_default_action).__name__}.")
        specified = dict(collect_specified_data or {})
        if not isinstance(collect_specified_data or {}, dict):
            raise TypeError("For 'SummaryCollector', 'collect_specified_data' should be a dict.")
        unknown = sorted(set(specified) - set(_DEFAULT))
        if unknown:
            raise ValueError(f"For 'SummaryCollector', the keys {unknown} of 'collect_specified_data' are not "
                             f"supported; expected some of {sorted(_DEFAULT)}.")
        if specified.get("collect_landscape"):
            raise NotImplementedError("SummaryCollector 'collect_landscape' (loss landscapes) is not supported by "
                                      "msjax.")
        regular = specified.get("histogram_regular")
        if regular is not None and not isinstance(regular, str):
            raise TypeError("For 'SummaryCollector', 'histogram_regular' should be a str regular expression.")
        self._specified = {**_DEFAULT, **specified} if keep_default_action else specified
        self._summary_dir = summary_dir
        self._collect_freq = collect_freq
        self._max_file_size = max_file_size
        self._record = None
        self._first = True
        self._loss_ok = True

    # --- callback ----------------------------------------------------------------------------
    def begin(self, run_context):
        if self._record is None:
            self._record = SummaryRecord(self._summary_dir, max_file_size=self._max_file_size)

    def step_end(self, run_context):
        cb = run_context.original_args()
        if cb.get("mode", "train") != "train":
            return
        if self._record is None:
            self.begin(run_context)
        step = cb.cur_step_num
        if not (self._first or step % self._collect_freq == 0):
            return
        if self._specified.get("collect_metric"):
            loss = self._loss(cb)
            if loss is not None:
                self._record.add_value("scalar", "loss/auto", Tensor(np.float32(loss)))
        if self._first and self._specified.get("collect_input_data"):
            data = cb.get("train_dataset_element")
            if isinstance(data, (list, tuple)) and data:
                data = data[0]
            if isinstance(data, Tensor) and len(data.shape) == 4 and data.shape[1] in (1, 3):
                self._record.add_value("image", "input_data/auto", data)
        self._collect_lr(cb)
        if "histogram_regular" in self._specified:
            self._collect_histograms(cb)
        self._record.record(step)
        self._first = False

    def epoch_end(self, run_context):
        if self._record is not None:
            self._record.flush()

    def end(self, run_context):
        if self._record is not None:
            self._record.close()
            self._record = None

    # --- pieces -----------------------------------------------------------------------------
    def _loss(self, cb):
        if not self._loss_ok:
            return None
        out = cb.get("net_outputs")
        if isinstance(out, (list, tuple)) and out:
            out = out[0]
        if isinstance(out, (int, float)) and not isinstance(out, bool):
            return float(out)
        if isinstance(out, Tensor):
            return float(np.mean(out.asnumpy()))
        self._loss_ok = False
        return None

    @staticmethod
    def _optimizer(cb):
        opt = cb.get("optimizer")
        if opt is None:
            net = cb.get("train_network")
            opt = getattr(net, "optimizer", None) if net is not None else None
        return opt

    def _collect_lr(self, cb):
        opt = self._optimizer(cb)
        if opt is None or not hasattr(opt, "get_lr"):
            return
        lr = opt.get_lr()
        if isinstance(lr, (tuple, list)):
            lr = lr[0] if lr else None
        if isinstance(lr, (Tensor, Parameter)) and int(np.prod(lr.shape)) == 1:
            self._record.add_value("scalar", "learning_rate/auto", lr)
        elif isinstance(lr, float):
            self._record.add_value("scalar", "learning_rate/auto", Tensor(np.float32(lr)))

    def _collect_histograms(self, cb):
        opt = self._optimizer(cb)
        params = list(getattr(opt, "parameters", None) or []) if opt is not None else []
        if not params:
            net = cb.get("train_network") or cb.get("network")
            params = list(net.trainable_params()) if net is not None else []
        regular = self._specified.get("histogram_regular")
        chosen = [p for p in params if re.match(regular, p.name)] if regular else params[:5]
        for p in chosen:
            self._record.add_value("histogram", p.name + "/auto", p)
