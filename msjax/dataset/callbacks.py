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

__all__ = ["DSCallback"]

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


def check_callbacks(callbacks):
    """``map(callbacks=...)``: a DSCallback or a list/tuple of them; returns a list."""
    if callbacks is None:
        return []
    items = list(callbacks) if isinstance(callbacks, (list, tuple)) else [callbacks]
    for i, cb in enumerate(items):
        if not isinstance(cb, DSCallback):
            name = f"callbacks[{i}]" if isinstance(callbacks, (list, tuple)) else "callbacks"
            raise TypeError(f"Argument {name} with value {cb} is not of type [{DSCallback}], but got {type(cb)}.")
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
