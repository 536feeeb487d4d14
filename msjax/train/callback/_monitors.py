"""``LossMonitor``, ``TimeMonitor`` (MindSpore's printed lines) and ``ProgressBar``
(an msjax addition for long runs: epoch, step, loss, steps/s on one line)."""
from __future__ import annotations

import math
import sys
import time

import numpy as np

from ._callback import Callback, handle_loss

__all__ = ["LossMonitor", "TimeMonitor", "ProgressBar"]


def _non_negative_int(value, name):
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"The type of '{name}' should be int, but got {type(value).__name__}.")
    if value < 0:
        raise ValueError(f"'{name}' should be an int and must >= 0, but got '{value}' with type "
                         f"'{type(value).__name__}'.")
    return value


class LossMonitor(Callback):
    """Print ``epoch: E step: S, loss is L`` every ``per_print_times`` steps; stop on a
    NaN/Inf loss. In ``Model.fit`` it also prints the evaluation metrics per epoch."""

    def __init__(self, per_print_times=1):
        super().__init__()
        _non_negative_int(per_print_times, "per_print_times")
        self._per_print_times = per_print_times
        self._last_print_time = 0

    def step_end(self, run_context):
        cb_params = run_context.original_args()
        cur_epoch_num = cb_params.get("cur_epoch_num", 1)
        loss = handle_loss(cb_params.net_outputs)
        cur_step_in_epoch = (cb_params.cur_step_num - 1) % cb_params.batch_num + 1
        if isinstance(loss, float) and (np.isnan(loss) or np.isinf(loss)):
            raise ValueError(f"In epoch: {cur_epoch_num} step: {cur_step_in_epoch}, loss is NAN or INF, training "
                             "process cannot continue, terminating training.")
        if self._per_print_times != 0 and cb_params.cur_step_num <= self._last_print_time:
            while cb_params.cur_step_num <= self._last_print_time:
                self._last_print_time -= max(self._per_print_times,
                                             cb_params.batch_num if cb_params.dataset_sink_mode else 1)
        if self._per_print_times != 0 and (cb_params.cur_step_num - self._last_print_time) >= self._per_print_times:
            self._last_print_time = cb_params.cur_step_num
            print("epoch: %s step: %s, loss is %s" % (cur_epoch_num, cur_step_in_epoch, loss), flush=True)

    def on_train_epoch_end(self, run_context):
        cb_params = run_context.original_args()
        metrics = cb_params.get("metrics")
        if metrics:
            print("Eval result: epoch %d, metrics: %s" % (cb_params.cur_epoch_num, metrics))


class TimeMonitor(Callback):
    """Print ``Train epoch time: X ms, per step time: Y ms`` after each epoch."""

    def __init__(self, data_size=None, data_time=False):
        super().__init__()
        self.data_size = data_size
        self.epoch_time = time.time()
        if not isinstance(data_time, bool):
            raise TypeError(f"The 'data_time' must be a bool, but got {type(data_time).__name__}.")
        self.data_time = data_time
        self.data_time_sum = 0.0
        self.data_time_start = 0.0
        self.data_sink = lambda c: c.original_args()["dataset_sink_mode"]

    def on_train_step_begin(self, run_context):
        if self.data_time and not self.data_sink(run_context):
            self.data_time_sum += time.time() - self.data_time_start

    def on_train_step_end(self, run_context):
        if self.data_time and not self.data_sink(run_context):
            self.data_time_start = time.time()

    def epoch_begin(self, run_context):
        self.epoch_time = time.time()
        if self.data_time and not self.data_sink(run_context):
            self.data_time_sum = 0.0
            self.data_time_start = time.time()

    def epoch_end(self, run_context):
        epoch_seconds = (time.time() - self.epoch_time) * 1000
        step_size = self.data_size
        cb_params = run_context.original_args()
        mode = cb_params.get("mode", "")
        batch_num = cb_params.get("batch_num")
        if isinstance(batch_num, int) and batch_num > 0:
            step_size = batch_num
        if not isinstance(step_size, int) or isinstance(step_size, bool) or step_size <= 0:
            raise ValueError(f"'data_size' should be an int and must > 0, but got '{step_size}' with type "
                             f"'{type(step_size).__name__}'.")
        step_seconds = epoch_seconds / step_size
        log = "{} epoch time: {:5.3f} ms, per step time: {:5.3f} ms".format(mode.title(), epoch_seconds, step_seconds)
        if self.data_time and not self.data_sink(run_context):
            log += " (data time: {:5.3f} ms)".format(self.data_time_sum * 1000 / step_size)
        print(log, flush=True)


def _in_jupyter():
    shell = sys.modules.get("IPython") and getattr(sys.modules["IPython"], "get_ipython", lambda: None)()
    return shell is not None and type(shell).__name__ == "ZMQInteractiveShell"


class _NotebookLine:
    """One epoch's bar in Jupyter: an HTML ``<progress>`` with the text line, updated in place."""

    def __init__(self, text, step, total):
        self.text, self.step, self.total = text, step, total

    def __repr__(self):
        return self.text

    def _repr_html_(self):
        import html
        return (f'<div style="font-family:monospace"><progress value="{self.step}" max="{self.total}" '
                f'style="width:30ch"></progress> {html.escape(self.text)}</div>')


class ProgressBar(Callback):
    """A progress bar per epoch: epoch, step, the last step's loss and the epoch's step rate.

    ``ProgressBar(width=30, per_print_times=None, file=None)``:

    * on a terminal (``file``, default standard error, is a tty): a ``rich`` progress
      bar per epoch, redrawn in place, with the time left;
    * in Jupyter (``file`` not given): a bar in the cell's output, updated in place
      (``IPython.display`` with a display id: no ipywidgets needed);
    * otherwise (a log file, a pipe): a line ``Epoch 1/5 [#####.....] 120/240 loss 0.4321
      25.3 step/s`` every ``per_print_times`` steps (default: four times per epoch).

    (msjax only: MindSpore has no progress bar.)
    """

    def __init__(self, width=30, per_print_times=None, file=None):
        super().__init__()
        self.width = width
        self.per_print_times = per_print_times
        self.file = file
        self._t0 = self._last = 0.0
        self._steps = 0
        self._rich = None          # (Progress, task id) on a terminal
        self._handle = None        # IPython display handle in Jupyter

    def _out(self):
        return self.file or sys.stderr

    def _mode(self):
        out = self._out()
        if self.file is None and _in_jupyter():
            return "jupyter"
        if hasattr(out, "isatty") and out.isatty():
            return "tty"
        return "lines"

    def on_train_epoch_begin(self, run_context):
        self._t0 = self._last = time.time()
        self._steps = 0
        self._handle = None

    def _values(self, cb):
        total = cb.batch_num
        step = (cb.cur_step_num - 1) % total + 1 if total else cb.cur_step_num
        rate = self._steps / max(time.time() - self._t0, 1e-9)
        loss = handle_loss(cb.net_outputs)
        if hasattr(loss, "asnumpy"):
            loss = float(np.mean(loss.asnumpy()))
        loss_txt = f"{loss:.4f}" if isinstance(loss, float) and math.isfinite(loss) else str(loss)
        return step, total, loss_txt, rate

    def _line(self, cb):
        step, total, loss_txt, rate = self._values(cb)
        done = int(self.width * step / total) if total else 0
        bar = "#" * done + "." * (self.width - done)
        return (f"Epoch {cb.cur_epoch_num}/{cb.get('epoch_num', cb.cur_epoch_num)} [{bar}] {step}/{total} "
                f"loss {loss_txt} {rate:.1f} step/s"), step == total

    def _rich_step(self, cb):
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
        step, total, loss_txt, rate = self._values(cb)
        if self._rich is None:
            progress = Progress(TextColumn("Epoch {task.fields[epoch]}"), BarColumn(bar_width=self.width),
                                MofNCompleteColumn(), TextColumn("loss {task.fields[loss]}"),
                                TextColumn("{task.fields[rate]} step/s"), TimeRemainingColumn(),
                                console=Console(file=self._out()), auto_refresh=False)
            progress.start()
            self._rich = [progress, None, None]
        progress = self._rich[0]
        epoch = f"{cb.cur_epoch_num}/{cb.get('epoch_num', cb.cur_epoch_num)}"
        if self._rich[2] != cb.cur_epoch_num:
            self._rich[1] = progress.add_task("", total=total or None, epoch=epoch, loss="", rate="")
            self._rich[2] = cb.cur_epoch_num
        progress.update(self._rich[1], completed=step, epoch=epoch, loss=loss_txt, rate=f"{rate:.1f}")
        progress.refresh()

    def on_train_step_end(self, run_context):
        cb = run_context.original_args()
        self._steps += 1
        total = cb.batch_num or 1
        step = (cb.cur_step_num - 1) % total + 1
        mode = self._mode()
        now = time.time()
        if mode != "lines":
            if now - self._last < 0.1 and step != total:
                return
            self._last = now
            if mode == "tty":
                self._rich_step(cb)
            else:
                from IPython.display import display
                line, _ = self._line(cb)
                obj = _NotebookLine(line, step, total)
                if self._handle is None:
                    self._handle = display(obj, display_id=True)
                else:
                    self._handle.update(obj)
            return
        every = self.per_print_times or max(1, total // 4)
        if step % every == 0 or step == total:
            line, _ = self._line(cb)
            out = self._out()
            out.write(line + "\n")
            out.flush()

    def on_train_end(self, run_context):
        if self._rich is not None:
            self._rich[0].stop()
            self._rich = None
