#!/usr/bin/env bash
# Issue 30's target for `serve`, measured on this machine, printed as a Markdown section on stdout: five queries
# through one `tracelake serve`, each from a fresh `bin/tracelake sql --remote` process (a whole process: JVM start,
# Spark Connect client, query, print), against a cold `bin/tracelake sql` query (a whole process: JVM start, local
# Spark start, query, print; --local, as serve is running), side by side on one warehouse (a refresh of a copy of data/); target: the five's mean
# <= 25 % of the cold one. One untimed run of each kind first, so both use their class-data-sharing archive (made
# once per build, as for every user). BENCH_SERVE_COLD_RUNS (default 3) cold queries, the median is reported.
# Every client presents serve's token (read from WAREHOUSE/_serve/token, as users' clients do). Then issue 42's
# figure: the README's query by plain `bin/tracelake sql --warehouse W` (no --remote: it finds the running serve in
# W/_serve/server, and serve's local endpoint answers it: serve/LocalClient, a JVM with only the JDK and tracelake's
# jar), BENCH_SERVE_AUTO_RUNS (default 7) runs, the median; target <= 1.5 s on a quiet machine.
# The serve is measured after its warm-up (serve's own queries at start, ServeWarmup), as a serve left running answers.
# Run alone (bench/sections/serve.sh) or from bench/run, which appends the section to BENCHMARKS.md.
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
work="${BENCH_OUT:-$home/bench/out}/serve"
cold_runs="${BENCH_SERVE_COLD_RUNS:-3}"
auto_runs="${BENCH_SERVE_AUTO_RUNS:-7}"
rm -rf "$work"; mkdir -p "$work"
tl="$home/bin/tracelake"
. "$home/bench/sections/common.sh"

"$tl" --version > /dev/null 2>&1 || true   # builds once
cp -r "$home/data" "$work/data"
log "(serve) refreshing a copy of data/"
"$tl" refresh --archive "$work/data" --warehouse "$work/wh" > "$work/refresh.log" 2>&1

queries=(
  "SELECT workload, count(*) AS events FROM events GROUP BY workload ORDER BY workload"
  "SELECT workload, figure, value FROM metrics WHERE scope = 'workload' AND metric = 'iter_time' ORDER BY workload, figure"
  "SELECT collective, count(*) AS kernels, sum(in_bytes) AS bytes FROM events WHERE activity_class = 'comm' GROUP BY ALL ORDER BY ALL"
  "SELECT kernel_category(activity_class, name) AS category, count(*) AS n FROM events WHERE activity_class IS NOT NULL GROUP BY ALL ORDER BY n DESC LIMIT 5"
  "SELECT metric, figure, unit FROM metric_reference WHERE category = 'communication' ORDER BY metric LIMIT 5"
)

log "(serve) starting serve"
"$tl" serve --warehouse "$work/wh" --port 0 > "$work/serve.out" 2> "$work/serve.err" &
serve_pid=$!
# The JVM is serve's own pid, which it announces: the launcher's pid is a shell, not the JVM, on the run that writes
# the class-data archive (the first after a build), and a TERM to it alone would leave serve running.
stop_serve() {
  local jvm
  jvm=$(sed -n 's/^pid=\([0-9]*\)$/\1/p' "$work/wh/_serve/server" 2>/dev/null | head -n 1) || true
  [ -z "$jvm" ] || kill -TERM "$jvm" 2>/dev/null || true
  kill -TERM "$serve_pid" 2>/dev/null || true
  wait "$serve_pid" 2>/dev/null || true
}
trap stop_serve EXIT
url=""
for _ in $(seq 1 600); do
  url=$(grep -o 'listening on sc://[^ ]*' "$work/serve.out" 2>/dev/null | head -1 | sed 's/listening on //') || true
  [ -n "$url" ] && break
  kill -0 "$serve_pid" 2>/dev/null || { cat "$work/serve.err" >&2; exit 1; }
  sleep 1
done
[ -n "$url" ] || { log "serve did not start"; exit 1; }
# serve warms itself up once it listens (a fixed number of queries of its own, ServeWarmup): what a serve that has
# been running answers at. The figures are of that serve; how long its warm-up took is reported beside them.
warm=""
for _ in $(seq 1 900); do
  warm=$(grep -o 'warmed up ([0-9]* queries in [0-9.]* s)' "$work/serve.out" 2>/dev/null | head -1) || true
  [ -n "$warm" ] && break
  kill -0 "$serve_pid" 2>/dev/null || { cat "$work/serve.err" >&2; exit 1; }
  sleep 1
done
[ -n "$warm" ] || { log "serve did not finish its warm-up"; exit 1; }
log "(serve) $warm"
warm_desc=$(printf '%s' "$warm" | sed 's/^warmed up (\(.*\))$/\1/')

log "(serve) warm-up: one remote and one local query (class-data-sharing archives)"
"$tl" sql --remote "$url" --warehouse "$work/wh" "SELECT 1" > /dev/null 2>&1
"$tl" sql --local --warehouse "$work/wh" "SELECT 1" > /dev/null 2>&1

log "(serve) five queries through serve, a fresh sql --remote process each; $cold_runs cold local queries"
for i in "${!queries[@]}"; do
  timed "$tl" sql --remote "$url" --warehouse "$work/wh" "${queries[$i]}" >> "$work/remote.txt"
  cp "$work/last.log" "$work/remote-$i.log"
  if [ "$i" -lt "$cold_runs" ]; then
    timed "$tl" sql --local --warehouse "$work/wh" "${queries[0]}" >> "$work/cold.txt"
  fi
done
readme_query="SELECT workload, rank, collective, count(*) AS kernels, sum(in_bytes) AS bytes FROM events WHERE activity_class = 'comm' GROUP BY ALL ORDER BY ALL"
log "(serve) the README's query by plain sql (found serve through the warehouse), $auto_runs runs"
"$tl" sql --warehouse "$work/wh" "$readme_query" > "$work/auto-first.txt" 2> "$work/auto-first.err"
grep -q '(25 rows)' "$work/auto-first.txt" || { log "sql through the running serve did not answer"; cat "$work/auto-first.err" >&2; exit 1; }
for _ in $(seq 1 "$auto_runs"); do
  timed "$tl" sql --warehouse "$work/wh" "$readme_query" >> "$work/auto.txt"
done
load=$(cut -d ' ' -f 1 /proc/loadavg)
stop_serve; trap - EXIT

mean=$(awk '{ s += $1 } END { printf "%.2f", s / NR }' "$work/remote.txt")
cold=$(median < "$work/cold.txt")
pct=$(awk -v a="$mean" -v b="$cold" 'BEGIN { printf "%.0f", 100 * a / b }')
met=$(awk -v p="$pct" 'BEGIN { print (p <= 25) ? "met" : "**missed**" }')
each=$(paste -sd'/' "$work/remote.txt" | sed 's|/| / |g')
auto=$(median < "$work/auto.txt")
auto_each=$(sort -g "$work/auto.txt" | paste -sd'/' | sed 's|/| / |g')
auto_met=$(awk -v a="$auto" 'BEGIN { print (a <= 1.5) ? "met" : "**missed**" }')

cat <<MD
## Serve (issue 30; with the token, issue 45; plain \`sql\`, issue 42)

Measured $(date -u '+%Y-%m-%d %H:%M UTC') on $(nproc) cores (\`bench/sections/serve.sh\`): one \`tracelake serve\` on a
refresh of data/ (measured after its start-up warm-up: $warm_desc), five queries each from a fresh
\`bin/tracelake sql --remote\` process, and one cold \`bin/tracelake sql\` query (median of $cold_runs, run between
them), whole processes, wall time.

| figure | value | target | |
|---|---|---|---|
| five queries through serve (events, metrics, a udf, metric_reference) | $each s, mean **$mean s** | | |
| one cold \`sql\` query (JVM and Spark start, query) | **$cold s** | | |
| mean through serve ÷ cold | **$pct %** | ≤ 25 % | $met |
| the README's query by plain \`sql\` with serve running: its local endpoint (issue 42; $auto_runs runs, sorted; load $load at the end) | $auto_each s, median **$auto s** | ≤ 1.5 s quiet | $auto_met |
MD
