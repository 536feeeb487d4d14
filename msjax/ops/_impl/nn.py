"""Neural-network functional ops (activations, losses' building blocks)."""
from __future__ import annotations

import jax
import jax.numpy as jnp

from ..._core.registry import op
from ._util import arr, wrap


@op("relu", primitive="ReLU", methods="relu", family="nn")
def relu(input):
    return wrap(jax.nn.relu(arr(input)))


@op("sigmoid", primitive="Sigmoid", methods="sigmoid", family="nn")
def sigmoid(input):
    return wrap(jax.nn.sigmoid(arr(input)))


@op("tanh", primitive="Tanh", methods="tanh", family="nn")
def tanh(input):
    return wrap(jnp.tanh(arr(input)))


@op("mse_loss", family="nn")
def mse_loss(input, target, reduction="mean"):
    """``ops.mse_loss(input, target, reduction='mean')``."""
    d = jnp.square(arr(input) - arr(target))
    if reduction == "mean":
        return wrap(jnp.mean(d))
    if reduction == "sum":
        return wrap(jnp.sum(d))
    if reduction == "none":
        return wrap(d)
    raise ValueError(f"For 'mse_loss', 'reduction' must be 'mean', 'sum' or 'none', but got '{reduction}'.")
