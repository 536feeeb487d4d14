"""Shelving biquad filters (``BassBiquad``, ``TrebleBiquad``): the audio EQ cookbook's
coefficients, as MindSpore (and torchaudio) compute them, applied along the last axis
in direct form I and clamped to [-1, 1] as MindSpore's ``LFilter`` does."""
from __future__ import annotations

import math

import numpy as np

__all__ = ["BassBiquad", "TrebleBiquad"]


def _shelf(sample_rate, gain, central_freq, Q, bass):
    w0 = 2 * math.pi * central_freq / sample_rate
    alpha = math.sin(w0) / 2 / Q
    A = math.exp(gain / 40 * math.log(10))
    t1, t2, t3 = 2 * math.sqrt(A) * alpha, (A - 1) * math.cos(w0), (A + 1) * math.cos(w0)
    if bass:
        b = [A * ((A + 1) - t2 + t1), 2 * A * ((A - 1) - t3), A * ((A + 1) - t2 - t1)]
        a = [(A + 1) + t2 + t1, -2 * ((A - 1) + t3), (A + 1) + t2 - t1]
    else:
        b = [A * ((A + 1) + t2 + t1), -2 * A * ((A - 1) + t3), A * ((A + 1) + t2 - t1)]
        a = [(A + 1) - t2 + t1, 2 * ((A - 1) - t3), (A + 1) - t2 - t1]
    return np.asarray(b) / a[0], np.asarray(a) / a[0]


class _Biquad:
    _bass = True

    def __init__(self, sample_rate, gain, central_freq=100.0, Q=0.707):
        if not isinstance(sample_rate, int) or sample_rate == 0:
            raise ValueError("Input sample_rate is not within the required interval of [-2147483648, 0) and "
                             "(0, 2147483647].")
        if not 0 < Q <= 1:
            raise ValueError("Input Q is not within the required interval of (0, 1].")
        self.sample_rate, self.gain, self.central_freq, self.Q = sample_rate, gain, central_freq, Q

    def __call__(self, waveform):
        x = np.asarray(waveform)
        if x.dtype.kind != "f":
            raise RuntimeError(f"{type(self).__name__}: the data type of input tensor does not match the "
                               f"requirement of operator. Expecting tensor in type of float, but got: {x.dtype}")
        b, a = _shelf(self.sample_rate, self.gain, self.central_freq, self.Q, self._bass)
        return lfilter_clamped(x, b, a)


def lfilter_clamped(x, b, a):
    """Direct form I along the last axis in the input's precision (MindSpore's LFilter: the sum
    b0*x[n] + b1*x[n-1] + b2*x[n-2] - a1*y[n-1] - a2*y[n-2] in that order), then clamped to [-1, 1]."""
    dt = x.dtype.type
    b, a = b.astype(x.dtype), a.astype(x.dtype)
    xs = np.moveaxis(x, -1, 0)
    y = np.zeros_like(xs)
    for n in range(xs.shape[0]):
        acc = np.zeros(xs.shape[1:], x.dtype)
        for k in range(len(b)):
            if n - k >= 0:
                acc = (acc + b[k] * xs[n - k]).astype(dt)
        for k in range(1, len(a)):
            if n - k >= 0:
                acc = (acc - a[k] * y[n - k]).astype(dt)
        y[n] = acc
    return np.clip(np.moveaxis(y, 0, -1), -1.0, 1.0).astype(x.dtype)


class BassBiquad(_Biquad):
    """``BassBiquad(sample_rate, gain, central_freq=100.0, Q=0.707)``: a two-pole low-shelf filter."""


class TrebleBiquad(_Biquad):
    """``TrebleBiquad(sample_rate, gain, central_freq=3000.0, Q=0.707)``: a two-pole high-shelf filter."""

    _bass = False

    def __init__(self, sample_rate, gain, central_freq=3000.0, Q=0.707):
        super().__init__(sample_rate, gain, central_freq, Q)
