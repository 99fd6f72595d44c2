package org.tracelake.jobs.readers;

import java.io.Serializable;
import java.util.Map;
import java.util.TreeMap;

/** Events a reader could not keep, counted by a reason a person can act on. */
public final class DropCounter implements Serializable {
    private final Map<String, Long> byReason = new TreeMap<>();
    private long total;

    public void drop(String reason) {
        byReason.merge(reason, 1L, Long::sum);
        total++;
    }

    public long total() {
        return total;
    }

    public Map<String, Long> byReason() {
        return byReason;
    }
}
