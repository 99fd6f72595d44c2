# Sourced by bench/run inside measure(), in file-name order: section (1), the limit: single-thread parse, no Spark.
# It shares bench/run's variables, helpers and results map R.
# shellcheck shell=bash
log "(1) single-thread parse, no Spark"
harness parse "$parse_file" > "$out/logs/parse.out" 2> "$out/logs/parse.err" || log "BenchHarness parse failed: $(tail -3 "$out/logs/parse.err")"
kv parse "$out/logs/parse.out"
harness reader "$half_file" > "$out/logs/half.out" 2> "$out/logs/half.err" || log "BenchHarness reader failed: $(tail -3 "$out/logs/half.err")"
kv half "$out/logs/half.out"
rm -rf "$out/in-half"
