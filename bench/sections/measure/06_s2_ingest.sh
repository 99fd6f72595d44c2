# Sourced by bench/run inside measure(), in file-name order: section (2), ingest into Parquet on local[1] and local[2].
# It shares bench/run's variables, helpers and results map R.
# shellcheck shell=bash
for n in 1 2; do
  log "(2) ingest local[$n]"
  jfr=()
  [ "$n" = 1 ] && jfr=("-XX:FlightRecorderOptions=stackdepth=256" "-XX:StartFlightRecording=filename=$out/ingest1.jfr,settings=profile")
  BENCH_JAVA_OPTS="${jfr[*]:-}" timed "ingest$n" 2g ingest --archive "$out/in-parse" --warehouse "$out/wh-ingest$n" --master "local[$n]"
  R[ingest$n.job_s]=$(progress_seconds "$out/logs/ingest$n.log")
  R[ingest$n.events]=$(progress_events "$out/logs/ingest$n.log")
done
harness jfr-top "$out/ingest1.jfr" 12 > "$out/logs/jfr.out" 2>/dev/null || echo "samples=0" > "$out/logs/jfr.out"
rm -f "$out/ingest1.jfr"; rm -rf "$out/wh-ingest1" "$out/wh-ingest2"
