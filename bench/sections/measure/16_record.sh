# Sourced by bench/run inside measure(): the machine's load after, and every figure into results.env (for --render).
# shellcheck shell=bash
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
finished=$(date -u +"%Y-%m-%d %H:%M UTC")
log "load after: $load_after"
{
  declare -p R
  for var in load_before load_after machine_nproc machine_mem machine_java machine_cpu started finished disk_note \
      parse_steps parse_layers big_steps big_layers arch_steps arch_layers ranks parse_bytes big_bytes arch_bytes \
      gen_mbs submit_cmd quick scale memory_cap half_bytes small_count small_ranks small_steps small_layers small_bytes \
      data_bytes data_workloads py_version; do
    declare -p "$var"
  done
} > "$out/results.env" 2>/dev/null || true
