# Sourced by bench/run inside measure(), in file-name order: section (1), the limit: single-thread parse, no Spark.
# It shares bench/run's variables, helpers and results map R.
# shellcheck shell=bash
log "(1) single-thread parse, no Spark"
harness parse "$parse_file" > "$out/logs/parse.out" 2> "$out/logs/parse.err" || log "BenchHarness parse failed: $(tail -3 "$out/logs/parse.err")"
kv parse "$out/logs/parse.out"
harness reader "$half_file" > "$out/logs/half.out" 2> "$out/logs/half.err" || log "BenchHarness reader failed: $(tail -3 "$out/logs/half.err")"
kv half "$out/logs/half.out"
rm -rf "$out/in-half"
# The same reader on a real trace: the H200 torch.compile capture of ../shared (PyTorch 2.11: kernels before their
# launches, the args real profilers write), its events repeated to 273 MB (quick: 3 MB) by bench/lib/repeat_trace.py.
real_src="$home/../shared/captures/h200/h200-torch-compile-1gpu/profile_traces/iteration_7/rank0_trace.json.gz"
if [ -f "$real_src" ]; then
  if [ "$quick" = 1 ]; then real_target=3000000; else real_target=273000000; fi
  mkdir -p "$out/in-real"
  python3 "$home/bench/lib/repeat_trace.py" "$real_src" "$out/in-real/rank0_trace.json" "$real_target" > "$out/logs/real_repeat.out"
  kv real_repeat <(tr ' ' '\n' < "$out/logs/real_repeat.out")
  harness parse "$out/in-real/rank0_trace.json" > "$out/logs/real.out" 2> "$out/logs/real.err" || log "BenchHarness parse of the real trace failed: $(tail -3 "$out/logs/real.err")"
  kv real "$out/logs/real.out"
  rm -rf "$out/in-real"
else
  log "(1) no real H200 capture at $real_src: the reader is measured on the generated trace only"
fi
