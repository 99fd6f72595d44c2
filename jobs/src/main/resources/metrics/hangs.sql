-- Hangs (METRICS.md §4 "Hangs", from NCCL Flight Recorder dumps): workload-scope rows read from `collective_hangs`,
-- which the metrics job stages from collective_hangs.sql before these queries run. A workload with dumps and no
-- stuck collective gets 0 (status ok); a workload without dumps gets its missing_input row from gaps.sql.
--   hang_root_ranks: how many ranks the root rows name (the union of their missing_ranks); the ranks, and the root
--                    collectives (group name, description, sequence id, op), in the reason.
--   hung_groups:     how many process groups have a stuck collective; the groups in the reason.

CREATE OR REPLACE TEMP VIEW fr_workloads AS
SELECT DISTINCT d.workload
FROM (SELECT workload FROM process_group_status UNION ALL SELECT workload FROM flight_recorder) d
LEFT SEMI JOIN workloads w ON w.workload = d.workload;

SELECT w.workload, 'hang_root_ranks', CAST(NULL AS STRING), CAST(coalesce(size(r.ranks), 0) AS DOUBLE), 'count',
       'workload', CAST(NULL AS INT), CAST(NULL AS BIGINT), CAST(NULL AS STRING), 'ok',
       CASE WHEN r.ranks IS NULL
            THEN 'no stuck collective: no member of any group is behind a collective another member holds'
            ELSE concat('ranks ', array_join(r.ranks, ', '), '; root collectives: ', r.roots) END
FROM fr_workloads w
LEFT JOIN (SELECT workload, array_sort(array_distinct(flatten(collect_list(missing_ranks)))) AS ranks,
                  array_join(array_sort(collect_list(concat('group ', pg_name, ' (', coalesce(pg_desc, '?'), ') #',
                      CAST(collective_seq_id AS STRING), ' ', coalesce(op, '?'), ' missing ',
                      array_join(missing_ranks, ',')))), '; ') AS roots
           FROM collective_hangs WHERE is_root GROUP BY workload) r
  ON r.workload = w.workload;

SELECT w.workload, 'hung_groups', CAST(NULL AS STRING), CAST(coalesce(g.n, 0) AS DOUBLE), 'count',
       'workload', CAST(NULL AS INT), CAST(NULL AS BIGINT), CAST(NULL AS STRING), 'ok',
       CASE WHEN g.n IS NULL THEN 'no stuck collective in any process group'
            ELSE concat('groups ', g.names) END
FROM fr_workloads w
LEFT JOIN (SELECT workload, count(*) AS n,
                  array_join(array_sort(collect_list(concat(pg_name, ' (', coalesce(pg_desc, '?'), ')'))), ', ') AS names
           FROM (SELECT DISTINCT workload, pg_name, pg_desc FROM collective_hangs) x GROUP BY workload) g
  ON g.workload = w.workload;
