"""Message classes from a proto2 schema written as text, without protoc.

MindSpore's file formats are protobuf messages with published schemas (``checkpoint.proto``,
``mind_ir.proto``). ``message_classes(schema, package)`` reads the subset of proto2 those
schemas use (messages, nested messages and enums, ``optional``/``required``/``repeated``
scalar, enum and message fields, ``map<string, string>``) into a ``FileDescriptorProto`` in a
private descriptor pool and returns the generated classes by name: no protoc step, no
generated-code version pinning, and no clash with MindSpore's own classes when both are
imported in one process. Parsing and serializing are the protobuf runtime's (upb).
"""
from __future__ import annotations

import re

from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

__all__ = ["message_classes"]

_F = descriptor_pb2.FieldDescriptorProto
_SCALARS = {
    "double": _F.TYPE_DOUBLE, "float": _F.TYPE_FLOAT, "int64": _F.TYPE_INT64, "uint64": _F.TYPE_UINT64,
    "int32": _F.TYPE_INT32, "uint32": _F.TYPE_UINT32, "bool": _F.TYPE_BOOL, "string": _F.TYPE_STRING,
    "bytes": _F.TYPE_BYTES,
}
_LABELS = {"optional": _F.LABEL_OPTIONAL, "required": _F.LABEL_REQUIRED, "repeated": _F.LABEL_REPEATED}
_TOKEN = re.compile(r"//[^\n]*|[A-Za-z_][\w.]*|-?\d+|[{}=;<>,]")


def _tokens(text):
    return [t for t in _TOKEN.findall(text) if not t.startswith("//")]


class _Parser:
    def __init__(self, text, package):
        self.toks = _tokens(text)
        self.pos = 0
        self.package = package
        self.enums = set()          # fully qualified enum names
        self.fields = []            # (field proto, scope, type token) resolved at the end

    def take(self, expect=None):
        tok = self.toks[self.pos]
        if expect is not None and tok != expect:
            raise SyntaxError(f"schema: expected {expect!r}, found {tok!r}")
        self.pos += 1
        return tok

    def enum(self, container, scope):
        name = self.take()
        enum = container.add(name=name)
        self.enums.add(f"{scope}.{name}")
        self.take("{")
        while self.toks[self.pos] != "}":
            value = self.take()
            self.take("=")
            enum.value.add(name=value, number=int(self.take()))
            self.take(";")
        self.take("}")

    def message(self, container, scope):
        msg = container.add(name=self.take())
        inner = f"{scope}.{msg.name}"
        self.take("{")
        while self.toks[self.pos] != "}":
            tok = self.take()
            if tok == "message":
                self.message(msg.nested_type, inner)
            elif tok == "enum":
                self.enum(msg.enum_type, inner)
            elif tok == "map":
                self.map_field(msg, inner)
            else:
                ftype, fname = self.take(), self.take()
                self.take("=")
                field = msg.field.add(name=fname, number=int(self.take()), label=_LABELS[tok])
                self.take(";")
                self.fields.append((field, inner, ftype))
        self.take("}")

    def map_field(self, msg, scope):
        self.take("<")
        key = self.take()
        self.take(",")
        value = self.take()
        self.take(">")
        fname = self.take()
        self.take("=")
        number = int(self.take())
        self.take(";")
        entry_name = "".join(p.capitalize() for p in fname.split("_")) + "Entry"
        entry = msg.nested_type.add(name=entry_name)
        entry.options.map_entry = True
        for i, (n, t) in enumerate((("key", key), ("value", value)), 1):
            self.fields.append((entry.field.add(name=n, number=i, label=_F.LABEL_OPTIONAL), f"{scope}.{entry_name}", t))
        field = msg.field.add(name=fname, number=number, label=_F.LABEL_REPEATED)
        self.fields.append((field, scope, entry_name))

    def resolve(self, field, scope, ftype):
        if ftype in _SCALARS:
            field.type = _SCALARS[ftype]
            return
        # proto scoping: innermost enclosing scope first
        parts = scope.split(".")
        for i in range(len(parts), 0, -1):
            full = ".".join(parts[:i] + [ftype])
            if full in self.enums:
                field.type, field.type_name = _F.TYPE_ENUM, "." + full
                return
            if full in self.messages:
                field.type, field.type_name = _F.TYPE_MESSAGE, "." + full
                return
        raise SyntaxError(f"schema: unknown type {ftype!r} in {scope}")

    def parse(self, name):
        fd = descriptor_pb2.FileDescriptorProto(name=name, package=self.package, syntax="proto2")
        while self.pos < len(self.toks):
            tok = self.take()
            if tok == "message":
                self.message(fd.message_type, self.package)
            elif tok == "enum":
                self.enum(fd.enum_type, self.package)
            else:
                raise SyntaxError(f"schema: unexpected {tok!r}")
        self.messages = set()

        def collect(msgs, scope):
            for m in msgs:
                self.messages.add(f"{scope}.{m.name}")
                collect(m.nested_type, f"{scope}.{m.name}")
        collect(fd.message_type, self.package)
        for field, scope, ftype in self.fields:
            self.resolve(field, scope, ftype)
        return fd


def message_classes(schema: str, package: str, file_name: str) -> dict:
    """``{"Outer": cls, "Outer.Inner": cls, ...}`` for every message of ``schema`` (proto2 text
    without the ``syntax``/``package`` lines), built in a private pool under ``package``."""
    fd = _Parser(schema, package).parse(file_name)
    pool = descriptor_pool.DescriptorPool()
    pool.Add(fd)
    out = {}

    def walk(desc, prefix):
        for m in desc.nested_types:
            out[prefix + m.name] = message_factory.GetMessageClass(m)
            walk(m, prefix + m.name + ".")
    for m in pool.FindFileByName(file_name).message_types_by_name.values():
        out[m.name] = message_factory.GetMessageClass(m)
        walk(m, m.name + ".")
    return out
