# Sourced by bench/run inside measure(), in file-name order: section (9), CCL-Bench's metric tools on the archive of (5).
# It shares bench/run's variables, helpers and results map R.
# shellcheck shell=bash
# CCL-Bench's tools read a flat trace folder (kineto_trace_<rank>.json beside a card whose metric_source.traces says
# json): the same files, hard-linked, under those names. Every tool of its website config that applies to a Kineto
# training trace, one `tools/main.py` call each, as CCL-Bench runs them.
ccl_metrics="avg_step_time mfu mean_sm_coverage dominant_kernel_concentration moe_fraction average_memory_bandwidth
  memory_transfer_overhead communication_fraction total_communication_time bandwidth_utilization_allgather_group_6
  bandwidth_utilization_allreduce_group_6 bandwidth_utilization_alltoall_group_6 bandwidth_utilization_reducescatter_group_6
  compute_comm_overlap load_imbalance_ratio straggler scale_up_bw_utility collective_vol_allreduce_gb
  collective_vol_allgather_gb collective_vol_reducescatter_gb collective_vol_alltoall_gb collective_vol_total_gb"
# The least a refresh pays before its first job: a whole process that starts a local Spark session and stops it
# (the floor of the comparison below).
log "(9) a bare local Spark session, whole process"
run_timed spark_start "$java_cmd" -Xmx3g "${jvm_opts[@]}" -Dlog4j2.configurationFile="$home/conf/log4j2.properties" \
  -cp "$target/test-classes:$cp_main" org.tracelake.jobs.bench.BenchHarness session
if [ -n "${BENCH_CCLBENCH:-}" ] && [ -f "$BENCH_CCLBENCH/tools/main.py" ]; then
  log "(9) CCL-Bench's metric tools on the archive of (5)"
  ccl_dir="$out/in-ccl/llama-8rank"
  mkdir -p "$ccl_dir"
  for f in "$arch"/llama-8rank/profile_traces/*/rank*_trace.json; do
    r=$(basename "$f" | sed 's/^rank\([0-9]*\)_trace.json$/\1/')
    ln -f "$f" "$ccl_dir/kineto_trace_$r.json"
    # straggler's tool globs only rank*_trace.json (it printed 0.0 over an empty list without this); the other
    # tools prefer kineto_trace_* when both exist, so the second name changes nothing for them.
    ln -f "$f" "$ccl_dir/rank${r}_trace.json"
  done
  sed 's/^    - profile_traces$/    - json/' "$arch/llama-8rank/llama-8rank.yaml" > "$ccl_dir/llama-8rank.yaml"
  R[ccl.commit]=$(git -C "$BENCH_CCLBENCH" rev-parse --short HEAD 2>/dev/null || echo unknown)
  R[ccl.python]=$("${BENCH_CCLBENCH_PYTHON:-python3}" --version 2>&1 | tr ' ' '_')
  i=0; total=0; failed=0
  for m in $ccl_metrics; do
    i=$((i + 1))
    run_timed "ccl_m$i" env -C "$BENCH_CCLBENCH/tools" "${BENCH_CCLBENCH_PYTHON:-python3}" main.py --trace "$ccl_dir" --metric "$m"
    R[ccl_m$i.name]=$m
    R[ccl_m$i.value]=$(tail -1 "$out/logs/ccl_m$i.log" | tr -d '\n' | tr -c 'A-Za-z0-9.+-' '_' | cut -c1-40)
    [ "${R[ccl_m$i.exit]}" = 0 ] || failed=$((failed + 1))
    total=$(calc "%.1f" "$total + ${R[ccl_m$i.wall]}")
  done
  R[ccl.count]=$i; R[ccl.total_s]=$total; R[ccl.failed]=$failed
  rm -rf "$out/in-ccl"
else
  log "(9) CCL-Bench's metric tools: skipped (set BENCH_CCLBENCH to a checkout of cornell-sysphotonics/ccl-bench)"
fi
