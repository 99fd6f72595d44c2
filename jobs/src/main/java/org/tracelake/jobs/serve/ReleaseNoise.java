package org.tracelake.jobs.serve;

import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.Filter;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.filter.RegexFilter;

/**
 * Spark Connect's server, when a client ends its session, also clears the session's ML model cache, whose class
 * needs spark-mllib. tracelake ships no spark-mllib (no use for ML here, and this Spark version's is not on Maven
 * Central), so that last step fails with NoClassDefFoundError after the session has been removed and its
 * executions and artifacts cleaned up: the release works, and both sides log its "failure" with a stack trace at
 * every query. Those two messages, and only they, are dropped.
 */
final class ReleaseNoise {
    private ReleaseNoise() {}

    /** The server's line ({@code ErrorUtils}) and the client's ({@code session.stop}). */
    static final String PATTERN = "(?s).*(RPC error during: releaseSession|Failed to release session).*";

    static void drop() {
        if (!(LogManager.getContext(false) instanceof LoggerContext ctx)) return; // another logging backend: leave it
        try {
            ctx.getConfiguration()
                    .addFilter(
                            RegexFilter.createFilter(PATTERN, null, false, Filter.Result.DENY, Filter.Result.NEUTRAL));
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
        ctx.updateLoggers();
    }
}
