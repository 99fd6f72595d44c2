# Sourced by bench/run inside measure(), in file-name order: section (12), a year of nightly runs (issue 39):
# bench/year, 365 nights of 1 % of a 1,000-workload archive (--quick: 4 nights of 1 % of 20). The full year takes
# hours on a 2-core machine (each night pays the regression comparison's jobs), so it runs only when BENCH_YEAR=1;
# its Markdown section is kept with the logs and appended to the report. It shares bench/run's variables and helpers.
# shellcheck shell=bash
if [ "$quick" = 1 ]; then year_args=(--workloads 20 --nights 4); else year_args=(); fi
if [ "$quick" = 1 ] || [ "${BENCH_YEAR:-0}" = 1 ]; then
  log "(12) a year of nightly runs: bench/year ${year_args[*]}"
  "$home/bench/year" --target "$target" --out "$out/year" "${year_args[@]}" \
    > "$out/logs/year.md" 2> "$out/logs/year.err" || log "year section failed: $(tail -3 "$out/logs/year.err")"
  rm -rf "$out/year"
else
  echo "(not run: set BENCH_YEAR=1 to run bench/year, a year of nightly runs, which takes hours)" > "$out/logs/year.md"
fi
