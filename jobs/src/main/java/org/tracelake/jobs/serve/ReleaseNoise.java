package org.tracelake.jobs.serve;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Marker;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.Logger;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.filter.AbstractFilter;
import org.apache.logging.log4j.message.Message;

/**
 * Spark Connect's server, when a client ends its session, also clears the session's ML model cache, whose class
 * needs spark-mllib. tracelake ships no spark-mllib (no use for ML here, and this Spark version's is not on Maven
 * Central), so that last step fails with NoClassDefFoundError after the session has been removed and its
 * executions and artifacts cleaned up: the release works, and both sides log its "failure" with a stack trace at
 * every query. Those two messages, and only they, are dropped; and a third of the same kind: Spark's JVM client (the
 * prompt through serve) releases a finished execution on a thread of its own, which may come after it ended its
 * session, and the server then logs an ERROR that the session is closed (INVALID_HANDLE.SESSION_CLOSED): there was
 * nothing left to release. Seen once in CI under load.
 *
 * <p>The filter is the configuration's own, so it is asked about every log call of the process, most of them Spark's
 * debug calls that log nothing: it answers from two substring searches of the message (a call without a message at
 * once), where a regular expression beginning with {@code .*} cost a few per cent of a served query's CPU.
 */
final class ReleaseNoise extends AbstractFilter {
    private ReleaseNoise() {
        super(Result.DENY, Result.NEUTRAL);
    }

    /** The server's line ({@code ErrorUtils}) and the client's ({@code session.stop}). */
    static boolean isNoise(String message) {
        return message != null
                && (message.contains("RPC error during: releaseSession")
                        || message.contains("Failed to release session"));
    }

    /** {@link #isNoise(String)}, or the release of an execution of a session that is gone already. */
    static boolean isNoise(String message, Throwable thrown) {
        return isNoise(message)
                || (message != null
                        && message.contains("RPC error during: releaseExecute")
                        && thrown != null
                        && String.valueOf(thrown.getMessage()).contains("INVALID_HANDLE.SESSION_CLOSED"));
    }

    static void drop() {
        if (!(LogManager.getContext(false) instanceof LoggerContext ctx)) return; // another logging backend: leave it
        ctx.getConfiguration().addFilter(new ReleaseNoise());
        ctx.updateLoggers();
    }

    private Result result(String message, Throwable thrown) {
        return isNoise(message, thrown) ? onMatch : onMismatch;
    }

    @Override
    public Result filter(LogEvent event) {
        Message m = event.getMessage();
        return m == null ? onMismatch : result(m.getFormattedMessage(), event.getThrown());
    }

    @Override
    public Result filter(Logger logger, Level level, Marker marker, Message msg, Throwable t) {
        return msg == null ? onMismatch : result(msg.getFormattedMessage(), t);
    }

    @Override
    public Result filter(Logger logger, Level level, Marker marker, Object msg, Throwable t) {
        return msg == null ? onMismatch : result(msg.toString(), t);
    }

    @Override
    public Result filter(Logger logger, Level level, Marker marker, String msg, Object... params) {
        Throwable last =
                params != null && params.length > 0 && params[params.length - 1] instanceof Throwable t ? t : null;
        return result(msg, last);
    }
}
