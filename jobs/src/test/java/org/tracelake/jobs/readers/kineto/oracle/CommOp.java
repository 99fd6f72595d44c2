package org.tracelake.jobs.readers.kineto.oracle;

import java.util.AbstractMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BinaryOperator;

/**
 * A CPU-side communication op (a name of {@link org.tracelake.udfs.CommOpNames}) with the args that describe the
 * message — only those {@link CommDetails} reads ({@link CommDetails#OP_ARGS}), as an array in that order. The index
 * keeps one op per collective for the whole second pass, so an op holds only the args it needs, in an array rather
 * than a map, which keeps the index small for a large trace.
 */
final class CommOp {
    private static final String[] NO_ARGS = new String[0];

    private final String name;
    private final String thread;
    private final long relStart;
    private final long relEnd;
    /** Values of {@link CommDetails#OP_ARGS} by position (null where absent), or empty when the op has none. */
    private final String[] args;

    CommOp(String name, String thread, long relStart, long relEnd, String[] args) {
        this.name = name;
        this.thread = thread;
        this.relStart = relStart;
        this.relEnd = relEnd;
        this.args = args;
    }

    /** An op from a map of args; the ones CommDetails does not read are dropped. */
    static CommOp of(String name, String thread, long relStart, long relEnd, Map<String, String> args) {
        return new CommOp(name, thread, relStart, relEnd, keptArgs(args, (key, value) -> value));
    }

    /** The args CommDetails reads, by position, each value passed through {@code keep(key, value)} (to share it). */
    static String[] keptArgs(Map<String, String> args, BinaryOperator<String> keep) {
        List<String> keys = CommDetails.OP_ARGS;
        String[] kept = null;
        for (int i = 0; i < keys.size(); i++) {
            String value = args.get(keys.get(i));
            if (value == null) continue;
            if (kept == null) kept = new String[keys.size()];
            kept[i] = keep.apply(keys.get(i), value);
        }
        return kept == null ? NO_ARGS : kept;
    }

    String name() {
        return name;
    }

    String thread() {
        return thread;
    }

    long relStart() {
        return relStart;
    }

    long relEnd() {
        return relEnd;
    }

    boolean encloses(long relTs) {
        return relStart <= relTs && relTs <= relEnd;
    }

    /** The kept args as a read-only map (a view: nothing is copied). */
    Map<String, String> args() {
        return new ArgsView(args);
    }

    private static final class ArgsView extends AbstractMap<String, String> {
        private final String[] values;

        ArgsView(String[] values) {
            this.values = values;
        }

        @Override
        public String get(Object key) {
            if (values.length == 0) return null;
            int i = CommDetails.OP_ARGS.indexOf(key);
            return i < 0 ? null : values[i];
        }

        @Override
        public boolean containsKey(Object key) {
            return get(key) != null;
        }

        @Override
        public Set<Entry<String, String>> entrySet() {
            Map<String, String> m = new LinkedHashMap<>();
            for (int i = 0; i < values.length; i++) if (values[i] != null) m.put(CommDetails.OP_ARGS.get(i), values[i]);
            return m.entrySet();
        }
    }
}
