-- The cross-rank join of METRICS.md straggler_lag: per rank, communication activities are ordered within a
-- match key — (process group, kind) when known, else (stream, kind), else kind alone — and the k-th of every
-- rank forms one collective instance. When every instance of a key carries a sequence number (Seq arg, or
-- record_param_comms' Concrete Inputs in older traces), k is that number, so ranks whose profiles start at
-- different collectives still match. With ordinals, ranks that disagree on the count are matched up to the
-- smallest count (cross_rank.sql reports the mismatch).
-- Every communication activity with its match key, whether its key is matched by sequence number (every instance
-- of the key, on every rank, carries one), its ordinal within (rank, key) and its rank's count of the key.
CREATE OR REPLACE TEMP VIEW collective_numbered AS
WITH c AS (
  SELECT workload, rank, ts_ns, end_ns, collective AS kind, group_size, size_bytes, seq,
         CASE WHEN pg_name IS NOT NULL THEN concat('pg=', pg_name, ' kind=', coalesce(collective, 'unknown'))
              WHEN stream IS NOT NULL THEN concat('stream=', stream, ' kind=', coalesce(collective, 'unknown'))
              ELSE concat('kind=', coalesce(collective, 'unknown')) END AS match_key
  FROM comm
  WHERE rank IS NOT NULL
)
SELECT *,
       min(CASE WHEN seq IS NULL THEN 0 ELSE 1 END) OVER (PARTITION BY workload, match_key) = 1 AS by_seq,
       row_number() OVER (PARTITION BY workload, rank, match_key ORDER BY ts_ns, end_ns) AS ordinal,
       count(*) OVER (PARTITION BY workload, rank, match_key) AS rank_count
FROM c;

-- The members of each instance: k is the sequence number, or the ordinal up to the smallest count of any rank.
CREATE OR REPLACE TEMP VIEW collective_members AS
WITH keyed AS (
  SELECT *, CASE WHEN by_seq THEN seq ELSE ordinal END AS k,
         min(rank_count) OVER (PARTITION BY workload, match_key) AS min_count
  FROM collective_numbered
)
SELECT workload, rank, match_key, by_seq, k, ts_ns, end_ns, kind, group_size, size_bytes
FROM keyed
WHERE by_seq OR ordinal <= min_count;

-- One row per instance that at least two ranks took part in.
SELECT workload, match_key,
       CASE WHEN first(by_seq) THEN 'seq' ELSE 'ordinal' END AS match_by,
       k,
       first(kind) AS kind,
       max(group_size) AS group_size,
       max(size_bytes) AS bytes,
       CAST(count(*) AS INT) AS ranks,
       min(ts_ns) AS min_start_ns,
       max(ts_ns) AS max_start_ns,
       min(end_ns) AS min_end_ns,
       max(end_ns) AS max_end_ns,
       max(ts_ns) - min(ts_ns) AS lag_ns,
       max(end_ns) - min(end_ns) AS end_skew_ns,
       -- the last to arrive: the later start; on equal starts, the higher rank
       max_by(rank, struct(ts_ns, rank)) AS last_rank,
       -- bus bandwidth of the instance over the time from the last arrival to the last finish
       algbw_gbps(max(size_bytes), max(end_ns) - max(ts_ns)) * busbw_factor(first(kind), max(group_size)) AS busbw_gbps
FROM collective_members
GROUP BY workload, match_key, k
HAVING count(*) >= 2;
