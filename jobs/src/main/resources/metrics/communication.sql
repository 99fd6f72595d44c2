-- Collectives and communication (METRICS.md §4). Every query yields the metrics table's columns:
-- workload, metric, figure, value, unit, scope, rank, step, key, status, reason.

-- Per rank: communication activities, by kind, and how many have a known size.
CREATE OR REPLACE TEMP VIEW comm_per_rank AS
SELECT r.workload, r.rank,
       count(c.ts_ns) AS n,
       sum(CASE WHEN c.size_bytes IS NOT NULL THEN c.size_bytes ELSE 0 END) AS known_bytes,
       sum(CASE WHEN c.ts_ns IS NOT NULL AND c.size_bytes IS NULL THEN 1 ELSE 0 END) AS unknown
FROM ranks r LEFT JOIN comm c ON c.workload = r.workload AND c.rank = r.rank
GROUP BY r.workload, r.rank;

-- coll_call_num: communication activities per rank; the workload value is the mean over ranks.
SELECT workload, 'coll_call_num' AS metric, NULL AS figure, CAST(n AS DOUBLE) AS value, 'count' AS unit,
       'rank' AS scope, rank, NULL AS step, NULL AS key, 'ok' AS status, NULL AS reason
FROM comm_per_rank;

SELECT workload, 'coll_call_num', NULL, avg(n), 'count', 'workload', NULL, NULL, NULL, 'ok', NULL
FROM comm_per_rank GROUP BY workload;

-- ... by collective kind: the mean over ranks of each rank's count of that kind.
SELECT c.workload, 'coll_call_num', NULL, count(*) / max(rc.n_ranks), 'count', 'key', NULL, NULL, c.collective, 'ok', NULL
FROM comm c JOIN rank_count rc ON rc.workload = c.workload
GROUP BY c.workload, c.collective;

-- ... and per rank per step.
SELECT workload, 'coll_call_num', NULL, CAST(count(*) AS DOUBLE), 'count', 'step', rank, step, NULL, 'ok', NULL
FROM comm WHERE step IS NOT NULL GROUP BY workload, rank, step;

-- comm_bytes_total: Σ S per rank and by kind; the workload value is the sum over ranks. Unknown sizes make it partial.
SELECT workload, 'comm_bytes_total', NULL, CAST(known_bytes AS DOUBLE), 'bytes', 'rank', rank, NULL, NULL,
       CASE WHEN unknown > 0 THEN 'partial' ELSE 'ok' END,
       CASE WHEN unknown > 0 THEN concat(unknown, ' of ', n, ' collective instances have no known size') END
FROM comm_per_rank;

SELECT workload, 'comm_bytes_total', NULL, CAST(sum(known_bytes) AS DOUBLE), 'bytes', 'workload', NULL, NULL, NULL,
       CASE WHEN sum(unknown) > 0 THEN 'partial' ELSE 'ok' END,
       CASE WHEN sum(unknown) > 0 THEN concat(sum(unknown), ' of ', sum(n), ' collective instances have no known size') END
FROM comm_per_rank GROUP BY workload;

SELECT workload, 'comm_bytes_total', NULL, CAST(sum(coalesce(size_bytes, 0)) AS DOUBLE), 'bytes', 'key', NULL, NULL, collective,
       CASE WHEN count_if(size_bytes IS NULL) > 0 THEN 'partial' ELSE 'ok' END,
       CASE WHEN count_if(size_bytes IS NULL) > 0 THEN concat(count_if(size_bytes IS NULL), ' of ', count(*), ' instances have no known size') END
FROM comm GROUP BY workload, collective;

-- collective_vol_*_gb (CCL-Bench): rank 0 only, Σ in_bytes / 1e9 per kind; total = the sum of the four. A workload
-- row (rank null, like every workload row) and the same number as rank 0's rank row. Rank-0 instances of these
-- kinds whose size stays unknown after the §2 fallbacks make the value partial, and the reason counts them.
CREATE OR REPLACE TEMP VIEW rank0_volume AS
SELECT r.workload,
       coalesce(sum(CASE WHEN c.collective = 'all_reduce' THEN c.in_bytes END), 0) / 1e9 AS allreduce,
       coalesce(sum(CASE WHEN c.collective = 'all_gather' THEN c.in_bytes END), 0) / 1e9 AS allgather,
       coalesce(sum(CASE WHEN c.collective = 'reduce_scatter' THEN c.in_bytes END), 0) / 1e9 AS reducescatter,
       coalesce(sum(CASE WHEN c.collective = 'all_to_all' THEN c.in_bytes END), 0) / 1e9 AS alltoall,
       count_if(c.collective = 'all_reduce' AND c.in_bytes IS NULL) AS allreduce_unknown,
       count_if(c.collective = 'all_gather' AND c.in_bytes IS NULL) AS allgather_unknown,
       count_if(c.collective = 'reduce_scatter' AND c.in_bytes IS NULL) AS reducescatter_unknown,
       count_if(c.collective = 'all_to_all' AND c.in_bytes IS NULL) AS alltoall_unknown
FROM ranks r LEFT JOIN comm c ON c.workload = r.workload AND c.rank = r.rank
WHERE r.rank = 0
GROUP BY r.workload;

SELECT workload, metric, NULL, value, 'GB', scope, CASE WHEN scope = 'rank' THEN 0 END, NULL, NULL,
       CASE WHEN unknown > 0 THEN 'partial' ELSE 'ok' END,
       CASE WHEN unknown > 0 THEN concat(unknown, ' of rank 0''s instances of this kind have no known size') END
FROM rank0_volume
LATERAL VIEW stack(5,
  'collective_vol_allreduce_gb', allreduce, allreduce_unknown,
  'collective_vol_allgather_gb', allgather, allgather_unknown,
  'collective_vol_reducescatter_gb', reducescatter, reducescatter_unknown,
  'collective_vol_alltoall_gb', alltoall, alltoall_unknown,
  'collective_vol_total_gb', allreduce + allgather + reducescatter + alltoall,
    allreduce_unknown + allgather_unknown + reducescatter_unknown + alltoall_unknown) s AS metric, value, unknown
LATERAL VIEW explode(array('workload', 'rank')) sc AS scope;

-- comm_time_s: |union of communication intervals| per rank; the workload value is the mean over ranks.
SELECT workload, 'comm_time_s', NULL, coalesce(f['comm_union_ns'], 0) / 1e9, 's', 'rank', rank, NULL, NULL, 'ok', NULL
FROM rank_whole;

SELECT workload, 'comm_time_s', NULL, avg(coalesce(f['comm_union_ns'], 0)) / 1e9, 's', 'workload', NULL, NULL, NULL, 'ok', NULL
FROM rank_whole GROUP BY workload;

-- ... by kind: the plain Σ dur of that kind (mean over ranks).
SELECT c.workload, 'comm_time_s', NULL, sum(c.dur_ns) / 1e9 / max(rc.n_ranks), 's', 'key', NULL, NULL, c.collective, 'ok', NULL
FROM comm c JOIN rank_count rc ON rc.workload = c.workload GROUP BY c.workload, c.collective;

-- total_communication_time (CCL-Bench): per rank, merged communication-kernel time divided by the number of
-- trimmed steps; the sweep clips the kernels to the trimmed span only when the rank has more than two steps (with
-- one or two, the whole-trace union, as CCL-Bench). No steps: the merged total. Mean over ranks.
CREATE OR REPLACE TEMP VIEW total_comm_time_per_rank AS
SELECT workload, rank,
       CASE WHEN coalesce(f['trimmed_steps'], 0) > 0 THEN f['ccl_comm_step_basis_ns'] / f['trimmed_steps']
            ELSE coalesce(f['ccl_comm_total_ns'], 0) END / 1e9 AS value
FROM rank_whole WHERE f['kernel_first_ns'] IS NOT NULL;

SELECT workload, 'total_communication_time', NULL, value, 's/step', 'rank', rank, NULL, NULL, 'ok', NULL
FROM total_comm_time_per_rank;

SELECT workload, 'total_communication_time', NULL, avg(value), 's/step', 'workload', NULL, NULL, NULL, 'ok', NULL
FROM total_comm_time_per_rank GROUP BY workload;

-- communication_fraction (CCL-Bench): per rank per trimmed step, Σ dur of communication kernels over Σ dur of
-- all kernels overlapping the step window (full durations) × 100; mean over steps, then over ranks.
CREATE OR REPLACE TEMP VIEW comm_fraction_per_step AS
SELECT workload, rank, step, 100.0 * f['ccl_comm_dur_overlapping_ns'] / f['ccl_kernel_dur_overlapping_ns'] AS pct
FROM rank_step WHERE f['trimmed'] = 1 AND f['ccl_kernel_dur_overlapping_ns'] > 0;

SELECT workload, 'communication_fraction', NULL, pct, '%', 'step', rank, step, NULL, 'ok', NULL
FROM comm_fraction_per_step;

SELECT workload, 'communication_fraction', NULL, avg(pct), '%', 'rank', rank, NULL, NULL, 'ok', NULL
FROM comm_fraction_per_step GROUP BY workload, rank;

SELECT workload, 'communication_fraction', NULL, avg(pct), '%', 'workload', NULL, NULL, NULL, 'ok', NULL
FROM (SELECT workload, rank, avg(pct) AS pct FROM comm_fraction_per_step GROUP BY workload, rank)
GROUP BY workload;

-- busbw_gbps: median bus bandwidth per kind (nccl-tests convention, GB = 1e9) over activities with a known
-- size (0 included: a known size), n >= 2 and dur > 0; each rank's kernel of each collective is one sample.
-- Also per power-of-2 size bucket (the largest power of 2 <= S; bucket 0 for S = 0).
CREATE OR REPLACE TEMP VIEW busbw_samples AS
SELECT workload, rank, collective, size_bytes, in_bytes, group_size, dur_ns,
       busbw_gbps(collective, in_bytes, out_bytes, group_size, dur_ns) AS busbw,
       size_bucket(size_bytes) AS bucket
FROM comm
WHERE size_bytes IS NOT NULL AND size_bytes >= 0 AND group_size >= 2 AND dur_ns > 0;

SELECT workload, 'busbw_gbps', NULL, percentile(busbw, 0.5), 'GB/s', 'workload', NULL, NULL, collective, 'ok', NULL
FROM busbw_samples GROUP BY workload, collective;

SELECT workload, 'busbw_gbps', NULL, percentile(busbw, 0.5), 'GB/s', 'key', NULL, NULL,
       concat(collective, ' bytes>=', bucket), 'ok', NULL
FROM busbw_samples GROUP BY workload, collective, bucket;

-- bandwidth_utilization_* (CCL-Bench units): the same medians with S = In msg nelems bytes for every kind, in GiB/s
-- (CCL-Bench skips messages of 0 elements).
SELECT workload, concat('bandwidth_utilization_', replace(collective, '_', '')), NULL,
       percentile(in_bytes / (dur_ns / 1e9) * busbw_factor(collective, group_size) / 1073741824.0, 0.5),
       'GiB/s', 'workload', NULL, NULL, NULL, 'ok', NULL
FROM busbw_samples
WHERE collective IN ('all_gather', 'all_reduce', 'reduce_scatter', 'all_to_all') AND in_bytes > 0
GROUP BY workload, collective;

-- Hockney model: least-squares fit of dur = α + β · S·2(n−1)/n over all_reduce instances
-- (needs ≥ 5 instances and ≥ 2 distinct sizes S; and ≥ 2 distinct x, without which there is no line to fit).
CREATE OR REPLACE TEMP VIEW hockney_fit AS
SELECT workload, regr_intercept(dur_s, x) AS alpha, regr_slope(dur_s, x) AS beta
FROM (SELECT workload, size_bytes, dur_ns / 1e9 AS dur_s, size_bytes * 2.0 * (group_size - 1) / group_size AS x
      FROM busbw_samples WHERE collective = 'all_reduce')
GROUP BY workload
HAVING count(*) >= 5 AND count(DISTINCT size_bytes) >= 2 AND count(DISTINCT x) >= 2;

-- A fit with β ≤ 0 (or α < 0) describes no network (METRICS.md §4): all three null, not_meaningful, with the fitted
-- values in the reason. 1/β is exactly the reciprocal of the reported β.
SELECT workload, metric, NULL, CASE WHEN meaningful THEN value END, unit, 'workload', NULL, NULL, NULL,
       CASE WHEN meaningful THEN 'ok' ELSE 'not_meaningful' END,
       CASE WHEN NOT meaningful THEN concat('the all_reduce fit describes no network: alpha = ', alpha, ' s, beta = ',
                                            beta, ' s/byte (needs beta > 0 and alpha >= 0)') END
FROM (SELECT *, coalesce(beta > 0 AND alpha >= 0, false) AS meaningful FROM hockney_fit)
LATERAL VIEW stack(3,
  'hockney_alpha_s', alpha, 's',
  'hockney_beta_s_per_byte', beta, 's/byte',
  'hockney_inverse_beta_Bps', 1.0 / beta, 'bytes/s') s AS metric, value, unit;
