# Sourced by bench/run inside measure(), in file-name order: section (7), one small workload against many.
# It shares bench/run's variables, helpers and results map R.
# shellcheck shell=bash
for n in 1 "$small_count"; do
  log "(7) cold refresh of $n small workload(s), with Spark's event log"
  # shellcheck disable=SC2046
  timed "small$n" 3g refresh --archive "$out/in-small$n" --warehouse "$out/wh-small$n" $(eventlog_conf "small$n")
  runs_row "small$n" "$out/wh-small$n"
  rm -rf "$out/wh-small$n"
done
for k in "${!R[@]}"; do
  if [[ "$k" == "small$small_count."* ]]; then R[small_many.${k#*.}]="${R[$k]}"; fi
done
