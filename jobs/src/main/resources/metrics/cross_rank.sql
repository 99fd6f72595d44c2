-- Cross-rank metrics (METRICS.md §4): the k-th join is the `collectives` view (collectives.sql).

-- Keys matched by ordinal on which ranks disagree about the number of collectives (matched up to the smallest
-- count); keys matched by sequence number need no agreement. Sorted, so the reason reads the same every run.
CREATE OR REPLACE TEMP VIEW collective_count_mismatch AS
SELECT workload, concat_ws('; ', sort_array(collect_list(concat(match_key, ': ', lo, '..', hi, ' per rank')))) AS detail
FROM (SELECT workload, match_key, min(rank_count) AS lo, max(rank_count) AS hi
      FROM collective_numbered WHERE NOT by_seq
      GROUP BY workload, match_key HAVING min(rank_count) <> max(rank_count))
GROUP BY workload;

-- straggler_lag: per matched instance lag = max(start) − min(start); nearest-rank percentiles.
CREATE OR REPLACE TEMP VIEW lag_ranked AS
SELECT workload, lag_ns, row_number() OVER (PARTITION BY workload ORDER BY lag_ns) AS rn,
       count(*) OVER (PARTITION BY workload) AS n
FROM collectives;

CREATE OR REPLACE TEMP VIEW lag_summary AS
SELECT workload, avg(lag_ns) / 1e3 AS mean_us,
       max(CASE WHEN rn = ceil(0.50 * n) THEN lag_ns END) / 1e3 AS p50_us,
       max(CASE WHEN rn = ceil(0.95 * n) THEN lag_ns END) / 1e3 AS p95_us,
       max(lag_ns) / 1e3 AS max_us, max(n) AS n
FROM lag_ranked GROUP BY workload;

-- last_arrival_share per rank: the share of the instances it took part in where it started last.
CREATE OR REPLACE TEMP VIEW arrival_share AS
SELECT m.workload, m.rank, count(*) AS took_part, count_if(m.rank = c.last_rank) AS last,
       count_if(m.rank = c.last_rank) / count(*) AS share
FROM collective_members m JOIN collectives c ON c.workload = m.workload AND c.match_key = m.match_key AND c.k = m.k
GROUP BY m.workload, m.rank;

-- The straggler: the largest share; on equal shares, the lower rank.
CREATE OR REPLACE TEMP VIEW straggler_rank AS
SELECT workload, min_by(rank, struct(-share, rank)) AS rank FROM arrival_share GROUP BY workload;

SELECT l.workload, 'straggler_lag', figure, value, unit, 'workload', NULL, NULL, NULL,
       CASE WHEN m.detail IS NOT NULL THEN 'partial' ELSE 'ok' END,
       CASE WHEN m.detail IS NOT NULL THEN concat('ranks disagree on the number of collectives, matched up to the smallest count: ', m.detail) END
FROM lag_summary l
LEFT JOIN straggler_rank s ON s.workload = l.workload
LEFT JOIN collective_count_mismatch m ON m.workload = l.workload
LATERAL VIEW stack(6,
  'mean_lag_us', mean_us, 'us',
  'p50_lag_us', p50_us, 'us',
  'p95_lag_us', p95_us, 'us',
  'max_lag_us', max_us, 'us',
  'num_collectives', CAST(l.n AS DOUBLE), 'count',
  'straggler_rank', CAST(s.rank AS DOUBLE), 'rank') st AS figure, value, unit;

SELECT workload, 'straggler_lag', 'last_arrival_share', share, 'ratio', 'rank', rank, NULL, NULL, 'ok', NULL
FROM arrival_share;

-- straggler (CCL-Bench): per rank Σ dur of the kernels (cat kernel) named ncclDevKernel_* (is_nccl_dev_kernel; legacy
-- ncclKernel_* traces have none); (max − min) ÷ max over the ranks that have any. Fewer than two such ranks: null.
CREATE OR REPLACE TEMP VIEW nccl_dev_kernel_time AS
SELECT workload, rank, sum(dur_ns) AS t
FROM gpu WHERE cat = 'kernel' AND is_nccl_dev_kernel(name) AND rank IS NOT NULL
GROUP BY workload, rank;

SELECT r.workload, 'straggler', NULL,
       CASE WHEN count(k.rank) >= 2 AND max(k.t) > 0 THEN (max(k.t) - min(k.t)) / max(k.t) END,
       'ratio', 'workload', NULL, NULL, NULL,
       CASE WHEN count(k.rank) >= 2 AND max(k.t) > 0 THEN 'ok' ELSE 'missing_input' END,
       CASE WHEN count(k.rank) < 2 THEN concat('needs ncclDevKernel_ kernels on at least two ranks (', count(k.rank),
                                               ' rank(s) have any); comm_time_imbalance counts every comm activity')
            WHEN NOT max(k.t) > 0 THEN 'every ncclDevKernel_ kernel has zero duration' END
FROM (SELECT DISTINCT workload FROM ranks) r
LEFT JOIN nccl_dev_kernel_time k ON k.workload = r.workload
GROUP BY r.workload;

-- comm_time_imbalance (our variant of straggler): the same formula over every communication activity of §2
-- (kernels of any naming), over the ranks that have any, so legacy ncclKernel_* traces get a value.
CREATE OR REPLACE TEMP VIEW comm_activity_time AS
SELECT workload, rank, sum(dur_ns) AS t FROM comm WHERE rank IS NOT NULL GROUP BY workload, rank;

SELECT r.workload, 'comm_time_imbalance', NULL,
       CASE WHEN count(k.rank) >= 2 AND max(k.t) > 0 THEN (max(k.t) - min(k.t)) / max(k.t) END,
       'ratio', 'workload', NULL, NULL, NULL,
       CASE WHEN count(k.rank) >= 2 AND max(k.t) > 0 THEN 'ok' ELSE 'missing_input' END,
       CASE WHEN count(k.rank) < 2 THEN concat('needs communication activity on at least two ranks (', count(k.rank),
                                               ' rank(s) have any)')
            WHEN NOT max(k.t) > 0 THEN 'every communication activity has zero duration' END
FROM (SELECT DISTINCT workload FROM ranks) r
LEFT JOIN comm_activity_time k ON k.workload = r.workload
GROUP BY r.workload;

-- load_imbalance_ratio (CCL-Bench): per rank |union of kernel intervals| (cat kernel); max ÷ min.
SELECT workload, 'load_imbalance_ratio', NULL, max(f['kernel_union_ns']) / min(f['kernel_union_ns']), 'ratio',
       'workload', NULL, NULL, NULL, 'ok', NULL
FROM rank_whole WHERE f['kernel_union_ns'] IS NOT NULL
GROUP BY workload HAVING count(*) >= 2 AND min(f['kernel_union_ns']) > 0;

-- iter_time_skew_ms: per step, max − min over ranks of the step's end; workload = mean over steps.
CREATE OR REPLACE TEMP VIEW step_end_skew AS
SELECT workload, step, (max(end_ns) - min(end_ns)) / 1e6 AS skew_ms
FROM step_windows GROUP BY workload, step HAVING count(*) >= 2;

SELECT workload, 'iter_time_skew_ms', NULL, skew_ms, 'ms', 'step', NULL, step, NULL, 'ok', NULL FROM step_end_skew;

SELECT workload, 'iter_time_skew_ms', NULL, avg(skew_ms), 'ms', 'workload', NULL, NULL, NULL, 'ok', NULL
FROM step_end_skew GROUP BY workload;
