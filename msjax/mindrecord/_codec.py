"""The MindRecord file format (MindSpore 2.10, format version "3.0"), read and written
in pure Python: shard files plus one SQLite index per shard.

Layout of one shard file (all written by MindSpore's C++ ``ShardWriter``; this is
msjax's own implementation of the same layout):

* bytes ``[0, 8)``: the header's length, little-endian uint64; then the header, a
  compact JSON object (``header_size``, ``index_fields``, ``page``, ``page_size``,
  ``compression_size``, ``schema``, ``shard_addresses``, ``shard_id``,
  ``statistics``, ``version``). The header region is ``header_size`` bytes.
* page ``p`` starts at ``header_size + p * page_size``. A *blob* page holds rows'
  binary fields, a *raw* page their scalar fields; each row in a page is an 8-byte
  little-endian length and the payload. The file ends after the last byte written.
* a row's raw payload is a MessagePack map of its scalar fields (keys sorted).
  Its blob payload is the one binary field, or, with several, each field as an
  8-byte big-endian length and the bytes (fields in ``blob_fields`` order).
  int32/int64 array fields are *compressed* when the schema has any: a 4-byte
  big-endian count, a 2-bit-per-element type bitmap (int8/16/32/64, first element
  in the high bits) and each element little-endian in its smallest type.
* rows form *row groups*: blob page ``k`` (its ``page_type_id``) holds row group
  ``k``, whose raw rows start at an offset recorded in a raw page's
  ``row_group_ids``.
* ``<file>.db`` (SQLite) has table ``INDEXES`` (row id, raw/blob page ids and
  byte offsets, row group, then ``INC_i``/``<field>_0`` per index field) and
  ``SHARD_NAME`` (the shard's file name).
"""
from __future__ import annotations

import json
import os
import sqlite3
import struct

import msgpack
import numpy as np

VERSION = "3.0"
DEFAULT_HEADER_SIZE = 1 << 24
DEFAULT_PAGE_SIZE = 1 << 25
MIN_HEADER_SIZE, MAX_HEADER_SIZE = 1 << 14, 1 << 27
MIN_PAGE_SIZE, MAX_PAGE_SIZE = 1 << 15, 1 << 28
MIN_SHARD_COUNT, MAX_SHARD_COUNT = 1, 1000

SCALAR_TYPES = ("int32", "int64", "float32", "float64", "string", "bytes")
ARRAY_TYPES = ("int32", "int64", "float32", "float64")
_SQL_TYPES = {"int32": "INTEGER", "int64": "INTEGER", "float32": "REAL", "float64": "REAL", "string": "TEXT"}
_INT_CODES = (np.dtype("<i1"), np.dtype("<i2"), np.dtype("<i4"), np.dtype("<i8"))


# ---------------------------------------------------------------- schema helpers

def blob_fields(schema):
    """Fields stored in the blob page: ``bytes`` and every field with a shape (sorted)."""
    return sorted(k for k, v in schema.items() if v["type"] == "bytes" or "shape" in v)


def compresses_integers(schema, version=VERSION):
    """Whether int32/int64 blob fields are compressed (files of format version >= 3.0
    whose schema has an integer array field)."""
    return str(version) >= "3.0" and any(v["type"] in ("int32", "int64") and "shape" in v
                                         for v in schema.values())


# ---------------------------------------------------------------- integer compression

def compress_ints(data, itemsize):
    """The compressed form of a little-endian int32/int64 buffer."""
    vals = np.frombuffer(data, dtype="<i4" if itemsize == 4 else "<i8").astype(np.int64)
    n = len(vals)
    codes = np.full(n, 3, np.uint8)
    codes[(vals >= -2 ** 31) & (vals < 2 ** 31)] = 2
    codes[(vals >= -2 ** 15) & (vals < 2 ** 15)] = 1
    codes[(vals >= -128) & (vals < 128)] = 0
    padded = np.zeros(-(-n // 4) * 4, np.uint8)
    padded[:n] = codes
    quads = padded.reshape(-1, 4).astype(np.uint8)
    bitmap = (quads[:, 0] << 6) | (quads[:, 1] << 4) | (quads[:, 2] << 2) | quads[:, 3]
    out = [struct.pack(">I", n), bitmap.astype(np.uint8).tobytes()]
    for v, c in zip(vals.tolist(), codes.tolist()):
        out.append(int(v).to_bytes(1 << c, "little", signed=True))
    return b"".join(out)


def decompress_ints(data, itemsize):
    """The little-endian int32/int64 buffer of a compressed field."""
    n = struct.unpack_from(">I", data, 0)[0]
    nmap = -(-n // 4)
    if 4 + nmap + n > len(data):         # each element takes at least one byte
        raise ValueError(f"a compressed integer field claims {n} elements in {len(data)} bytes")
    bitmap = np.frombuffer(data, np.uint8, nmap, 4)
    codes = np.stack([(bitmap >> s) & 3 for s in (6, 4, 2, 0)], axis=1).reshape(-1)[:n]
    out = np.empty(n, np.int64)
    pos = 4 + nmap
    for i, c in enumerate(codes.tolist()):
        size = 1 << c
        out[i] = int.from_bytes(data[pos:pos + size], "little", signed=True)
        pos += size
    if pos > len(data):
        raise ValueError(f"a compressed integer field needs {pos} bytes, but has {len(data)}")
    return out.astype("<i4" if itemsize == 4 else "<i8").tobytes()


# ---------------------------------------------------------------- MessagePack (nlohmann's choices)

def _pack_str(s):
    b = s.encode("utf-8")
    n = len(b)
    if n < 32:
        head = bytes([0xA0 | n])
    elif n < 256:
        head = b"\xd9" + bytes([n])
    elif n < 65536:
        head = b"\xda" + struct.pack(">H", n)
    else:
        head = b"\xdb" + struct.pack(">I", n)
    return head + b


def _pack_int(v):
    if v >= 0:
        if v < 128:
            return bytes([v])
        for code, fmt, hi in ((0xCC, ">B", 1 << 8), (0xCD, ">H", 1 << 16), (0xCE, ">I", 1 << 32)):
            if v < hi:
                return bytes([code]) + struct.pack(fmt, v)
        return b"\xcf" + struct.pack(">Q", v)
    if v >= -32:
        return struct.pack(">b", v)
    for code, fmt, lo in ((0xD0, ">b", -(1 << 7)), (0xD1, ">h", -(1 << 15)), (0xD2, ">i", -(1 << 31))):
        if v >= lo:
            return bytes([code]) + struct.pack(fmt, v)
    return b"\xd3" + struct.pack(">q", v)


def _pack_float(v):
    f = np.float32(v)
    if np.isfinite(f) and float(f) == v:
        return b"\xca" + struct.pack(">f", v)
    return b"\xcb" + struct.pack(">d", v)


def pack_raw(row):
    """A row's scalar fields as MessagePack (keys sorted; floats as float32 where that
    is exact, the smallest integer encoding), as MindSpore's writer encodes them."""
    n = len(row)
    out = [bytes([0x80 | n]) if n < 16 else b"\xde" + struct.pack(">H", n)]
    for k in sorted(row):
        v = row[k]
        out.append(_pack_str(k))
        if isinstance(v, str):
            out.append(_pack_str(v))
        elif isinstance(v, (bool, np.bool_)):
            out.append(b"\xc3" if v else b"\xc2")
        elif isinstance(v, (int, np.integer)):
            out.append(_pack_int(int(v)))
        else:
            out.append(_pack_float(float(v)))
    return b"".join(out)


def unpack_raw(data):
    return msgpack.unpackb(data, raw=False, strict_map_key=False)


# ---------------------------------------------------------------- header

def _invalid(path, what):
    """MindSpore's error for a corrupt MindRecord file (its C++ reader raises RuntimeError)."""
    return RuntimeError(f"Invalid file, mindrecord file: {path} is corrupted or not a MindRecord file: {what}. "
                        "Please check the file.")


# decoding errors of a corrupt row, index or header (wrapped into ``_invalid``)
DECODE_ERRORS = (struct.error, ValueError, KeyError, IndexError, TypeError, AttributeError, OverflowError,
                 msgpack.exceptions.UnpackException, sqlite3.Error)


def _is_int(v, lo=0, hi=1 << 62):
    return isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi


def _check_header(path, h):
    """Validate the fields the reader uses, so that a corrupt header fails here."""
    if not isinstance(h, dict) or "schema" not in h or "page" not in h:
        raise _invalid(path, "its header is not a MindRecord header")
    if not _is_int(h.get("header_size"), 8, MAX_HEADER_SIZE) or not _is_int(h.get("page_size"), 1, MAX_PAGE_SIZE):
        raise _invalid(path, "header_size or page_size out of range")
    schema = h["schema"]
    if not (isinstance(schema, list) and schema and isinstance(schema[0], dict)
            and isinstance(schema[0].get("schema"), dict) and isinstance(schema[0].get("blob_fields"), list)):
        raise _invalid(path, "malformed schema")
    for name, spec in schema[0]["schema"].items():
        if not isinstance(spec, dict) or spec.get("type") not in SCALAR_TYPES:
            raise _invalid(path, f"malformed schema of field {name!r}")
        if "shape" in spec and not (isinstance(spec["shape"], list) and
                                    all(_is_int(d, -1) and d != 0 for d in spec["shape"])):
            raise _invalid(path, f"malformed shape of field {name!r}")
    if any(not isinstance(f, str) or f not in schema[0]["schema"] for f in schema[0]["blob_fields"]):
        raise _invalid(path, "malformed blob_fields")
    if not isinstance(h["page"], list) or not isinstance(h.get("shard_addresses"), list) or \
            not h["shard_addresses"] or any(not isinstance(a, str) for a in h["shard_addresses"]):
        raise _invalid(path, "malformed page list or shard addresses")
    try:
        pages = [page_from_json(p) for p in h["page"]]
    except DECODE_ERRORS as e:
        raise _invalid(path, f"malformed page ({e!r})") from None
    for p in pages:
        ints = [p[k] for k in ("page_id", "page_type_id", "start_row_id", "end_row_id", "page_size")]
        ints += [v for pair in p["row_group_ids"] for v in pair]
        if not all(_is_int(v) for v in ints) or p["start_row_id"] > p["end_row_id"] or \
                p["page_type"] not in ("RAW_DATA", "BLOB_DATA"):
            raise _invalid(path, "malformed page")


def read_header(path):
    """The JSON header of a shard file (``RuntimeError`` if it is not a valid MindRecord file)."""
    with open(path, "rb") as f:
        head = f.read(8)
        if len(head) < 8:
            raise RuntimeError(f"Invalid file, the size of mindrecord file: {len(head)} is smaller than the lower "
                               f"limit: 8.\n Please check file path: {path}.")
        n = struct.unpack("<Q", head)[0]
        if n > MAX_HEADER_SIZE:
            raise _invalid(path, f"header length {n}")
        body = f.read(n)
    try:
        header = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise _invalid(path, f"failed to parse its header ({e})") from None
    _check_header(path, header)
    return header


def dump_header(h):
    """The header as MindSpore writes it (key order and compact separators)."""
    keys = ("header_size", "index_fields", "page", "page_size", "compression_size", "schema",
            "shard_addresses", "shard_id", "statistics", "version")
    parts = [json.dumps(k) + ":" + json.dumps(h[k], separators=(",", ":"), sort_keys=True, ensure_ascii=False)
             for k in keys]
    return ("{" + ",".join(parts) + "}").encode("utf-8")


def page_json(p):
    rg = p["row_group_ids"] if p["page_type"] == "RAW_DATA" and p["row_group_ids"] else [[0, 0]]
    return {"end_row_id": p["end_row_id"], "page_id": p["page_id"], "page_size": p["page_size"],
            "page_type": p["page_type"], "page_type_id": p["page_type_id"],
            "row_group_ids": [{"id": i, "offset": o} for i, o in rg],
            "shard_id": p["shard_id"], "start_row_id": p["start_row_id"]}


def page_from_json(j):
    rg = [[r["id"], r["offset"]] for r in j.get("row_group_ids") or []]
    return {"page_id": j["page_id"], "shard_id": j["shard_id"], "page_type": j["page_type"],
            "page_type_id": j["page_type_id"], "start_row_id": j["start_row_id"], "end_row_id": j["end_row_id"],
            "row_group_ids": rg if j["page_type"] == "RAW_DATA" else [], "page_size": j["page_size"]}


# ---------------------------------------------------------------- index (.db)

def _index_rows(path, header):
    """Walk a shard's pages like MindSpore's index generator: one tuple per row."""
    hs, ps = header["header_size"], header["page_size"]
    pages = [page_from_json(p) for p in header["page"]]
    blob_pages = sorted((p for p in pages if p["page_type"] == "BLOB_DATA"), key=lambda p: p["page_type_id"])
    group_at = {}
    for p in pages:
        if p["page_type"] == "RAW_DATA":
            for gid, off in p["row_group_ids"]:
                group_at[gid] = (p["page_id"], off)
    rows = []
    with open(path, "rb") as f:
        for bp in blob_pages:
            gid = bp["page_type_id"]
            raw_page, raw_off = group_at[gid]
            boff = 0
            for row_id in range(bp["start_row_id"], bp["end_row_id"]):
                f.seek(hs + bp["page_id"] * ps + boff)
                blen = struct.unpack("<Q", f.read(8))[0]
                f.seek(hs + raw_page * ps + raw_off)
                rlen = struct.unpack("<Q", f.read(8))[0]
                raw = unpack_raw(f.read(rlen))
                rows.append((row_id, raw_page, raw_off, raw_off + 8 + rlen, gid, bp["page_id"], boff,
                             boff + 8 + blen, raw))
                boff += 8 + blen
                raw_off += 8 + rlen
    return rows


def write_index(path, header):
    """(Re)write ``<path>.db`` for a committed shard file."""
    db = path + ".db"
    if os.path.exists(db):
        os.remove(db)
    fields = [f["index_field"] for f in header.get("index_fields") or []]
    schema = header["schema"][0]["schema"]
    cols = "".join(f",INC_{i} INT, {name}_0 {_SQL_TYPES[schema[name]['type']]}" for i, name in enumerate(fields))
    keys = "".join(f",INC_{i}" for i in range(len(fields)))
    create = ("CREATE TABLE INDEXES(  ROW_ID               INT  NOT NULL, PAGE_ID_RAW          INT  NOT NULL, "
              "PAGE_OFFSET_RAW      INT  NOT NULL, PAGE_OFFSET_RAW_END  INT  NOT NULL, "
              "ROW_GROUP_ID         INT  NOT NULL, PAGE_ID_BLOB         INT  NOT NULL, "
              "PAGE_OFFSET_BLOB     INT  NOT NULL, PAGE_OFFSET_BLOB_END INT  NOT NULL"
              f"{cols}, PRIMARY KEY(ROW_ID{keys}))")
    con = sqlite3.connect(db)
    try:
        con.execute(create)
        con.execute("CREATE TABLE SHARD_NAME(NAME TEXT NOT NULL)")
        con.execute("INSERT INTO SHARD_NAME VALUES(?)", (os.path.basename(path),))
        marks = ",".join("?" * (8 + 2 * len(fields)))
        batch = []
        for r in _index_rows(path, header):
            vals = list(r[:8])
            for name in fields:
                v = r[8].get(name)
                vals += [0, v]
            batch.append(vals)
        con.executemany(f"INSERT INTO INDEXES VALUES({marks})", batch)
        con.commit()
    finally:
        con.close()
    os.chmod(db, 0o600)


def read_index(path):
    """The row locations of a shard from ``<path>.db``, ordered by row id."""
    db = path + ".db"
    if not os.path.exists(db):
        raise RuntimeError(f"Invalid file, failed to open mindrecord meta file: {db}. Please check the meta file "
                           "(it is written next to the mindrecord file by FileWriter.commit).")
    try:
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        try:
            name = con.execute("SELECT NAME FROM SHARD_NAME").fetchone()
            rows = con.execute("SELECT PAGE_ID_RAW, PAGE_OFFSET_RAW, PAGE_ID_BLOB, PAGE_OFFSET_BLOB FROM INDEXES "
                               "ORDER BY ROW_ID").fetchall()
        finally:
            con.close()
    except (sqlite3.Error, UnicodeDecodeError) as e:
        raise _invalid(db, f"failed to read the mindrecord meta file ({e})") from None
    if name is None or name[0] != os.path.basename(path):
        raise RuntimeError(f"Invalid file, the mindrecord meta file: {db} does not belong to "
                           f"{os.path.basename(path)} (it names {name[0] if name else None}); the file may have "
                           "been renamed after it was written.")
    if not all(_is_int(v) for r in rows for v in r):
        raise _invalid(db, "a row location in the mindrecord meta file is not a non-negative integer")
    return rows


# ---------------------------------------------------------------- reading

class ShardSet:
    """The shard files of one MindRecord data set, read by global row index.

    ``ShardSet(files, load_dataset)``: with ``load_dataset`` (one path given), every
    shard named in its header's ``shard_addresses`` is loaded from the same folder;
    otherwise exactly ``files``.
    """

    def __init__(self, files, load_dataset):
        if load_dataset:
            first = files[0]
            header = read_header(first)
            folder = os.path.dirname(first)
            files = [os.path.join(folder, a) for a in header["shard_addresses"]]
            for p in files:
                if not os.path.exists(p):
                    raise RuntimeError(f"Invalid file, failed to open mindrecord file: {p} (named in the header "
                                       f"of {first}); a shard of the data set is missing.")
        self.files = list(files)
        self.headers = [read_header(p) for p in self.files]
        self._sizes = [os.path.getsize(p) for p in self.files]
        h0 = self.headers[0]["schema"][0]
        for p, h in zip(self.files, self.headers):
            if h["schema"][0]["schema"] != h0["schema"]:
                raise RuntimeError(f"Invalid file, the schema of mindrecord file: {p} differs from that of "
                                   f"{self.files[0]}.")
        self.schema = h0["schema"]
        self.blob_fields = list(h0["blob_fields"])
        self.compress = compresses_integers(self.schema, self.headers[0].get("version", VERSION))
        self._index = None
        self._handles = {}

    @property
    def index(self):
        if self._index is None:
            idx = []
            for k, p in enumerate(self.files):
                idx.extend((k,) + tuple(r) for r in read_index(p))
            self._index = idx
        return self._index

    def __len__(self):
        return len(self.index)

    def _file(self, k):
        import threading
        key = (k, threading.get_ident())
        f = self._handles.get(key)
        if f is None:
            f = self._handles[key] = open(self.files[k], "rb")
        return f

    def close(self):
        for f in self._handles.values():
            f.close()
        self._handles.clear()

    def _read_at(self, k, pos):
        """The length-prefixed payload at ``pos``, its length checked against the file first."""
        size = self._sizes[k]
        if pos + 8 > size:
            raise _invalid(self.files[k], f"a row at byte {pos} lies beyond the end of the file ({size} bytes)")
        f = self._file(k)
        f.seek(pos)
        n = struct.unpack("<Q", f.read(8))[0]
        if n > size - pos - 8:
            raise _invalid(self.files[k], f"a row at byte {pos} claims {n} bytes, beyond the end of the file")
        return f.read(n)

    def read_row(self, i):
        """Row ``i``: ``(raw dict, {blob field: bytes})`` (integer fields decompressed);
        ``RuntimeError`` for a corrupt row."""
        k = self.index[i][0]
        try:
            return self._read_row(i)
        except DECODE_ERRORS as e:
            raise _invalid(self.files[k], f"row {i} cannot be decoded ({type(e).__name__}: {e})") from None

    def _read_row(self, i):
        k, pr, orw, pb, ob = self.index[i]
        h = self.headers[k]
        hs, ps = h["header_size"], h["page_size"]
        raw = unpack_raw(self._read_at(k, hs + pr * ps + orw))
        if not isinstance(raw, dict):
            raise TypeError(f"the raw fields are a {type(raw).__name__}, not a map")
        raw = {key: v for key, v in raw.items() if key in self.schema}
        blobs = {}
        if self.blob_fields:
            data = self._read_at(k, hs + pb * ps + ob)
            if len(self.blob_fields) == 1:
                parts = {self.blob_fields[0]: data}
            else:
                parts, pos = {}, 0
                for name in self.blob_fields:
                    n = struct.unpack_from(">Q", data, pos)[0]
                    if n > len(data) - pos - 8:
                        raise ValueError(f"blob field {name!r} claims {n} bytes, beyond its row")
                    parts[name] = data[pos + 8:pos + 8 + n]
                    pos += 8 + n
            for name, b in parts.items():
                t = self.schema[name]["type"]
                if self.compress and t in ("int32", "int64"):
                    b = decompress_ints(b, 4 if t == "int32" else 8)
                blobs[name] = b
        return raw, blobs

    def column_array(self, name, raw, blobs, k=0):
        """A column's value as MindDataset gives it (numpy); ``RuntimeError`` when the
        stored value does not fit the schema (a corrupt file ``k``)."""
        try:
            return self._column_array(name, raw, blobs)
        except DECODE_ERRORS as e:
            raise _invalid(self.files[k], f"column {name!r} does not match its schema ({type(e).__name__}: {e})") \
                from None

    def field_array(self, name, b, k=0):
        """A blob array field's bytes as an array of the schema's type and shape."""
        spec = self.schema[name]
        try:
            return np.reshape(np.frombuffer(b, dtype=spec["type"]), spec["shape"])
        except DECODE_ERRORS as e:
            raise _invalid(self.files[k], f"column {name!r} does not match its schema ({e})") from None

    def _column_array(self, name, raw, blobs):
        spec = self.schema[name]
        t = spec["type"]
        if name in blobs:
            b = blobs[name]
            if t == "bytes":
                return np.array([b]) if b else np.array([b""], dtype="S1")
            arr = np.frombuffer(b, dtype=t)
            return arr.reshape(spec["shape"]).copy()
        v = raw[name]
        if t == "string":
            return np.array(v)
        return np.array(v, dtype=t)
