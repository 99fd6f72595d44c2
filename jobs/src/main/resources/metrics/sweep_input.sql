-- Input of the per-rank interval sweep (RankSweep): each rank's step windows (row_kind 0) and GPU activities
-- (row_kind 1). Step windows follow the readers' rule (METRICS.md §1, readers.common.StepWindows): the events
-- step_priority(cat, name) accepts — an XLA device's Steps line, or CPU-side step annotations, never Kineto's
-- gpu_user_annotation copies — of the best kind present on the rank: a device's Steps line, else ProfilerStep#N,
-- else vLLM / SGLang / TPU-vLLM step names. ProfilerStep#N keeps its N; the other kinds take the number the reader
-- gave their own row (the Steps line's stated number; an annotation's position in time order).
WITH step_events AS (
  SELECT workload, rank, ts_ns, dur_ns, coalesce(profiler_step(name), step) AS step, priority
  FROM (SELECT *, step_priority(cat, name) AS priority FROM events
        WHERE ph = 'X' AND activity_class IS NULL AND ts_ns IS NOT NULL AND dur_ns IS NOT NULL)
  WHERE priority >= 0
),
best AS (
  SELECT workload, rank, min(priority) AS priority FROM step_events GROUP BY workload, rank
)
SELECT s.workload, s.rank, 0 AS row_kind, s.ts_ns, s.ts_ns + s.dur_ns AS end_ns, s.step,
       CAST(NULL AS STRING) AS activity_class, false AS is_kernel, CAST(NULL AS STRING) AS collective, false AS is_copy,
       false AS is_ccl_event, false AS is_ccl_comm_name
FROM step_events s JOIN best b ON s.workload = b.workload AND s.rank <=> b.rank AND s.priority = b.priority
WHERE s.step IS NOT NULL
UNION ALL
SELECT workload, rank, 1 AS row_kind, ts_ns, ts_ns + dur_ns AS end_ns, step,
       activity_class, coalesce(cat = 'kernel', false) AS is_kernel, collective,
       coalesce(is_copy_kernel(name), false) AS is_copy,
       coalesce(is_ccl_bench_event_cat(cat), false) AS is_ccl_event,
       coalesce(is_ccl_bench_comm_name(name), false) AS is_ccl_comm_name
FROM events
WHERE activity_class IS NOT NULL AND ts_ns IS NOT NULL AND dur_ns IS NOT NULL
