# Sourced by bench/run inside measure(), in file-name order: section (3), ingest against python3's json.load, side by side.
# It shares bench/run's variables, helpers and results map R.
# shellcheck shell=bash
# The whole ingest process on local[1] (no JFR) and python3 loading the same file with json.load, each under
# /usr/bin/time, alternated twice so that both see the same page cache and the same neighbours; best of two each.
py_version=$(python3 --version 2>&1 || echo "no python3")
for i in 1 2; do
  log "(3) round $i: python3 json.load, then tracelake ingest local[1]"
  run_timed "py$i" python3 -c "import json, sys; json.load(open(sys.argv[1]))" "$parse_file"
  timed "vs$i" 2g ingest --archive "$out/in-parse" --warehouse "$out/wh-vs$i" --master "local[1]"
  R[vs$i.job_s]=$(progress_seconds "$out/logs/vs$i.log")
  rm -rf "$out/wh-vs$i"
done
