# Sourced by bench/run inside measure(), in file-name order: issue 28's per-column profile of the events write and its
# floor (bench/sections/write_profile.sh, ~410 MB trace of its own). Measured here, before the report, so that the
# analysis can use the floor; the section itself is appended to the report from logs/write_profile.md.
# It shares bench/run's variables, helpers and results map R.
# shellcheck shell=bash
if [ "$quick" = 1 ]; then
  log "(write profile) skipped in quick mode"
else
  log "(write profile) the events write taken apart"
  BENCH_OUT="$out" BENCH_WP_KEEP_PROFILE="$out/logs/write_profile.txt" "$home/bench/sections/write_profile.sh" \
    > "$out/logs/write_profile.md" 2> "$out/logs/write_profile.err" || log "write profile failed: $(tail -3 "$out/logs/write_profile.err")"
  [ -f "$out/logs/write_profile.txt" ] && kv wp "$out/logs/write_profile.txt"
  rm -rf "$out/write_profile"
fi
