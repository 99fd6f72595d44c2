package org.tracelake.udfs;

import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The result of a pure function of an event name, remembered per distinct name. Metric queries call the name rules
 * once per event row (millions), but a trace has a few hundred distinct kernel and op names, so matching each name's
 * regular expressions once saves most of their cost. Shared by the task threads of an executor (hence concurrent);
 * bounded, because a trace of unique names must not grow it without limit.
 */
final class NameMemo<V> {
    static final int MAX_NAMES = 16_384;
    private static final Object NULL = new Object(); // ConcurrentHashMap holds no null values

    private final Function<String, V> rule;
    private final ConcurrentHashMap<String, Object> known = new ConcurrentHashMap<>();

    NameMemo(Function<String, V> rule) {
        this.rule = rule;
    }

    @SuppressWarnings("unchecked")
    V apply(String name) {
        if (name == null) return rule.apply(null);
        Object v = known.get(name);
        if (v == null) {
            V computed = rule.apply(name);
            if (known.size() >= MAX_NAMES) known.clear(); // unique names: start over rather than grow
            known.put(name, computed == null ? NULL : computed);
            return computed;
        }
        return v == NULL ? null : (V) v;
    }
}
