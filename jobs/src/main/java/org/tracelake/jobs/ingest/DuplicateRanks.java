package org.tracelake.jobs.ingest;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.tracelake.jobs.readers.FileReport;
import org.tracelake.schemas.TraceFileSchema;

/** METRICS.md §1: two files claiming one rank in one workload (for the same format) is an error for both. */
final class DuplicateRanks {
    private DuplicateRanks() {}

    static void flag(List<FileReport> reports) {
        Map<String, List<FileReport>> byRank = new HashMap<>();
        for (FileReport r : reports) {
            if (r.rank == null || r.fatal || TraceFileSchema.STATUS_SKIPPED.equals(r.status)) continue;
            byRank.computeIfAbsent(r.format + "#" + r.rank, k -> new ArrayList<>()).add(r);
        }
        for (List<FileReport> claim : byRank.values()) {
            if (claim.size() < 2) continue;
            StringBuilder names = new StringBuilder();
            for (FileReport r : claim) names.append(names.length() == 0 ? "" : ", ").append(r.task.fileName());
            for (FileReport r : claim) {
                r.fail("two files claim rank " + r.rank + " (" + r.rankSource + "): " + names
                        + "; keep one file per rank in a workload (move repeated captures to their own workload)");
            }
        }
    }
}
