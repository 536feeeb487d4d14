"""``mindspore.profiler.schedule``: which steps a ``Profiler`` records (MindSpore 2.10's rule)."""
from enum import Enum

__all__ = ["ProfilerAction", "Schedule"]


class ProfilerAction(Enum):
    """What the profiler does at a step."""
    NONE = 0
    WARM_UP = 1
    RECORD = 2
    RECORD_AND_SAVE = 3

    @staticmethod
    def get_by_value(value):
        return {a.value: a for a in ProfilerAction}.get(value)


def _count(name, value, low):
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise ValueError(f"Invalid parameter {name}, which must be an int not less than {low}, but got {value!r}.")
    return value


class Schedule:
    """``schedule(*, wait, active, warmup=0, repeat=0, skip_first=0)``: skip ``skip_first``
    steps, then cycles of ``wait`` idle, ``warmup`` and ``active`` recorded steps (the last
    active step saves), ``repeat`` times (0: until the profiler stops).

    Difference from MindSpore: a ``jax.profiler`` trace cannot drop what it recorded,
    so warm-up steps are in the saved trace too."""

    def __init__(self, *, wait, active, warmup=0, repeat=0, skip_first=0):
        self.wait = _count("wait", wait, 0)
        self.active = _count("active", active, 1)
        self.warmup = _count("warmup", warmup, 0)
        self.repeat = _count("repeat", repeat, 0)
        self.skip_first = _count("skip_first", skip_first, 0)

    def __call__(self, step):
        if step < 0:
            raise ValueError("Invalid parameter step, which must be not less than 0.")
        if step < self.skip_first:
            return ProfilerAction.NONE
        step -= self.skip_first
        num_steps = self.wait + self.warmup + self.active
        if 0 < self.repeat <= step / num_steps:
            return ProfilerAction.NONE
        mod_step = step % num_steps
        if mod_step < self.wait:
            return ProfilerAction.NONE
        if mod_step < self.wait + self.warmup:
            return ProfilerAction.WARM_UP
        return ProfilerAction.RECORD if mod_step < num_steps - 1 else ProfilerAction.RECORD_AND_SAVE

    def to_dict(self):
        return {"wait": self.wait, "active": self.active, "warmup": self.warmup, "repeat": self.repeat,
                "skip_first": self.skip_first}

    def __repr__(self):
        return (f"Schedule(wait={self.wait!r}, active={self.active!r}, warmup={self.warmup!r}, "
                f"repeat={self.repeat!r}, skip_first={self.skip_first!r})")
