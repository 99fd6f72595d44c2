package org.tracelake.jobs.readers.nsys;

/**
 * Nsight's globalPid / globalTid: {@code 0xHHVVPPPPPPTTTTTT} — hardware 8 bits, VM 8 bits, PID 24 bits, TID 24 bits
 * (FORMATS.md §2). The PID must be masked: an unmasked {@code >> 24} keeps the VM bits (18479112 instead of 1701896).
 */
final class GlobalIds {
    private GlobalIds() {}

    static final long ONE_PROCESS = 1L << 24;

    static long pid(long global) {
        return (global >> 24) & 0xFFFFFF;
    }

    static long tid(long global) {
        return global & 0xFFFFFF;
    }

    /** Hardware, VM and PID together: equal for a globalPid and the globalTids of its threads. */
    static long process(long global) {
        return global >>> 24;
    }
}
