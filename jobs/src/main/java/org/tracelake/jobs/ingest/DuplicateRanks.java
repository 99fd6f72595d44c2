package org.tracelake.jobs.ingest;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.tracelake.jobs.readers.FileReport;
import org.tracelake.schemas.TraceFileSchema;

/**
 * METRICS.md §1: two files claiming one rank in one workload (for the same format) is an error for both. A file
 * claims its rank, or each of its devices' ranks when it holds several (two hosts' XSpace files whose device indexes
 * are both 0–7 claim the same eight ranks).
 */
final class DuplicateRanks {
    private DuplicateRanks() {}

    static void flag(List<FileReport> reports) {
        Map<String, List<FileReport>> byRank = new HashMap<>();
        for (FileReport r : reports) {
            if (r.fatal || TraceFileSchema.STATUS_SKIPPED.equals(r.status)) continue;
            for (Integer rank : r.ranksHeld())
                byRank.computeIfAbsent(r.format + "#" + rank, k -> new ArrayList<>())
                        .add(r);
        }
        Map<FileReport, TreeSet<Integer>> clashing = new LinkedHashMap<>();
        Map<FileReport, TreeSet<String>> with = new HashMap<>();
        for (Map.Entry<String, List<FileReport>> claim : byRank.entrySet()) {
            if (claim.getValue().size() < 2) continue;
            int rank = Integer.parseInt(claim.getKey().substring(claim.getKey().lastIndexOf('#') + 1));
            for (FileReport r : claim.getValue()) {
                clashing.computeIfAbsent(r, k -> new TreeSet<>()).add(rank);
                for (FileReport other : claim.getValue())
                    with.computeIfAbsent(r, k -> new TreeSet<>()).add(other.task.fileName());
            }
        }
        clashing.forEach(
                (r, ranks) -> r.fail("two files claim rank" + (ranks.size() == 1 ? " " + ranks.first() : "s " + ranks)
                        + " (" + r.rankSource + "): " + String.join(", ", with.get(r))
                        + "; keep one file per rank in a workload (move repeated captures to their own workload)"));
    }
}
