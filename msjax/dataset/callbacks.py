"""``mindspore.dataset.DSCallback``: hooks a ``map`` operation calls as rows pass.

``dataset.map(..., callbacks=[cb])`` calls ``ds_begin`` once when the pipeline
starts, ``ds_epoch_begin``/``ds_epoch_end`` around each epoch and
``ds_step_begin``/``ds_step_end`` around every ``step_size``-th row of an epoch
(rows 1, 1+step_size, ...), with a context holding ``cur_epoch_num``,
``cur_step_num_in_epoch`` and ``cur_step_num`` (counted over all epochs), as
MindSpore 2.10 does. msjax calls both step hooks in row order on the consuming
thread as the row leaves the map; MindSpore calls them from its workers, so its
step hooks may interleave.
"""
from __future__ import annotations

import threading

from ..train.callback._callback import Callback

__all__ = ["DSCallback", "WaitedDSCallback"]

INT32_MAX = 2147483647


class DSRunContext:
    """What a ``DSCallback`` hook is told: the epoch and step counters."""

    def __init__(self, epoch=0, step_in_epoch=0, step=0):
        self.cur_epoch_num = epoch
        self.cur_step_num_in_epoch = step_in_epoch
        self.cur_step_num = step


class DSCallback:
    """Base of dataset callbacks; subclasses override the hooks they need."""

    def __init__(self, step_size=1):
        if not isinstance(step_size, int) or isinstance(step_size, bool):
            raise TypeError(f"Argument step_size with value {step_size} is not of type [<class 'int'>], "
                            f"but got {type(step_size)}.")
        if step_size < 1 or step_size > INT32_MAX:
            raise ValueError(f"Input step_size is not within the required interval of [1, {INT32_MAX}].")
        self.step_size = step_size

    # the hooks: the base class does nothing
    def ds_begin(self, ds_run_context):
        """Called once, before the first epoch."""

    def ds_epoch_begin(self, ds_run_context):
        """Called at the start of each epoch."""

    def ds_epoch_end(self, ds_run_context):
        """Called at the end of each epoch."""

    def ds_step_begin(self, ds_run_context):
        """Called before every ``step_size``-th row of an epoch."""

    def ds_step_end(self, ds_run_context):
        """Called after every ``step_size``-th row of an epoch."""


class WaitedDSCallback(Callback, DSCallback):
    """``mindspore.dataset.WaitedDSCallback``: a dataset callback that waits for the
    training loop. Pass it both to ``map(callbacks=...)`` and to ``Model.train``:
    from the second step (epoch) on, the pipeline's step (epoch) begin waits for the
    training step (epoch) to end, then calls ``sync_step_begin`` (``sync_epoch_begin``)
    with the training and dataset contexts. The pipeline runs on msjax's iterator
    thread, so the wait works as in MindSpore; it times out after
    ``ds.config.get_callback_timeout()`` seconds."""

    def __init__(self, step_size=1):
        super().__init__()   # Callback's (MindSpore does not check step_size here)
        self.step_size = step_size
        self.step_event = threading.Event()
        self.step_run_context = None
        self.epoch_event = threading.Event()
        self.epoch_run_context = None
        self.training_ended = False

    def sync_epoch_begin(self, train_run_context, ds_run_context):
        """Called before a dataset epoch starts, after the previous training epoch ended."""

    def sync_step_begin(self, train_run_context, ds_run_context):
        """Called before a dataset step starts, after the previous training step ended."""

    def _overrides(self, name):
        return getattr(type(self), name) is not getattr(WaitedDSCallback, name)

    def _wait(self, event, what):
        from . import config
        if not self.training_ended:
            ok = event.wait(timeout=config.get_callback_timeout())
            event.clear()
            if not ok:
                raise RuntimeError(f"{what} timed out after {config.get_callback_timeout()} second(s).")

    def epoch_end(self, run_context):
        self.epoch_run_context = run_context
        self.epoch_event.set()

    def ds_epoch_begin(self, ds_run_context):
        if ds_run_context.cur_epoch_num > 1 and self._overrides("sync_epoch_begin"):
            self._wait(self.epoch_event, "ds_epoch_begin")
            self.sync_epoch_begin(self.epoch_run_context, ds_run_context)

    def step_end(self, run_context):
        self.step_run_context = run_context
        self.step_event.set()

    def ds_step_begin(self, ds_run_context):
        if ds_run_context.cur_step_num > self.step_size and self._overrides("sync_step_begin"):
            self._wait(self.step_event, "ds_step_begin")
            self.sync_step_begin(self.step_run_context, ds_run_context)

    def end(self, run_context):
        self.epoch_end(run_context)
        self.step_end(run_context)
        self.training_ended = True


def check_callbacks(callbacks):
    """``map(callbacks=...)``: a DSCallback or a list/tuple of them; returns a list."""
    if callbacks is None:
        return []
    items = list(callbacks) if isinstance(callbacks, (list, tuple)) else [callbacks]
    for i, cb in enumerate(items):
        if not isinstance(cb, DSCallback):
            name = f"callbacks[{i}]" if isinstance(callbacks, (list, tuple)) else "callbacks"
            raise TypeError(f"Argument {name} with value {cb} is not of type [{DSCallback}], but got {type(cb)}.")
        if isinstance(cb, WaitedDSCallback) and not (cb._overrides("sync_step_begin") or
                                                      cb._overrides("sync_epoch_begin")):
            raise AttributeError("Inheriting Callback class without overriding any methods, check the usage of "
                                 "user defined Callback.")
    return items


class CallbackRunner:
    """The counters of one pipeline run; ``epoch(rows, k)`` wraps an epoch's rows."""

    def __init__(self, callbacks):
        self.callbacks = callbacks
        self.step = 0

    def _call(self, hook, ctx, step_in_epoch=None):
        for cb in self.callbacks:
            if step_in_epoch is None or (step_in_epoch - 1) % cb.step_size == 0:
                getattr(cb, hook)(ctx)

    def epoch(self, rows, k):
        if k == 0:
            self._call("ds_begin", DSRunContext())
        self._call("ds_epoch_begin", DSRunContext(k + 1, 0, self.step))
        n = 0
        for row in rows:
            n += 1
            self.step += 1
            ctx = DSRunContext(k + 1, n, self.step)
            self._call("ds_step_begin", ctx, n)
            self._call("ds_step_end", ctx, n)
            yield row
        self._call("ds_epoch_end", DSRunContext(k + 1, n, self.step))
