-- Memory (METRICS.md §4 "Memory (from CUDA memory snapshots)"). Reads `memory_events` (each device's allocator
-- trace, `ordinal` = position in the trace) and `memory_segments` (the snapshot's final segments and blocks), both
-- registered by the metrics job (empty when no workload of the run has a snapshot). Every query yields the metrics
-- table's columns: workload, metric, figure, value, unit, scope, rank, step, key, status, reason.
--
-- The replay is order-dependent. It is written here with window functions over each (workload, rank, device) trace
-- in `ordinal` order, so the rule is in one file a person can read and rerun in `tracelake sql`:
--   * a `free_completed` matches a traced `alloc` when the previous alloc/free_completed event on its address is an
--     alloc (the address is live), exactly MemoryViz's addr_to_alloc; an unmatched free was allocated before the
--     trace (ring buffer) and counts as initially allocated;
--   * a final active_* block whose address has no live traced alloc at the end of the trace (the last
--     alloc/free_completed event on its address is not an alloc) is initially allocated too, with its block size;
--   * allocated = initially allocated + Σ alloc sizes − Σ free_completed sizes so far (trace sizes are the
--     REQUESTED sizes, so the replay slightly under-counts memory_allocated()); the peak includes the start state;
--   * reserved = Σ segments.total_size − Σ segment_alloc/segment_map + Σ segment_free/segment_unmap, then replayed
--     with those events (constant when the trace has none).
-- alloc_count counts `alloc`, free_count `free_completed` (the free that returns the block; `free_requested` is only
-- its request), oom_count `oom`; alloc_rate_per_s = alloc_count ÷ (last − first time_us of the device's trace) in s;
-- fragmentation = 1 − largest inactive block ÷ all inactive bytes of the final segments (0 when none is inactive);
-- internal_waste_bytes = Σ (size − requested_size) of the final active_* blocks; memory_efficiency = allocated ÷
-- reserved at the first moment allocated reached its peak.
--
-- Scopes: scope 'rank' rows are per device of each rank (rank = the snapshot's rank, key = 'cuda:<device>');
-- workload rows combine them: max over devices for peak_allocated_bytes, peak_reserved_bytes, largest_alloc_bytes
-- (the device nearest to its limit decides), Σ for alloc_count, free_count, oom_count, internal_waste_bytes, and
-- the mean for memory_efficiency, fragmentation and alloc_rate_per_s.

-- The devices to report: any device a snapshot of a workload of this run has a trace or segments for.
CREATE OR REPLACE TEMP VIEW mem_devices AS
SELECT DISTINCT d.workload, d.rank, d.device
FROM (SELECT workload, rank, device FROM memory_events
      UNION ALL
      SELECT workload, rank, device FROM memory_segments) d
LEFT SEMI JOIN workloads w ON w.workload = d.workload;

-- alloc / free_completed on each address, with the neighbouring such event on the same address.
CREATE OR REPLACE TEMP VIEW mem_addr_events AS
SELECT workload, rank, device, ordinal, action, address, size,
       lag(action) OVER (PARTITION BY workload, rank, device, address ORDER BY ordinal) AS prev_action,
       lead(action) OVER (PARTITION BY workload, rank, device, address ORDER BY ordinal) AS next_action
FROM memory_events
WHERE action IN ('alloc', 'free_completed');

-- Addresses still allocated by a traced alloc when the trace ends.
CREATE OR REPLACE TEMP VIEW mem_live_at_end AS
SELECT workload, rank, device, address FROM mem_addr_events
WHERE action = 'alloc' AND next_action IS NULL;

-- The start of the replay per device: initially allocated bytes and reserved bytes.
CREATE OR REPLACE TEMP VIEW mem_start AS
SELECT d.workload, d.rank, d.device,
       coalesce(uf.bytes, 0) + coalesce(ab.bytes, 0) AS initial_allocated,
       coalesce(sg.bytes, 0) - coalesce(se.grown, 0) + coalesce(se.shrunk, 0) AS initial_reserved
FROM mem_devices d
LEFT JOIN (SELECT workload, rank, device, sum(size) AS bytes FROM mem_addr_events
           WHERE action = 'free_completed' AND coalesce(prev_action, '') <> 'alloc'
           GROUP BY workload, rank, device) uf
  ON uf.workload = d.workload AND uf.rank <=> d.rank AND uf.device = d.device
LEFT JOIN (SELECT b.workload, b.rank, b.device, sum(b.size) AS bytes FROM memory_segments b
           LEFT ANTI JOIN mem_live_at_end l
             ON l.workload = b.workload AND l.rank <=> b.rank AND l.device = b.device AND l.address = b.address
           WHERE b.row_kind = 'block' AND b.state LIKE 'active%'
           GROUP BY b.workload, b.rank, b.device) ab
  ON ab.workload = d.workload AND ab.rank <=> d.rank AND ab.device = d.device
LEFT JOIN (SELECT workload, rank, device, sum(size) AS bytes FROM memory_segments WHERE row_kind = 'segment'
           GROUP BY workload, rank, device) sg
  ON sg.workload = d.workload AND sg.rank <=> d.rank AND sg.device = d.device
LEFT JOIN (SELECT workload, rank, device,
                  sum(CASE WHEN action IN ('segment_alloc', 'segment_map') THEN size ELSE 0 END) AS grown,
                  sum(CASE WHEN action IN ('segment_free', 'segment_unmap') THEN size ELSE 0 END) AS shrunk
           FROM memory_events GROUP BY workload, rank, device) se
  ON se.workload = d.workload AND se.rank <=> d.rank AND se.device = d.device;

-- The replay: allocated and reserved after every trace entry, plus the start state as ordinal -1.
CREATE OR REPLACE TEMP VIEW mem_replay AS
SELECT s.workload, s.rank, s.device, CAST(-1 AS BIGINT) AS ordinal, s.initial_allocated AS allocated,
       s.initial_reserved AS reserved
FROM mem_start s
UNION ALL
SELECT e.workload, e.rank, e.device, e.ordinal,
       s.initial_allocated + sum(CASE WHEN e.action = 'alloc' THEN e.size
                                      WHEN e.action = 'free_completed' THEN -e.size ELSE 0 END)
           OVER (PARTITION BY e.workload, e.rank, e.device ORDER BY e.ordinal
                 ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS allocated,
       s.initial_reserved + sum(CASE WHEN e.action IN ('segment_alloc', 'segment_map') THEN e.size
                                     WHEN e.action IN ('segment_free', 'segment_unmap') THEN -e.size ELSE 0 END)
           OVER (PARTITION BY e.workload, e.rank, e.device ORDER BY e.ordinal
                 ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS reserved
FROM memory_events e
JOIN mem_start s ON s.workload = e.workload AND s.rank <=> e.rank AND s.device = e.device;

-- Per device: the peaks, and reserved at the first moment allocated reached its peak.
CREATE OR REPLACE TEMP VIEW mem_peaks AS
SELECT workload, rank, device, max(allocated) AS peak_allocated, max(reserved) AS peak_reserved,
       max_by(reserved, struct(allocated, -ordinal)) AS reserved_at_peak
FROM mem_replay GROUP BY workload, rank, device;

-- Per device: counts over the trace and facts of the final segments.
CREATE OR REPLACE TEMP VIEW mem_device_stats AS
SELECT d.workload, d.rank, d.device,
       p.peak_allocated, p.peak_reserved,
       CASE WHEN p.reserved_at_peak > 0 THEN p.peak_allocated / p.reserved_at_peak END AS memory_efficiency,
       coalesce(t.alloc_count, 0) AS alloc_count, coalesce(t.free_count, 0) AS free_count,
       coalesce(t.oom_count, 0) AS oom_count, t.largest_alloc, t.span_us,
       CASE WHEN t.span_us > 0 THEN t.alloc_count / (t.span_us / 1e6) END AS alloc_rate_per_s,
       CASE WHEN coalesce(b.inactive_bytes, 0) = 0 THEN 0.0
            ELSE 1 - b.largest_inactive / b.inactive_bytes END AS fragmentation,
       coalesce(b.waste, 0) AS internal_waste
FROM mem_devices d
JOIN mem_peaks p ON p.workload = d.workload AND p.rank <=> d.rank AND p.device = d.device
LEFT JOIN (SELECT workload, rank, device,
                  sum(CASE WHEN action = 'alloc' THEN 1 ELSE 0 END) AS alloc_count,
                  sum(CASE WHEN action = 'free_completed' THEN 1 ELSE 0 END) AS free_count,
                  sum(CASE WHEN action = 'oom' THEN 1 ELSE 0 END) AS oom_count,
                  max(CASE WHEN action = 'alloc' THEN size END) AS largest_alloc,
                  max(time_us) - min(time_us) AS span_us
           FROM memory_events GROUP BY workload, rank, device) t
  ON t.workload = d.workload AND t.rank <=> d.rank AND t.device = d.device
LEFT JOIN (SELECT workload, rank, device,
                  sum(CASE WHEN state = 'inactive' THEN size ELSE 0 END) AS inactive_bytes,
                  max(CASE WHEN state = 'inactive' THEN size END) AS largest_inactive,
                  sum(CASE WHEN state LIKE 'active%' THEN size - requested_size ELSE 0 END) AS waste
           FROM memory_segments WHERE row_kind = 'block' GROUP BY workload, rank, device) b
  ON b.workload = d.workload AND b.rank <=> d.rank AND b.device = d.device;

-- One row per (device, metric) with the reason a value is missing.
CREATE OR REPLACE TEMP VIEW mem_device_metrics AS
SELECT workload, rank, device, metric, value, unit,
       CASE WHEN value IS NULL THEN why END AS reason
FROM mem_device_stats
LATERAL VIEW stack(10,
  'peak_allocated_bytes', CAST(peak_allocated AS DOUBLE), 'bytes (requested sizes)', CAST(NULL AS STRING),
  'peak_reserved_bytes', CAST(peak_reserved AS DOUBLE), 'bytes', CAST(NULL AS STRING),
  'memory_efficiency', memory_efficiency, 'ratio', 'no reserved memory at the peak of allocation',
  'fragmentation', fragmentation, 'ratio', CAST(NULL AS STRING),
  'internal_waste_bytes', CAST(internal_waste AS DOUBLE), 'bytes', CAST(NULL AS STRING),
  'alloc_count', CAST(alloc_count AS DOUBLE), 'count', CAST(NULL AS STRING),
  'free_count', CAST(free_count AS DOUBLE), 'count', CAST(NULL AS STRING),
  'alloc_rate_per_s', alloc_rate_per_s, '1/s', 'the trace spans no time (fewer than two distinct time_us)',
  'oom_count', CAST(oom_count AS DOUBLE), 'count', CAST(NULL AS STRING),
  'largest_alloc_bytes', CAST(largest_alloc AS DOUBLE), 'bytes (requested sizes)', 'no alloc in the trace'
) m AS metric, value, unit, why;

-- Per device of each rank.
SELECT workload, metric, NULL, value, unit, 'rank', rank, NULL, concat('cuda:', device),
       CASE WHEN value IS NULL THEN 'missing_input' ELSE 'ok' END, reason
FROM mem_device_metrics;

-- Workload rows.
SELECT workload, metric, NULL, value, unit, 'workload', NULL, NULL, NULL,
       CASE WHEN value IS NULL THEN 'missing_input' ELSE 'ok' END,
       CASE WHEN value IS NULL THEN coalesce(reason, 'no device has a value') END
FROM (SELECT workload, metric, first(unit) AS unit, first(reason, true) AS reason,
             CASE WHEN metric IN ('peak_allocated_bytes', 'peak_reserved_bytes', 'largest_alloc_bytes') THEN max(value)
                  WHEN metric IN ('alloc_count', 'free_count', 'oom_count', 'internal_waste_bytes') THEN sum(value)
                  ELSE avg(value) END AS value
      FROM mem_device_metrics GROUP BY workload, metric);
