package org.tracelake.jobs.readers.kineto;

import java.util.Map;

/** A CPU-side communication op (record_param_comms, c10d::*, nccl:*) with the args that describe the message. */
record CommOp(String name, String thread, long relStart, long relEnd, Map<String, String> args) {

    static boolean isCommOpName(String name) {
        return name != null
                && (name.equals("record_param_comms") || name.startsWith("c10d::") || name.startsWith("nccl:"));
    }

    boolean encloses(long relTs) {
        return relStart <= relTs && relTs <= relEnd;
    }
}
