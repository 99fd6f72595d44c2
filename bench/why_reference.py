#!/usr/bin/env python3
"""An independent implementation of METRICS.md section 4 "Why" over Kineto trace files, for checking the engine.

It reads a workload folder's Kineto JSON traces (.json or .json.gz) itself, with the standard library only, and
computes, from METRICS.md's text and nothing of tracelake's code:
  * per collective instance with lag >= 10 us: the cause and the deltas of the last arriver's lead-in window,
  * lateness_cause per rank and for the straggler, lateness_top_kernel,
  * gpu_slowness per rank and its max,
  * idle_breakdown per (rank, step) and the workload figures.
Scope: Kineto traces whose collective kernels carry "Collective name", "Process Group Name" and "Seq" (the generator's
MODERN style, and current PyTorch). Usage:

  why_reference.py WORKLOAD_DIR                     print the figures as JSON
  why_reference.py WORKLOAD_DIR METRICS.json COLLECTIVES.json WORKLOAD
                                     compare with the engine's rows (bin/tracelake sql --format json, why_check.sh)
"""
import gzip
import json
import re
import sys
from decimal import Decimal, ROUND_HALF_UP
from pathlib import Path

COMM = re.compile(r"^nccl|^rccl|nccl(Dev)?Kernel|^msccl|mscclpp|cross_device_reduce|all_?reduce|all_?gather"
                  r"|reduce_?scatter|all_?to_?all|sendrecv|collective-permute", re.I)
STEP = re.compile(r"ProfilerStep#(\d+)$")
KINDS = {"_allgather_base": "all_gather", "all_gather": "all_gather", "allgather": "all_gather",
         "_reduce_scatter_base": "reduce_scatter", "reduce_scatter": "reduce_scatter",
         "allreduce": "all_reduce", "all_reduce": "all_reduce", "all_to_all": "all_to_all"}
MIN_LAG = 10_000
CAUSES = ["device", "host", "upstream", "unexplained"]


def ns(micros, base):
    return base + int((Decimal(str(micros)) * 1000).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def K(metric, figure, scope, rank=None, step=None, key=None):
    """A metrics row's identity, as both sides write it."""
    return "|".join("" if x is None else str(x) for x in (metric, figure, scope, rank, step, key))


def engine_figures(metrics_json, collectives_json, workload):
    """The engine's rows (bin/tracelake sql --format json: one JSON object a line) in the keys above."""
    out = {}
    with open(metrics_json) as f:
        for line in f:
            r = json.loads(line)
            if r["workload"] == workload and r.get("value") is not None:
                out[K(r["metric"], r.get("figure"), r["scope"], r.get("rank"), r.get("step"), r.get("key"))] = r["value"]
    with open(collectives_json) as f:
        for line in f:
            r = json.loads(line)
            if r["workload"] == workload and r.get("cause") is not None:
                out["collectives|%s|%d" % (r["match_key"], r["k"])] = [
                    r["cause"], r["delta_start_ns"], r["delta_compute_ns"], r["delta_idle_ns"]]
    return out


def median(values):
    """Nearest-rank median: the ceil(n/2)-th smallest."""
    s = sorted(values)
    return s[(len(s) + 1) // 2 - 1]


def length_within(intervals, a, b):
    """|union of intervals clipped to [a, b)|."""
    clipped = sorted((max(s, a), min(e, b)) for s, e in intervals if min(e, b) > max(s, a))
    total, cur_s, cur_e = 0, None, None
    for s, e in clipped:
        if cur_e is not None and s <= cur_e:
            cur_e = max(cur_e, e)
        else:
            if cur_e is not None:
                total += cur_e - cur_s
            cur_s, cur_e = s, e
    if cur_e is not None:
        total += cur_e - cur_s
    return total


def read_rank(path):
    opener = gzip.open if str(path).endswith(".gz") else open
    with opener(path, "rt") as f:
        doc = json.load(f, parse_float=Decimal)
    base = int(doc.get("baseTimeNanoseconds", 0))
    rank = int(doc["distributedInfo"]["rank"])
    events = [e for e in doc["traceEvents"] if isinstance(e, dict) and e.get("ph") == "X" and "dur" in e]
    launches, steps, gpu = {}, [], []
    for e in events:
        args = e.get("args") or {}
        if e.get("cat") in ("cuda_runtime", "cuda_driver") and "correlation" in args:
            launches.setdefault(int(args["correlation"]), ns(e["ts"], base))
        if e.get("cat") == "user_annotation":
            m = STEP.search(e.get("name", ""))
            if m:
                start = ns(e["ts"], base)
                steps.append((int(m.group(1)), start, start + ns(e["dur"], 0)))
    for e in events:
        cat = e.get("cat")
        if cat not in ("kernel", "gpu_memcpy", "gpu_memset"):
            continue
        args = e.get("args") or {}
        name = e.get("name", "")
        start = ns(e["ts"], base)
        end = start + ns(e["dur"], 0)
        if COMM.search(name):
            cls = "comm"
        elif cat == "gpu_memcpy" or re.search(r"Memcpy|copy-start|copy-done|\bdma\b", name):
            cls = "memcpy"
        elif cat == "gpu_memset" or "Memset" in name:
            cls = "memset"
        elif re.search(r"cudaStreamWaitEvent|Sync", name):
            cls = "sync"
        else:
            cls = "compute"
        launch = launches.get(int(args["correlation"])) if "correlation" in args else None
        at = launch if launch is not None else start
        step = next((n for n, a, b in steps if a <= at < b), None)
        gpu.append({"name": name, "start": start, "end": end, "cls": cls, "launch": launch, "step": step,
                    "grid": json.dumps(args.get("grid"), default=str), "block": json.dumps(args.get("block"), default=str),
                    "kind": KINDS.get(args.get("Collective name")), "pg": args.get("Process Group Name"),
                    "seq": args.get("Seq")})
    gpu.sort(key=lambda a: a["start"])
    return rank, steps, gpu


def lead_in(steps, gpu, s):
    ends = [a["end"] for a in gpu if a["cls"] == "comm" and a["end"] <= s]
    if ends:
        p = max(ends)
    else:
        p = next((a for _, a, b in steps if a <= s < b), None)
        if p is None:
            p = min(a["start"] for a in gpu)
    compute = length_within([(a["start"], a["end"]) for a in gpu if a["cls"] == "compute"], p, s)
    busy = length_within([(a["start"], a["end"]) for a in gpu], p, s)
    kernels = {}
    for a in gpu:
        if a["cls"] == "compute" and p <= a["start"] < s:
            kernels[a["name"]] = kernels.get(a["name"], 0) + (a["end"] - a["start"])
    return p, compute, (s - p) - busy, kernels


def figures(workload_dir):
    ranks = {}
    for f in sorted(Path(workload_dir).rglob("*.json*")):
        if f.name.endswith((".json", ".json.gz")):
            r, steps, gpu = read_rank(f)
            ranks[r] = (steps, gpu)
    out = {}
    # the cross-rank join: (pg, kind), k = Seq
    members = {}
    for r, (steps, gpu) in ranks.items():
        for a in gpu:
            if a["cls"] == "comm":
                key = "pg=%s kind=%s" % (a["pg"], a["kind"])
                members.setdefault((key, int(a["seq"])), []).append((r, a["start"]))
    by_rank, late = {}, []
    last_counts, took_part = {}, {}
    for (key, k), ms in sorted(members.items()):
        if len(ms) < 2:
            continue
        last = None
        for r, s in ms:
            took_part[r] = took_part.get(r, 0) + 1
            if last is None or s > last[1] or (s == last[1] and r > last[0]):
                last = (r, s)
        last_counts[last[0]] = last_counts.get(last[0], 0) + 1
        lag = max(s for _, s in ms) - min(s for _, s in ms)
        if lag < MIN_LAG:
            continue
        w = {r: lead_in(ranks[r][0], ranks[r][1], s) for r, s in ms}
        mine = w[last[0]]
        others = [w[r] for r, _ in ms if r != last[0]]
        d_start = mine[0] - median([o[0] for o in others])
        d_compute = mine[1] - median([o[1] for o in others])
        d_idle = mine[2] - median([o[2] for o in others])
        if 2 * d_start >= lag:
            cause = "upstream"
        elif 2 * d_compute >= lag and d_compute >= d_idle:
            cause = "device"
        elif 2 * d_idle >= lag:
            cause = "host"
        else:
            cause = "unexplained"
        out["collectives|%s|%d" % (key, k)] = [cause, d_start, d_compute, d_idle]
        by_rank.setdefault(last[0], {c: 0 for c in CAUSES})[cause] += 1
        late.append((last[0], cause, mine[3], [o[3] for o in others]))
    for r, counts in by_rank.items():
        n = sum(counts.values())
        for c in CAUSES:
            out[K("lateness_cause", c, "rank", r)] = counts[c] / n
        out[K("lateness_cause", "explained_instances", "rank", r)] = float(n)
    # the straggler: the largest last-arrival share, ties the lower rank
    straggler, best = None, -1.0
    for r in sorted(took_part):
        share = last_counts.get(r, 0) / took_part[r]
        if share > best:
            best, straggler = share, r
    if straggler in by_rank:
        counts = by_rank[straggler]
        dominant = max(CAUSES, key=lambda c: (counts[c], -CAUSES.index(c)))
        out[K("lateness_cause", None, "workload", key=dominant)] = counts[dominant] / sum(counts.values())
        excess = {}
        for r, cause, mine_k, others_k in late:
            if r != straggler or cause != "device":
                continue
            names = set(mine_k) | {n for o in others_k for n in o}
            for name in names:
                excess[name] = excess.get(name, 0) + mine_k.get(name, 0) - median([o.get(name, 0) for o in others_k])
        if excess:
            top = min(excess, key=lambda n: (-excess[n], n))
            out[K("lateness_top_kernel", None, "workload", key=top)] = excess[top] / 1e3
    # gpu_slowness
    groups = {}
    for r, (_, gpu) in ranks.items():
        for a in gpu:
            if a["cls"] == "compute":
                groups.setdefault((a["name"], a["grid"], a["block"]), {}).setdefault(r, []).append(a["end"] - a["start"])
    common = [g for g, by in groups.items() if len(by) == len(ranks)]
    if len(ranks) >= 2 and common:
        actual = {r: 0 for r in ranks}
        expected = {r: 0.0 for r in ranks}
        for g in common:
            ref = median([median(d) for d in groups[g].values()])
            for r, d in groups[g].items():
                actual[r] += sum(d)
                expected[r] += len(d) * ref
        scores = {r: actual[r] / expected[r] for r in sorted(ranks) if expected[r] > 0}
        for r, v in scores.items():
            out[K("gpu_slowness", "score", "rank", r)] = v
        top = min(scores, key=lambda r: (-scores[r], r))
        out[K("gpu_slowness", "max", "workload")] = scores[top]
        out[K("gpu_slowness", "rank", "workload")] = float(top)
    # idle_breakdown
    sums, pairs, gaps_in_windows, window_time = [0, 0, 0], 0, 0, 0
    for r, (steps, gpu) in sorted(ranks.items()):
        for step in sorted({a["step"] for a in gpu if a["step"] is not None}):
            acts = [a for a in gpu if a["step"] == step]
            v = [0, 0, 0]
            end = None
            i = 0
            while i < len(acts):
                a = acts[i]
                if end is not None and a["start"] > end:
                    b = a["start"]
                    ties = [x for x in acts if x["start"] == b]
                    launched = [x["launch"] for x in ties if x["launch"] is not None]
                    if not launched:
                        v[2] += b - end
                    else:
                        host = min(max(min(launched) - end, 0), b - end)
                        v[0] += host
                        v[1] += (b - end) - host
                end = a["end"] if end is None else max(end, a["end"])
                i += 1
            pairs += 1
            for j in range(3):
                sums[j] += v[j]
                out[K("idle_breakdown", ["host_wait_ms", "device_wait_ms", "unattributed_ms"][j], "step", r, step)] = v[j] / 1e6
            window = next(((a, b) for n, a, b in steps if n == step), None)
            if window:
                gaps_in_windows += sum(v)
                window_time += window[1] - window[0]
    if pairs:
        for j, f in enumerate(["host_wait_ms", "device_wait_ms", "unattributed_ms"]):
            out[K("idle_breakdown", f, "workload")] = sums[j] / pairs / 1e6
        if sum(sums) > 0:
            out[K("idle_breakdown", "host_wait_share", "workload")] = sums[0] / sum(sums)
        if window_time > 0:
            out[K("idle_breakdown", "idle_fraction", "workload")] = gaps_in_windows / window_time
    return out


def main():
    mine = figures(sys.argv[1])
    if len(sys.argv) == 2:
        print(json.dumps(mine, indent=1, sort_keys=True))
        return 0
    engine = engine_figures(sys.argv[2], sys.argv[3], sys.argv[4])
    bad = 0
    for key in sorted(set(mine) | set(engine)):
        a, b = mine.get(key), engine.get(key)
        same = a == b if not isinstance(a, float) or b is None else abs(a - b) <= 1e-9 * max(1.0, abs(a))
        if not same:
            bad += 1
            print("DIFFERS %s: reference %s, engine %s" % (key, a, b))
    causes = sorted({v[0] for k, v in mine.items() if k.startswith("collectives|")})
    print("%d figures compared, %d differ; causes found: %s; straggler %s" % (
        len(set(mine) | set(engine)), bad, ", ".join(causes),
        [k.split("|")[-1] + "=" + str(v) for k, v in mine.items() if k.startswith("lateness_cause||workload")]))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
