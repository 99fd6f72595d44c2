# Sourced by bench/run inside measure(), in file-name order: section (4), memory: the big trace with a 1 GB heap.
# It shares bench/run's variables, helpers and results map R.
# shellcheck shell=bash
log "(4) $(calc "%.2f" "$big_bytes / 1e9") GB trace with a 1 GB heap"
log "(4) pass 1 alone on the big trace with a 1 GB heap"
HARNESS_HEAP=1g harness index "$big_file" > "$out/logs/index.out" 2>&1 || true
kv index "$out/logs/index.out"
log "(4) ingest of the big trace with a 1 GB heap (cap: $memory_cap s, 0 = none)"
[ "$memory_cap" != 0 ] && TIMED_CAP="$memory_cap"
TIMED_CAP="${TIMED_CAP:-}" timed memory 1g ingest --archive "$out/in-big" --warehouse "$out/wh-big" --master "local[2]" \
  --conf spark.driver.memory=1g --conf spark.executor.memory=1g
R[memory.job_s]=$(progress_seconds "$out/logs/memory.log")
R[memory.events]=$(progress_events "$out/logs/memory.log")
rm -rf "$out/in-big" "$out/wh-big"   # 5+ GB of disk back before the refresh runs
