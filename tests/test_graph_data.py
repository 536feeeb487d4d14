"""``dataset.GraphData`` over the zoo's graph MindRecord layout (utils/graph_to_mindrecord), the
queries official/gnn/GCN makes (MindSpore 2.10 no longer has GraphData: checked against the
graph written here, by hand)."""
import numpy as np
import pytest

import msjax.dataset as ds
from msjax.mindrecord import FileWriter

SCHEMA = {"first_id": {"type": "int64"}, "second_id": {"type": "int64"}, "third_id": {"type": "int64"},
          "type": {"type": "int32"}, "weight": {"type": "float32"}, "attribute": {"type": "string"},
          "node_feature_index": {"type": "int32", "shape": [-1]}, "edge_feature_index": {"type": "int32", "shape": [-1]},
          "node_feature_1": {"type": "float32", "shape": [-1]}, "node_feature_2": {"type": "int32", "shape": [-1]},
          "edge_feature_1": {"type": "float32", "shape": [-1]}}

# nodes 10, 11, 12 (type 0) and 20 (type 1); edges 10->11, 10->12, 11->12, 10->20, 12->10
EDGES = [(0, 10, 11), (1, 10, 12), (2, 11, 12), (3, 10, 20), (4, 12, 10)]


def _write(path):
    none_i, zf, zi = np.array([-1], np.int32), np.array([0], np.float32), np.array([0], np.int32)
    rows = []
    for n, t in ((10, 0), (11, 0), (12, 0), (20, 1)):
        rows.append({"first_id": n, "second_id": 0, "third_id": 0, "type": t, "weight": 1.0, "attribute": "n",
                     "node_feature_index": np.array([1, 2], np.int32), "edge_feature_index": none_i,
                     "node_feature_1": np.array([n, n + 0.5], np.float32), "node_feature_2": np.array([n % 3], np.int32),
                     "edge_feature_1": zf})
    for e, s, d in EDGES:
        rows.append({"first_id": e, "second_id": s, "third_id": d, "type": 0, "weight": 1.0, "attribute": "e",
                     "node_feature_index": none_i, "edge_feature_index": np.array([1], np.int32),
                     "node_feature_1": zf, "node_feature_2": zi, "edge_feature_1": np.array([e * 10.0], np.float32)})
    writer = FileWriter(path, shard_num=1)
    writer.add_schema(SCHEMA, "graph")
    writer.write_raw_data(rows)
    writer.commit()


def test_graph_queries(tmp_path):
    path = str(tmp_path / "g_mr")
    _write(path)
    g = ds.GraphData(path)
    np.testing.assert_array_equal(g.get_all_nodes(0), [10, 11, 12])
    np.testing.assert_array_equal(g.get_all_nodes(1), [20])
    np.testing.assert_array_equal(g.get_all_edges(0), [0, 1, 2, 3, 4])
    np.testing.assert_array_equal(g.get_nodes_from_edges([1, 4]), [[10, 12], [12, 10]])
    feats, labels = g.get_node_feature([12, 10], [1, 2])
    np.testing.assert_array_equal(feats, [[12, 12.5], [10, 10.5]])
    np.testing.assert_array_equal(labels, [0, 1])          # one value per node: shape (2,)
    np.testing.assert_array_equal(g.get_edge_feature([2, 3], [1])[0], [20.0, 30.0])
    # out-neighbors of the asked type, padded with -1
    np.testing.assert_array_equal(g.get_all_neighbors([10, 11, 12], 0), [[10, 11, 12], [11, 12, -1], [12, 10, -1]])
    np.testing.assert_array_equal(g.get_all_neighbors([10], 1), [[10, 20]])
    info = g.graph_info()
    assert info["node_num"] == {0: 3, 1: 1} and info["edge_num"] == {0: 5}
    assert info["node_feature_type"] == [1, 2] and info["edge_feature_type"] == [1]


def test_graph_errors(tmp_path):
    path = str(tmp_path / "g_mr")
    _write(path)
    with pytest.raises(ValueError, match="does not exist"):
        ds.GraphData(str(tmp_path / "missing"))
    with pytest.raises(NotImplementedError, match="working_mode='server'"):
        ds.GraphData(path, working_mode="server")
    g = ds.GraphData(path)
    with pytest.raises(RuntimeError, match="feature type: 7"):
        g.get_node_feature([10], [7])
    with pytest.raises(NotImplementedError, match="get_sampled_neighbors"):
        g.get_sampled_neighbors([10], [2], [0])
    with pytest.raises(NotImplementedError, match="COO/CSR"):
        g.get_all_neighbors([10], 0, ds.OutputFormat.COO)
