# Sourced by bench/run inside measure(), in file-name order: section (5), refresh of the 8-rank archive: full, nothing changed, one rank touched.
# It shares bench/run's variables, helpers and results map R.
# shellcheck shell=bash
arch="$out/in-archive"
wh="$out/wh-refresh"
log "(5) refresh: full, with Spark's event log"
# shellcheck disable=SC2046
timed refresh_full 3g refresh --archive "$arch" --warehouse "$wh" $(eventlog_conf refresh_full)
R[refresh_full.ingest_s]=$(progress_seconds "$out/logs/refresh_full.log")
log "(5) refresh: nothing changed"
timed refresh_same 3g refresh --archive "$arch" --warehouse "$wh"
touched=$(find "$arch" -name 'rank3_trace.json')
touch "$touched"
log "(5) refresh: rank 3 touched"
timed refresh_touch 3g refresh --archive "$arch" --warehouse "$wh"
R[refresh_touch.ingest_s]=$(progress_seconds "$out/logs/refresh_touch.log")
tl 1g sql --warehouse "$wh" --format csv "$runs_query" > "$out/logs/runs.csv" 2> "$out/logs/runs.err" || true
i=0
for run in refresh_full refresh_same refresh_touch; do
  i=$((i + 1))
  line=$(sed -n "$((i + 1))p" "$out/logs/runs.csv")
  IFS=',' read -r f1 f2 f3 f4 f5 f6 f7 <<< "$line"
  R[$run.files_read]=$f1; R[$run.files_unchanged]=$f2; R[$run.refreshed]=$f3; R[$run.unchanged]=$f4
  R[$run.bytes_read]=$f5; R[$run.events]=$f6; R[$run.run_s]=$f7
done
rm -rf "$wh"
