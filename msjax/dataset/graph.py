"""``dataset.GraphData``: a graph read from MindRecord, queried from Python (local mode).

MindSpore 1.x-2.2 shipped ``mindspore.dataset.GraphData``; MindSpore 2.10 no longer has it, but
the model zoo's graph networks (``official/gnn/GCN``, GAT) still load their data with it, from the
MindRecord files the zoo's ``utils/graph_to_mindrecord`` writes: one row per node
(``attribute == 'n'``: ``first_id`` the node id, ``type`` its type, ``node_feature_index`` the
feature types it has, ``node_feature_<k>`` their values) and one per edge (``'e'``: ``first_id``
the edge id, ``second_id``/``third_id`` its source and destination, ``edge_feature_<k>``).

msjax reads the whole graph into memory once and answers the queries the zoo uses with NumPy:
``get_all_nodes``, ``get_all_edges``, ``get_nodes_from_edges``, ``get_all_neighbors`` (normal
output format), ``get_node_feature``, ``get_edge_feature``, ``graph_info``.

Differences from MindSpore: server/client mode (``working_mode='server'/'client'``), the
sampling queries (``get_sampled_neighbors``, ``get_neg_sampled_neighbors``, ``random_walk``) and
the COO/CSR neighbor formats raise ``NotImplementedError``; a feature stored with one element
per node comes back as one value per node (shape ``(len(node_list),)``), as Cora's labels do in
the zoo.
"""
from __future__ import annotations

import os

import numpy as np

from ..mindrecord import FileReader


class OutputFormat:
    """``dataset.OutputFormat``: the neighbor formats of ``get_all_neighbors``."""
    NORMAL = 0
    COO = 1
    CSR = 2


class GraphData:
    """``dataset.GraphData(dataset_file, num_parallel_workers=None, working_mode='local',
    hostname='127.0.0.1', port=50051, num_client=1, auto_shutdown=True)``."""

    def __init__(self, dataset_file, num_parallel_workers=None, working_mode="local", hostname="127.0.0.1",
                 port=50051, num_client=1, auto_shutdown=True):
        if not isinstance(dataset_file, str):
            raise TypeError(f"Argument dataset_file with value {dataset_file!r} is not of type [<class 'str'>].")
        if not os.path.isfile(dataset_file):
            raise ValueError(f"The file {dataset_file} does not exist or permission denied!")
        if working_mode not in ("local", "client", "server"):
            raise ValueError(f"Invalid working_mode: {working_mode}, it should be 'local', 'client' or 'server'.")
        if working_mode != "local":
            raise NotImplementedError(f"GraphData working_mode='{working_mode}' (a graph server) is not supported "
                                      "by msjax; use working_mode='local'.")
        self._nodes, self._edges = {}, {}
        self._node_feat, self._edge_feat = {}, {}
        reader = FileReader(dataset_file)
        try:
            for row in reader.get_next():
                if row["attribute"] == "n":
                    self._add(self._nodes, self._node_feat, row, "node")
                elif row["attribute"] == "e":
                    self._add(self._edges, self._edge_feat, row, "edge")
        finally:
            reader.close()
        self._out = {}
        for eid, (etype, src, dst) in self._edges.items():
            self._out.setdefault(src, []).append((dst, etype))

    @staticmethod
    def _add(table, feats, row, kind):
        ident = int(row["first_id"])
        table[ident] = (int(row["type"]),) if kind == "node" else (int(row["type"]), int(row["second_id"]),
                                                                   int(row["third_id"]))
        for k in np.asarray(row[f"{kind}_feature_index"]).ravel().tolist():
            if k >= 0:
                feats.setdefault(int(k), {})[ident] = np.asarray(row[f"{kind}_feature_{k}"])

    # --- queries -----------------------------------------------------------------------------------
    def get_all_nodes(self, node_type):
        """The ids of every node of ``node_type`` (storage order)."""
        return np.array([n for n, (t,) in self._nodes.items() if t == node_type], np.int32)

    def get_all_edges(self, edge_type):
        """The ids of every edge of ``edge_type``."""
        return np.array([e for e, (t, _, _) in self._edges.items() if t == edge_type], np.int32)

    def get_nodes_from_edges(self, edge_list):
        """(len(edge_list), 2): each edge's source and destination."""
        return np.array([self._edges[int(e)][1:] for e in _ids(edge_list)], np.int32).reshape(-1, 2)

    def get_all_neighbors(self, node_list, neighbor_type, output_format=OutputFormat.NORMAL):
        """Each row: the node id, then its out-neighbors of ``neighbor_type``, padded with -1 to the
        longest row."""
        if output_format != OutputFormat.NORMAL:
            raise NotImplementedError("GraphData.get_all_neighbors with the COO/CSR output formats is not supported "
                                      "by msjax; use OutputFormat.NORMAL.")
        rows = []
        for n in _ids(node_list):
            rows.append([n] + [d for d, _ in self._out.get(n, []) if self._nodes.get(d, (None,))[0] == neighbor_type])
        width = max((len(r) for r in rows), default=1)
        return np.array([r + [-1] * (width - len(r)) for r in rows], np.int32)

    def get_node_feature(self, node_list, feature_types):
        """One array per feature type: the features of ``node_list``, stacked."""
        return [self._features(self._node_feat, k, _ids(node_list), "node") for k in feature_types]

    def get_edge_feature(self, edge_list, feature_types):
        """One array per feature type: the features of ``edge_list``, stacked."""
        return [self._features(self._edge_feat, k, _ids(edge_list), "edge") for k in feature_types]

    @staticmethod
    def _features(table, k, ids, kind):
        if k not in table:
            raise RuntimeError(f"Invalid {kind} feature type: {k}.")
        values = [table[k][i] for i in ids]
        out = np.stack(values)
        return out.reshape(len(ids)) if out.ndim == 2 and out.shape[1] == 1 else out

    def graph_info(self):
        """Node/edge types and counts, feature types."""
        return {"node_type": sorted({t for (t,) in self._nodes.values()}),
                "edge_type": sorted({t for t, _, _ in self._edges.values()}),
                "node_num": _counts(t for (t,) in self._nodes.values()),
                "edge_num": _counts(t for t, _, _ in self._edges.values()),
                "node_feature_type": sorted(self._node_feat), "edge_feature_type": sorted(self._edge_feat)}

    def _unsupported(self, name):
        raise NotImplementedError(f"GraphData.{name} (graph sampling) is not supported by msjax.")

    def get_sampled_neighbors(self, *args, **kwargs):
        self._unsupported("get_sampled_neighbors")

    def get_neg_sampled_neighbors(self, *args, **kwargs):
        self._unsupported("get_neg_sampled_neighbors")

    def random_walk(self, *args, **kwargs):
        self._unsupported("random_walk")


def _ids(values):
    return [int(v) for v in np.asarray(values).ravel().tolist()]


def _counts(types):
    out = {}
    for t in types:
        out[t] = out.get(t, 0) + 1
    return out
