-- AORTA iteration telemetry (FORMATS.md §4, rank_NN_metrics.jsonl). Reads `iteration_telemetry` (registered by the
-- metrics job; empty when no workload of the run has telemetry). Every query yields the metrics table's columns:
-- workload, metric, figure, value, unit, scope, rank, step, key, status, reason.
--
-- Semantics of AORTA's analysis/overlap_report.py: every iteration line of every rank is one sample, pooled over
-- ranks and steps, no warm-up skip. Per line: overlap = overlap_ms.compute_comm, compute = per_stream_ms.compute,
-- allreduce / reducescatter overlap = overlap_ms.compute_allreduce / compute_reducescatter; a key the line lacks
-- counts 0 (AORTA writes only non-zero overlaps and only active streams).
--   telemetry_overlap: overlap_ratio (headline) = mean overlap ms / mean compute ms (0 when mean compute is 0),
--                      mean_overlap_ms, mean_compute_ms, mean_allreduce_overlap_ms, mean_reducescatter_overlap_ms,
--                      iterations (the sample count); per workload, and per rank (scope 'rank') the same over that
--                      rank's lines.
--   telemetry_stream_ms: per stream (key) the mean busy ms per iteration, absent = 0.
-- The comparison of two workloads (AORTA's ratio_delta = candidate − reference) is
-- org.tracelake.jobs.readers.telemetry.TelemetryComparison.compare(metrics, reference, candidate), for
-- `report --compare`.

CREATE OR REPLACE TEMP VIEW telemetry_iterations AS
SELECT t.workload, t.rank, t.step, t.global_step,
       coalesce(t.overlap_compute_comm_ms, 0) AS overlap_ms,
       coalesce(t.compute_ms, 0) AS compute_ms,
       coalesce(t.overlap_compute_allreduce_ms, 0) AS allreduce_overlap_ms,
       coalesce(t.overlap_compute_reducescatter_ms, 0) AS reducescatter_overlap_ms,
       t.per_stream_ms
FROM iteration_telemetry t
LEFT SEMI JOIN workloads w ON w.workload = t.workload
WHERE t.row_kind = 'iteration';

CREATE OR REPLACE TEMP VIEW telemetry_overlap_stats AS
SELECT workload, rank, grouping(rank) = 1 AS whole_workload, count(*) AS iterations,
       avg(overlap_ms) AS mean_overlap_ms, avg(compute_ms) AS mean_compute_ms,
       avg(allreduce_overlap_ms) AS mean_allreduce_overlap_ms,
       avg(reducescatter_overlap_ms) AS mean_reducescatter_overlap_ms
FROM telemetry_iterations
GROUP BY GROUPING SETS ((workload), (workload, rank));

SELECT workload, 'telemetry_overlap', figure, value, unit,
       CASE WHEN whole_workload THEN 'workload' ELSE 'rank' END, CASE WHEN whole_workload THEN NULL ELSE rank END,
       NULL, NULL, 'ok', NULL
FROM (SELECT *, CASE WHEN mean_compute_ms = 0 THEN 0.0 ELSE mean_overlap_ms / mean_compute_ms END AS overlap_ratio
      FROM telemetry_overlap_stats)
LATERAL VIEW stack(6,
  'overlap_ratio', overlap_ratio, 'ratio',
  'mean_overlap_ms', mean_overlap_ms, 'ms',
  'mean_compute_ms', mean_compute_ms, 'ms',
  'mean_allreduce_overlap_ms', mean_allreduce_overlap_ms, 'ms',
  'mean_reducescatter_overlap_ms', mean_reducescatter_overlap_ms, 'ms',
  'iterations', CAST(iterations AS DOUBLE), 'count'
) s AS figure, value, unit;

-- Every stream any line of the workload names, with the workload's iteration count.
CREATE OR REPLACE TEMP VIEW telemetry_streams AS
SELECT DISTINCT i.workload, s.stream
FROM telemetry_iterations i LATERAL VIEW explode(map_keys(i.per_stream_ms)) s AS stream
UNION
SELECT DISTINCT workload, stream FROM telemetry_iterations
LATERAL VIEW explode(array('compute', 'allreduce', 'reducescatter', 'aux')) s AS stream;

SELECT s.workload, 'telemetry_stream_ms', NULL,
       sum(coalesce(i.per_stream_ms[s.stream], 0)) / count(*), 'ms', 'workload', NULL, NULL, s.stream, 'ok', NULL
FROM telemetry_streams s JOIN telemetry_iterations i ON i.workload = s.workload
GROUP BY s.workload, s.stream;
