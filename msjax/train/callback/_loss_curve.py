"""``LossCurve``: a callback that keeps every step's loss and draws it (msjax only)."""
from __future__ import annotations

import io

from ._callback import Callback, handle_loss

__all__ = ["LossCurve"]


class LossCurve(Callback):
    """Record the training loss every ``per_steps`` steps (``steps``, ``losses``,
    ``epochs``) and draw it: ``figure()`` returns a matplotlib Figure, and in Jupyter the
    callback itself shows as that picture (``_repr_png_``). matplotlib is an optional
    extra (``pip install msjax[plot]``). (msjax only: MindSpore has no such callback;
    ``History`` keeps only one value per epoch.)"""

    def __init__(self, per_steps=1, title="training loss"):
        super().__init__()
        if not isinstance(per_steps, int) or isinstance(per_steps, bool) or per_steps <= 0:
            raise ValueError(f"'per_steps' should be a positive int, but got {per_steps!r}.")
        self.per_steps = per_steps
        self.title = title
        self.steps, self.losses, self.epochs = [], [], []

    def on_train_step_end(self, run_context):
        cb = run_context.original_args()
        if cb.cur_step_num % self.per_steps:
            return
        loss = handle_loss(cb.net_outputs)
        if hasattr(loss, "asnumpy"):
            loss = float(loss.asnumpy().mean())
        self.steps.append(int(cb.cur_step_num))
        self.losses.append(float(loss))
        self.epochs.append(int(cb.get("cur_epoch_num", 1)))

    def figure(self, ax=None):
        """The loss against the step (epoch boundaries dotted), as a matplotlib Figure."""
        try:
            import matplotlib
            from matplotlib.figure import Figure
        except ImportError as e:
            raise ImportError("LossCurve draws with matplotlib; install it with `pip install msjax[plot]` "
                              "(or `pip install matplotlib`).") from e
        del matplotlib
        fig = ax.figure if ax is not None else Figure(figsize=(5, 3), dpi=80)
        ax = ax if ax is not None else fig.add_subplot()
        ax.plot(self.steps, self.losses, marker="." if len(self.steps) <= 50 else None)
        for i in range(1, len(self.epochs)):
            if self.epochs[i] != self.epochs[i - 1]:
                ax.axvline(self.steps[i - 1] + 0.5, color="grey", linestyle=":", linewidth=1)
        ax.set_xlabel("step")
        ax.set_ylabel("loss")
        ax.set_title(self.title)
        fig.tight_layout()
        return fig

    def _repr_png_(self):
        if not self.steps:
            return None
        buf = io.BytesIO()
        self.figure().savefig(buf, format="png")
        return buf.getvalue()

    def __repr__(self):
        last = f", last loss {self.losses[-1]:.6g}" if self.losses else ""
        return f"LossCurve({len(self.losses)} points{last})"
