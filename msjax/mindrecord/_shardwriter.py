"""Writing MindRecord shard files: rows into blob and raw pages, the header and the
index on commit. The page placement follows MindSpore's writer step for step
(row groups cut where a blob or raw page would overflow, a row group's raw rows
kept in one raw page), so files match MindSpore's byte for byte where the rows do
(the shard a remainder row goes to is random in both)."""
from __future__ import annotations

import os
import random
import struct

from . import _codec


class ShardFiles:
    """The open shard files of one writer and their page tables."""

    def __init__(self, paths, header_size, page_size, schema, desc, index_fields, append_headers=None):
        self.paths = list(paths)
        self.header_size, self.page_size = header_size, page_size
        self.schema, self.desc = schema, desc
        self.blob_fields = _codec.blob_fields(schema)
        self.index_fields = index_fields
        self.compress = _codec.compresses_integers(schema)
        self.compression_size = 0
        self.pages = [[] for _ in self.paths]     # per shard: page dicts in page-id order
        if append_headers is not None:
            for k, h in enumerate(append_headers):
                self.pages[k] = [_codec.page_from_json(p) for p in h["page"]]
            self.compression_size = append_headers[0].get("compression_size", 0) or 0
            mode = "r+b"
        else:
            mode = "w+b"
        self.files = [open(p, mode) for p in self.paths]

    # -- page lookups
    def _last(self, k, kind):
        for p in reversed(self.pages[k]):
            if p["page_type"] == kind:
                return p
        return None

    def _pos(self, page_id, offset=0):
        return self.header_size + page_id * self.page_size + offset

    def _new_page(self, k, kind, type_id, start=0, end=0, groups=None, size=0):
        p = {"page_id": len(self.pages[k]), "shard_id": k, "page_type": kind, "page_type_id": type_id,
             "start_row_id": start, "end_row_id": end, "row_group_ids": groups or [], "page_size": size}
        self.pages[k].append(p)
        return p

    # -- rows
    def row_payloads(self, row):
        """``(blob bytes, raw bytes)`` of one validated row."""
        blobs = [row[f] for f in self.blob_fields]
        if len(blobs) == 1:
            blob = bytes(blobs[0])
            if self.compress:
                t = self.schema[self.blob_fields[0]]["type"]
                blob = self._compress(blob, t)
        else:
            parts = []
            for f, v in zip(self.blob_fields, blobs):
                t = self.schema[f]["type"]
                if hasattr(v, "dtype") and hasattr(v, "tobytes"):
                    v = v.astype(t).tobytes()
                v = bytes(v)
                if self.compress and t in ("int32", "int64"):
                    v = self._compress(v, t)
                parts.append(struct.pack(">Q", len(v)) + v)
            blob = b"".join(parts)
        raw = {f: row[f] for f in self.schema if f not in self.blob_fields and f in row}
        for f, v in raw.items():
            if hasattr(v, "item") and not isinstance(v, (str, bytes)):
                raw[f] = v.item()
        if not raw:
            raw = {"id": 0}      # MindSpore's dummy raw field when every field is a blob
        return blob, _codec.pack_raw(raw)

    def _compress(self, data, t):
        out = _codec.compress_ints(data, 4 if t == "int32" else 8)
        self.compression_size += len(data) - len(out)
        return out

    def write_rows(self, payloads, shard=None):
        """Write ``(blob, raw)`` payloads: split evenly over the shards (the remainder to
        random shards), or all to ``shard``."""
        n = len(payloads)
        for blob, raw in payloads:
            if 8 + len(blob) > self.page_size:
                raise RuntimeError(
                    "Syntax error. \n\n------------------------------------------------------------------\n"
                    "- Dataset Pipeline Error Message: \n"
                    "------------------------------------------------------------------\n"
                    f"[ERROR] Invalid data, Page size: {self.page_size} is too small to save a blob row. Please try "
                    "to use the mindrecord api 'set_page_size(value)' to enable larger page size, and the value "
                    f"range is in [{_codec.MIN_PAGE_SIZE} bytes, {_codec.MAX_PAGE_SIZE} bytes].")
            if 8 + len(raw) > self.page_size:
                raise RuntimeError(f"Invalid data, Page size: {self.page_size} is too small to save a raw row. "
                                   "Please use 'set_page_size(value)' to enable a larger page size.")
        if shard is not None:
            spans = [(0, 0)] * len(self.paths)
            spans[shard] = (0, n)
        else:
            count = len(self.paths)
            per, rem = divmod(n, count)
            extra = set(random.sample(range(count), rem))
            spans, start = [], 0
            for k in range(count):
                end = start + per + (1 if k in extra else 0)
                spans.append((start, end))
                start = end
        for k, (a, b) in enumerate(spans):
            if a < b:
                self._write_shard(k, payloads[a:b])

    def _write_shard(self, k, rows):
        ps = self.page_size
        bsz = [8 + len(b) for b, _ in rows]
        rsz = [8 + len(r) for _, r in rows]
        last_blob, last_raw = self._last(k, "BLOB_DATA"), self._last(k, "RAW_DATA")
        # cut row groups: a new one wherever the blob page or the raw row group would overflow
        n_blob = last_blob["page_size"] if last_blob else 0
        n_raw = (last_raw["page_size"] - last_raw["row_group_ids"][-1][1]) if last_raw else 0
        groups, start = [], 0
        for i in range(len(rows)):
            if n_blob == 0 or n_blob + bsz[i] > ps or n_raw + rsz[i] > ps:
                groups.append((start, i))
                start, n_blob, n_raw = i, bsz[i], rsz[i]
            else:
                n_blob += bsz[i]
                n_raw += rsz[i]
        groups.append((start, len(rows)))
        f = self.files[k]

        def flush(a, b, which):
            for j in range(a, b):
                payload = rows[j][which]
                f.write(struct.pack("<Q", len(payload)))
                f.write(payload)

        # group 0 continues the last blob page
        a, b = groups[0]
        if a < b:
            f.seek(self._pos(last_blob["page_id"], last_blob["page_size"]))
            flush(a, b, 0)
            last_blob["page_size"] += sum(bsz[a:b])
            last_blob["end_row_id"] += b - a
        type_id = last_blob["page_type_id"] if last_blob else -1
        row = last_blob["end_row_id"] if last_blob else 0
        for a, b in groups[1:]:
            type_id += 1
            p = self._new_page(k, "BLOB_DATA", type_id, row, row + b - a, size=sum(bsz[a:b]))
            f.seek(self._pos(p["page_id"]))
            flush(a, b, 0)
            row += b - a
        # group 0's raw rows join the last row group; move that group to a new raw page if it overflows
        a, b = groups[0]
        if a < b and last_raw["page_size"] + sum(rsz[a:b]) > ps:
            gid, off = last_raw["row_group_ids"][-1]
            f.seek(self._pos(last_raw["page_id"], off))
            moved = f.read(last_raw["page_size"] - off)
            last_raw["row_group_ids"].pop()
            last_raw["page_size"] = off
            p = self._new_page(k, "RAW_DATA", last_raw["page_id"] + 1, groups=[[gid, 0]], size=len(moved))
            f.seek(self._pos(p["page_id"]))
            f.write(moved)
            last_raw = p
        last_gid = last_raw["row_group_ids"][-1][0] if last_raw else -1
        for c, (a, b) in enumerate(groups):
            if a == b:
                continue
            size = sum(rsz[a:b])
            if last_raw is None or last_raw["page_size"] + size > ps:
                last_raw = self._new_page(k, "RAW_DATA", last_raw["page_id"] + 1 if last_raw else 0)
            if c > 0:
                last_gid += 1
                last_raw["row_group_ids"].append([last_gid, last_raw["page_size"]])
            f.seek(self._pos(last_raw["page_id"], last_raw["page_size"]))
            flush(a, b, 1)
            last_raw["page_size"] += size

    # -- commit
    independent = False   # parallel writing: each shard file is a data set of its own, as MindSpore's workers write

    def header(self, k):
        pages = [_codec.page_json(p) for p in self.pages[k]]
        addresses = [os.path.basename(p) for p in self.paths]
        shard_id = k
        if self.independent:
            addresses, shard_id = [addresses[k]], 0
            for p in pages:
                p["shard_id"] = 0
        return {"header_size": self.header_size,
                "index_fields": [{"index_field": n, "schema_id": 0} for n in self.index_fields] or None,
                "page": pages,
                "page_size": self.page_size, "compression_size": max(self.compression_size, 0),
                "schema": [{"blob_fields": self.blob_fields, "desc": self.desc, "schema": self.schema}],
                "shard_addresses": addresses, "shard_id": shard_id,
                "statistics": None, "version": _codec.VERSION}

    def commit(self):
        for k, f in enumerate(self.files):
            h = self.header(k)
            body = _codec.dump_header(h)
            if len(body) + 8 > self.header_size:
                raise RuntimeError(f"Invalid data, the header of mindrecord file {self.paths[k]} needs "
                                   f"{len(body) + 8} bytes but header_size is {self.header_size}: call "
                                   "set_header_size with a larger size.")
            f.seek(0)
            f.write(struct.pack("<Q", len(body)) + body)
            f.flush()
            f.close()
            os.chmod(self.paths[k], 0o600)
            _codec.write_index(self.paths[k], h)
        self.files = []

    def close(self):
        for f in self.files:
            f.close()
        self.files = []
