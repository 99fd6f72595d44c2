#!/usr/bin/env bash
# The "why" metrics (METRICS.md §4 "Why") on a held-out archive whose causes are injected by construction, checked
# figure by figure against bench/why_reference.py, an independent implementation that reads the trace JSON itself.
#   why-slow-gemm: rank 1's first backward GEMM of every layer takes 300 us longer   -> device
#   why-cpu-stall: rank 2's CPU stalls 30 ms before launching layer 1's backward     -> host
#   why-both:      rank 3 slower GEMM on layer 3, CPU stall before layer 0           -> device and host
# Usage: bench/why_check.sh [WORKDIR]   (exit 1 when any figure differs)
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
work="${1:-$(mktemp -d)}"
archive="$work/archive"
warehouse="$work/warehouse"
tl="$home/bin/tracelake"
rm -rf "$archive" "$warehouse"
common=(--ranks 4 --steps 2 --layers 4 -o "$archive")
"$tl" generate --name why-slow-gemm "${common[@]}" --seed 3 --fault 1:slow_gemm:-1:300
"$tl" generate --name why-cpu-stall "${common[@]}" --seed 5 --fault 2:cpu_stall:1:30000
"$tl" generate --name why-both "${common[@]}" --seed 9 --fault 3:slow_gemm:3:300 --fault 3:cpu_stall:0:30000
"$tl" refresh --archive "$archive" --warehouse "$warehouse"
# the engine's rows, one JSON object a line
"$tl" sql --warehouse "$warehouse" --format json --limit 1000000 \
  "SELECT workload, metric, figure, scope, rank, step, key, value FROM metrics
   WHERE metric IN ('lateness_cause', 'lateness_top_kernel', 'gpu_slowness', 'idle_breakdown')" > "$work/metrics.json"
"$tl" sql --warehouse "$warehouse" --format json --limit 1000000 \
  "SELECT workload, match_key, k, cause, delta_start_ns, delta_compute_ns, delta_idle_ns FROM collectives" \
  > "$work/collectives.json"
status=0
for w in why-slow-gemm why-cpu-stall why-both; do
  echo "== $w"
  python3 "$home/bench/why_reference.py" "$archive/$w" "$work/metrics.json" "$work/collectives.json" "$w" || status=1
done
exit $status
