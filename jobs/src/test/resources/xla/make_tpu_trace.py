# Writes tpu-v6e-4chip.trace.json next to this script: the hand-made TPU trace of XlaTraceReaderTest (no public
# TPU trace.json exists). Structure from FORMATS.md §6 / xprof's trace_events_to_json; values invented, except that
# the all-reduces follow dur = ALPHA + S * 2(N-1)/N / BW exactly (in ps). Run: python3 make_tpu_trace.py
import json
import os
ALPHA_PS = 5_000_000           # 5 us
BW = 90e9                      # bytes/s
N = 4
def ar_ps(S): return ALPHA_PS + round(S * 2 * (N - 1) / N / BW * 1e12)
def us(ps): return float(format(ps / 1e6, '.17g'))
ev = []
host = "t1v-n-6e4chip-w-0"
for d in range(3):  # device 3's process_name comes last, on purpose
    ev.append({"args": {"name": f"{host} /device:TPU:{d}"}, "name": "process_name", "ph": "M", "pid": d + 1, "thread_count": 4})
    ev.append({"args": {"sort_index": d + 1}, "name": "process_sort_index", "ph": "M", "pid": d + 1})
for d in range(4):
    for tid, line in [(1, "Steps"), (2, "XLA Modules"), (3, "XLA Ops")]:
        ev.append({"args": {"name": line}, "name": "thread_name", "ph": "M", "pid": d + 1, "tid": tid})
ev.append({"args": {"name": f"{host} /host:CPU"}, "name": "process_name", "ph": "M", "pid": 701})
ev.append({"args": {"name": "python3"}, "name": "thread_name", "ph": "M", "pid": 701, "tid": 4242})
ev.append({"args": {"name": "tf_XLATfrtCpuClient/4250"}, "name": "thread_name", "ph": "M", "pid": 701, "tid": 4250})

sizes = {3: 4 * 2**20, 4: 16 * 2**20, 5: 64 * 2**20}
shapes = {3: ("f32", 2**20), 4: ("bf16", 8 * 2**20), 5: ("f32", 16 * 2**20)}
step_ps = 12_000_000_000  # 12 ms per step
for step in (10, 11):
    s0 = (step - 10) * step_ps + 1_001_234_567  # ps: the host events start 0.8 ms earlier
    for d in range(4):
        pid = d + 1
        ev.append({"pid": pid, "tid": 1, "name": str(step), "ts": us(s0), "dur": us(step_ps - 2_000_000), "ph": "X",
                   "args": {"group_id": str(step), "step_num": str(step)}})
        ev.append({"pid": pid, "tid": 2, "name": "jit_train_step(5)", "ts": us(s0 + 1_000_000), "dur": us(step_ps - 4_000_000), "ph": "X",
                   "args": {"program_id": "15838478290367340135", "run_id": "9007199254740993", "group_id": str(step)}})
        t = s0 + 2_000_000 + d * 317  # chips drift a few hundred ps apart
        def op(name, dur_ps, args, tid=3):
            global t
            a = {"long_name": args.pop("long_name", f"%{name} = ..."), "group_id": str(step), "program_id": "15838478290367340135"}
            a.update(args)
            a["device_duration_ps"] = dur_ps
            ev.append({"pid": pid, "tid": tid, "name": name, "ts": us(t), "dur": us(dur_ps), "ph": "X", "args": a})
            t += dur_ps + 700_123
        op("fusion.1", 120_456_789, {"hlo_category": "loop fusion", "bytes_accessed": 50331648, "raw_bytes_accessed": 50331648,
           "model_flops": 12582912, "shape_with_layout": "bf16[4096,2048]{1,0:T(8,128)(2,1)}",
           "long_name": "%fusion.1 = bf16[4096,2048]{1,0:T(8,128)(2,1)} fusion(bf16[4096,2048]{1,0} %p0, bf16[4096,2048]{1,0} %p1), kind=kLoop, calls=%fused_computation.1"})
        op("convolution.2", 851_234_567, {"hlo_category": "convolution", "bytes_accessed": 117440512, "raw_bytes_accessed": 117440512,
           "model_flops": 1099511627776, "shape_with_layout": "bf16[4096,4096]{1,0:T(8,128)(2,1)}",
           "long_name": "%convolution.2 = bf16[4096,4096]{1,0:T(8,128)(2,1)} convolution(bf16[4096,2048]{1,0} %fusion.1, bf16[2048,4096]{1,0} %p2), dim_labels=bf_io->bf"})
        for k in (3, 4, 5):
            dt, n = shapes[k]
            S = sizes[k]
            shp = f"{dt}[{n}]{{0:T(1024)}}"
            op(f"all-reduce.{k}", ar_ps(S), {"hlo_category": "all-reduce", "bytes_accessed": 2 * S, "raw_bytes_accessed": S,
               "shape_with_layout": shp, "model_flops": 0,
               "long_name": f"%all-reduce.{k} = {shp} all-reduce({shp} %fusion.1), channel_id={k}, replica_groups=[1,4]<=[4], use_global_device_ids=true, to_apply=%add.clone"})
        op("all-gather.6", 190_321_000, {"hlo_category": "all-gather", "bytes_accessed": 41943040, "raw_bytes_accessed": 8388608,
           "shape_with_layout": "bf16[16384,1024]{1,0:T(8,128)(2,1)}",
           "long_name": "%all-gather.6 = bf16[16384,1024]{1,0:T(8,128)(2,1)} all-gather(bf16[4096,1024]{1,0} %fusion.1), channel_id=6, replica_groups=[1,4]<=[4], dimensions={0}, use_global_device_ids=true"})
        op("collective-permute.7", 41_500_250, {"hlo_category": "collective-permute", "bytes_accessed": 4194304, "raw_bytes_accessed": 2097152,
           "shape_with_layout": "f32[524288]{0:T(1024)}",
           "long_name": "%collective-permute.7 = f32[524288]{0:T(1024)} collective-permute(f32[524288]{0} %fusion.1), channel_id=7, source_target_pairs={{0,1},{1,2},{2,3},{3,0}}"})
        # The copy's halves are XLA Ops; the Async XLA Ops line shows the same copy in flight, from its start to the
        # end of its done (METRICS.md §2: never added to the XLA Ops line).
        copy_from = t
        op("copy-start.8", 3_100_000, {"hlo_category": "async-copy", "bytes_accessed": 33554432, "raw_bytes_accessed": 33554432,
           "shape_with_layout": "(bf16[4096,4096]{1,0:T(8,128)(2,1)S(1)}, bf16[4096,4096]{1,0:T(8,128)(2,1)}, u32[]{:S(2)})"})
        op("copy-done.8", 95_000_000, {"hlo_category": "async-copy", "bytes_accessed": 33554432, "raw_bytes_accessed": 33554432,
           "shape_with_layout": "bf16[4096,4096]{1,0:T(8,128)(2,1)S(1)}"})
        copy_to = t - 700_123
        ev.append({"pid": pid, "tid": 4, "name": "copy-start.8", "ts": us(copy_from), "dur": us(copy_to - copy_from), "ph": "X",
                   "args": {"hlo_category": "async-copy", "group_id": str(step)}})
        op("fusion.9", 64_000_000, {"hlo_category": "output fusion", "bytes_accessed": 33554432, "raw_bytes_accessed": 33554432,
           "model_flops": 16777216, "shape_with_layout": "bf16[4096,4096]{1,0:T(8,128)(2,1)}"})
    ev.append({"pid": 701, "tid": 4242, "name": "$train.py:88 train_step", "ts": us(s0 - 800_000_000), "dur": us(step_ps), "ph": "X", "args": {}})
    ev.append({"pid": 701, "tid": 4250, "name": "PjitFunction(train_step)", "ts": us(s0 - 600_000_000), "dur": us(900_000_000), "ph": "X",
               "args": {"group_id": str(step), "run_id": "9007199254740993"}})
# xprof's non-standard counter series: not an event, skipped by the reader.
ev.append({"pid": 1, "name": "HBM bytes in use", "ph": "C", "event_stats": "bytes", "entries": [[1000.5, 1073741824], [13000.5, 2147483648]]})
# Late metadata: the writer does not promise M events first.
ev.append({"args": {"name": f"{host} /device:TPU:3"}, "name": "process_name", "ph": "M", "pid": 4, "thread_count": 4})
for d in range(4):
    ev.append({"args": {"name": "Async XLA Ops"}, "name": "thread_name", "ph": "M", "pid": d + 1, "tid": 4})
doc = {"displayTimeUnit": "ns", "metadata": {"highres-ticks": True}, "fullTimespan": [0, 24.002],
       "traceEvents": ev, "showCounterMessage": False, "totalCounterEvents": 0}
s = json.dumps(doc, separators=(",", ":"))
open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'tpu-v6e-4chip.trace.json'), 'w').write(s.replace('},{"', '},\n{"'))
