package org.tracelake.jobs.readers.kineto;

import java.util.Arrays;
import java.util.Map;
import org.tracelake.jobs.readers.common.ChromeEvent;
import org.tracelake.jobs.readers.common.json.StringTable;
import org.tracelake.udfs.Numbers;

/**
 * One {@code traceEvents} entry as the scan found it, reused from event to event: its strings as ids of the file's
 * {@link StringTable}, {@code ts} and {@code dur} already in nanoseconds, its args as (key, value) pairs whose
 * integers stay longs. The same shape whether it comes straight from the scan or back out of {@link EventColumns}.
 */
final class KinetoEvent {
    /** An arg value: a string of the file's table, or a whole number as written (its text is its digits). */
    static final byte STRING = 0;

    static final byte LONG = 1;

    /** Index in the traceEvents array. */
    long ordinal;
    /** Not an object: dropped with its reason, nothing else is set. */
    boolean notObject;
    /** From the file's first traceEvents array: the rows; entries of later arrays only teach the index. */
    boolean firstArray;

    int ph;
    int cat;
    int name;
    int pid;
    int tid;

    boolean hasTs;
    long ts;
    boolean hasDur;
    long dur;
    /** Makes no row (counted in the drops with its reason when it is the first array's). */
    boolean dropped;
    /** Neither field nor arg: JAX's trailing {} (no event, nothing dropped). */
    boolean empty;

    int argCount;
    int[] argKeys = new int[16];
    byte[] argKinds = new byte[16];
    long[] argValues = new long[16];

    void clear() {
        notObject = false;
        ph = cat = name = pid = tid = -1;
        hasTs = hasDur = false;
        ts = dur = 0;
        dropped = false;
        empty = false;
        argCount = 0;
    }

    /** Room for {@code n} args. */
    void ensureArgs(int n) {
        if (argKeys.length >= n) return;
        int grown = Math.max(n, argKeys.length * 2);
        argKeys = Arrays.copyOf(argKeys, grown);
        argKinds = Arrays.copyOf(argKinds, grown);
        argValues = Arrays.copyOf(argValues, grown);
    }

    void addArg(int key, byte kind, long value) {
        ensureArgs(argCount + 1);
        argKeys[argCount] = key;
        argKinds[argCount] = kind;
        argValues[argCount++] = value;
    }

    /** The position of the arg a map of the args would hold for this key (the last one written), or -1. */
    int argIndex(int key) {
        for (int i = argCount - 1; i >= 0; i--) {
            if (argKeys[i] == key) return i;
        }
        return -1;
    }

    /** {@link Numbers#wholeNumber(String)} of the arg, as {@link ChromeEvent#longArg} gives it. */
    Long longArg(int key, StringTable strings) {
        return key < 0 ? null : longArgAt(argIndex(key), strings);
    }

    /** As {@link #longArg}, of the arg at position {@code i} (-1: none). */
    Long longArgAt(int i, StringTable strings) {
        if (i < 0) return null;
        if (argKinds[i] == LONG) return argValues[i];
        return Numbers.wholeNumber(argText(i, strings));
    }

    String argText(int i, StringTable strings) {
        return argKinds[i] == LONG ? Long.toString(argValues[i]) : strings.get((int) argValues[i]);
    }

    /** The args in the order and with the values a map filled from the file would have (the last of a key wins). */
    void argsInto(Map<String, String> args, StringTable strings) {
        args.clear();
        for (int i = 0; i < argCount; i++) args.put(strings.get(argKeys[i]), argText(i, strings));
    }

    /** As a {@link ChromeEvent} (without ts and dur, already converted): for what reads events that way. */
    void into(ChromeEvent e, StringTable strings) {
        e.clear();
        e.ph = strings.get(ph);
        e.cat = strings.get(cat);
        e.name = strings.get(name);
        e.pid = strings.get(pid);
        e.tid = strings.get(tid);
        argsInto(e.args, strings);
        e.argsRead = true;
    }
}
