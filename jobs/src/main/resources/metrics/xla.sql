-- TPU / XLA metrics (METRICS.md §4 "TPU / XLA (seed 002 names, same units)"). Every query yields: workload, metric,
-- figure, value, unit, scope, rank, step, key, status, reason.
--
-- The seed is CCL-Bench's group-21 tools (cornell-sysphotonics/ccl-bench tools/{wall_time,compute_time,comm_time,
-- utilization,bandwidth,flops,throughput}-group-21/*.py and tools/utils-group-21.py, read at 3145efe8/284df870).
-- Where METRICS.md is silent we follow their formulas, which read ONE trace JSON holding every chip and pool
-- everything over it:
--   wall_time_s                      = last end − first start over every complete ('X') event with ts and dur,
--                                      host and device alike (utils: trace_events_to_df keeps all of them)
--   total_compute_time_s             = Σ T over compute ops, all chips pooled; T = device_duration_ps / 1e12
--   total_comm_time_s                = Σ T over communication ops, all chips pooled
--   avg_comm_kernel_time_s           = mean T over communication ops
--   compute_utilization_proxy        = total_compute_time_s ÷ wall_time_s (a ratio; pooled over chips, so a
--                                      multi-chip workload can exceed 1: it is the seed's "proxy")
--   communication_fraction           = total_comm_time_s ÷ wall_time_s (seed utilization.py) — see below
--   num_comm_kernels                 = count of communication ops
--   num_comm_kernels_w_size_and_time = count of those with size > 0 and T > 0
--   avg_comm_bandwidth_GBps          = mean over those of (n_chips − 1) · size ÷ T ÷ 1e9 (bandwidth.py)
--   allreduce_comm_time_s            = Σ T over all-reduce ops with size > 0 and T > 0 (null when none, as the
--                                      seed's NaN)
--   achieved_flops_from_trace_json   = Σ model_flops ÷ Σ T over ops with model_flops > 0 and T > 0 (FLOP/s)
--   total_model_flops_from_args      = Σ model_flops over events carrying the arg
--   flops_per_token_used             = 6 · params (training), 2 · params (inference): the seed's
--                                      choose_flops_per_token (its driver always passes "train"; we pass the
--                                      card's phase, defaulting to training as the seed does)
--   estimated_total_tokens           = total_model_flops_from_args ÷ flops_per_token_used
--   estimated_throughput_tokens_per_s = estimated_total_tokens ÷ wall_time_s
-- Where METRICS.md speaks, it wins over the seed:
--   * T: device_duration_ps when present, else the event's duration (XSpace duration_ps, else dur_ns). The seed
--     drops ops without device_duration_ps once any op has it; we fall back per op.
--   * Which ops: XLA device ops only, i.e. GPU activity (§2) that the XLA trace JSON / XSpace readers put on a
--     device; "communication" and "compute" are the §2 activity classes (the seed matches keywords: "fusion",
--     "convolution", …; memcpy/memset/sync ops, e.g. copy-start/copy-done, are neither, as the seed's "other").
--   * size: the §2 bus size S of the op (raw_bytes_accessed, else bytes_accessed; all_gather uses the gathered
--     out side). The seed prefers the byte size of shape_with_layout, which is the same number for array-shaped
--     collectives.
--   * n_chips: the card's hardware.xpu_spec.total_count (workloads.device_count), not a command-line flag.
--   * params: the card's model_arch.num_params_active, else num_params. The seed defaults to 7e9 when none is
--     given; we never invent one: the rows say the card lacks it.
--   * No value is made up: where the seed returns 0 or NaN for "nothing to measure" (no model_flops anywhere, no
--     communication), the row has a null value and a status saying why (METRICS.md: never -1, never NaN).
--     Counts and sums of nothing (no communication op: 0 ops, 0 s) are real zeros.
--
-- Async collectives. XLA runs many collectives as a `-start`/`-done` pair (all-reduce-start.3 … all-reduce-done.3;
-- send.2 … send-done.2, recv.2 … recv-done.2). ONE ASYNC COLLECTIVE IS ONE INSTANCE, here as in every metric: the
-- pairing lives in views.sql's `comm` (a -done with the start half just before it on its rank and instruction; the
-- pair's span is the time the collective was in flight, which is what a bandwidth needs; its size the start half's,
-- else the -done's; a half whose partner lies outside the profile is an instance on its own). Synchronous
-- collectives (all-reduce.5) are one op, one instance.
--
-- Scopes: the workload rows are the seed's pooled numbers. Rank rows give the same formulas over one rank (one
-- chip): for the wall time, the events of that rank (its device's, and the host events the reader gave that rank).
-- They are not averaged into the workload rows.
--
-- communication_fraction is also a CCL-Bench metric of communication.sql (% of kernel time per trimmed step). A
-- workload gets exactly one workload row for it: communication.sql's when it yields one (the workload has
-- trimmed steps with kernels: its view comm_fraction_per_step has rows), else this file's seed-002 value, which
-- is then written in % (× 100) so the metric keeps one unit.

-- XLA device ops with T (s), bus size S and model_flops.
CREATE OR REPLACE TEMP VIEW xla_ops AS
SELECT workload, rank, source_file, ordinal, name, activity_class, collective, ts_ns, ts_ns + dur_ns AS end_ns,
       bus_size_bytes(collective, in_bytes, out_bytes) AS size_bytes,
       coalesce(CASE WHEN CAST(args['device_duration_ps'] AS DOUBLE) >= 0
                     THEN CAST(args['device_duration_ps'] AS DOUBLE) / 1e12 END,
                CAST(args['duration_ps'] AS DOUBLE) / 1e12,
                dur_ns / 1e9) AS t_s,
       CAST(args['model_flops'] AS DOUBLE) AS model_flops
FROM events
WHERE format IN ('xla_trace_json', 'xplane_pb') AND device IS NOT NULL AND activity_class IS NOT NULL
  AND ts_ns IS NOT NULL AND dur_ns IS NOT NULL;

CACHE TABLE xla_ops;

-- Collective instances of the XLA device ops: views.sql's `comm`, where async halves are paired once for every
-- metric, with T = a pair's span, else the op's own T as xla_ops has it.
CREATE OR REPLACE TEMP VIEW xla_comm AS
SELECT c.workload, c.rank, c.collective, c.size_bytes, CASE WHEN c.halves = 2 THEN c.dur_ns / 1e9 ELSE o.t_s END AS t_s
FROM comm c
LEFT JOIN xla_ops o ON c.halves = 1 AND o.workload = c.workload AND o.rank = c.rank AND o.ts_ns = c.ts_ns
                   AND o.end_ns = c.end_ns AND o.name = c.name AND o.activity_class = 'comm'
WHERE c.halves = 2 OR o.name IS NOT NULL;

-- Totals per rank and for the whole workload (whole = 1, rank null).
CREATE OR REPLACE TEMP VIEW xla_op_totals AS
SELECT workload, rank, grouping(rank) AS whole,
       sum(CASE WHEN activity_class = 'compute' THEN t_s ELSE 0 END) AS compute_s,
       count(model_flops) AS n_with_flops,
       sum(model_flops) AS model_flops,
       sum(CASE WHEN model_flops > 0 AND t_s > 0 THEN model_flops END) AS timed_flops,
       sum(CASE WHEN model_flops > 0 AND t_s > 0 THEN t_s END) AS timed_flops_s
FROM xla_ops GROUP BY GROUPING SETS ((workload, rank), (workload));

CREATE OR REPLACE TEMP VIEW xla_comm_totals AS
SELECT workload, rank, grouping(rank) AS whole,
       count(*) AS n, sum(t_s) AS comm_s, avg(t_s) AS avg_s,
       count_if(size_bytes > 0 AND t_s > 0) AS n_sized,
       avg(CASE WHEN size_bytes > 0 AND t_s > 0 THEN size_bytes / t_s END) AS mean_bytes_per_s,
       sum(CASE WHEN collective = 'all_reduce' AND size_bytes > 0 AND t_s > 0 THEN t_s END) AS allreduce_s
FROM xla_comm GROUP BY GROUPING SETS ((workload, rank), (workload));

-- Wall time: every complete event of the workload's XLA files (host too) for the workload; the rank's own
-- events for a rank.
CREATE OR REPLACE TEMP VIEW xla_wall AS
SELECT workload, rank, grouping(rank) AS whole, (max(ts_ns + dur_ns) - min(ts_ns)) / 1e9 AS wall_s
FROM events
WHERE format IN ('xla_trace_json', 'xplane_pb') AND ph = 'X' AND ts_ns IS NOT NULL AND dur_ns IS NOT NULL
  AND workload IN (SELECT workload FROM xla_ops)
GROUP BY GROUPING SETS ((workload, rank), (workload));

-- Workloads whose communication_fraction comes from communication.sql (CCL-Bench, trimmed steps).
CREATE OR REPLACE TEMP VIEW xla_ccl_comm_fraction AS
SELECT DISTINCT workload FROM comm_fraction_per_step;

CREATE OR REPLACE TEMP VIEW xla_figures AS
SELECT o.workload, CASE WHEN o.whole = 1 THEN NULL ELSE o.rank END AS rank, o.whole = 1 AS whole,
       w.wall_s, o.compute_s, coalesce(c.n, 0) AS n_comm, coalesce(c.comm_s, 0.0) AS comm_s, c.avg_s,
       coalesce(c.n_sized, 0) AS n_sized, c.mean_bytes_per_s, c.allreduce_s,
       o.n_with_flops, o.model_flops, o.timed_flops, o.timed_flops_s,
       wl.device_count AS n_chips, coalesce(wl.num_params_active, wl.num_params) AS params,
       CASE WHEN lower(coalesce(wl.phase, '')) = 'inference' THEN 2 ELSE 6 END AS flops_per_param,
       f.workload IS NOT NULL AS ccl_comm_fraction
FROM xla_op_totals o
LEFT JOIN xla_comm_totals c ON c.workload = o.workload AND c.whole = o.whole AND c.rank <=> o.rank
LEFT JOIN xla_wall w ON w.workload = o.workload AND w.whole = o.whole AND w.rank <=> o.rank
LEFT JOIN workloads wl ON wl.workload = o.workload
LEFT JOIN xla_ccl_comm_fraction f ON f.workload = o.workload
WHERE o.whole = 1 OR o.rank IS NOT NULL;

CREATE OR REPLACE TEMP VIEW xla_metric_rows AS
SELECT workload, rank, whole, metric, value, unit, reason
FROM (SELECT *,
             CASE WHEN params > 0 THEN CAST(flops_per_param * params AS DOUBLE) END AS fpt,
             CASE WHEN n_with_flops > 0 AND params > 0 THEN model_flops / CAST(flops_per_param * params AS DOUBLE) END AS tokens
      FROM xla_figures)
LATERAL VIEW stack(15,
  'wall_time_s', wall_s, 's',
      CASE WHEN wall_s IS NULL THEN 'no complete event with a time and a duration' END,
  'total_compute_time_s', compute_s, 's', CAST(NULL AS STRING),
  'total_comm_time_s', comm_s, 's', CAST(NULL AS STRING),
  'avg_comm_kernel_time_s', avg_s, 's',
      CASE WHEN n_comm = 0 THEN 'no communication ops on the XLA devices' END,
  'compute_utilization_proxy', CASE WHEN wall_s > 0 THEN compute_s / wall_s END, 'ratio',
      CASE WHEN NOT wall_s > 0 THEN 'wall time is zero' END,
  'communication_fraction', CASE WHEN wall_s > 0 AND NOT ccl_comm_fraction THEN 100.0 * comm_s / wall_s END, '%',
      CASE WHEN ccl_comm_fraction THEN 'ccl' WHEN NOT wall_s > 0 THEN 'wall time is zero' END,
  'num_comm_kernels', CAST(n_comm AS DOUBLE), 'count', CAST(NULL AS STRING),
  'num_comm_kernels_w_size_and_time', CAST(n_sized AS DOUBLE), 'count', CAST(NULL AS STRING),
  'avg_comm_bandwidth_GBps', (n_chips - 1) * mean_bytes_per_s / 1e9, 'GB/s',
      CASE WHEN n_sized = 0 THEN 'no communication op with a known size and a duration > 0'
           WHEN n_chips IS NULL THEN 'card lacks hardware.xpu_spec.total_count (n_chips)' END,
  'allreduce_comm_time_s', allreduce_s, 's',
      CASE WHEN allreduce_s IS NULL THEN 'no all-reduce with a known size and a duration > 0' END,
  'achieved_flops_from_trace_json', CASE WHEN timed_flops_s > 0 THEN timed_flops / timed_flops_s END, 'FLOP/s',
      CASE WHEN NOT timed_flops_s > 0 OR timed_flops_s IS NULL THEN 'no XLA op with model_flops > 0 and a duration > 0' END,
  'total_model_flops_from_args', CASE WHEN n_with_flops > 0 THEN model_flops END, 'FLOP',
      CASE WHEN n_with_flops = 0 THEN 'no XLA op carries model_flops' END,
  'flops_per_token_used', CASE WHEN whole THEN fpt END, 'FLOP/token',
      CASE WHEN NOT whole THEN 'workload only' WHEN fpt IS NULL THEN 'card lacks model_arch.num_params' END,
  'estimated_total_tokens', CASE WHEN whole THEN tokens END, 'tokens',
      CASE WHEN NOT whole THEN 'workload only' WHEN n_with_flops = 0 THEN 'no XLA op carries model_flops'
           WHEN fpt IS NULL THEN 'card lacks model_arch.num_params' END,
  'estimated_throughput_tokens_per_s', CASE WHEN whole AND wall_s > 0 THEN tokens / wall_s END, 'tokens/s',
      CASE WHEN NOT whole THEN 'workload only' WHEN n_with_flops = 0 THEN 'no XLA op carries model_flops'
           WHEN fpt IS NULL THEN 'card lacks model_arch.num_params' WHEN NOT wall_s > 0 THEN 'wall time is zero' END
) s AS metric, value, unit, reason;

-- Rank rows: the values that exist.
SELECT workload, metric, NULL, value, unit, 'rank', rank, NULL, NULL, 'ok', NULL
FROM xla_metric_rows WHERE NOT whole AND value IS NOT NULL;

-- Workload rows: every metric, with a value or a reason (communication_fraction only when communication.sql
-- has none for the workload).
SELECT workload, metric, NULL, value, unit, 'workload', NULL, NULL, NULL,
       CASE WHEN value IS NOT NULL THEN 'ok' ELSE 'missing_input' END,
       CASE WHEN value IS NULL THEN coalesce(reason, 'not computable from this workload''s inputs') END
FROM xla_metric_rows WHERE whole AND NOT (metric = 'communication_fraction' AND reason <=> 'ccl');
