#!/usr/bin/env python3
"""A small fuzzing seed cut from a real trace (bench/fuzz).

libFuzzer mutates inputs up to the longest seed's length, and the readers' time grows with the input: a 90 kB seed
keeps a target at tens of executions a second. This keeps a real file's shape in a few kB: every top-level key, and
from its longest list (traceEvents, nodes, ...) a few entries of each kind (ph, cat and the start of the name), plus
the entries linked to those by correlation or External id, so launches, kernels and CPU ops still meet.

An Nsight Systems SQLite export (SRC ending in .sqlite) is cut the same way: the tables the reader queries, their
first rows, and the strings those rows name, in 512-byte pages (~25 kB from the 2.1 MB real export).

An XSpace protobuf (SRC ending in .xplane.pb) keeps every plane, line, plane stat and stat metadata, the first events
of each line and the event metadata those events name (a few kB from the 267 kB real profile). It is cut at the wire
level (varints and length-delimited fields, xplane.proto's field numbers): no protobuf module is needed.

usage: cut_seed.py SRC DST MAX_BYTES [--gzip]      SRC may be gzipped; DST is written gzipped with --gzip
"""
import gzip
import json
import os
import sqlite3
import sys

NSYS_TABLES = ("CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET",
               "CUPTI_ACTIVITY_KIND_RUNTIME", "ENUM_CUDA_MEMCPY_OPER", "ENUM_NSYS_EVENT_TYPE", "EXPORT_META_DATA",
               "META_DATA_EXPORT", "NVTX_EVENTS", "TARGET_INFO_GPU", "TARGET_INFO_SESSION_START_TIME")

LINKS = ("correlation", "External id")


def load(path):
    with open(path, "rb") as f:
        raw = f.read()
    return json.loads(gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw)


def kind(entry):
    if not isinstance(entry, dict):
        return type(entry).__name__
    return entry.get("ph"), entry.get("cat"), str(entry.get("name", ""))[:10]


def link_ids(entry):
    args = entry.get("args") if isinstance(entry, dict) else None
    return {(k, args[k]) for k in LINKS if isinstance(args, dict) and k in args}


def cut(entries, per_kind):
    counts, kept, ids = {}, [], set()
    for i, e in enumerate(entries):
        k = kind(e)
        if counts.get(k, 0) < per_kind:
            counts[k] = counts.get(k, 0) + 1
            kept.append(i)
            ids |= link_ids(e)
    linked = [i for i, e in enumerate(entries) if i not in set(kept) and link_ids(e) & ids]
    return [entries[i] for i in sorted(set(kept) | set(linked[: 4 * per_kind]))]


def cut_sqlite(src, dst, rows_per_table=12):
    if os.path.exists(dst):
        os.remove(dst)
    source = sqlite3.connect(f"file:{src}?mode=ro", uri=True)
    out = sqlite3.connect(dst)
    out.execute("PRAGMA page_size=512")
    named = set()
    tables = dict(source.execute("SELECT name, sql FROM sqlite_master WHERE type='table' AND sql IS NOT NULL"))
    for name in NSYS_TABLES + ("StringIds",):
        if name not in tables:
            continue
        out.execute(tables[name])
        if name == "StringIds":  # the strings the kept rows name (kernel names, NVTX text...)
            rows = [r for r in source.execute('SELECT * FROM "StringIds"') if r[0] in named]
        else:
            cursor = source.execute(f'SELECT * FROM "{name}" LIMIT {rows_per_table}')
            rows = cursor.fetchall()
            naming = [i for i, c in enumerate(cursor.description) if "name" in c[0].lower() or "text" in c[0].lower()]
            named |= {r[i] for r in rows for i in naming if isinstance(r[i], int)}
        if rows:
            out.executemany(f'INSERT INTO "{name}" VALUES ({",".join("?" * len(rows[0]))})', rows)
    out.commit()
    out.execute("VACUUM")
    out.close()


def varint(buf, i):
    value, shift = 0, 0
    while True:
        b = buf[i]
        i += 1
        value |= (b & 0x7F) << shift
        shift += 7
        if b < 0x80:
            return value, i


def put_varint(value):
    out = bytearray()
    while True:
        b = value & 0x7F
        value >>= 7
        out.append(b | (0x80 if value else 0))
        if not value:
            return bytes(out)


def fields(buf):
    """(field number, wire type, value, the field's own bytes) of one message; value is bytes for wire type 2."""
    i = 0
    while i < len(buf):
        start = i
        key, i = varint(buf, i)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, i = varint(buf, i)
        elif wire == 1:
            value, i = buf[i:i + 8], i + 8
        elif wire == 5:
            value, i = buf[i:i + 4], i + 4
        elif wire == 2:
            n, i = varint(buf, i)
            value, i = buf[i:i + n], i + n
        else:
            sys.exit(f"wire type {wire} is not in xplane.proto")
        yield number, wire, value, buf[start:i]


def message_field(number, payload):
    return put_varint(number << 3 | 2) + put_varint(len(payload)) + payload


def cut_xline(line, events_per_line, named):
    out, kept = bytearray(), 0
    for number, _, value, raw in fields(line):
        if number == 4:  # XLine.events
            if kept >= events_per_line:
                continue
            kept += 1
            named |= {v for n, w, v, _ in fields(value) if n == 1 and w == 0}  # XEvent.metadata_id
        out += raw
    return bytes(out)


def cut_xplane(plane, events_per_line):
    named, lines, rest, metadata = set(), [], bytearray(), []
    for number, _, value, raw in fields(plane):
        if number == 3:  # XPlane.lines
            lines.append(message_field(3, cut_xline(value, events_per_line, named)))
        elif number == 4:  # XPlane.event_metadata: map entries {1: id, 2: XEventMetadata}
            metadata.append((dict((n, v) for n, _, v, _ in fields(value)).get(1), raw))
        else:
            rest += raw
    return bytes(rest) + b"".join(lines) + b"".join(raw for key, raw in metadata if key in named)


def cut_xspace(src, dst, limit):
    with open(src, "rb") as f:
        space = f.read()
    for events_per_line in (8, 4, 2, 1):
        out = b"".join(message_field(1, cut_xplane(v, events_per_line)) if n == 1 else raw
                       for n, _, v, raw in fields(space))
        if len(out) <= limit:
            break
    with open(dst, "wb") as f:
        f.write(out)


def main():
    src, dst, limit = sys.argv[1], sys.argv[2], int(sys.argv[3])
    if src.endswith(".sqlite"):
        cut_sqlite(src, dst)
        return
    if src.endswith(".xplane.pb"):
        cut_xspace(src, dst, limit)
        return
    doc = load(src)
    lists = [k for k, v in doc.items() if isinstance(v, list)] if isinstance(doc, dict) else []
    if not lists:
        sys.exit(f"{src}: no list of entries to cut")
    key = max(lists, key=lambda k: len(doc[k]))
    entries = doc[key]
    for per_kind in (6, 3, 2, 1):
        doc[key] = cut(entries, per_kind)
        out = json.dumps(doc, separators=(",", ":")).encode()
        if len(out) <= limit:
            break
    while len(out) > limit and len(doc[key]) > 1:  # still too long: the first entries only
        doc[key] = doc[key][: len(doc[key]) * 9 // 10]
        out = json.dumps(doc, separators=(",", ":")).encode()
    with open(dst, "wb") as f:
        f.write(gzip.compress(out) if "--gzip" in sys.argv[4:] else out)


if __name__ == "__main__":
    main()
