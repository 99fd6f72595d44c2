#!/usr/bin/env python3
"""A real Kineto trace made big by repeating its events: bench/run's section (1) reads it beside the generated one.

    repeat_trace.py IN.json[.gz] OUT.json TARGET_BYTES

The real trace's header (baseTimeNanoseconds, deviceProperties, ...) is kept; its events are written again and again,
each copy shifted in time past the one before (by the trace's own span and a millisecond) and with its ids moved out of
the earlier copies' range (correlation and External id, which link kernels to their launches and ops; Record function
id and Ev Idx; the flow events' id), until the file reaches TARGET_BYTES. The events keep their order within a copy, so
a PyTorch 2.x trace still has its kernels before their launches. Only the standard library: CI's python3 has no more.
"""
import gzip
import json
import sys

ID_ARGS = ("External id", "correlation", "Record function id", "Ev Idx")


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        return json.load(f)


def main():
    src, dst, target = sys.argv[1], sys.argv[2], int(sys.argv[3])
    trace = load(src)
    events = trace.pop("traceEvents")
    timed = [e for e in events if isinstance(e.get("ts"), (int, float))]
    start = min(e["ts"] for e in timed)
    end = max(e["ts"] + (e.get("dur") or 0) for e in timed)
    shift_us = int(end - start) + 1000
    biggest_id = max([int(e.get("id", 0)) for e in events if isinstance(e.get("id"), int)]
                     + [int(v) for e in events for k, v in (e.get("args") or {}).items()
                        if k in ID_ARGS and isinstance(v, int)] + [0])
    id_step = biggest_id + 1
    header = json.dumps(trace)[:-1]  # the header's object, left open for traceEvents
    written = 0
    with open(dst, "w", encoding="utf-8") as out:
        out.write(header + (", " if trace else "") + '"traceEvents": [\n')
        copy = 0
        first = True
        while written < target:
            parts = []
            for e in events:
                e2 = dict(e)
                if isinstance(e2.get("ts"), (int, float)):
                    e2["ts"] = e2["ts"] + copy * shift_us
                if isinstance(e2.get("id"), int):
                    e2["id"] = e2["id"] + copy * id_step
                args = e2.get("args")
                if args:
                    args = dict(args)
                    for k in ID_ARGS:
                        if isinstance(args.get(k), int) and args[k] >= 0:
                            args[k] = args[k] + copy * id_step
                    e2["args"] = args
                parts.append(json.dumps(e2, separators=(", ", ": ")))
            chunk = ("" if first else ",\n") + ",\n".join(parts)
            out.write(chunk)
            written += len(chunk)
            first = False
            copy += 1
        out.write("\n]}\n")
    print(f"copies={copy} events={copy * len(events)} bytes={written}")


if __name__ == "__main__":
    main()
