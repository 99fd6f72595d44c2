package org.tracelake.jobs.readers.kineto;

import java.util.Map;

/**
 * A CPU-side communication op (a name of {@link org.tracelake.udfs.CommOpNames}) with the args that describe the
 * message — only those {@link CommDetails} reads ({@link CommDetails#OP_ARGS}): the index keeps one op per collective
 * for the whole second pass, and a full copy of every op's args grew it with the file (843 MB for a 2.2 GB trace, BENCHMARKS.md).
 */
record CommOp(String name, String thread, long relStart, long relEnd, Map<String, String> args) {

    boolean encloses(long relTs) {
        return relStart <= relTs && relTs <= relEnd;
    }
}
