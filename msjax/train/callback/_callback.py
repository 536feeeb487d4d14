"""``Callback``, ``RunContext`` and the manager ``Model`` drives them through.

Hooks: ``on_train_begin``, ``on_train_epoch_begin``, ``on_train_step_begin``,
``on_train_step_end``, ``on_train_epoch_end``, ``on_train_end`` and the
``on_eval_*`` six; each defaults to MindSpore's older name (``begin``,
``epoch_begin``, ``step_begin``, ``step_end``, ``epoch_end``, ``end``), so old-style
callbacks keep working. ``RunContext.original_args()`` is the ``cb_params`` dict
(attribute access too) with MindSpore's fields: ``cur_epoch_num``, ``cur_step_num``,
``batch_num``, ``epoch_num``, ``net_outputs``, ``train_network``, ``optimizer``,
``loss_fn``, ``train_dataset``, ``mode``, ``metrics``, ...
"""
from __future__ import annotations

from contextlib import ExitStack

import numpy as np

from ..._core.tensor import Tensor

__all__ = ["Callback", "CallbackManager", "RunContext", "InternalCallbackParam"]


CUR_NET = None


def set_cur_net(net):
    """MindSpore's ``_set_cur_net``: the network its save-checkpoint summary operator
    saves (msjax keeps it; it has no such operator)."""
    global CUR_NET
    CUR_NET = net


class Callback:
    """Base class of training/evaluation callbacks (a context manager, entered by ``Model``)."""

    def __enter__(self):
        return self

    def __exit__(self, *err):
        return None

    # MindSpore's older names (still called by the new hooks below)
    def begin(self, run_context):
        """Called once before the network executes."""

    def epoch_begin(self, run_context):
        """Called before each epoch."""

    def epoch_end(self, run_context):
        """Called after each epoch."""

    def step_begin(self, run_context):
        """Called before each step."""

    def step_end(self, run_context):
        """Called after each step."""

    def end(self, run_context):
        """Called once after training/evaluation."""

    def on_train_begin(self, run_context):
        self.begin(run_context)

    def on_train_epoch_begin(self, run_context):
        self.epoch_begin(run_context)

    def on_train_epoch_end(self, run_context):
        self.epoch_end(run_context)

    def on_train_step_begin(self, run_context):
        self.step_begin(run_context)

    def on_train_step_end(self, run_context):
        self.step_end(run_context)

    def on_train_end(self, run_context):
        self.end(run_context)

    def on_eval_begin(self, run_context):
        self.begin(run_context)

    def on_eval_epoch_begin(self, run_context):
        self.epoch_begin(run_context)

    def on_eval_epoch_end(self, run_context):
        self.epoch_end(run_context)

    def on_eval_step_begin(self, run_context):
        self.step_begin(run_context)

    def on_eval_step_end(self, run_context):
        self.step_end(run_context)

    def on_eval_end(self, run_context):
        self.end(run_context)


_HOOKS = ("begin", "epoch_begin", "epoch_end", "step_begin", "step_end", "end",
          "on_train_begin", "on_train_epoch_begin", "on_train_epoch_end", "on_train_step_begin",
          "on_train_step_end", "on_train_end", "on_eval_begin", "on_eval_epoch_begin", "on_eval_epoch_end",
          "on_eval_step_begin", "on_eval_step_end", "on_eval_end")


class CallbackManager(Callback):
    """Runs a list of callbacks in order, entering them as context managers."""

    def __init__(self, callbacks):
        self._callbacks, self._stack = [], None
        if isinstance(callbacks, Callback):
            self._callbacks.append(callbacks)
        elif isinstance(callbacks, list):
            for cb in callbacks:
                if not isinstance(cb, Callback):
                    raise TypeError("When the 'callbacks' is a list, the elements in 'callbacks' must be Callback "
                                    "functions.")
                self._callbacks.append(cb)
        elif callbacks is not None:
            raise TypeError("The 'callbacks' is not a Callback or a list of Callback.")

    def __enter__(self):
        if self._stack is None:
            callbacks, self._stack = [], ExitStack().__enter__()
            for cb in self._callbacks:
                target = self._stack.enter_context(cb)
                callbacks.append(target if isinstance(target, Callback) else cb)
            self._callbacks = callbacks
        return self

    def __exit__(self, *err):
        return self._stack.__exit__(*err)


def _dispatch(name):
    def hook(self, run_context):
        for cb in self._callbacks:
            getattr(cb, name)(run_context)
    hook.__name__ = name
    return hook


for _name in _HOOKS:
    setattr(CallbackManager, _name, _dispatch(_name))


class InternalCallbackParam(dict):
    """``cb_params``: a dict whose keys are also attributes."""

    def __getattr__(self, key):
        try:
            return self[key]
        except KeyError:
            raise AttributeError(f"'cb_params' has no attribute '{key}'") from None

    def __setattr__(self, key, value):
        self[key] = value


class RunContext:
    """What callbacks see: ``original_args()`` (the ``cb_params``) and ``request_stop()``."""

    def __init__(self, original_args):
        if not isinstance(original_args, dict):
            raise TypeError(f"The argument 'original_args' of RunContext should be dict type, but got "
                            f"{type(original_args)}.")
        self._original_args = original_args
        self._stop_requested = False

    def original_args(self):
        return self._original_args

    def request_stop(self):
        self._stop_requested = True

    def get_stop_requested(self):
        return self._stop_requested


def handle_loss(loss):
    """MindSpore's ``_handle_loss``: a Tensor becomes the float mean of its values;
    for a tuple/list output its first Tensor is taken (and kept a Tensor)."""
    if isinstance(loss, (tuple, list)):
        if loss and isinstance(loss[0], Tensor):
            loss = loss[0]
    elif isinstance(loss, Tensor):
        loss = float(np.mean(loss.asnumpy()))
    return loss
