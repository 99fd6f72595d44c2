package org.tracelake.jobs.readers.kineto;

import java.util.Arrays;

/**
 * The entries of one file that make rows, held column by column in primitive arrays until the end of the file has
 * told what they need (launches written after their kernels, a time base at the end, the steps), then read back in
 * order into a {@link KinetoEvent}. About 50 bytes an entry plus 13 an arg, strings being ids of the file's table:
 * {@link #BYTES_PER_EVENT} is what the reader's memory budget counts on.
 */
final class EventColumns {
    /** What an entry costs here on average (Kineto's 5–8 args each), for the budget; measured on real traces. */
    static final long BYTES_PER_EVENT = 134;

    private static final int HAS_TS = 1;
    private static final int HAS_DUR = 2;

    private int size;
    private long[] ordinals;
    private int[] ph;
    private int[] cat;
    private int[] name;
    private int[] pid;
    private int[] tid;
    private long[] ts;
    private long[] dur;
    private byte[] flags;
    /** Entry i's args are [argEnds[i - 1], argEnds[i]). */
    private int[] argEnds;

    private int args;
    private int[] argKeys;
    private byte[] argKinds;
    private long[] argValues;

    EventColumns(int expectedEvents) {
        int n = Math.max(16, expectedEvents);
        ordinals = new long[n];
        ph = new int[n];
        cat = new int[n];
        name = new int[n];
        pid = new int[n];
        tid = new int[n];
        ts = new long[n];
        dur = new long[n];
        flags = new byte[n];
        argEnds = new int[n];
        int a = n * 4;
        argKeys = new int[a];
        argKinds = new byte[a];
        argValues = new long[a];
    }

    int size() {
        return size;
    }

    void add(KinetoEvent e) {
        if (size == ordinals.length) grow();
        int i = size++;
        ordinals[i] = e.ordinal;
        ph[i] = e.ph;
        cat[i] = e.cat;
        name[i] = e.name;
        pid[i] = e.pid;
        tid[i] = e.tid;
        ts[i] = e.ts;
        dur[i] = e.dur;
        flags[i] = (byte) ((e.hasTs ? HAS_TS : 0) | (e.hasDur ? HAS_DUR : 0));
        int n = e.argCount;
        if (args + n > argKeys.length) growArgs(args + n);
        System.arraycopy(e.argKeys, 0, argKeys, args, n);
        System.arraycopy(e.argKinds, 0, argKinds, args, n);
        System.arraycopy(e.argValues, 0, argValues, args, n);
        args += n;
        argEnds[i] = args;
    }

    /** Entry {@code i} back into {@code e}, as the scan handed it. */
    void load(int i, KinetoEvent e) {
        e.clear();
        e.firstArray = true;
        e.ordinal = ordinals[i];
        e.ph = ph[i];
        e.cat = cat[i];
        e.name = name[i];
        e.pid = pid[i];
        e.tid = tid[i];
        e.ts = ts[i];
        e.dur = dur[i];
        e.hasTs = (flags[i] & HAS_TS) != 0;
        e.hasDur = (flags[i] & HAS_DUR) != 0;
        int from = i == 0 ? 0 : argEnds[i - 1];
        int n = argEnds[i] - from;
        e.ensureArgs(n);
        System.arraycopy(argKeys, from, e.argKeys, 0, n);
        System.arraycopy(argKinds, from, e.argKinds, 0, n);
        System.arraycopy(argValues, from, e.argValues, 0, n);
        e.argCount = n;
    }

    private void grow() {
        int n = ordinals.length * 2;
        ordinals = Arrays.copyOf(ordinals, n);
        ph = Arrays.copyOf(ph, n);
        cat = Arrays.copyOf(cat, n);
        name = Arrays.copyOf(name, n);
        pid = Arrays.copyOf(pid, n);
        tid = Arrays.copyOf(tid, n);
        ts = Arrays.copyOf(ts, n);
        dur = Arrays.copyOf(dur, n);
        flags = Arrays.copyOf(flags, n);
        argEnds = Arrays.copyOf(argEnds, n);
    }

    private void growArgs(int needed) {
        int n = Math.max(argKeys.length * 2, needed);
        argKeys = Arrays.copyOf(argKeys, n);
        argKinds = Arrays.copyOf(argKinds, n);
        argValues = Arrays.copyOf(argValues, n);
    }
}
