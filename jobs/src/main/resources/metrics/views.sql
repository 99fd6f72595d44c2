-- Views every metric query reads. `events`, `workloads` and `rank_facts` (the per-rank interval sweep) are
-- registered by the metrics job before this file runs; `collectives` after it.

-- Every GPU activity (METRICS.md §2), with its end.
CREATE OR REPLACE TEMP VIEW gpu AS
SELECT workload, rank, name, cat, stream, ts_ns, dur_ns, ts_ns + dur_ns AS end_ns, step, activity_class,
       kernel_category, collective, in_nelems, dtype, in_bytes, out_bytes, bytes_source, group_size, pg_name,
       pg_ranks, seq, args
FROM events
WHERE activity_class IS NOT NULL AND ts_ns IS NOT NULL AND dur_ns IS NOT NULL;

-- Communication activities with their bus size S (§2 bus bandwidth).
CREATE OR REPLACE TEMP VIEW comm AS
SELECT *, bus_size_bytes(collective, in_bytes, out_bytes) AS size_bytes
FROM gpu WHERE activity_class = 'comm';

-- Cached: almost every metric reads these two.
CACHE TABLE gpu;
CACHE TABLE comm;

-- The ranks of each workload: every rank that has events.
CREATE OR REPLACE TEMP VIEW ranks AS
SELECT DISTINCT workload, rank FROM events WHERE rank IS NOT NULL;

CREATE OR REPLACE TEMP VIEW rank_count AS
SELECT workload, count(*) AS n_ranks FROM ranks GROUP BY workload;

-- Whole-trace facts per rank, one column per fact.
CREATE OR REPLACE TEMP VIEW rank_whole AS
SELECT workload, rank, map_from_entries(collect_list(struct(fact, value_ns))) AS f
FROM rank_facts WHERE step IS NULL GROUP BY workload, rank;

-- Per-step facts per rank (GPU activity by its step, and the step's annotation window).
CREATE OR REPLACE TEMP VIEW rank_step AS
SELECT workload, rank, step, map_from_entries(collect_list(struct(fact, value_ns))) AS f
FROM rank_facts WHERE step IS NOT NULL GROUP BY workload, rank, step;

-- Step windows per rank: start, end, duration, and whether the step survives CCL-Bench trimming.
CREATE OR REPLACE TEMP VIEW step_windows AS
SELECT workload, rank, step, f['window_start_ns'] AS start_ns, f['window_end_ns'] AS end_ns,
       f['window_end_ns'] - f['window_start_ns'] AS dur_ns, coalesce(f['trimmed'], 0) = 1 AS trimmed
FROM rank_step WHERE f['window_start_ns'] IS NOT NULL;
