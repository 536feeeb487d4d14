"""``mindspore.dataset.audio``: the biquad filters MindSpore's tutorials use, on numpy
waveforms (``[..., time]``). Other audio transforms raise msjax's clear
unsupported error."""
from .transforms import BassBiquad, TrebleBiquad

__all__ = ["BassBiquad", "TrebleBiquad"]
