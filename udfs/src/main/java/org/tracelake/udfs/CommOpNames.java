package org.tracelake.udfs;

import java.util.Locale;

/**
 * The one list of CPU-side communication op names (METRICS.md §2, message size): {@code record_param_comms},
 * {@code c10d::*}, {@code nccl:*} and {@code symm_mem::*}. The Kineto reader takes message sizes from these ops,
 * {@link CollectiveKind} reads a collective's kind from them, and the execution-trace reader decodes the forms that
 * carry the message ({@link Form#carriesMessage}). Names are matched case-insensitively, surrounding blanks ignored.
 */
public final class CommOpNames {

    /** The kinds of op in the list, and which of them record the message itself. */
    public enum Form {
        /** PyTorch's op that records the collective's args (Collective name, sizes, sequence number). */
        RECORD_PARAM_COMMS(true),
        /** The record_function annotation NCCL work runs under ({@code nccl:all_reduce}). */
        NCCL_ANNOTATION(true),
        /** The c10d dispatcher op ({@code c10d::allreduce_}); it wraps a record_param_comms. */
        C10D(false),
        /** Symmetric-memory collectives ({@code symm_mem::one_shot_all_reduce}), which bypass NCCL. */
        SYMM_MEM(false);

        private final boolean carriesMessage;

        Form(boolean carriesMessage) {
            this.carriesMessage = carriesMessage;
        }

        /**
         * Whether an execution trace node of this form is decoded as a collective. The c10d op encloses the
         * record_param_comms of the same collective (decoding both would count it twice); the ET reader has never
         * decoded symm_mem ops, whose inputs follow no layout it knows.
         */
        public boolean carriesMessage() {
            return carriesMessage;
        }
    }

    private CommOpNames() {}

    /** The form of a communication op name, or null when the name is not in the list. */
    public static Form form(String name) {
        if (name == null) {
            return null;
        }
        String n = name.trim().toLowerCase(Locale.ROOT);
        if (n.equals("record_param_comms")) {
            return Form.RECORD_PARAM_COMMS;
        }
        if (n.startsWith("nccl:")) {
            return Form.NCCL_ANNOTATION;
        }
        if (n.startsWith("c10d::")) {
            return Form.C10D;
        }
        if (n.startsWith("symm_mem::")) {
            return Form.SYMM_MEM;
        }
        return null;
    }

    /** Whether the name is a CPU-side communication op of the list. */
    public static boolean isCommOp(String name) {
        return form(name) != null;
    }
}
