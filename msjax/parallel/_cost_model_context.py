"""``mindspore.parallel._cost_model_context``: the auto-parallel cost model's
settings that real scripts set. Recorded (msjax does not search sharding
strategies)."""
from __future__ import annotations

_settings = {"multi_subgraphs": False}


def _set_multi_subgraphs(multi_subgraph=True):
    """Mark the network as having several subgraphs (recorded)."""
    _settings["multi_subgraphs"] = multi_subgraph


def _get_multi_subgraphs():
    return _settings["multi_subgraphs"]
