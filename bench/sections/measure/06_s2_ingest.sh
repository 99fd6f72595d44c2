# Sourced by bench/run inside measure(), in file-name order: section (2), ingest into Parquet on local[1] and local[2].
# It shares bench/run's variables, helpers and results map R.
# shellcheck shell=bash
# The figures come from runs without a profiler (JFR's sampling slowed the task by ~20 %); a third run, local[1]
# under JFR, gives the profile of where the task's time goes.
for n in 1 2; do
  log "(2) ingest local[$n]"
  timed "ingest$n" 2g ingest --archive "$out/in-parse" --warehouse "$out/wh-ingest$n" --master "local[$n]"
  R[ingest$n.job_s]=$(progress_seconds "$out/logs/ingest$n.log")
  R[ingest$n.events]=$(progress_events "$out/logs/ingest$n.log")
  rm -rf "$out/wh-ingest$n"
done
log "(2) ingest local[1] under JFR, for the profile"
BENCH_JAVA_OPTS="-XX:FlightRecorderOptions=stackdepth=256 -XX:StartFlightRecording=filename=$out/ingest1.jfr,settings=profile" \
  timed "ingest1_jfr" 2g ingest --archive "$out/in-parse" --warehouse "$out/wh-ingest1-jfr" --master "local[1]"
R[ingest1_jfr.job_s]=$(progress_seconds "$out/logs/ingest1_jfr.log")
harness jfr-top "$out/ingest1.jfr" 12 > "$out/logs/jfr.out" 2>/dev/null || echo "samples=0" > "$out/logs/jfr.out"
rm -f "$out/ingest1.jfr"; rm -rf "$out/wh-ingest1-jfr"
