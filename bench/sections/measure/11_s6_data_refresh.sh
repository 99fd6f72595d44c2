# Sourced by bench/run inside measure(), in file-name order: section (6), refresh of a copy of data/.
# It shares bench/run's variables, helpers and results map R.
# shellcheck shell=bash
log "(6) refresh of a copy of data/ on local[2]"
timed data_refresh 3g refresh --archive "$out/in-data" --warehouse "$out/wh-data" --master "local[2]"
runs_row data_refresh "$out/wh-data"
rm -rf "$out/wh-data"
