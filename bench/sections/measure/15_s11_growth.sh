# Sourced by bench/run inside measure(), in file-name order: section (11), the warehouse as the archive grows (issue 39):
# bench/growth over 100 and 600 copies of one small workload (--quick: 10 and 20, as it touches g0003 to g0009), its
# Markdown section kept with the logs and appended to the report. It shares bench/run's variables, helpers and results map R.
# shellcheck shell=bash
if [ "$quick" = 1 ]; then growth_sizes="10 20"; else growth_sizes="100 600"; fi
log "(11) the warehouse as the archive grows: $growth_sizes copies of one small workload"
"$home/bench/growth" --target "$target" --out "$out/growth" --sizes "$growth_sizes" \
  > "$out/logs/growth.md" 2> "$out/logs/growth.err" || log "growth section failed: $(tail -3 "$out/logs/growth.err")"
rm -rf "$out/growth"
