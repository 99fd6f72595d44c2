package org.tracelake.jobs.cli;

/** Exit codes a scheduler can act on. */
public final class ExitCodes {
    private ExitCodes() {}

    /** Everything asked for was done. */
    public static final int OK = 0;
    /** The run itself failed (bad arguments aside): nothing new was committed. */
    public static final int FAILED = 1;
    /** The command line was wrong (picocli's convention). */
    public static final int USAGE = 2;
    /** Some workloads or files failed; everything else was committed. */
    public static final int PARTIAL = 3;
    /** Another writer holds the warehouse lock: nothing was done; try again later (sysexits EX_TEMPFAIL). */
    public static final int LOCKED = 75;

    /** The lines standard error gets when a command fails with {@link #FAILED} on an exception. */
    public static String failureMessage(String command, Throwable e) {
        return FailureMessage.of(command, e);
    }
}
