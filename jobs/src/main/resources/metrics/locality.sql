-- comm_locality (METRICS.md §4): how much of the communication stays inside one node. A collective instance is
-- intra_node when every rank of its process group lies on one node (node = global rank div the card's
-- count_per_node), else inter_node. The group is the instance's pg_ranks (Kineto's 'Process Group Ranks'); an
-- instance without them is taken to span the world (ranks 0 .. world-1, world = the card's total_count or the ranks
-- traced, whichever is larger), and the reason says mode=world for the kinds where that happened.
-- Bytes = Σ over ranks of the bus size S of the instances (so intra + inter = comm_bytes_total where sizes are
-- known); time = Σ over ranks of the instances' durations (an XLA async pair counts from -start to -done).
-- Point-to-point follows the same rule: a send/recv in a two-rank pipeline group [3, 11] is inter-node with 8 GPUs a
-- node, one in the world group is inter-node whenever the world spans nodes.

CREATE OR REPLACE TEMP VIEW locality_layout AS
SELECT w.workload, w.count_per_node AS per_node, greatest(coalesce(w.device_count, 0), r.max_rank + 1) AS world
FROM workloads w JOIN (SELECT workload, max(rank) AS max_rank FROM ranks GROUP BY workload) r ON r.workload = w.workload
WHERE w.count_per_node > 0;

CREATE OR REPLACE TEMP VIEW locality_classified AS
SELECT workload, kind, size_bytes, dur_ns, by_world,
       CASE WHEN by_world THEN (world - 1) div per_node = 0
            ELSE array_min(transform(members, r -> r div per_node)) = array_max(transform(members, r -> r div per_node))
       END AS intra
FROM (SELECT c.workload, coalesce(c.collective, 'unknown') AS kind, c.size_bytes, c.dur_ns, l.per_node, l.world,
             from_json(c.pg_ranks, 'array<int>') AS members,
             coalesce(size(from_json(c.pg_ranks, 'array<int>')), 0) <= 0 AS by_world
      FROM comm c JOIN locality_layout l ON l.workload = c.workload);

-- Per kind (scope key) and for the workload (every kind), with why: the mode, and how many sizes are unknown.
CREATE OR REPLACE TEMP VIEW locality_sums AS
SELECT workload, kind,
       sum(CASE WHEN NOT intra THEN coalesce(size_bytes, 0) ELSE 0 END) AS inter_bytes,
       sum(CASE WHEN intra THEN coalesce(size_bytes, 0) ELSE 0 END) AS intra_bytes,
       sum(CASE WHEN NOT intra THEN dur_ns ELSE 0 END) / 1e6 AS inter_ms,
       sum(CASE WHEN intra THEN dur_ns ELSE 0 END) / 1e6 AS intra_ms,
       count(*) AS n, count_if(by_world) AS n_world, count_if(size_bytes IS NULL) AS n_unsized
FROM locality_classified
GROUP BY GROUPING SETS ((workload, kind), (workload));

SELECT workload, 'comm_locality', figure, value, unit,
       CASE WHEN kind IS NULL THEN 'workload' ELSE 'key' END, NULL, NULL, kind,
       CASE WHEN n_unsized > 0 AND unit = 'bytes' THEN 'partial' ELSE 'ok' END,
       concat(CASE WHEN n_world = 0 THEN 'mode=pg_ranks'
                   ELSE concat('mode=world (', n_world, ' of ', n, ' instances name no process-group ranks)') END,
              CASE WHEN n_unsized > 0 AND unit = 'bytes'
                   THEN concat('; ', n_unsized, ' of ', n, ' instances have no known size') ELSE '' END)
FROM locality_sums
LATERAL VIEW stack(4, 'inter_node_bytes', CAST(inter_bytes AS DOUBLE), 'bytes',
                      'intra_node_bytes', CAST(intra_bytes AS DOUBLE), 'bytes',
                      'inter_node_time_ms', inter_ms, 'ms', 'intra_node_time_ms', intra_ms, 'ms') st AS figure, value, unit;
