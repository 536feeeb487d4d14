"""Self-tests of the framework-neutral golden serializer/comparer (numpy only)."""
import json
import os
import sys

import numpy as np

_TESTS = os.path.dirname(os.path.abspath(__file__))
if _TESTS not in sys.path:
    sys.path.insert(0, _TESTS)

from golden.serialize import compare, serialize, trim_message  # noqa: E402


class FakeDtype:
    def __init__(self, name):
        self.name = name

    def __str__(self):
        return self.name


class FakeTensor:
    def __init__(self, arr, dtype):
        self._a = np.asarray(arr)
        self.dtype = FakeDtype(dtype)
        self.shape = self._a.shape

    def asnumpy(self):
        return self._a


class Parameter(FakeTensor):
    def __init__(self, arr, dtype, name):
        super().__init__(arr, dtype)
        self.name = name
        self.requires_grad = True


def _rt(x):
    return json.loads(json.dumps(serialize(x)))


def test_tensor_and_nesting():
    t = FakeTensor(np.array([[1.0, float("nan"), float("inf")]], np.float32), "Float32")
    s = _rt((t, [1, 2.5, True, None, "s"], {"a": np.float32(1.5)}))
    assert s["kind"] == "tuple"
    tt = s["items"][0]
    assert tt == {"kind": "tensor", "dtype": "Float32", "shape": [1, 3],
                  "values": [[1.0, "nan", "inf"]]}
    kinds = [i["kind"] for i in s["items"][1]["items"]]
    assert kinds == ["int", "float", "bool", "none", "str"]
    assert s["items"][2]["items"]["a"] == {"kind": "npscalar", "dtype": "float32", "value": 1.5}
    assert compare(s, s) == []


def test_parameter_detected_by_class_name():
    p = Parameter(np.zeros(2, np.float32), "Float32", "w")
    s = serialize(p)
    assert s["kind"] == "parameter" and s["name"] == "w"
    t = serialize(FakeTensor(np.zeros(2, np.float32), "Float32"))
    assert compare(s, t)  # a Tensor where a Parameter is expected is a mismatch


def test_compare_reports_differences():
    a = serialize(FakeTensor(np.array([1.0, 2.0], np.float32), "Float32"))
    b = serialize(FakeTensor(np.array([1.0, 2.0 + 1e-7], np.float32), "Float32"))
    assert compare(a, b) == []
    c = serialize(FakeTensor(np.array([1.0, 2.1], np.float32), "Float32"))
    assert any("values" in m for m in compare(a, c))
    d = serialize(FakeTensor(np.array([1, 2], np.int64), "Int64"))
    assert any("dtype" in m for m in compare(a, d))
    assert any("length" in m for m in compare(serialize((1,)), serialize((1, 2))))
    assert any("kind" in m for m in compare(serialize((1,)), serialize([1])))
    assert compare(serialize("a b"), serialize("a  b"))


def test_errors_and_soft_message_diff():
    e1 = serialize(ValueError("boom\n\n----------------------------------------------------\n"
                              "- C++ Call Stack: (For framework developers)\nfoo.cc:1"))
    assert e1 == {"kind": "error", "type": "ValueError", "message": "boom"}
    soft = []
    assert compare(e1, serialize(ValueError("other")), soft=soft) == []
    assert len(soft) == 1
    assert compare(e1, serialize(TypeError("boom")))
    assert compare(e1, serialize(1.0))
    assert trim_message("x value_ptr: 0x7f1f200058a0 y") == "x value_ptr: 0x? y"


def test_fixtures_are_valid_json_with_header():
    for name in ("core_pynative.json", "core_graph.json"):
        with open(os.path.join(_TESTS, "golden", name)) as f:
            data = json.load(f)
        assert data["meta"]["mindspore_version"].startswith("2.10")
        assert data["cases"]
        for res in data["cases"].values():
            assert res.get("type") not in ("RecorderCrash", "RecorderTimeout")
