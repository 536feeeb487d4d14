"""Pipeline stages on device groups: which devices a stage owns, and the marks a traced
pipeline step carries so that :mod:`msjax.communication._pipeline_step` can cut it.

With ``pipeline_stages = S`` the job's devices (rank order) split into ``S`` equal groups,
as MindSpore assigns ranks to stages (``stage = rank // (device_num / S)``,
``InferStage`` in its ``PipelineSplit``). While a pipeline step is traced (:func:`tracing`):

* a Cell with ``pipeline_stage = s`` runs inside :func:`stage_scope`: its operations carry the
  JAX name scope ``msjax_pp_s<s>`` (kept by ``jax.vjp`` on their gradients, as
  ``transpose(jvp(...msjax_pp_s<s>...))``), and the strategies met inside are expressed on
  stage ``s``'s devices (a ``Layout``'s device matrix is the stage's devices, as in MindSpore);
* ``PipelineCell`` runs micro-batch ``i`` inside :func:`micro_scope` (``msjax_pp_m<i>``).

Outside such a trace both scopes do nothing. ``leaf`` layer: JAX only.
"""
from __future__ import annotations

import contextlib
import re

import jax

from . import _apply

__all__ = ["stage_groups", "tracing", "stage_scope", "micro_scope", "marks"]

_ACTIVE = []        # the device groups of the pipeline step being traced (a stack)
_STAGE_RE = re.compile(r"msjax_pp_s(\d+)")
_MICRO_RE = re.compile(r"msjax_pp_m(\d+)")


def stage_groups(devices, stages):
    """The devices of each stage: ``devices`` (rank order) cut into ``stages`` equal groups.
    Raises MindSpore's ``RuntimeError`` when the device count does not divide."""
    n = len(devices)
    if n % stages:
        raise RuntimeError(f"Device_num must be divisible by the stage_num, got device_num: {n}stage_num: {stages}")
    per = n // stages
    return [tuple(devices[s * per:(s + 1) * per]) for s in range(stages)]


@contextlib.contextmanager
def tracing(groups):
    """A pipeline step over ``groups`` is traced: the scopes below take effect."""
    _ACTIVE.append({"groups": groups, "stage": 0, "depth": 0})
    try:
        yield
    finally:
        _ACTIVE.pop()


def active():
    return bool(_ACTIVE)


@contextlib.contextmanager
def stage_scope(stage):
    """Stage ``stage``'s Cell runs here (see the module docstring). The strategies met after it
    (an unstaged loss after the last stage) stay on its devices until another stage begins;
    a stage inside another one gives the outer stage its devices back when it ends."""
    if not _ACTIVE:
        yield
        return
    top = _ACTIVE[-1]
    groups = top["groups"]
    plan = _apply.active()
    outer = (top["stage"], plan.devices if plan is not None else None) if top["depth"] else None
    if plan is not None and stage < len(groups):
        plan.devices = groups[stage]
    top["stage"] = stage
    top["depth"] += 1
    try:
        with jax.named_scope(f"msjax_pp_s{stage}"):
            yield
    finally:
        top["depth"] -= 1
        if outer is not None:
            top["stage"] = outer[0]
            if plan is not None:
                plan.devices = outer[1]


@contextlib.contextmanager
def micro_scope(index):
    """Micro-batch ``index`` of a ``PipelineCell`` runs here."""
    if not _ACTIVE:
        yield
        return
    with jax.named_scope(f"msjax_pp_m{index}"):
        yield


def marks(name_stack):
    """``(stage or None, micro-batch or None, backward)`` read from an equation's name stack:
    the innermost stage and micro-batch scopes, and whether it is a gradient (transposed)."""
    text = str(name_stack)
    stages = _STAGE_RE.findall(text)
    micros = _MICRO_RE.findall(text)
    return (int(stages[-1]) if stages else None, int(micros[-1]) if micros else None, "transpose(" in text)
