# Sourced by bench/run inside measure(), in file-name order: section (8), the event logs of (5) and (7).
# It shares bench/run's variables, helpers and results map R.
# shellcheck shell=bash
log "(8) event logs: driver-only time and task time"
eventlog_stats refresh_full
eventlog_stats small1
eventlog_stats "small$small_count"
for k in "${!R[@]}"; do
  if [[ "$k" == "ev_small$small_count."* ]]; then R[ev_small_many.${k#*.}]="${R[$k]}"; fi
done
