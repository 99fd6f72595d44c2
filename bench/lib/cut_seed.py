#!/usr/bin/env python3
"""A small fuzzing seed cut from a real trace (bench/fuzz).

libFuzzer mutates inputs up to the longest seed's length, and the readers' time grows with the input: a 90 kB seed
keeps a target at tens of executions a second. This keeps a real file's shape in a few kB: every top-level key, and
from its longest list (traceEvents, nodes, ...) a few entries of each kind (ph, cat and the start of the name), plus
the entries linked to those by correlation or External id, so launches, kernels and CPU ops still meet.

usage: cut_seed.py SRC DST MAX_BYTES [--gzip]      SRC may be gzipped; DST is written gzipped with --gzip
"""
import gzip
import json
import sys

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


def main():
    src, dst, limit = sys.argv[1], sys.argv[2], int(sys.argv[3])
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
