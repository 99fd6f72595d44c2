# Sourced by bench/run inside measure(), in file-name order: the machine: load, cores, memory, Java, CPU.
# It shares bench/run's variables, helpers and results map R.
# shellcheck shell=bash
machine_nproc=$(nproc)
machine_mem=$(free -g | awk '/^Mem:/ { print $2 " GiB total, " $7 " GiB available" }')
machine_java=$("$java_cmd" -version 2>&1 | head -3 | paste -sd ';' | sed 's/;/; /g')
machine_cpu=$(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)
started=$(date -u +"%Y-%m-%d %H:%M UTC")
log "load before: $load_before"
