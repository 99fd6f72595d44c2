-- Hangs, from PyTorch NCCL Flight Recorder dumps (METRICS.md §4 "Hangs"): the `collective_hangs` table, one row per
-- stuck collective. Reads `flight_recorder` (every rank's ring-buffer entries) and `process_group_status` (every
-- rank's groups: pg_config's name/desc/ranks and pg_status's last enqueued/completed collective per rank-local pg_id),
-- both registered by the metrics job (empty when no workload of the run has a dump). Plain joins and aggregates keyed
-- by workload: no loop over ranks anywhere.
--
--   * A group is a pg_config name; its global ranks are what the dumps say (the union over ranks); its pg_id is the
--     one its entries carry on any rank (the same on every rank: groups are created in one order everywhere).
--   * Per member rank that left a dump: enqueued / completed = that rank's pg_status entry under the group's pg_id.
--   * Candidates: c = completed + 1 of each member. A member is missing from c when its enqueued < c.
--   * A row per (group, c) with at least one missing member and at least one member whose entries hold c
--     (collective_seq_id, not p2p): op, input_size (first input's dims joined by 'x') and dtype (first input dtype)
--     from the lowest member rank holding c; created_ns = the earliest time_created_ns of c among those holding it.
--   * is_root: for every missing rank, the row naming it with the smallest created_ns (then group name, then c) is a
--     root — the first collective in time that this rank never joined; a row is root when it is that row for any rank.

-- Each group's pg_id, from the entries of any rank.
CREATE OR REPLACE TEMP VIEW fr_group_ids AS
SELECT workload, pg_name, min(pg_id) AS pg_id
FROM flight_recorder
WHERE pg_name IS NOT NULL AND pg_id IS NOT NULL
GROUP BY workload, pg_name;

-- Each group's description and global ranks, as the pg_config of the dumps gives them.
CREATE OR REPLACE TEMP VIEW fr_groups AS
SELECT s.workload, s.pg_name, min(s.pg_desc) AS pg_desc, i.pg_id,
       array_sort(array_distinct(flatten(collect_list(coalesce(s.pg_ranks, CAST(array() AS ARRAY<INT>)))))) AS pg_ranks
FROM process_group_status s
JOIN fr_group_ids i ON i.workload = s.workload AND i.pg_name = s.pg_name
GROUP BY s.workload, s.pg_name, i.pg_id;

-- Each member rank that left a dump, with how far it got in the group.
CREATE OR REPLACE TEMP VIEW fr_member_status AS
SELECT g.workload, g.pg_name, g.pg_desc, g.pg_id, g.member AS rank,
       s.last_enqueued_collective AS enqueued, s.last_completed_collective AS completed
FROM (SELECT workload, pg_name, pg_desc, pg_id, explode(pg_ranks) AS member FROM fr_groups) g
JOIN process_group_status s
  ON s.workload = g.workload AND s.rank = g.member AND s.pg_id = g.pg_id
WHERE s.last_enqueued_collective IS NOT NULL AND s.last_completed_collective IS NOT NULL;

-- The entries that hold a collective (not p2p) of a group, on member ranks.
CREATE OR REPLACE TEMP VIEW fr_held AS
SELECT f.workload, f.pg_name, f.collective_seq_id AS seq,
       min(named_struct('rank', f.rank, 'ordinal', f.ordinal, 'op', f.op,
                        'input_size', array_join(transform(try_element_at(f.input_sizes, 1), d -> CAST(d AS STRING)), 'x'),
                        'dtype', try_element_at(f.input_dtypes, 1))) AS first_holder,
       min(f.time_created_ns) AS created_ns,
       array_sort(collect_set(f.rank)) AS holding_ranks
FROM flight_recorder f
LEFT SEMI JOIN fr_member_status m ON m.workload = f.workload AND m.pg_name = f.pg_name AND m.rank = f.rank
WHERE NOT coalesce(f.is_p2p, false) AND f.collective_seq_id IS NOT NULL
GROUP BY f.workload, f.pg_name, f.collective_seq_id;

-- Stuck collectives: each candidate c with its missing members, kept when some member holds it.
CREATE OR REPLACE TEMP VIEW fr_stuck AS
SELECT c.workload, c.pg_name, c.pg_desc, c.pg_id, c.seq,
       h.first_holder.op AS op, h.first_holder.input_size, h.first_holder.dtype, h.created_ns,
       array_sort(collect_list(m.rank)) AS missing_ranks, h.holding_ranks
FROM (SELECT DISTINCT workload, pg_name, pg_desc, pg_id, completed + 1 AS seq FROM fr_member_status) c
JOIN fr_member_status m ON m.workload = c.workload AND m.pg_name = c.pg_name AND m.enqueued < c.seq
JOIN fr_held h ON h.workload = c.workload AND h.pg_name = c.pg_name AND h.seq = c.seq
GROUP BY c.workload, c.pg_name, c.pg_desc, c.pg_id, c.seq, h.first_holder, h.created_ns, h.holding_ranks;

-- For every missing rank, its first stuck collective in time.
CREATE OR REPLACE TEMP VIEW fr_roots AS
SELECT DISTINCT workload, pg_name, seq
FROM (SELECT workload, pg_name, seq,
             row_number() OVER (PARTITION BY workload, missing ORDER BY created_ns, pg_name, seq) AS n
      FROM (SELECT workload, pg_name, seq, created_ns, explode(missing_ranks) AS missing FROM fr_stuck) x) r
WHERE n = 1;

SELECT s.workload, s.pg_name, s.pg_desc, s.pg_id, s.seq AS collective_seq_id, s.op, s.input_size, s.dtype,
       s.created_ns, s.missing_ranks, s.holding_ranks, r.seq IS NOT NULL AS is_root
FROM fr_stuck s
LEFT JOIN fr_roots r ON r.workload = s.workload AND r.pg_name = s.pg_name AND r.seq = s.seq
