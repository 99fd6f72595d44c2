package org.tracelake.jobs.refresh;

/**
 * A test hook (issue 29 item 5): with {@code -Dtracelake.test.dieAt=<step>}, the JVM halts at once at that step of a
 * refresh's commit, as a SIGKILL would stop it (no shutdown hooks, no finally blocks). The steps, in order:
 * {@code swap} (after the first workload's swap), {@code swaps} (every swap and removal done), {@code exports},
 * {@code regressions} (between the regressions and the regression_kernels appends: only in a run that has a
 * previous run to compare with), {@code history} (metrics_history and regressions), {@code changes} (workload_changes), {@code run} (the runs row,
 * before the journal is deleted). Unset in production: one property lookup per step.
 */
final class CrashPoints {
    static final String PROPERTY = "tracelake.test.dieAt";

    private CrashPoints() {}

    static void reached(String step) {
        if (step.equals(System.getProperty(PROPERTY))) Runtime.getRuntime().halt(137);
    }
}
