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

-- straggler (CCL-Bench): per rank Σ dur of communication kernels; (max − min) ÷ max over ranks.
CREATE OR REPLACE TEMP VIEW comm_kernel_time AS
SELECT r.workload, r.rank, coalesce(sum(c.dur_ns), 0) AS t
FROM ranks r LEFT JOIN comm c ON c.workload = r.workload AND c.rank = r.rank AND c.cat = 'kernel'
GROUP BY r.workload, r.rank;

SELECT workload, 'straggler', NULL, (max(t) - min(t)) / max(t), 'ratio', 'workload', NULL, NULL, NULL, 'ok', NULL
FROM comm_kernel_time GROUP BY workload HAVING count(*) >= 2 AND max(t) > 0;

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
