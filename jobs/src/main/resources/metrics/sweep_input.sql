-- Input of the per-rank interval sweep (RankSweep): each rank's step windows (row_kind 0) and GPU activities
-- (row_kind 1). Step windows use the best step-name kind present on the rank (METRICS.md §1): ProfilerStep#N
-- (user_annotation), else vLLM / SGLang / TPU-vLLM step names.
WITH step_events AS (
  SELECT workload, rank, ts_ns, dur_ns, coalesce(profiler_step(name), step) AS step,
         step_name_priority(name) AS priority
  FROM events
  WHERE ph = 'X' AND activity_class IS NULL AND ts_ns IS NOT NULL AND dur_ns IS NOT NULL
    AND step_name_priority(name) >= 0
    AND (step_name_priority(name) > 0 OR cat = 'user_annotation')
),
best AS (
  SELECT workload, rank, min(priority) AS priority FROM step_events GROUP BY workload, rank
)
SELECT s.workload, s.rank, 0 AS row_kind, s.ts_ns, s.ts_ns + s.dur_ns AS end_ns, s.step,
       CAST(NULL AS STRING) AS activity_class, false AS is_kernel, CAST(NULL AS STRING) AS collective, false AS is_copy
FROM step_events s JOIN best b ON s.workload = b.workload AND s.rank <=> b.rank AND s.priority = b.priority
WHERE s.step IS NOT NULL
UNION ALL
SELECT workload, rank, 1 AS row_kind, ts_ns, ts_ns + dur_ns AS end_ns, step,
       activity_class, coalesce(cat = 'kernel', false) AS is_kernel, collective,
       coalesce(is_copy_kernel(name), false) AS is_copy
FROM events
WHERE activity_class IS NOT NULL AND ts_ns IS NOT NULL AND dur_ns IS NOT NULL
