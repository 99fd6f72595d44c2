package org.tracelake.jobs.readers.kineto;

import java.util.Map;

/**
 * A CPU-side communication op (record_param_comms, c10d::*, nccl:*) with the args that describe the message — only
 * those {@link CommDetails} reads ({@link CommDetails#OP_ARGS}): the index keeps one op per collective for the whole
 * second pass, and a full copy of every op's args grew it with the file (843 MB for a 2.2 GB trace, BENCHMARKS.md).
 */
record CommOp(String name, String thread, long relStart, long relEnd, Map<String, String> args) {

    static boolean isCommOpName(String name) {
        return name != null
                && (name.equals("record_param_comms") || name.startsWith("c10d::") || name.startsWith("nccl:"));
    }

    boolean encloses(long relTs) {
        return relStart <= relTs && relTs <= relEnd;
    }
}
