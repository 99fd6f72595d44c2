#!/usr/bin/env bash
# Issue 27's targets for the metric engine, measured on this machine, printed as a Markdown section on stdout:
#   (a) the CPU split of a cold refresh of a copy of data/ (start, ingest, metrics, commit), from the refresh's own
#       "CPU by phase" line (the process's CPU, every thread); target: metrics <= 5 CPU-s;
#   (b) a cold refresh of one small workload against a session answering one `sql` query (both whole processes,
#       side by side, same machine); target <= 2x;
#   (c) a cold refresh of 48 small workloads against that of one; target <= 3x;
#   (d) a cold refresh of a generated 8-rank ~450 MB archive: the metrics phase's share of the refresh's wall time
#       (its own "metrics staged in" line against the whole process); target <= 25 %. BENCH_ENGINE_BIG=0 skips it.
# Run alone (bench/sections/metric_engine.sh) or from bench/run, which appends the section to BENCHMARKS.md.
# BENCH_ENGINE_RUNS (default 3) runs of each, the median is reported.
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
work="${BENCH_OUT:-$home/bench/out}/engine"
runs="${BENCH_ENGINE_RUNS:-3}"
rm -rf "$work"; mkdir -p "$work"
tl="$home/bin/tracelake"
. "$home/bench/sections/common.sh"

"$tl" --version > /dev/null 2>&1 || true   # builds once
# inputs: data/, one small generated workload, 48 copies of it
cp -r "$home/data" "$work/data"
mkdir -p "$work/one" "$work/many"
"$tl" generate -o "$work/gen" --name small --ranks 4 --steps 2 --layers 10 > /dev/null 2>&1
cp -r "$work/gen/small" "$work/one/small"
for i in $(seq -w 1 48); do
  cp -r "$work/gen/small" "$work/many/small$i"
  mv "$work/many/small$i/small.yaml" "$work/many/small$i/small$i.yaml" 2>/dev/null || true
done
"$tl" refresh --archive "$work/one" --warehouse "$work/wh-sql" > /dev/null 2>&1  # a warehouse for the sql session

log "(engine a) CPU split of a cold refresh of data/"
for r in $(seq 1 "$runs"); do
  rm -rf "$work/wh-data"
  "$tl" refresh --archive "$work/data" --warehouse "$work/wh-data" > "$work/data-$r.log" 2>&1
  grep -o 'CPU by phase:.*' "$work/data-$r.log" | tail -1 >> "$work/cpu-lines.txt"
done
field() { sed -n "s/.*$1 \([0-9.]*\) s.*/\1/p" "$work/cpu-lines.txt" | median; }
start=$(field start); ingest=$(field ingest); metrics=$(field metrics); commit=$(field commit); process=$(field process)

log "(engine b, c) one small workload, 48 of them, and one sql query, alternating"
for r in $(seq 1 "$runs"); do
  rm -rf "$work/wh-one" "$work/wh-many"
  timed "$tl" refresh --archive "$work/one" --warehouse "$work/wh-one" >> "$work/one.txt"
  timed "$tl" sql --warehouse "$work/wh-sql" "SELECT count(*) FROM metrics" >> "$work/sql.txt"
  timed "$tl" refresh --archive "$work/many" --warehouse "$work/wh-many" >> "$work/many.txt"
done
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
met() { awk -v v="$1" -v t="$2" 'BEGIN { print (v <= t) ? "met" : "**missed**" }'; }
one=$(median < "$work/one.txt"); sql=$(median < "$work/sql.txt"); many=$(median < "$work/many.txt")

big_row="| cold refresh of the 8-rank archive: metrics phase ÷ whole refresh (wall) | not measured (BENCH_ENGINE_BIG=0) | ≤ 25 % | |"
if [ "${BENCH_ENGINE_BIG:-1}" != 0 ]; then
  log "(engine d) the 8-rank ~450 MB archive: generate, then one cold refresh"
  "$tl" generate -o "$work/big" --name llama-8rank --ranks 8 --steps 16 --layers 178 --no-gzip > /dev/null 2>&1
  big_mb=$(du -sm "$work/big" | cut -f1)
  big_wall=$(TRACELAKE_DRIVER_MEMORY=3g timed "$tl" refresh --archive "$work/big" --warehouse "$work/wh-big")
  cp "$work/last.log" "$work/big.log"
  big_metrics=$(sed -n 's/.*metrics staged in \([0-9.]*\) s.*/\1/p' "$work/big.log" | tail -1)
  big_cpu=$(grep -o 'CPU by phase:.*' "$work/big.log" | tail -1)
  share=$(awk -v m="$big_metrics" -v w="$big_wall" 'BEGIN { printf "%.0f", 100 * m / w }')
  big_row="| cold refresh of the 8-rank archive ($big_mb MB): metrics phase ÷ whole refresh (wall) | $big_metrics s ÷ $big_wall s = **$share %** ($big_cpu) | ≤ 25 % | $(met "$share" 25) |"
  rm -rf "$work/big" "$work/wh-big"
fi

cat <<MD
## Metric engine (issue 27)

Measured $(date -u '+%Y-%m-%d %H:%M UTC') on $(nproc) cores, median of $runs runs each (\`bench/sections/metric_engine.sh\`).

| figure | value | target | |
|---|---|---|---|
| cold refresh of data/: CPU in start / ingest / metrics / commit (whole process) | $start / $ingest / **$metrics** / $commit s ($process s) | metrics ≤ 5 CPU-s | $(met "$metrics" 5) |
| cold refresh of 1 small workload (4 ranks) ÷ one \`sql\` query, whole processes | $one s ÷ $sql s = **$(ratio "$one" "$sql")×** | ≤ 2× | $(met "$(ratio "$one" "$sql")" 2) |
| cold refresh of 48 small workloads ÷ 1 | $many s ÷ $one s = **$(ratio "$many" "$one")×** | ≤ 3× | $(met "$(ratio "$many" "$one")" 3) |
$big_row

The CPU split is the refresh's own last line (\`CPU by phase: …\`, the process's CPU over every thread, the JIT
compiler's and the garbage collector's included). Spark jobs, stages and SQL executions of the same refresh are
asserted by \`RefreshPlanSizeTest\` (≤ 12 / 30 / 40, and no more for 48 workloads).
MD
