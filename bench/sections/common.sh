# Shared by the bench sections (sourced, after each sets $work): a progress line, the median of numbers on stdin,
# and the wall seconds of a command (its output to $work/last.log; under set -e a failed command fails the section).
log() { printf '%s %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
timed() { local t0 t1; t0=$(date +%s.%N); "$@" > "$work/last.log" 2>&1; t1=$(date +%s.%N); awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f\n", b - a }'; }
