-- Steps, throughput and efficiency (METRICS.md §4). Every query yields the metrics table's columns:
-- workload, metric, figure, value, unit, scope, rank, step, key, status, reason.
-- Step windows come from `step_windows` (views.sql): ProfilerStep#N, else the inference step names of §1.
-- Annotation-based metrics (phases, FSDP) read CPU-side events: activity_class IS NULL, and never Kineto's
-- gpu_user_annotation copies of the same annotations on the GPU timeline.

-- iter_time: per rank per step, the step's duration (ms)
SELECT workload, 'iter_time', NULL, dur_ns / 1e6, 'ms', 'step', rank, step, NULL, 'ok', NULL
FROM step_windows;

-- ... workload: avg / min / max / population std over all (rank, step), and the same per rank.
CREATE OR REPLACE TEMP VIEW iter_time_stats AS
SELECT workload, rank, grouping(rank) = 1 AS whole_workload,
       avg(dur_ns) / 1e6 AS avg_ms, min(dur_ns) / 1e6 AS min_ms, max(dur_ns) / 1e6 AS max_ms,
       stddev_pop(dur_ns) / 1e6 AS std_ms
FROM step_windows
GROUP BY GROUPING SETS ((workload), (workload, rank));

SELECT workload, 'iter_time', figure, value, 'ms', CASE WHEN whole_workload THEN 'workload' ELSE 'rank' END,
       CASE WHEN whole_workload THEN NULL ELSE rank END, NULL, NULL, 'ok', NULL
FROM iter_time_stats
LATERAL VIEW stack(4, 'avg_ms', avg_ms, 'min_ms', min_ms, 'max_ms', max_ms, 'std_ms', std_ms) s AS figure, value;

-- avg_step_time (CCL-Bench): per rank the mean duration of its trimmed steps (first and last dropped when the
-- rank has more than two), in s; workload = the mean over ranks.
CREATE OR REPLACE TEMP VIEW step_time_per_rank AS
SELECT workload, rank, avg(dur_ns) / 1e9 AS seconds
FROM step_windows WHERE trimmed GROUP BY workload, rank;

CREATE OR REPLACE TEMP VIEW step_time_per_workload AS
SELECT workload, avg(seconds) AS seconds FROM step_time_per_rank GROUP BY workload;

SELECT workload, 'avg_step_time', NULL, seconds, 's', 'rank', rank, NULL, NULL, 'ok', NULL
FROM step_time_per_rank;

SELECT workload, 'avg_step_time', NULL, seconds, 's', 'workload', NULL, NULL, NULL, 'ok', NULL
FROM step_time_per_workload;

-- The card's numbers the throughput and mfu formulas need, with avg_step_time.
CREATE OR REPLACE TEMP VIEW card_rates AS
SELECT w.workload, lower(w.phase) AS phase, w.batch_size, w.seq_len, w.device_count, w.xpu_model,
       coalesce(w.num_params_active, w.num_params) AS n_params,
       w.num_params_embedding, w.num_layers, w.num_heads, w.head_dim, w.output_len,
       t.seconds AS step_s,
       CAST(w.batch_size AS DOUBLE) * w.seq_len / t.seconds AS tokens_per_s,
       CASE WHEN w.batch_size IS NULL OR w.seq_len IS NULL
              THEN 'card lacks workload.data.batch_size or workload.data.seq_len'
            WHEN t.seconds IS NULL
              THEN 'no step durations: no ProfilerStep annotations (nor vLLM/SGLang/TPU-vLLM step annotations, nor an XLA device Steps line) on any rank'
            WHEN t.seconds <= 0 THEN 'average step time is zero'
       END AS tokens_reason
FROM workloads w LEFT JOIN step_time_per_workload t ON t.workload = w.workload;

-- throughput_tokens: batch_size × seq_len ÷ avg_step_time (card, global batch), and per GPU ÷ total_count.
-- Training only: inference workloads get their not_applicable row from gaps.sql.
SELECT workload, 'throughput_tokens', figure, CASE WHEN reason IS NULL THEN value END, 'tokens/s', 'workload',
       NULL, NULL, NULL, CASE WHEN reason IS NULL THEN 'ok' ELSE 'missing_input' END, reason
FROM (SELECT workload, figure, value,
             coalesce(tokens_reason,
                      CASE WHEN figure = 'tokens_per_s_per_gpu' AND (device_count IS NULL OR device_count <= 0)
                           THEN 'card lacks hardware.xpu_spec.total_count' END) AS reason
      FROM card_rates
      LATERAL VIEW stack(2,
        'tokens_per_s', tokens_per_s,
        'tokens_per_s_per_gpu', tokens_per_s / device_count) s AS figure, value
      WHERE phase = 'training');

-- mfu (CCL-Bench formula): FLOP/token = 6(N − N_emb) + 12·L·H·Q·S for training, 2(N − N_emb) + 4·L·H·Q·S for
-- inference (N = active params when the card gives them, else num_params; H = head_dim, Q = num_heads,
-- S = seq_len); achieved = tokens/s × FLOP/token with tokens/s = batch_size × seq_len ÷ avg_step_time;
-- mfu = achieved ÷ (peak per device × total_count) × 100. Peak: the first conf/device_peak_flops.csv pattern
-- (by priority) matching the card's device model, case-insensitively. As CCL-Bench, a missing
-- num_params_embedding counts as 0.
CREATE OR REPLACE TEMP VIEW device_peak AS
SELECT w.workload, min_by(p.peak_flops, p.priority) AS peak_flops
FROM workloads w JOIN device_peak_flops p ON w.xpu_model RLIKE concat('(?i)', p.pattern)
GROUP BY w.workload;

CREATE OR REPLACE TEMP VIEW mfu_per_workload AS
SELECT c.workload,
       CASE WHEN c.phase = 'training' THEN 6.0 * (c.n_params - coalesce(c.num_params_embedding, 0))
                                           + 12.0 * c.num_layers * c.head_dim * c.num_heads * c.seq_len
            ELSE 2.0 * (c.n_params - coalesce(c.num_params_embedding, 0))
                 + 4.0 * c.num_layers * c.head_dim * c.num_heads * c.seq_len END
         * c.tokens_per_s / (p.peak_flops * c.device_count) * 100 AS value,
       CASE WHEN c.phase IS NULL THEN 'card lacks workload.model.phase'
            WHEN c.phase NOT IN ('training', 'inference')
              THEN concat('no FLOP/token formula for card phase ', c.phase)
            WHEN c.n_params IS NULL THEN 'card lacks model_arch.num_params'
            WHEN c.num_layers IS NULL THEN 'card lacks model_arch.num_layers'
            WHEN c.num_heads IS NULL OR c.head_dim IS NULL THEN 'card lacks model_arch.num_heads or head_dim'
            WHEN c.tokens_reason IS NOT NULL THEN c.tokens_reason
            WHEN c.device_count IS NULL OR c.device_count <= 0 THEN 'card lacks hardware.xpu_spec.total_count'
            WHEN c.xpu_model IS NULL THEN 'card lacks hardware.xpu_spec.model'
            WHEN p.peak_flops IS NULL
              THEN concat('no peak FLOPS for device model ''', c.xpu_model, ''' in conf/device_peak_flops.csv')
       END AS reason,
       c.phase NOT IN ('training', 'inference') AS not_applicable
FROM card_rates c LEFT JOIN device_peak p ON p.workload = c.workload;

-- A value above 100 % is kept (it is the formula's), with a note: the card does not describe the profiled run.
SELECT workload, 'mfu', NULL, CASE WHEN reason IS NULL THEN value END, '%', 'workload', NULL, NULL, NULL,
       CASE WHEN reason IS NULL THEN 'ok' WHEN not_applicable THEN 'not_applicable' ELSE 'missing_input' END,
       CASE WHEN reason IS NULL AND value > 100
              THEN 'above 100 %: the card''s model size, batch or sequence length do not match the profiled step time'
            ELSE reason END
FROM mfu_per_workload;

-- ttft, tpot (CCL-Bench, inference): per rank, its steps in time order; ttft = the first step's duration;
-- tpot = the mean duration of the middle steps (all but the first and the last; with two steps, the second;
-- none with one). Workload = the mean over ranks; s. tpot is not applicable when the card's output_len <= 1.
CREATE OR REPLACE TEMP VIEW inference_steps AS
SELECT s.workload, s.rank, s.dur_ns,
       row_number() OVER (PARTITION BY s.workload, s.rank ORDER BY s.start_ns, s.step) AS k,
       count(*) OVER (PARTITION BY s.workload, s.rank) AS n
FROM step_windows s JOIN card_rates c ON c.workload = s.workload
WHERE c.phase = 'inference';

CREATE OR REPLACE TEMP VIEW inference_latency_per_rank AS
SELECT workload, rank,
       max(CASE WHEN k = 1 THEN dur_ns END) / 1e9 AS ttft_s,
       avg(CASE WHEN k > 1 AND (k < n OR n = 2) THEN dur_ns END) / 1e9 AS tpot_s
FROM inference_steps GROUP BY workload, rank;

SELECT workload, metric, NULL, value, 's', 'rank', rank, NULL, NULL, 'ok', NULL
FROM inference_latency_per_rank
LATERAL VIEW stack(2, 'ttft', ttft_s, 'tpot', tpot_s) s AS metric, value
WHERE value IS NOT NULL;

SELECT workload, metric, NULL, CASE WHEN reason IS NULL THEN value END, 's', 'workload', NULL, NULL, NULL,
       CASE WHEN reason IS NULL THEN 'ok' WHEN reason LIKE 'card output_len%' THEN 'not_applicable'
            ELSE 'missing_input' END,
       reason
FROM (SELECT c.workload, m.metric, m.value,
             CASE WHEN m.metric = 'tpot' AND c.output_len <= 1
                    THEN concat('card output_len is ', c.output_len, ': no decode steps')
                  WHEN l.workload IS NULL
                    THEN 'no inference step annotations (execute_context_*, run_batch, $core.py:331 step) on any rank'
                  WHEN m.value IS NULL THEN 'every rank has a single inference step: no decode steps'
             END AS reason
      FROM card_rates c
      LEFT JOIN (SELECT workload, avg(ttft_s) AS ttft_s, avg(tpot_s) AS tpot_s
                 FROM inference_latency_per_rank GROUP BY workload) l ON l.workload = c.workload
      LATERAL VIEW stack(2, 'ttft', l.ttft_s, 'tpot', l.tpot_s) m AS metric, value
      WHERE c.phase = 'inference');

-- kernel_time_s, kernel_breakdown: Σ dur of GPU activity (kernels, memcpy, memset; not device-side sync) per
-- kernel category (§2) and for the 10 kernel names with the most time (key 'name:<kernel>'). kernel_time_s in
-- s per rank (the rank's total) and, at workload scope, the mean over ranks (total, and per key, scope `key`);
-- kernel_breakdown in % of all that time, pooled over ranks, per key; its workload row is the largest
-- category's share, keyed by that category.
CREATE OR REPLACE TEMP VIEW kernel_time AS
SELECT workload, rank, name, kernel_category, dur_ns FROM gpu WHERE activity_class <> 'sync' AND rank IS NOT NULL;

CREATE OR REPLACE TEMP VIEW kernel_time_keys AS
SELECT workload, concat('name:', name) AS key, dur_ns, false AS is_category
FROM (SELECT workload, name, sum(dur_ns) AS dur_ns,
             row_number() OVER (PARTITION BY workload ORDER BY sum(dur_ns) DESC, name) AS place
      FROM kernel_time WHERE name IS NOT NULL GROUP BY workload, name)
WHERE place <= 10
UNION ALL
SELECT workload, kernel_category, sum(dur_ns), true FROM kernel_time GROUP BY workload, kernel_category;

CREATE OR REPLACE TEMP VIEW kernel_time_totals AS
SELECT r.workload, r.rank, coalesce(sum(k.dur_ns), 0) AS dur_ns
FROM ranks r LEFT JOIN kernel_time k ON k.workload = r.workload AND k.rank = r.rank
GROUP BY r.workload, r.rank;

SELECT workload, 'kernel_time_s', NULL, dur_ns / 1e9, 's', 'rank', rank, NULL, NULL, 'ok', NULL
FROM kernel_time_totals;

SELECT workload, 'kernel_time_s', NULL, avg(dur_ns) / 1e9, 's', 'workload', NULL, NULL, NULL, 'ok', NULL
FROM kernel_time_totals GROUP BY workload HAVING sum(dur_ns) > 0;

SELECT k.workload, 'kernel_time_s', NULL, k.dur_ns / 1e9 / rc.n_ranks, 's', 'key', NULL, NULL, k.key, 'ok', NULL
FROM kernel_time_keys k JOIN rank_count rc ON rc.workload = k.workload;

SELECT k.workload, 'kernel_breakdown', NULL, 100.0 * k.dur_ns / t.dur_ns, '%', 'key', NULL, NULL, k.key, 'ok', NULL
FROM kernel_time_keys k JOIN (SELECT workload, sum(dur_ns) AS dur_ns FROM kernel_time GROUP BY workload) t
  ON t.workload = k.workload
WHERE t.dur_ns > 0;

SELECT k.workload, 'kernel_breakdown', NULL, 100.0 * max(k.dur_ns) / max(t.dur_ns), '%', 'workload', NULL, NULL,
       min_by(k.key, struct(-k.dur_ns, k.key)), 'ok', NULL
FROM kernel_time_keys k JOIN (SELECT workload, sum(dur_ns) AS dur_ns FROM kernel_time GROUP BY workload) t
  ON t.workload = k.workload
WHERE t.dur_ns > 0 AND k.is_category
GROUP BY k.workload;

-- cpu_overhead: per rank Σ dur of cuda_runtime / cuda_driver events ÷ the rank's profiled span (first start to
-- last end over its events with a duration) × 100; workload = the mean over ranks that have such events.
CREATE OR REPLACE TEMP VIEW cpu_overhead_per_rank AS
SELECT workload, rank, count_if(cat IN ('cuda_runtime', 'cuda_driver')) AS runtime_events,
       100.0 * sum(CASE WHEN cat IN ('cuda_runtime', 'cuda_driver') THEN dur_ns ELSE 0 END)
             / (max(ts_ns + dur_ns) - min(ts_ns)) AS pct
FROM events
WHERE rank IS NOT NULL AND ts_ns IS NOT NULL AND dur_ns IS NOT NULL
GROUP BY workload, rank;

SELECT workload, 'cpu_overhead', NULL, pct, '%', 'rank', rank, NULL, NULL, 'ok', NULL
FROM cpu_overhead_per_rank WHERE runtime_events > 0 AND pct IS NOT NULL;

SELECT workload, 'cpu_overhead', NULL, avg(CASE WHEN runtime_events > 0 THEN pct END), '%', 'workload', NULL, NULL,
       NULL, CASE WHEN max(runtime_events) > 0 THEN 'ok' ELSE 'missing_input' END,
       CASE WHEN max(runtime_events) = 0 THEN 'no cuda_runtime/cuda_driver events in the traces' END
FROM cpu_overhead_per_rank GROUP BY workload;

-- phase_time_ms: per rank per step, |union| of the step's annotations of each phase (ms), key = phase:
-- forward  `## forward ##`; backward `## backward ##` or autograd::engine::evaluate_function:*;
-- optimizer `## optimizer ##`, Optimizer.step#*, Optimizer.zero_grad#*. An annotation belongs to the step
-- whose window contains its start (the events' step column). Per rank and workload: the mean over steps.
-- Annotations outside every step window (or on a rank without steps) are kept in the view, so gaps.sql can say
-- that the steps are missing rather than the annotations; the union only counts those with a step.
CREATE OR REPLACE TEMP VIEW phase_annotations AS
SELECT workload, rank, step, phase, ts_ns AS start_ns, ts_ns + dur_ns AS end_ns
FROM (SELECT *,
             CASE WHEN name RLIKE '(?i)^##\\s*forward\\s*##$' THEN 'forward'
                  WHEN name RLIKE '(?i)^##\\s*backward\\s*##$'
                       OR name LIKE 'autograd::engine::evaluate_function:%' THEN 'backward'
                  WHEN name RLIKE '(?i)^##\\s*optimizer\\s*##$'
                       OR name LIKE 'Optimizer.step#%' OR name LIKE 'Optimizer.zero_grad#%' THEN 'optimizer'
             END AS phase
      FROM events
      WHERE activity_class IS NULL AND coalesce(cat, '') <> 'gpu_user_annotation'
        AND ts_ns IS NOT NULL AND dur_ns IS NOT NULL AND rank IS NOT NULL)
WHERE phase IS NOT NULL;

-- Union per (rank, step, phase), §3: sorted by start, a new run begins where the start is past every earlier end.
CREATE OR REPLACE TEMP VIEW phase_per_step AS
SELECT workload, rank, step, phase, sum(run_end - run_start) / 1e6 AS ms
FROM (SELECT workload, rank, step, phase, run, min(start_ns) AS run_start, max(end_ns) AS run_end
      FROM (SELECT *, sum(CASE WHEN prev_end IS NULL OR start_ns > prev_end THEN 1 ELSE 0 END)
                        OVER (PARTITION BY workload, rank, step, phase ORDER BY start_ns, end_ns
                              ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS run
            FROM (SELECT *, max(end_ns) OVER (PARTITION BY workload, rank, step, phase ORDER BY start_ns, end_ns
                                               ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS prev_end
                  FROM phase_annotations WHERE step IS NOT NULL))
      GROUP BY workload, rank, step, phase, run)
GROUP BY workload, rank, step, phase;

SELECT workload, 'phase_time_ms', NULL, ms, 'ms', 'step', rank, step, phase, 'ok', NULL
FROM phase_per_step;

SELECT workload, 'phase_time_ms', NULL, avg(ms), 'ms', CASE WHEN grouping(rank) = 1 THEN 'workload' ELSE 'rank' END,
       CASE WHEN grouping(rank) = 1 THEN NULL ELSE rank END, NULL, phase, 'ok', NULL
FROM phase_per_step
GROUP BY GROUPING SETS ((workload, phase), (workload, rank, phase));

-- fsdp_*: per rank Σ dur of FSDP::<suffix> annotations (ms; names may carry a module, "FSDP::pre_forward (layers.0)"),
-- by suffix: all_gather, reduce_scatter (FSDP2 names it post_backward_reduce), all_gather_copy_in → copy_in,
-- all_gather_copy_out → copy_out, pre_forward, post_forward, pre_backward, post_backward (its nested
-- post_backward_reduce/_reshard/_accumulate are not counted twice). Ranks with any FSDP annotation count
-- (0 ms for a suffix they lack); workload = the mean over those ranks.
CREATE OR REPLACE TEMP VIEW fsdp_annotations AS
SELECT workload, rank, dur_ns,
       CASE WHEN suffix = 'all_gather' THEN 'fsdp_all_gather'
            WHEN suffix IN ('reduce_scatter', 'post_backward_reduce') THEN 'fsdp_reduce_scatter'
            WHEN suffix IN ('all_gather_copy_in', 'copy_in') THEN 'fsdp_copy_in'
            WHEN suffix IN ('all_gather_copy_out', 'copy_out') THEN 'fsdp_copy_out'
            WHEN suffix IN ('pre_forward', 'post_forward', 'pre_backward', 'post_backward') THEN concat('fsdp_', suffix)
       END AS metric
FROM (SELECT *, regexp_extract(name, '^FSDP::(\\w+)', 1) AS suffix
      FROM events
      WHERE name LIKE 'FSDP::%' AND activity_class IS NULL AND coalesce(cat, '') <> 'gpu_user_annotation'
        AND dur_ns IS NOT NULL AND rank IS NOT NULL);

CREATE OR REPLACE TEMP VIEW fsdp_per_rank AS
SELECT r.workload, r.rank, m.metric, coalesce(sum(a.dur_ns), 0) / 1e6 AS ms
FROM (SELECT DISTINCT workload, rank FROM fsdp_annotations) r
CROSS JOIN (SELECT explode(array('fsdp_all_gather', 'fsdp_reduce_scatter', 'fsdp_copy_in', 'fsdp_copy_out',
                                 'fsdp_pre_forward', 'fsdp_post_forward', 'fsdp_pre_backward',
                                 'fsdp_post_backward')) AS metric) m
LEFT JOIN fsdp_annotations a ON a.workload = r.workload AND a.rank = r.rank AND a.metric = m.metric
GROUP BY r.workload, r.rank, m.metric;

SELECT workload, metric, NULL, ms, 'ms', 'rank', rank, NULL, NULL, 'ok', NULL FROM fsdp_per_rank;

SELECT workload, metric, NULL, avg(ms), 'ms', 'workload', NULL, NULL, NULL, 'ok', NULL
FROM fsdp_per_rank GROUP BY workload, metric;

-- fsdp_prefetch_overlap: per rank |U_all_gather ∩ U_compute| ÷ |U_all_gather| (all_gather communication
-- against compute activity, from the sweep); workload = the mean over ranks that all-gather. Only for workloads
-- that run FSDP (FSDP::* annotations, like every fsdp_* metric): the all-gathers of tensor-parallel inference are
-- no prefetch, so such a workload gets gaps.sql's missing_input row, not a 0.
SELECT workload, 'fsdp_prefetch_overlap', NULL, f['allgather_overlap_ns'] / f['allgather_union_ns'], 'ratio',
       'rank', rank, NULL, NULL, 'ok', NULL
FROM rank_whole WHERE f['allgather_union_ns'] > 0 AND workload IN (SELECT workload FROM fsdp_annotations);

SELECT workload, 'fsdp_prefetch_overlap', NULL,
       avg(CASE WHEN f['allgather_union_ns'] > 0 THEN f['allgather_overlap_ns'] / f['allgather_union_ns'] END),
       'ratio', 'workload', NULL, NULL, NULL,
       CASE WHEN max(f['allgather_union_ns']) > 0 THEN 'ok' ELSE 'missing_input' END,
       CASE WHEN max(coalesce(f['allgather_union_ns'], 0)) = 0 THEN 'no all_gather communication in the traces' END
FROM rank_whole WHERE workload IN (SELECT workload FROM fsdp_annotations) GROUP BY workload;

-- traffic_distribution: Σ over ranks of the bus size S of communication activities (so the five figures add up
-- to comm_bytes_total), by parallelism: send_recv → pp, all_to_all → ep; other kinds by their process group's
-- ranks against the card's layout: tp groups are runs of tp consecutive ranks, dp groups are strided (one rank
-- per tp run, within one pipeline stage of world ÷ pp ranks); anything else → unknown. key = mode: `pg_ranks`
-- when every grouped activity carries its process group's ranks, else `heuristic`, where the group size alone
-- decides: tp when it equals tp (> 1), dp when it equals world ÷ (tp × pp); ambiguous or other sizes → unknown.
CREATE OR REPLACE TEMP VIEW traffic_layout AS
SELECT w.workload, greatest(coalesce(w.tp, 1), 1) AS tp, greatest(coalesce(w.pp, 1), 1) AS pp,
       coalesce(w.device_count, rc.n_ranks) AS world
FROM workloads w JOIN rank_count rc ON rc.workload = w.workload;

CREATE OR REPLACE TEMP VIEW traffic_activities AS
SELECT c.workload, c.size_bytes, c.collective, c.group_size, l.tp, l.pp, l.world,
       greatest(l.world div l.pp, 1) AS stage_size,
       l.world div (l.tp * l.pp) AS dp_size,
       from_json(c.pg_ranks, 'array<int>') AS members
FROM comm c JOIN traffic_layout l ON l.workload = c.workload;

CREATE OR REPLACE TEMP VIEW traffic_classified AS
SELECT workload, size_bytes,
       collective NOT IN ('send_recv', 'all_to_all') AND (members IS NULL OR size(members) = 0) AS by_heuristic,
       CASE WHEN collective = 'send_recv' THEN 'pp'
            WHEN collective = 'all_to_all' THEN 'ep'
            WHEN members IS NOT NULL AND size(members) > 0 THEN
              CASE WHEN size(members) < 2 THEN 'unknown'
                   WHEN tp > 1 AND array_min(transform(members, r -> r div tp)) = array_max(transform(members, r -> r div tp))
                     THEN 'tp'
                   WHEN array_min(transform(members, r -> r % tp)) = array_max(transform(members, r -> r % tp))
                        AND array_min(transform(members, r -> r div stage_size)) = array_max(transform(members, r -> r div stage_size))
                     THEN 'dp'
                   ELSE 'unknown' END
            WHEN tp > 1 AND group_size = tp AND group_size <> dp_size THEN 'tp'
            WHEN group_size >= 2 AND group_size = dp_size AND (tp = 1 OR group_size <> tp) THEN 'dp'
            ELSE 'unknown'
       END AS parallelism
FROM traffic_activities;

SELECT workload, 'traffic_distribution', concat(p.parallelism, '_bytes'),
       CAST(coalesce(sum(CASE WHEN t.parallelism = p.parallelism THEN t.size_bytes END), 0) AS DOUBLE), 'bytes',
       'workload', NULL, NULL,
       CASE WHEN max(CASE WHEN t.by_heuristic THEN 1 ELSE 0 END) = 1 THEN 'heuristic' ELSE 'pg_ranks' END,
       CASE WHEN count_if(t.parallelism = p.parallelism AND t.size_bytes IS NULL) > 0 THEN 'partial' ELSE 'ok' END,
       CASE WHEN count_if(t.parallelism = p.parallelism AND t.size_bytes IS NULL) > 0
            THEN concat(count_if(t.parallelism = p.parallelism AND t.size_bytes IS NULL), ' of ',
                        count_if(t.parallelism = p.parallelism), ' communication activities have no known size') END
FROM traffic_classified t
CROSS JOIN (SELECT explode(array('dp', 'tp', 'pp', 'ep', 'unknown')) AS parallelism) p
GROUP BY t.workload, p.parallelism;
