-- Views every metric query reads. `events`, `workloads` and `rank_facts` (the per-rank interval sweep) are
-- registered by the metrics job before this file runs; `collectives` after it.

-- Every GPU activity (METRICS.md §2), with its end.
CREATE OR REPLACE TEMP VIEW gpu AS
SELECT workload, rank, name, cat, stream, ts_ns, dur_ns, ts_ns + dur_ns AS end_ns, step, activity_class,
       kernel_category, collective, in_nelems, dtype, in_bytes, out_bytes, bytes_source, group_size, pg_name,
       pg_ranks, seq, args
FROM events
WHERE activity_class IS NOT NULL AND ts_ns IS NOT NULL AND dur_ns IS NOT NULL;

-- Communication ops with their bus size S (§2 bus bandwidth) and, for XLA's async collectives, which half they are
-- and the instruction both halves share (udfs XlaAsyncOps: all-reduce-start.3 / all-reduce-done.3 → all-reduce.3).
CREATE OR REPLACE TEMP VIEW comm_ops AS
SELECT *, bus_size_bytes(collective, in_bytes, out_bytes) AS size_bytes,
       coalesce(xla_async_half(name), '') AS half, xla_instruction(name) AS instruction
FROM gpu WHERE activity_class = 'comm';

-- Each async half beside its neighbours in time on its rank and instruction, with what the start half knew.
CREATE OR REPLACE TEMP VIEW comm_async_halves AS
SELECT *, lag(half) OVER w AS prev_half, lead(half) OVER w AS next_half,
       lag(struct(ts_ns, step, in_nelems, dtype, in_bytes, out_bytes, bytes_source, size_bytes)) OVER w AS start_half
FROM comm_ops WHERE half <> ''
WINDOW w AS (PARTITION BY workload, rank, instruction ORDER BY ts_ns, CASE WHEN half = 'start' THEN 0 ELSE 1 END);

-- Communication activities as collective instances: what every metric that counts collectives, sums their bytes,
-- times them one by one or joins the k-th across ranks reads. Both halves of an XLA async collective carry its
-- bytes, so counting ops would count it twice and give the few-µs start half the whole message. ONE ASYNC
-- COLLECTIVE IS ONE INSTANCE: a -done paired with the start half just before it on the same rank and instruction,
-- named by the instruction, spanning from the start's start to the -done's end (the time it was in flight), with
-- the start's size (else the -done's) and step; `halves` = 2. A half whose partner lies outside the profile is an
-- instance on its own. Every other op (NCCL kernels, synchronous XLA collectives) is one instance as it is.
-- Interval metrics (comm time, overlap) read the ops themselves through the per-rank sweep, not this view.
CREATE OR REPLACE TEMP VIEW comm AS
SELECT workload, rank, name, cat, stream, ts_ns, dur_ns, end_ns, step, activity_class, kernel_category, collective,
       in_nelems, dtype, in_bytes, out_bytes, bytes_source, group_size, pg_name, pg_ranks, seq, args, size_bytes,
       1 AS halves
FROM comm_ops WHERE half = ''
UNION ALL
SELECT workload, rank, instruction, cat, stream, start_half.ts_ns, end_ns - start_half.ts_ns, end_ns,
       start_half.step, activity_class, kernel_category, collective,
       coalesce(start_half.in_nelems, in_nelems), coalesce(start_half.dtype, dtype),
       coalesce(start_half.in_bytes, in_bytes), coalesce(start_half.out_bytes, out_bytes),
       coalesce(start_half.bytes_source, bytes_source), group_size, pg_name, pg_ranks, seq, args,
       coalesce(start_half.size_bytes, size_bytes), 2
FROM comm_async_halves WHERE half = 'done' AND prev_half <=> 'start'
UNION ALL
SELECT workload, rank, name, cat, stream, ts_ns, dur_ns, end_ns, step, activity_class, kernel_category, collective,
       in_nelems, dtype, in_bytes, out_bytes, bytes_source, group_size, pg_name, pg_ranks, seq, args, size_bytes, 1
FROM comm_async_halves
WHERE (half = 'done' AND NOT prev_half <=> 'start') OR (half = 'start' AND NOT next_half <=> 'done');

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
