# Writes tpu-async-2chip.trace.json next to this script: a hand-made XLA/TPU trace for FormatMetricsTest whose
# collectives run asynchronously, as -start/-done pairs (no public TPU trace.json exists; structure as
# ../xla/make_tpu_trace.py, FORMATS.md §6). All times are whole µs, so every ns is exact. Run: python3 make_tpu_async_trace.py
#
# 2 chips (pids 1, 2; chip 1 runs 2 µs later), host pid 701; two steps, step s based at B = 10 + 1000(s−1) µs (+2 on
# chip 1). Per chip and step, times in µs after B:
#   fusion.1               [0, 100)    compute, model_flops 2e12
#   all-reduce-start.2     [100, 103)  all-reduce, raw_bytes_accessed 8 MiB, replica_groups={{0,1}}
#   fusion.3               [103, 303)  compute, model_flops 6e12 (runs while the all-reduce is in flight)
#   all-reduce-done.2      [303, 353)  all-reduce, raw_bytes_accessed 8 MiB
#   all-gather-start.4     [353, 354)  all-gather, raw_bytes_accessed 4 MiB (in; out = 8 MiB over 2 chips)
#   all-gather-done.4      [354, 420)  all-gather, raw_bytes_accessed 4 MiB
#   all-reduce.5           [420, 470)  all-reduce (synchronous), raw_bytes_accessed 8 MiB
# Chip 1, step 1 only: collective-permute-done.0 [−8, −3), no byte stats: its -start fell before the profile.
# Chip 0, step 2 only: all-gather-start.7 [480, 482), raw_bytes_accessed 1 MiB: its -done fell after the profile.
# Chip 1, step 2 only: send.8 [470, 472) and send-done.8 [472, 480), raw_bytes_accessed 1 MiB (XLA's async
# send/recv pairs are send/send-done and recv/recv-done: the first half has no -start suffix).
# Steps line: step s = [B, B + 900). Host: "$train.py:10 train_loop" [0, 2000).
import json
import os
MIB = 2**20
ev = []
for d in range(2):
    ev.append({"args": {"name": f"tpu-host /device:TPU:{d}"}, "name": "process_name", "ph": "M", "pid": d + 1})
    ev.append({"args": {"name": "Steps"}, "name": "thread_name", "ph": "M", "pid": d + 1, "tid": 1})
    ev.append({"args": {"name": "XLA Ops"}, "name": "thread_name", "ph": "M", "pid": d + 1, "tid": 3})
ev.append({"args": {"name": "tpu-host /host:CPU"}, "name": "process_name", "ph": "M", "pid": 701})
ev.append({"args": {"name": "python3"}, "name": "thread_name", "ph": "M", "pid": 701, "tid": 9})
ev.append({"pid": 701, "tid": 9, "name": "$train.py:10 train_loop", "ts": 0.0, "dur": 2000.0, "ph": "X", "args": {}})
GROUPS = "replica_groups={{0,1}}"
def op(pid, name, start_us, dur_us, args):
    a = dict(args)
    a["device_duration_ps"] = dur_us * 1_000_000
    ev.append({"pid": pid, "tid": 3, "name": name, "ts": float(start_us), "dur": float(dur_us), "ph": "X", "args": a})
def coll(cat, nbytes=None):
    a = {"hlo_category": cat, "long_name": f"%{cat} = ... {cat}(...), channel_id=1, {GROUPS}"}
    if nbytes is not None:
        a["raw_bytes_accessed"] = nbytes
        a["bytes_accessed"] = 2 * nbytes
    return a
for step in (1, 2):
    for d in range(2):
        pid = d + 1
        B = 10 + 1000 * (step - 1) + 2 * d
        ev.append({"pid": pid, "tid": 1, "name": str(step), "ts": float(B), "dur": 900.0, "ph": "X", "args": {"group_id": str(step)}})
        if d == 1 and step == 1:
            op(pid, "collective-permute-done.0", B - 8, 5, coll("collective-permute"))
        op(pid, "fusion.1", B + 0, 100, {"hlo_category": "loop fusion", "model_flops": 2_000_000_000_000})
        op(pid, "all-reduce-start.2", B + 100, 3, coll("all-reduce", 8 * MIB))
        op(pid, "fusion.3", B + 103, 200, {"hlo_category": "convolution fusion", "model_flops": 6_000_000_000_000})
        op(pid, "all-reduce-done.2", B + 303, 50, coll("all-reduce", 8 * MIB))
        op(pid, "all-gather-start.4", B + 353, 1, coll("all-gather", 4 * MIB))
        op(pid, "all-gather-done.4", B + 354, 66, coll("all-gather", 4 * MIB))
        op(pid, "all-reduce.5", B + 420, 50, coll("all-reduce", 8 * MIB))
        if d == 0 and step == 2:
            op(pid, "all-gather-start.7", B + 480, 2, coll("all-gather", 1 * MIB))
        if d == 1 and step == 2:
            op(pid, "send.8", B + 470, 2, coll("send", 1 * MIB))
            op(pid, "send-done.8", B + 472, 8, coll("send", 1 * MIB))
doc = {"displayTimeUnit": "ns", "metadata": {"highres-ticks": True}, "traceEvents": ev}
s = json.dumps(doc, separators=(",", ":"))
open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "tpu-async-2chip.trace.json"), "w").write(s.replace('},{"', '},\n{"'))
