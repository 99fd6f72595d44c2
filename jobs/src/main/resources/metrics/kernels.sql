-- Kernel-level leaderboard metrics (METRICS.md §4, CCL-Bench): pooled over all rank files of a workload, so
-- there are no per-rank rows except for memory_transfer_overhead, which is computed per rank first.
-- Every query yields: workload, metric, figure, value, unit, scope, rank, step, key, status, reason.

-- Kernels: Kineto cat 'kernel' (no memcpy/memset rows), every rank.
CREATE OR REPLACE TEMP VIEW leaderboard_kernels AS
SELECT workload, rank, name, dur_ns, args FROM gpu WHERE cat = 'kernel';

CREATE OR REPLACE TEMP VIEW leaderboard_kernel_total AS
SELECT workload, sum(dur_ns) AS dur_ns FROM leaderboard_kernels GROUP BY workload;

-- dominant_kernel_concentration: max over kernel names of Σ dur(name) ÷ Σ dur of all kernels × 100. The
-- dominant kernel's name is a `key` row beside the workload row.
CREATE OR REPLACE TEMP VIEW dominant_kernel AS
SELECT k.workload, max_by(k.name, struct(k.dur_ns, k.name)) AS name,
       100.0 * max(k.dur_ns) / max(t.dur_ns) AS pct, max(t.dur_ns) AS total_ns
FROM (SELECT workload, name, sum(dur_ns) AS dur_ns FROM leaderboard_kernels GROUP BY workload, name) k
JOIN leaderboard_kernel_total t ON t.workload = k.workload
GROUP BY k.workload;

SELECT workload, 'dominant_kernel_concentration', NULL, CASE WHEN total_ns > 0 THEN pct END, '%', scope, NULL, NULL,
       CASE WHEN scope = 'key' THEN concat('name:', name) END,
       CASE WHEN total_ns > 0 THEN 'ok' ELSE 'missing_input' END,
       CASE WHEN total_ns = 0 THEN 'every kernel has zero duration' END
FROM dominant_kernel
LATERAL VIEW explode(array('workload', 'key')) s AS scope
WHERE total_ns > 0 OR scope = 'workload';

-- moe_fraction: Σ dur of kernels whose name matches the MoE pattern (is_moe_kernel) ÷ Σ dur of all kernels × 100.
SELECT workload, 'moe_fraction', NULL,
       CASE WHEN sum(dur_ns) > 0 THEN 100.0 * sum(CASE WHEN is_moe_kernel(name) THEN dur_ns ELSE 0 END) / sum(dur_ns) END,
       '%', 'workload', NULL, NULL, NULL,
       CASE WHEN sum(dur_ns) > 0 THEN 'ok' ELSE 'missing_input' END,
       CASE WHEN sum(dur_ns) = 0 THEN 'every kernel has zero duration' END
FROM leaderboard_kernels GROUP BY workload;

-- mean_sm_coverage: duration-weighted mean of min(blocks per SM, 1) × 100 over kernels carrying the
-- 'blocks per SM' arg.
SELECT workload, 'mean_sm_coverage', NULL,
       CASE WHEN sum(dur_ns) > 0 THEN 100.0 * sum(dur_ns * least(blocks_per_sm, 1.0)) / sum(dur_ns) END,
       '%', 'workload', NULL, NULL, NULL,
       CASE WHEN sum(dur_ns) > 0 THEN 'ok' ELSE 'missing_input' END,
       CASE WHEN sum(dur_ns) = 0 THEN 'every kernel with a "blocks per SM" arg has zero duration' END
FROM (SELECT workload, dur_ns, CAST(args['blocks per SM'] AS DOUBLE) AS blocks_per_sm FROM leaderboard_kernels)
WHERE blocks_per_sm IS NOT NULL
GROUP BY workload;

-- memory_transfer_overhead (CCL-Bench, exactly): per rank, over the events CCL-Bench reads (is_ccl_bench_event_cat:
-- `cat` kernel, Op, gpu_op, device_op or absent; Kineto's gpu_memcpy/gpu_memset are not among them, so only copy
-- *kernels* count) with dur > 0: pure copy = |U_copy| − |U_copy ∩ U_compute| (compute: neither copy nor
-- is_ccl_bench_comm_name), span = first start → last end of those events. Workload = Σ over ranks of pure copy ÷
-- Σ of their spans × 100, rounded to 4 decimals as CCL-Bench prints it; ranks without copy kernels are skipped.
CREATE OR REPLACE TEMP VIEW copy_overhead_per_rank AS
SELECT workload, rank, f['ccl_copy_pure_ns'] AS pure_ns, f['ccl_event_last_ns'] - f['ccl_event_first_ns'] AS span_ns
FROM rank_whole WHERE f['ccl_copy_pure_ns'] IS NOT NULL;

SELECT workload, 'memory_transfer_overhead', NULL, 100.0 * pure_ns / span_ns, '%', 'rank', rank, NULL, NULL, 'ok', NULL
FROM copy_overhead_per_rank WHERE span_ns > 0;

SELECT r.workload, 'memory_transfer_overhead', NULL,
       CASE WHEN sum(c.span_ns) > 0 THEN round(100.0 * sum(c.pure_ns) / sum(c.span_ns), 4) END, '%', 'workload',
       NULL, NULL, NULL,
       CASE WHEN sum(c.span_ns) > 0 THEN 'ok' ELSE 'missing_input' END,
       CASE WHEN count(c.rank) = 0 THEN 'no copy kernel (cat kernel named memcpy, memset, copy_kernel, ...) on any rank; Kineto gpu_memcpy/gpu_memset events do not count (CCL-Bench reads only kernels): see memcpy_exposed_pct'
            WHEN NOT sum(c.span_ns) > 0 THEN 'copy kernels span no time' END
FROM (SELECT DISTINCT workload FROM rank_whole) r
LEFT JOIN copy_overhead_per_rank c ON c.workload = r.workload
GROUP BY r.workload;

-- memcpy_exposed_pct (our variant): the same over every GPU activity (memcpy/memset activities included, copies by
-- is_copy_kernel name, compute = every non-copy activity that is not communication by §2), span = first start →
-- last end of all GPU activity of dur > 0; per rank, per rank per step (the step's activities), and workload =
-- Σ pure ÷ Σ spans × 100 over the ranks with a copy.
CREATE OR REPLACE TEMP VIEW copy_exposed_per_rank AS
SELECT workload, rank, f['copy_pure_ns'] AS pure_ns, f['positive_last_ns'] - f['positive_first_ns'] AS span_ns
FROM rank_whole WHERE f['copy_pure_ns'] IS NOT NULL;

SELECT workload, 'memcpy_exposed_pct', NULL, 100.0 * pure_ns / span_ns, '%', 'rank', rank, NULL, NULL, 'ok', NULL
FROM copy_exposed_per_rank WHERE span_ns > 0;

SELECT workload, 'memcpy_exposed_pct', NULL, 100.0 * pure_ns / span_ns, '%', 'step', rank, step, NULL, 'ok', NULL
FROM (SELECT workload, rank, step, f['copy_pure_ns'] AS pure_ns, f['positive_last_ns'] - f['positive_first_ns'] AS span_ns
      FROM rank_step WHERE f['copy_pure_ns'] IS NOT NULL)
WHERE span_ns > 0;

SELECT r.workload, 'memcpy_exposed_pct', NULL,
       CASE WHEN sum(c.span_ns) > 0 THEN 100.0 * sum(c.pure_ns) / sum(c.span_ns) END, '%', 'workload',
       NULL, NULL, NULL,
       CASE WHEN sum(c.span_ns) > 0 THEN 'ok' ELSE 'missing_input' END,
       CASE WHEN count(c.rank) = 0 THEN 'no copy activity (memcpy, memset or copy kernels) on any rank'
            WHEN NOT sum(c.span_ns) > 0 THEN 'copy activity spans no time' END
FROM (SELECT DISTINCT workload FROM rank_whole) r
LEFT JOIN copy_exposed_per_rank c ON c.workload = r.workload
GROUP BY r.workload;

-- average_memory_bandwidth: over copy events (is_copy_kernel names) with args bytes > 0, Σ bytes ÷ Σ dur (µs)
-- ÷ 1000 = Σ bytes ÷ Σ dur (ns), GB/s. As CCL-Bench, events of zero duration are left out.
SELECT workload, 'average_memory_bandwidth', NULL, sum(bytes) / sum(dur_ns), 'GB/s', 'workload', NULL, NULL, NULL,
       'ok', NULL
FROM (SELECT workload, dur_ns, CAST(args['bytes'] AS DOUBLE) AS bytes FROM events
      WHERE is_copy_kernel(name) AND dur_ns > 0)
WHERE bytes > 0
GROUP BY workload;

-- scale_up_bw_utility: a what-if of CCL-Bench's network simulator, never computed (gaps.sql says so).
