"""``mindspore.train.anf_ir_pb2``: the message classes of MindSpore's ANF IR graphs (``anf_ir.proto``,
package ``mindspore.irpb``), with the module's enums and their values (``DataType``, ``DT_FLOAT32``...).

The schema below is MindSpore 2.10's published format, field for field (names and numbers are
the file format), read by ``_proto_schema`` into a private descriptor pool. A ``ModelProto`` is
what ``ModelCheckpoint`` writes to ``<prefix>-graph.meta`` in GRAPH_MODE (``Cell.get_func_graph_proto``
with ``ir_type="anf_ir"``): ``graph`` holds the compiled step's ``parameters`` (inputs, then the
Parameters it uses), its ``node`` list (one op each, with its scope and output type), its
``outputs`` and its constants (``const_vals``).

Differs from MindSpore's generated module: built from the schema text at import (no protoc), in
a private descriptor pool, so it never clashes with MindSpore's own classes in one process.
"""
from google.protobuf.internal.enum_type_wrapper import EnumTypeWrapper

from ._proto_schema import message_classes

__all__ = ["DESCRIPTOR", "Version", "DataType", "ValueProto", "AttributeProto", "NamedValueProto",
           "TensorShapeProto", "TypeProto", "ParameterProto", "OutputProto", "InputProto", "NodeProto",
           "ModelProto", "OperatorProto", "OperatorSetProto", "GraphProto", "TensorProto"]

SCHEMA = """
enum Version { UNKNOWWN_VERSION = 0; IR_VERSION = 1; }

enum DataType {
  DT_UNDEFINED = 0; DT_BOOL = 1; DT_INT8 = 2; DT_INT16 = 3; DT_INT32 = 4; DT_INT64 = 5; DT_UINT8 = 6;
  DT_UINT16 = 7; DT_UINT32 = 8; DT_UINT64 = 9; DT_FLOAT16 = 10; DT_FLOAT32 = 11; DT_FLOAT64 = 12;
  DT_STRING = 13; DT_TENSOR = 14; DT_GRAPH = 15; DT_BOOLS = 16; DT_INTS8 = 17; DT_INTS16 = 18;
  DT_INTS32 = 19; DT_INTS64 = 20; DT_UINTS8 = 21; DT_UINTS16 = 22; DT_UINTS32 = 23; DT_UINTS64 = 24;
  DT_FLOATS16 = 25; DT_FLOATS32 = 26; DT_FLOATS64 = 27; DT_STRINGS = 28; DT_TENSORS = 29; DT_GRAPHS = 30;
  DT_TUPLE = 31; DT_LIST = 32; DT_DICT = 33; DT_NONE = 34; DT_SYM_INST = 35; DT_BASE_INT = 36;
  DT_BASE_UINT = 37; DT_BASE_FLOAT = 38; DT_TYPE = 39; DT_ANY = 40; DT_REFKEY = 41; DT_REF = 42;
  DT_COMPLEX64 = 43; DT_COMPLEX128 = 44; DT_BASE_COMPLEX = 45; DT_BFLOAT16 = 46; DT_BFLOATS16 = 47;
  DT_INT4 = 48; DT_SLICE = 49;
}

message ValueProto {
  optional DataType dtype = 1;
  optional bool bool_val = 2;
  optional int64 int_val = 3;
  optional uint64 uint_val = 4;
  optional float float_val = 5;
  optional double double_val = 6;
  optional string str_val = 7;
  optional TensorProto tensor_val = 8;
  optional GraphProto graph = 9;
  repeated bool bool_vals = 10;
  repeated int64 int_vals = 11;
  repeated uint64 uint_vals = 12;
  repeated float float_vals = 13;
  repeated double double_vals = 14;
  repeated string str_vals = 15;
  repeated TensorProto tensor_vals = 16;
  repeated GraphProto graphs = 17;
  repeated ValueProto values = 18;
  repeated NamedValueProto dict_val = 19;
  optional TypeProto type_val = 20;
}

message AttributeProto {
  optional string name = 1;
  optional ValueProto value = 2;
}

message NamedValueProto {
  optional string key = 1;
  optional ValueProto value = 2;
}

message TensorShapeProto {
  message Dimension {
    optional int64 size = 1;
    optional string name = 2;
  }
  repeated Dimension dim = 1;
}

message TypeProto {
  message Tensor {
    optional DataType elem_type = 1;
    optional TensorShapeProto shape = 2;
  }
  message Sequence {
    repeated TypeProto elem_types = 1;
  }
  optional DataType data_type = 1;
  optional Tensor tensor_type = 2;
  optional Sequence sequence_type = 3;
}

message ParameterProto {
  optional string name = 1;
  optional TypeProto type = 2;
  optional ValueProto default_val = 3;
}

message OutputProto {
  optional string name = 1;
  optional TypeProto type = 2;
}

message InputProto {
  enum EdgeType { DATA_EDGE = 0; CONTROL_EDGE = 1; }
  optional string name = 1;
  optional EdgeType type = 2;
}

message NodeProto {
  repeated InputProto input = 1;
  optional string name = 2;
  optional string op_type = 3;
  optional string scope = 4;
  repeated AttributeProto attribute = 5;
  optional TypeProto output_type = 6;
  optional uint64 output_i = 7;
  optional string full_name = 8;
  optional string instance_name = 10;
}

message ModelProto {
  optional int64 ir_version = 1;
  optional string domain = 2;
  optional int64 model_version = 3;
  optional GraphProto graph = 4;
  optional OperatorSetProto metadata_operators = 5;
}

message OperatorProto {
  optional string name = 1;
  optional bytes config = 2;
  optional bytes obj_info = 3;
}

message OperatorSetProto {
  repeated OperatorProto operators = 1;
  optional string summary = 2;
}

message GraphProto {
  repeated NodeProto node = 1;
  optional string name = 2;
  repeated ParameterProto parameters = 3;
  repeated OutputProto outputs = 4;
  repeated NamedValueProto const_vals = 5;
}

message TensorProto {
  repeated int64 dims = 1;
  optional DataType data_type = 2;
  repeated float float_data = 3;
  repeated int32 int32_data = 4;
  repeated int64 int64_data = 5;
  repeated double double_data = 6;
  repeated uint64 uint64_data = 7;
  optional bytes raw_data = 8;
}
"""

_CLASSES = message_classes(SCHEMA, "mindspore.irpb", "anf_ir.proto")
ValueProto = _CLASSES["ValueProto"]
AttributeProto = _CLASSES["AttributeProto"]
NamedValueProto = _CLASSES["NamedValueProto"]
TensorShapeProto = _CLASSES["TensorShapeProto"]
TypeProto = _CLASSES["TypeProto"]
ParameterProto = _CLASSES["ParameterProto"]
OutputProto = _CLASSES["OutputProto"]
InputProto = _CLASSES["InputProto"]
NodeProto = _CLASSES["NodeProto"]
ModelProto = _CLASSES["ModelProto"]
OperatorProto = _CLASSES["OperatorProto"]
OperatorSetProto = _CLASSES["OperatorSetProto"]
GraphProto = _CLASSES["GraphProto"]
TensorProto = _CLASSES["TensorProto"]
DESCRIPTOR = ModelProto.DESCRIPTOR.file
Version = EnumTypeWrapper(DESCRIPTOR.enum_types_by_name["Version"])
DataType = EnumTypeWrapper(DESCRIPTOR.enum_types_by_name["DataType"])
globals().update({v.name: v.number for enum in (Version, DataType) for v in enum.DESCRIPTOR.values})
