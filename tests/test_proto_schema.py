"""The proto2-text reader behind the MindIR message classes (msjax/train/_proto_schema.py)."""
import pytest

from msjax.train import _mind_ir_pb as pb
from msjax.train._proto_schema import message_classes


def test_mind_ir_model_round_trip():
    m = pb.ModelProto(ir_version="1.1", producer_name="MindSpore", mind_ir_version=2)
    m.user_info["k"] = "v"
    node = m.graph.node.add(name="n", op_type="REF::MatMul:4", input=["x", "w"], output=["n"])
    node.attribute.add(name="value", type=pb.AttributeProto.UMONAD)
    t = m.graph.parameter.add(name="fc.weight", dims=[3, 4], data_type=pb.TensorProto.FLOAT, raw_data=b"\0" * 48)
    t.external_data.location = "data_0"
    attr = m.primitives.add(name="MatMul_4", op_type="MatMul").attribute.add(name="transpose_b", i=1)
    attr.seq_info.tuple_elem_item.type = pb.AttributeProto.TENSOR
    back = pb.ModelProto.FromString(m.SerializeToString())
    assert back == m
    assert back.user_info["k"] == "v" and back.graph.parameter[0].dims == [3, 4]
    assert back.graph.node[0].attribute[0].type == pb.AttributeProto.UMONAD == 23
    assert pb.TensorProto.FLOAT16 == 10 and pb.TensorProto.QINT4X2 == 18
    # field numbers are the file format: check a few against mind_ir.proto
    fields = {f.name: f.number for f in pb.ModelProto.DESCRIPTOR.fields}
    assert fields["graph"] == 7 and fields["primitives"] == 12 and fields["user_info"] == 14
    assert {f.name: f.number for f in pb.TensorProto.DESCRIPTOR.fields}["raw_data"] == 9


def test_nested_scoping_and_errors():
    classes = message_classes("""
        message A { message B { optional int32 x = 1; } optional B b = 1; repeated A kids = 2; }
        message C { optional A.B ab = 1; }""", "t1", "t1.proto")
    a = classes["A"](b={"x": 3})
    a.kids.add().b.x = 4
    assert classes["A"].FromString(a.SerializeToString()).kids[0].b.x == 4
    assert "A.B" in classes
    with pytest.raises(SyntaxError, match="unknown type 'Nope'"):
        message_classes("message D { optional Nope n = 1; }", "t2", "t2.proto")
