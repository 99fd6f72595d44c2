# Sourced by bench/run inside measure(), in file-name order: section (3), ingest against python3's json.load, side by side.
# It shares bench/run's variables, helpers and results map R.
# shellcheck shell=bash
# The whole ingest process on local[1] (no JFR), as a user runs it (bin/tracelake, with the class archive it makes
# after a build: a class-data archive on JDK 17 to 24, an AOT cache on JDK 25 and later), and python3 loading the same
# file with json.load, each under /usr/bin/time, alternated three times so that both see the same page cache and the
# same neighbours. When a JDK 25 or later is found (BENCH_JDK25, else the newest under /usr/lib/jvm), the same ingest on
# it joins each round. Each launcher's first run, which writes its archive, is a warm-up and is not counted.
py_version=$(python3 --version 2>&1 || echo "no python3")
jdk25="${BENCH_JDK25:-}"
if [ -z "$jdk25" ]; then
  for j in /usr/lib/jvm/*; do
    v=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$j/release" 2>/dev/null | head -1 || true)
    if [ -n "$v" ] && [ "$v" -ge 25 ] && [ -x "$j/bin/java" ]; then jdk25="$j"; fi
  done
fi
R[jdk25]="${jdk25:-none}"
R[jdk_default]=$("$java_cmd" -version 2>&1 | head -1 | sed 's/.*version "\([^"]*\)".*/JDK \1/')
[ -z "$jdk25" ] || R[jdk25_version]=$("$jdk25/bin/java" -version 2>&1 | head -1 | sed 's/.*version "\([^"]*\)".*/JDK \1/')
launcher_ingest() { # NAME [JAVA_HOME]: one launcher ingest of the parse trace, local[1], 2 GB heap, timed as NAME
  local name="$1" jh="${2:-}"
  run_timed "$name" env ${jh:+JAVA_HOME="$jh"} TRACELAKE_DRIVER_MEMORY=2g "$home/bin/tracelake" ingest \
    --archive "$out/in-parse" --warehouse "$out/wh-$name" --master "local[1]"
  R[$name.job_s]=$(progress_seconds "$out/logs/$name.log")
  rm -rf "$out/wh-$name"
}
log "(3) warm-up: the launcher's first run writes its class archive"
launcher_ingest vs_warmup
[ -z "$jdk25" ] || launcher_ingest vs25_warmup "$jdk25"
for i in 1 2 3; do
  log "(3) round $i: python3 json.load, then tracelake ingest local[1]${jdk25:+, then the same on $(basename "$jdk25")}"
  run_timed "py$i" python3 -c "import json, sys; json.load(open(sys.argv[1]))" "$parse_file"
  launcher_ingest "vs$i"
  [ -z "$jdk25" ] || launcher_ingest "vs25_$i" "$jdk25"
done
