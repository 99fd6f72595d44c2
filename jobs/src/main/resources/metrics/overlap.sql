-- Overlap and idle time (METRICS.md §4), from the per-rank interval facts of the sweep.

-- comm_comp_overlap: O = |U_comm ∩ U_compute| per rank (and per step, by the step of each activity).
CREATE OR REPLACE TEMP VIEW overlap_rows AS
SELECT workload, rank, CAST(NULL AS BIGINT) AS step, coalesce(f['comm_union_ns'], 0) AS u_comm,
       coalesce(f['compute_union_ns'], 0) AS u_comp, coalesce(f['overlap_ns'], 0) AS o
FROM rank_whole WHERE f['gpu_first_ns'] IS NOT NULL
UNION ALL
SELECT workload, rank, step, coalesce(f['comm_union_ns'], 0), coalesce(f['compute_union_ns'], 0), coalesce(f['overlap_ns'], 0)
FROM rank_step WHERE f['gpu_union_ns'] IS NOT NULL;

CREATE OR REPLACE TEMP VIEW overlap_figures AS
SELECT workload, rank, step, figure, value, unit, u_comm > 0 AS communicates
FROM overlap_rows
LATERAL VIEW stack(6,
  'overlap_ratio_of_comm', CASE WHEN u_comm > 0 THEN o / u_comm END, 'ratio',
  'overlap_ratio_of_comp', CASE WHEN u_comp > 0 THEN o / u_comp END, 'ratio',
  'comm_time_ms', u_comm / 1e6, 'ms',
  'comp_time_ms', u_comp / 1e6, 'ms',
  'overlap_time_ms', o / 1e6, 'ms',
  'exposed_comm_ms', (u_comm - o) / 1e6, 'ms') s AS figure, value, unit;

SELECT workload, 'comm_comp_overlap', figure, value, unit, CASE WHEN step IS NULL THEN 'rank' ELSE 'step' END,
       rank, step, NULL, CASE WHEN value IS NULL THEN 'not_applicable' ELSE 'ok' END,
       CASE WHEN value IS NULL THEN 'no communication (or no computation) on this rank' END
FROM overlap_figures;

-- Workload: the mean over ranks — ratios over the ranks that communicate, time figures over all ranks.
SELECT workload, 'comm_comp_overlap', figure, avg(value), first(unit), 'workload', NULL, NULL, NULL, 'ok', NULL
FROM overlap_figures
WHERE step IS NULL AND (figure NOT LIKE 'overlap_ratio%' OR communicates)
GROUP BY workload, figure
HAVING count(value) > 0;

-- time_breakdown: where each rank's GPU span (first GPU activity's start to the last one's end) goes, in four parts
-- that add up to it: compute |U_compute|; exposed communication |U_comm| − O; exposed copies, the GPU activity under
-- neither (memcpy/memset and device syncs not hidden by compute or communication), |U_gpu| − |U_compute ∪ U_comm|
-- with |U_compute ∪ U_comm| = |U_compute| + |U_comm| − O; idle, span − |U_gpu|. Workload = mean over ranks. It is
-- what report --compare splits a change of step time into.
CREATE OR REPLACE TEMP VIEW time_breakdown_per_rank AS
SELECT workload, rank, u_comp AS compute_ns, u_comm - o AS exposed_comm_ns, u_gpu - (u_comp + u_comm - o) AS exposed_copy_ns,
       span - u_gpu AS idle_ns, span AS span_ns
FROM (SELECT workload, rank, coalesce(f['compute_union_ns'], 0) AS u_comp, coalesce(f['comm_union_ns'], 0) AS u_comm,
             coalesce(f['overlap_ns'], 0) AS o, f['gpu_union_ns'] AS u_gpu, f['gpu_last_ns'] - f['gpu_first_ns'] AS span
      FROM rank_whole WHERE f['gpu_first_ns'] IS NOT NULL);

CREATE OR REPLACE TEMP VIEW time_breakdown_figures AS
SELECT workload, rank, figure, value
FROM time_breakdown_per_rank
LATERAL VIEW stack(5,
  'compute_ms', compute_ns / 1e6,
  'exposed_comm_ms', exposed_comm_ns / 1e6,
  'exposed_copy_ms', exposed_copy_ns / 1e6,
  'idle_ms', idle_ns / 1e6,
  'span_ms', span_ns / 1e6) s AS figure, value;

SELECT workload, 'time_breakdown', figure, value, 'ms', 'rank', rank, NULL, NULL, 'ok', NULL FROM time_breakdown_figures;

SELECT workload, 'time_breakdown', figure, avg(value), 'ms', 'workload', NULL, NULL, NULL, 'ok', NULL
FROM time_breakdown_figures GROUP BY workload, figure;

-- compute_comm_overlap (CCL-Bench): per rank, kernels clipped to the trimmed step windows; Σ over those steps of
-- |U_comm ∩ U_non-comm| ÷ Σ |U_comm| × 100 (ranks with communication); mean over ranks.
CREATE OR REPLACE TEMP VIEW ccl_overlap_per_rank AS
SELECT workload, rank, 100.0 * sum(f['ccl_overlap_in_window_ns']) / sum(f['ccl_comm_in_window_ns']) AS pct
FROM rank_step WHERE f['trimmed'] = 1
GROUP BY workload, rank
HAVING sum(f['ccl_comm_in_window_ns']) > 0;

SELECT workload, 'compute_comm_overlap', NULL, pct, '%', 'rank', rank, NULL, NULL, 'ok', NULL FROM ccl_overlap_per_rank;

SELECT workload, 'compute_comm_overlap', NULL, avg(pct), '%', 'workload', NULL, NULL, NULL, 'ok', NULL
FROM ccl_overlap_per_rank GROUP BY workload;

-- gpu_utilization: |union of all GPU activity| ÷ (last end − first start) × 100 per rank; per step over the
-- step window; idle time = span − busy.
CREATE OR REPLACE TEMP VIEW utilization_per_rank AS
SELECT workload, rank, f['gpu_union_ns'] AS busy, f['gpu_last_ns'] - f['gpu_first_ns'] AS span,
       f['kernel_union_ns'] AS kernel_busy, f['kernel_last_ns'] - f['kernel_first_ns'] AS kernel_span
FROM rank_whole WHERE f['gpu_first_ns'] IS NOT NULL;

SELECT workload, 'gpu_utilization', NULL, 100.0 * busy / span, '%', 'rank', rank, NULL, NULL, 'ok', NULL
FROM utilization_per_rank WHERE span > 0;

SELECT workload, 'gpu_utilization', 'idle_ms', (span - busy) / 1e6, 'ms', 'rank', rank, NULL, NULL, 'ok', NULL
FROM utilization_per_rank;

SELECT workload, 'gpu_utilization', NULL, avg(100.0 * busy / span), '%', 'workload', NULL, NULL, NULL, 'ok', NULL
FROM utilization_per_rank WHERE span > 0 GROUP BY workload;

SELECT w.workload, 'gpu_utilization', NULL, 100.0 * s.f['gpu_in_window_ns'] / w.dur_ns, '%', 'step', w.rank, w.step, NULL, 'ok', NULL
FROM step_windows w JOIN rank_step s ON s.workload = w.workload AND s.rank = w.rank AND s.step = w.step
WHERE w.dur_ns > 0;

-- aggregate_gpu_utilization (CCL-Bench): the same over kernels only (cat kernel), mean over ranks.
SELECT workload, 'aggregate_gpu_utilization', NULL, 100.0 * kernel_busy / kernel_span, '%', 'rank', rank, NULL, NULL, 'ok', NULL
FROM utilization_per_rank WHERE kernel_span > 0;

SELECT workload, 'aggregate_gpu_utilization', NULL, avg(100.0 * kernel_busy / kernel_span), '%', 'workload', NULL, NULL, NULL, 'ok', NULL
FROM utilization_per_rank WHERE kernel_span > 0 GROUP BY workload;

-- pipeline_bubble: per rank per step, 1 − |union of GPU activity inside the step window| ÷ window span
-- (method "gaps": there are no pipeline-stage annotations to use); workload = mean over (rank, step).
CREATE OR REPLACE TEMP VIEW bubble_per_step AS
SELECT w.workload, w.rank, w.step, 1.0 - s.f['gpu_in_window_ns'] / w.dur_ns AS ratio,
       (w.dur_ns - s.f['gpu_in_window_ns']) / 1e6 AS bubble_ms, w.dur_ns / 1e6 AS total_ms
FROM step_windows w JOIN rank_step s ON s.workload = w.workload AND s.rank = w.rank AND s.step = w.step
WHERE w.dur_ns > 0;

SELECT workload, 'pipeline_bubble', figure, value, unit, 'step', rank, step, 'gaps', 'ok', NULL
FROM bubble_per_step
LATERAL VIEW stack(3, 'bubble_ratio', ratio, 'ratio', 'bubble_time_ms', bubble_ms, 'ms', 'total_time_ms', total_ms, 'ms') s AS figure, value, unit;

SELECT workload, 'pipeline_bubble', figure, avg(value), first(unit), 'workload', NULL, NULL, 'gaps', 'ok', NULL
FROM bubble_per_step
LATERAL VIEW stack(3, 'bubble_ratio', ratio, 'ratio', 'bubble_time_ms', bubble_ms, 'ms', 'total_time_ms', total_ms, 'ms') s AS figure, value, unit
GROUP BY workload, figure;
