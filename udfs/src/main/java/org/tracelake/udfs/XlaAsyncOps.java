package org.tracelake.udfs;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * XLA's asynchronous collectives: one collective runs as two device ops, {@code all-reduce-start.3} …
 * {@code all-reduce-done.3} (also all-gather, reduce-scatter, all-to-all, collective-permute), and XLA's send/recv
 * pairs have no {@code -start}: {@code send.2} starts what {@code send-done.2} ends (likewise recv / recv-done).
 * Both halves are communication ops (METRICS.md §2) carrying the collective's bytes, so every metric that counts
 * collectives or their bytes pairs them into one instance first (the metrics' {@code comm} view); this class is the
 * one place that says which half an op is and which instruction it belongs to.
 */
public final class XlaAsyncOps {
    public static final String START = "start";
    public static final String DONE = "done";
    /** Not an async half: a synchronous collective, or any other op. */
    public static final String NOT_A_HALF = "";

    private static final Pattern HALF = Pattern.compile("^(.+)-(start|done)(\\.[0-9]+)?$");
    private static final Pattern SEND_RECV_START = Pattern.compile("^(send|recv)(\\.[0-9]+)?$");

    private XlaAsyncOps() {}

    /** "start", "done", or "" when the name is not an async half (null for a null name). */
    public static String half(String eventName) {
        if (eventName == null) {
            return null;
        }
        String name = XlaOpName.of(eventName);
        if (SEND_RECV_START.matcher(name).matches()) {
            return START;
        }
        Matcher m = HALF.matcher(name);
        return m.matches() ? m.group(2) : NOT_A_HALF;
    }

    /**
     * The instruction both halves share: the name without {@code -start}/{@code -done} ("all-reduce-done.3" →
     * "all-reduce.3", "send-done.2" → "send.2"); the name itself when it is not a half.
     */
    public static String instruction(String eventName) {
        if (eventName == null) {
            return null;
        }
        String name = XlaOpName.of(eventName);
        Matcher m = HALF.matcher(name);
        if (SEND_RECV_START.matcher(name).matches() || !m.matches()) {
            return name;
        }
        return m.group(1) + (m.group(3) == null ? "" : m.group(3));
    }
}
