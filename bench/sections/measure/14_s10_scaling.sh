# Sourced by bench/run inside measure(), in file-name order: section (10), scaling on a standalone cluster.
# It shares bench/run's variables, helpers and results map R.
# shellcheck shell=bash
# BENCH_SKIP_CLUSTER=1 leaves it out (it takes ~7 minutes and, on 2 cores, cannot show scaling; see its section).
cluster_workers="1 2"
[ "${BENCH_SKIP_CLUSTER:-0}" = 1 ] && cluster_workers="" && log "(10) standalone cluster: skipped (BENCH_SKIP_CLUSTER=1)"
for w in $cluster_workers; do
  log "(10) standalone cluster, $w worker(s)"
  harness cluster "$w" "$out/cluster$w" "$arch" "$out/wh-cluster$w" > "$out/logs/cluster$w.out" 2> "$out/logs/cluster$w.err" || true
  kv "cluster$w" "$out/logs/cluster$w.out"
  tl 1g sql --warehouse "$out/wh-cluster$w" --format csv "$runs_query" > "$out/logs/cluster$w-runs.csv" 2>/dev/null || true
  R[cluster$w.run_s]=$(sed -n 2p "$out/logs/cluster$w-runs.csv" | awk -F, '{ print $7 }')
  R[cluster$w.ingest_s]=$(progress_seconds "$out/cluster$w/logs/submit.log")
  R[cluster$w.files_read]=$(sed -n 2p "$out/logs/cluster$w-runs.csv" | awk -F, '{ print $1 }')
  rm -rf "$out/wh-cluster$w"
done
submit_cmd=$(grep -m1 '^command=.*SparkSubmit' "$out/logs/cluster2.out" | sed 's/^command=//' || true)
submit_cmd="${submit_cmd//$home\//}"
