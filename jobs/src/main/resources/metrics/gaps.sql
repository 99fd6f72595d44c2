-- Every metric of the catalog appears for every workload at workload scope (METRICS.md §5): where a metric
-- query produced no workload row, this says why, from what the workload lacks.
CREATE OR REPLACE TEMP VIEW workload_needs AS
SELECT w.workload,
  map(
    'steps', CASE WHEN coalesce(sw.n, 0) = 0 THEN 'no ProfilerStep annotations (nor vLLM/SGLang/TPU-vLLM step annotations, nor an XLA device Steps line) on any rank' END,
    'kernels', CASE WHEN coalesce(g.n_kernels, 0) = 0 THEN 'no GPU kernels in the traces' END,
    'comm', CASE WHEN coalesce(g.n_comm, 0) = 0 THEN 'no communication kernels in the traces' END,
    'comm_sized', CASE WHEN coalesce(c.n_sized, 0) = 0 THEN 'no communication kernel with a known message size, group size >= 2 and duration > 0' END,
    'allreduce_fit', 'needs >= 5 all_reduce instances with known size and >= 2 distinct sizes',
    'node_layout', CASE WHEN w.count_per_node IS NULL OR w.count_per_node <= 0 THEN 'the card gives no hardware.xpu_spec.count_per_node'
                        WHEN coalesce(g.n_comm, 0) = 0 THEN 'no communication kernels in the traces' END,
    'multi_rank', CASE WHEN coalesce(rc.n_ranks, 0) < 2 THEN 'single rank: no cross-rank join' END,
    'rank0', 'no rank 0 in this workload',
    'training', CASE WHEN lower(coalesce(w.phase, '')) <> 'training' THEN concat('not a training workload (card phase: ', coalesce(w.phase, 'missing'), ')') END,
    'inference', CASE WHEN lower(coalesce(w.phase, '')) <> 'inference' THEN concat('not an inference workload (card phase: ', coalesce(w.phase, 'missing'), ')') END,
    'card_throughput', CASE WHEN w.batch_size IS NULL OR w.seq_len IS NULL THEN 'card lacks workload.data.batch_size or workload.data.seq_len' END,
    'card_mfu', CASE WHEN w.num_params IS NULL THEN 'card lacks model_arch.num_params'
                     WHEN w.num_layers IS NULL THEN 'card lacks model_arch.num_layers'
                     WHEN w.num_heads IS NULL OR w.head_dim IS NULL THEN 'card lacks model_arch.num_heads or head_dim'
                     WHEN w.device_count IS NULL THEN 'card lacks hardware.xpu_spec.total_count'
                     ELSE 'no peak FLOPS for this device model in conf/device_peak_flops.csv' END,
    'fsdp', 'no FSDP::* annotations in the traces',
    'phases', CASE WHEN coalesce(ph.n, 0) > 0
                   THEN concat(ph.n, ' forward/backward/optimizer annotations, but no step windows to put them in: ',
                               'no ProfilerStep annotations (nor vLLM/SGLang/TPU-vLLM step annotations, nor an XLA device Steps line) on any rank')
                   ELSE 'no forward/backward/optimizer annotations in the traces' END,
    'sm_args', 'no kernel carries the "blocks per SM" arg',
    'copies', 'no copy events with a byte count',
    'xla', 'no XLA/TPU device ops in this workload',
    'memory', 'no CUDA memory snapshot in this workload',
    'telemetry', 'no AORTA iteration telemetry (rank_NN_metrics.jsonl) in this workload',
    'flight_recorder', 'no NCCL Flight Recorder dump (_dump_N, nccl_trace_rank_N) in this workload',
    'a2a_splits', 'no all_to_all carries split sizes (In split size args, or execution-trace all_to_allv splits)',
    'simulator', 'a what-if of CCL-Bench''s network simulator; tracelake computes only what the traces show'
  ) AS unmet
FROM workloads w
LEFT JOIN (SELECT workload, count(*) AS n FROM step_windows GROUP BY workload) sw ON sw.workload = w.workload
LEFT JOIN (SELECT workload, sum(CASE WHEN cat = 'kernel' THEN 1 ELSE 0 END) AS n_kernels,
                  sum(CASE WHEN activity_class = 'comm' THEN 1 ELSE 0 END) AS n_comm
           FROM gpu GROUP BY workload) g ON g.workload = w.workload
LEFT JOIN (SELECT workload, count(*) AS n_sized FROM comm
           WHERE size_bytes IS NOT NULL AND group_size >= 2 AND dur_ns > 0 GROUP BY workload) c ON c.workload = w.workload
LEFT JOIN rank_count rc ON rc.workload = w.workload
LEFT JOIN (SELECT workload, count(*) AS n FROM phase_annotations GROUP BY workload) ph ON ph.workload = w.workload;

SELECT n.workload, c.metric, c.figure, CAST(NULL AS DOUBLE) AS value, c.unit, 'workload' AS scope,
       CAST(NULL AS INT) AS rank, CAST(NULL AS BIGINT) AS step, CAST(NULL AS STRING) AS key,
       CASE WHEN c.requires IN ('training', 'inference', 'xla', 'simulator') AND n.unmet[c.requires] IS NOT NULL
            THEN 'not_applicable' ELSE 'missing_input' END AS status,
       coalesce(n.unmet[c.requires], 'not computable from this workload''s inputs') AS reason
FROM workload_needs n CROSS JOIN metric_catalog c
LEFT ANTI JOIN computed_metrics m
  ON m.workload = n.workload AND m.metric = c.metric AND m.figure <=> c.figure AND m.scope = 'workload';
