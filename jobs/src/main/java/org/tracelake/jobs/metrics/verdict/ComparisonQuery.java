package org.tracelake.jobs.metrics.verdict;

/**
 * The SQL that gathers two runs' per-step samples and kernels for {@link VerdictFunctions#COMPARE_RUNS}, over a
 * common table expression {@code both_runs(side, workload, metric, figure, scope, rank, step, key, value)} with side
 * {@code 'a'} (the reference) and {@code 'b'} (the candidate). The nightly refresh (every refreshed workload against
 * its previous run) and {@code report --compare} (two workloads, or one against an earlier run) both use it, so the
 * samples a verdict weighs are gathered one way.
 */
public final class ComparisonQuery {
    private ComparisonQuery() {}

    /**
     * The expressions that follow {@code both_runs} in a WITH clause: {@code steps(side, workload, samples)} and
     * {@code kernels(side, workload, kernels)} and {@code compared(workload)}, the candidate's workloads.
     *
     * @param byCategory compare kernel categories rather than kernel names (runs on different device models)
     */
    public static String expressions(boolean byCategory) {
        String kernelKeys = byCategory ? "key IS NOT NULL AND key NOT LIKE 'name:%'" : "key LIKE 'name:%'";
        String kernel = byCategory ? "key" : "substring(key, 6)";
        return """
                step_rows AS (
                  SELECT side, workload, rank, step,
                         max(CASE WHEN metric = 'iter_time' THEN value END) AS step_ms,
                         max(CASE WHEN metric = 'comm_comp_overlap' AND figure = 'comp_time_ms' THEN value END) AS compute_ms,
                         max(CASE WHEN metric = 'comm_comp_overlap' AND figure = 'exposed_comm_ms' THEN value END)
                           AS exposed_comm_ms,
                         max(CASE WHEN metric = 'pipeline_bubble' AND figure = 'bubble_time_ms' THEN value END) AS idle_ms,
                         max(CASE WHEN metric = 'pipeline_bubble' AND figure = 'total_time_ms' THEN value END) AS span_ms
                  FROM both_runs
                  WHERE scope = 'step' AND rank IS NOT NULL AND step IS NOT NULL AND value IS NOT NULL
                    AND metric IN ('iter_time', 'comm_comp_overlap', 'pipeline_bubble')
                  GROUP BY side, workload, rank, step
                ),
                steps AS (
                  -- exposed copies: the busy part of the step's span that is neither compute nor exposed communication
                  SELECT side, workload,
                         collect_list(struct(rank, step, step_ms, compute_ms, exposed_comm_ms,
                                             span_ms - idle_ms - compute_ms - exposed_comm_ms, idle_ms)) AS samples
                  FROM step_rows WHERE step_ms IS NOT NULL
                  GROUP BY side, workload
                ),
                kernels AS (
                  SELECT side, workload, map_from_entries(collect_list(struct(%s, value))) AS kernels
                  FROM both_runs
                  WHERE metric = 'kernel_step_time_ms' AND scope = 'key' AND %s AND value IS NOT NULL
                  GROUP BY side, workload
                ),
                compared AS (
                  SELECT DISTINCT workload FROM both_runs WHERE side = 'b'
                )""".formatted(kernel, kernelKeys);
    }

    /** The comparison struct of a row of {@code compared w}, with {@link #JOINS} after its FROM. */
    public static final String CALL =
            VerdictFunctions.COMPARE_RUNS + "(sa.samples, sb.samples, ka.kernels, kb.kernels)";

    public static final String JOINS = """
            LEFT JOIN steps sa ON sa.side = 'a' AND sa.workload = w.workload
            LEFT JOIN steps sb ON sb.side = 'b' AND sb.workload = w.workload
            LEFT JOIN kernels ka ON ka.side = 'a' AND ka.workload = w.workload
            LEFT JOIN kernels kb ON kb.side = 'b' AND kb.workload = w.workload""";
}
