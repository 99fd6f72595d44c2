#!/usr/bin/env bash
# Issue 28's per-column profile of the events write, and its floor, printed as a Markdown section on stdout:
#   one generated Kineto trace (~2 M events, one rank), read by tracelake's Kineto reader (both passes, one thread),
#   its rows written to Parquet by bench/java/WriteProfile.java with ingest's own writer (warehouse/RowFile) and
#   settings: the whole table (the floor), each column alone (ingest's dictionary setting and the other one),
#   whole-table settings one at a time, and reading and writing in one pass as ingest's task does (no Spark).
# Run alone (bench/sections/write_profile.sh) or from bench/run, which measures it before its report and appends the
# section to BENCHMARKS.md.
# BENCH_WP_ROUNDS (default 3) measured rounds after one warm-up, medians reported; BENCH_WP_LAYERS (default 1300:
# ~1.9 M events, ~410 MB) sizes the trace; BENCH_WP_HEAP (default 6g) the JVM heap (the rows are held in memory);
# BENCH_WP_PROFILE=FILE prints the section from an earlier run's WriteProfile output instead of measuring;
# BENCH_WP_KEEP_PROFILE=FILE keeps this run's key=value output there.
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
work="${BENCH_OUT:-$home/bench/out}/write_profile"
rounds="${BENCH_WP_ROUNDS:-3}"
layers="${BENCH_WP_LAYERS:-1300}"
rm -rf "$work"; mkdir -p "$work/classes"
tl="$home/bin/tracelake"
. "$home/bench/sections/common.sh"

if [ -n "${BENCH_WP_PROFILE:-}" ]; then   # re-print the section from an earlier run's key=value output
  cp "$BENCH_WP_PROFILE" "$work/profile.txt"; load_before="(earlier run)"; load_after="(earlier run)"
else
  "$tl" --version > /dev/null 2>&1 || true   # builds the jar and jobs/target/classpath.txt once
  target="$home/jobs/target"
  cp="$target/tracelake-jobs-0.1.0-SNAPSHOT.jar:$(cat "$target/classpath.txt")"
  javac -nowarn -d "$work/classes" -cp "$cp" "$home/bench/java/WriteProfile.java"

  log "(write profile) generating one rank, 16 steps, $layers layers"
  "$tl" generate -o "$work/gen" --name one --ranks 1 --steps 16 --layers "$layers" --no-gzip > /dev/null 2>&1
  trace=$(find "$work/gen" -name '*.json' | head -1)
  load_before=$(uptime | sed 's/.*load average: //')
  log "(write profile) WriteProfile on $(du -m "$trace" | cut -f1) MB, $rounds rounds"
  java "-Xmx${BENCH_WP_HEAP:-6g}" $(cat "$target/jvm-options.txt") -Dlog4j2.configurationFile="$home/conf/log4j2.properties" \
    -cp "$work/classes:$cp" WriteProfile "$trace" "$work/out" "$rounds" > "$work/profile.txt" 2> "$work/profile.err"
  load_after=$(uptime | sed 's/.*load average: //')
  rm -rf "$work/gen" "$work/out"
fi
# bench/run keeps the key=value figures (its analysis uses the floor) with its logs.
[ -z "${BENCH_WP_KEEP_PROFILE:-}" ] || cp "$work/profile.txt" "$BENCH_WP_KEEP_PROFILE"

v() { sed -n "s/^$1=//p" "$work/profile.txt" | head -1; }
calc() { awk "BEGIN { printf \"$1\", $2 }"; }
cols=$(sed -n 's/^col\.\([^.]*\)\.cpu_s=.*/\1/p' "$work/profile.txt")
# A one-column write still pays the per-record walk (startMessage/endMessage, a definition level per row): the
# cheapest column's time is taken as that fixed part, and a column's share is what it costs above it.
base=$(sed -n 's/^col\.[^.]*\.cpu_s=//p' "$work/profile.txt" | sort -g | head -1)
sum=$(sed -n 's/^col\.[^.]*\.cpu_s=//p' "$work/profile.txt" | awk -v b="$base" '{ s += $1 - b } END { printf "%.3f", s }')
reader=$(v reader_cpu_s); floor=$(v floor_cpu_s)
fused=$(v fused_cpu_s); floor_process=$(v floor_process_cpu_s)

table=$(for c in $cols; do
  cpu=$(v "col.$c.cpu_s"); other=$(v "col.$c.other_cpu_s")
  printf '%s\t| %s | %s | %s | %s | %s | %s → %s | %s s, %s MB |\n' "$cpu" "$c" "$(v "col.$c.type")" \
    "$(calc '%.1f %%' "100 * ($cpu - $base) / $sum")" "$cpu" "$(v "col.$c.mb")" "$(v "col.$c.dict_setting")" \
    "$(v "col.$c.dict_used")" "$other" "$(v "col.$c.other_mb")"
done | sort -g -r | cut -f2)

variants=$(for k in uncompressed snappy no_dictionary dictionary_everywhere statistics_everywhere row_group_16m page_64k; do
  printf '| %s | %s | %s |\n' "${k//_/ }" "$(v "variant.$k.cpu_s")" "$(v "variant.$k.mb")"
done)

cat <<MD
## The events write taken apart (issue 28)

Measured $(date -u '+%Y-%m-%d %H:%M UTC') on $(nproc) cores (load average before / after: $load_before / $load_after),
\`bench/sections/write_profile.sh\`: one generated Kineto trace of $(v file_mb) MB, $(v events) events (one rank,
16 steps, $layers layers). Every figure is the measuring thread's CPU seconds (the median of $rounds rounds after a
warm-up) unless it says process. Every write writes the same rows with ingest's own writer (\`warehouse/RowFile\`:
parquet-hadoop fed the reader's rows as they are, no Spark, no projection, strings as views of their bytes), the
events schema without the partition column \`workload\`, with ingest's settings unless a row says otherwise (zstd; no
dictionary for the six near-unique columns; no min/max for the long strings; no size statistics; parquet-hadoop's
128 MiB row groups and 1 MiB pages; \`bench/java/WriteProfile.java\`).

| | CPU-s | MB on disk |
|---|---|---|
| the reader, both passes, one thread (as section (1)) | **$reader** | |
| **the floor**: ingest's write of the rows, held in memory | **$floor** (process $floor_process) | $(v floor_mb) |
| the floor again, after the variants below (same window) | $(v floor_again_cpu_s) | |
| reading and writing in one pass, as ingest's task does (no Spark) | $fused (process $(v fused_process_cpu_s)) | $(v fused_mb) |

- **Ingest per core at best** with Parquet output of this table: reader ÷ (reader + floor) =
  $reader ÷ ($reader + $floor) = **$(calc '%.0f %%' "100 * $reader / ($reader + $floor)")** of the single-thread reader
  (issue 28's target: ≥ 60 %). The write's floor is $(calc '%.2f' "$floor / $reader")× the reader's time.
- **Reading and writing in one pass** costs $fused CPU-s against reader + floor = $(calc '%.3f' "$reader + $floor")
  ($(calc '%.2f' "$fused / ($reader + $floor)")×): what ingest's task pays beyond the two is Spark's task around it
  and the per-rank pass (section (2)'s profile).

### Per column

Each column written alone (one-column schema, same rows, same settings). Every such write pays the per-record
walk whatever the column; the cheapest column's time, $base CPU-s, is taken as that fixed part, and a column's share
is its CPU above it ÷ the sum of those ($sum CPU-s; fixed part + sum = $(calc '%.2f' "$base + $sum") against the
whole table at once, $floor). "dictionary" is ingest's setting → whether the chunk came out dictionary-encoded; the
last column is the same column with the opposite dictionary setting.

| column | type | share of the write's CPU | CPU-s | MB on disk | dictionary | opposite setting |
|---|---|---|---|---|---|---|
$table

### Whole-table settings, one at a time (against the floor's $floor CPU-s, $(v floor_mb) MB)

| setting | CPU-s | MB on disk |
|---|---|---|
$variants

MD
