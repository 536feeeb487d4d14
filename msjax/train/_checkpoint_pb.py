"""Protobuf message classes for ``checkpoint.proto`` (MindSpore's ``.ckpt`` schema).

The classes are built at import time from a ``FileDescriptorProto`` that spells out
``checkpoint.proto`` (next to this file) field by field, in a private descriptor
pool: no protoc step, no generated-code version pinning, and no clash with
MindSpore's own classes when both are imported in one process. Parsing and
serializing are the protobuf library's (upb).
"""
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

__all__ = ["Checkpoint", "TensorProto", "MapTensorProto", "file_descriptor"]

_F = descriptor_pb2.FieldDescriptorProto
_PACKAGE = "msjax.checkpoint"


def _field(msg, name, number, label, ftype, type_name=None, oneof_index=None):
    f = msg.field.add(name=name, number=number, label=label, type=ftype)
    if type_name:
        f.type_name = f".{_PACKAGE}.{type_name}"
    if oneof_index is not None:
        f.oneof_index = oneof_index


def file_descriptor():
    """The ``FileDescriptorProto`` of ``checkpoint.proto``."""
    fd = descriptor_pb2.FileDescriptorProto(name="msjax/train/checkpoint.proto", package=_PACKAGE,
                                            syntax="proto2")
    ckpt = fd.message_type.add(name="Checkpoint")
    _field(ckpt, "value", 1, _F.LABEL_REPEATED, _F.TYPE_MESSAGE, "Checkpoint.Value")
    value = ckpt.nested_type.add(name="Value")
    value.oneof_decl.add(name="value")
    _field(value, "tag", 1, _F.LABEL_REQUIRED, _F.TYPE_STRING)
    _field(value, "tensor", 2, _F.LABEL_OPTIONAL, _F.TYPE_MESSAGE, "TensorProto", oneof_index=0)
    _field(value, "maptensor", 3, _F.LABEL_OPTIONAL, _F.TYPE_MESSAGE, "MapTensorProto", oneof_index=0)
    tensor = fd.message_type.add(name="TensorProto")
    _field(tensor, "dims", 1, _F.LABEL_REPEATED, _F.TYPE_INT64)
    _field(tensor, "tensor_type", 2, _F.LABEL_REQUIRED, _F.TYPE_STRING)
    _field(tensor, "tensor_content", 3, _F.LABEL_REQUIRED, _F.TYPE_BYTES)
    maptensor = fd.message_type.add(name="MapTensorProto")
    _field(maptensor, "tensor", 1, _F.LABEL_REPEATED, _F.TYPE_MESSAGE, "TensorProto")
    return fd


_POOL = descriptor_pool.DescriptorPool()
_FILE = _POOL.Add(file_descriptor())
Checkpoint = message_factory.GetMessageClass(_POOL.FindMessageTypeByName(_PACKAGE + ".Checkpoint"))
TensorProto = message_factory.GetMessageClass(_POOL.FindMessageTypeByName(_PACKAGE + ".TensorProto"))
MapTensorProto = message_factory.GetMessageClass(_POOL.FindMessageTypeByName(_PACKAGE + ".MapTensorProto"))
