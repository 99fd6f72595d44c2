package org.tracelake.jobs.readers;

import java.util.HashMap;
import java.util.Map;
import org.tracelake.udfs.ActivityClass;
import org.tracelake.udfs.KernelCategory;

/**
 * {@link ActivityClass} and {@link KernelCategory} of a GPU activity, remembered per distinct (category, name, HLO
 * category). The rules stay in the udfs; this only avoids running their regular expressions on every event: a trace
 * has millions of kernels but a few hundred distinct kernel names, and per-event matching is a large share of a
 * reader's time. One instance per reader (not thread-safe), bounded so that a trace
 * of unique names cannot grow it without limit.
 */
public final class ActivityClassifier {
    /** The two columns a classification fills; both null for anything that is not GPU activity. */
    public record Classes(String activityClass, String kernelCategory) {
        static final Classes NONE = new Classes(null, null);
    }

    private record Key(String cat, String name, String hloCategory) {}

    static final int MAX_ENTRIES = 16_384;
    private final Map<Key, Classes> known = new HashMap<>();

    public Classes classify(String cat, String name, String hloCategory) {
        if (!ActivityClass.isGpuActivity(cat)) return Classes.NONE; // CPU events: no lookup, no entry
        Key key = new Key(cat, name, hloCategory);
        Classes classes = known.get(key);
        if (classes == null) {
            String activityClass = ActivityClass.of(cat, name, hloCategory);
            classes = new Classes(activityClass, KernelCategory.of(activityClass, name));
            if (known.size() >= MAX_ENTRIES) known.clear(); // unique names: start over rather than grow
            known.put(key, classes);
        }
        return classes;
    }
}
