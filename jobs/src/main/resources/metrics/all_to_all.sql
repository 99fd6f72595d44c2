-- all_to_all_imbalance (METRICS.md §4): per all_to_all instance whose ranks carry split sizes, max ÷ mean over the
-- instance's ranks of the bytes each rank sent; and the rank-pair volume (the all_to_all_pairs table).

-- Each rank's part in an all_to_all instance of the cross-rank join, with its input splits (element counts) from the
-- kernel's 'In split size' arg, when the trace records it.
CREATE OR REPLACE TEMP VIEW a2a_kineto_parts AS
SELECT m.workload, m.match_key, m.k, 'kineto' AS source, m.rank, c.pg_ranks,
       from_json(c.args['In split size'], 'array<bigint>') AS splits,
       CAST(dtype_size(c.dtype) AS BIGINT) AS elem_bytes, c.in_bytes
FROM collective_members m
JOIN comm c ON c.workload = m.workload AND c.rank = m.rank AND c.ts_ns = m.ts_ns AND c.end_ns = m.end_ns
WHERE m.kind = 'all_to_all' AND c.collective = 'all_to_all';

-- Workloads whose Kineto kernels carry splits: their execution traces would count the same instances twice.
CREATE OR REPLACE TEMP VIEW a2a_kineto_workloads AS
SELECT DISTINCT workload FROM a2a_kineto_parts WHERE size(splits) > 0;

-- Otherwise the execution trace's all_to_allv inputs: one instance per (process group, comm seq), which is what the
-- cross-rank join matches by when the kernels carry the sequence number. An op is recorded twice (record_param_comms
-- and the nccl:all_to_all under it); record_param_comms holds the splits.
CREATE OR REPLACE TEMP VIEW a2a_et_parts AS
SELECT workload,
       CASE WHEN pg_name IS NOT NULL THEN concat('pg=', pg_name, ' kind=all_to_all') ELSE 'kind=all_to_all' END AS match_key,
       comm_seq AS k, 'et' AS source, rank, CAST(NULL AS STRING) AS pg_ranks,
       from_json(in_split_sizes, 'array<bigint>') AS splits,
       CASE WHEN in_nelems > 0 THEN in_bytes DIV in_nelems END AS elem_bytes, in_bytes
FROM (SELECT *, row_number() OVER (PARTITION BY workload, rank, pg_name, comm_seq
                                   ORDER BY CASE WHEN name = 'record_param_comms' THEN 0 ELSE 1 END, ordinal) AS pick
      FROM et_nodes
      WHERE is_comm AND collective = 'all_to_all' AND comm_seq IS NOT NULL AND rank IS NOT NULL) n
WHERE pick = 1 AND NOT EXISTS (SELECT 1 FROM a2a_kineto_workloads w WHERE w.workload = n.workload);

-- The instances at least one of whose ranks carries splits; a rank without (or with an empty list) sent its in_bytes,
-- evenly.
CREATE OR REPLACE TEMP VIEW a2a_parts AS
SELECT * FROM (
  SELECT *, max(CASE WHEN size(splits) > 0 THEN 1 ELSE 0 END) OVER (PARTITION BY workload, source, match_key, k) = 1 AS sized
  FROM (SELECT * FROM a2a_kineto_parts UNION ALL SELECT * FROM a2a_et_parts))
WHERE sized;

CREATE OR REPLACE TEMP VIEW a2a_sent AS
SELECT workload, match_key, k, rank,
       CASE WHEN size(splits) > 0 THEN aggregate(splits, 0L, (acc, x) -> acc + x) * elem_bytes ELSE in_bytes END AS sent_bytes
FROM a2a_parts;

CREATE OR REPLACE TEMP VIEW a2a_instance AS
SELECT workload, match_key, k, max(sent_bytes) / avg(sent_bytes) AS imbalance
FROM a2a_sent
GROUP BY workload, match_key, k
HAVING count(*) >= 2 AND avg(sent_bytes) > 0;

-- The rank-pair volume, staged as the all_to_all_pairs table: split j of rank i goes to the j-th rank of the group
-- (pg_ranks when the trace names them, else rank j of the world).
CREATE OR REPLACE TEMP VIEW all_to_all_pairs AS
SELECT workload, match_key, k, source, rank AS src_rank,
       CAST(coalesce(element_at(from_json(pg_ranks, 'array<int>'), CAST(s.j + 1 AS INT)), s.j) AS INT) AS dst_rank,
       s.n * elem_bytes AS bytes
FROM a2a_parts LATERAL VIEW posexplode(splits) s AS j, n
WHERE size(splits) > 0;

SELECT workload, 'all_to_all_imbalance', figure, value, 'ratio', 'workload', NULL, NULL, NULL, 'ok', NULL
FROM (SELECT workload, avg(imbalance) AS mean, max(imbalance) AS max FROM a2a_instance GROUP BY workload)
LATERAL VIEW stack(2, 'mean', mean, 'max', max) st AS figure, value;

SELECT workload, 'all_to_all_imbalance', figure, value, 'ratio', 'key', NULL, NULL, match_key, 'ok', NULL
FROM (SELECT workload, match_key, avg(imbalance) AS mean, max(imbalance) AS max FROM a2a_instance GROUP BY workload, match_key)
LATERAL VIEW stack(2, 'mean', mean, 'max', max) st AS figure, value;

-- Per instance, for the report: key = '<match key> k=<k>'.
SELECT workload, 'all_to_all_imbalance', 'instance', imbalance, 'ratio', 'key', NULL, NULL,
       concat(match_key, ' k=', k), 'ok', NULL
FROM a2a_instance;
