package org.tracelake.jobs.report;

import static org.apache.spark.sql.functions.countDistinct;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

/**
 * The steps a workload's events carry, and how many of its ranks have each: what {@code --step N} may name, and the
 * step {@code report --trace} draws when none is named (the first one every rank has). One small aggregate: a row per
 * step.
 *
 * @param steps the steps, ascending
 * @param ranksPerStep how many ranks have events in each step (same order)
 * @param ranks how many ranks the workload's events have
 */
public record StepList(List<Long> steps, List<Long> ranksPerStep, long ranks) {

    /** From one workload's events (the steps the readers found: ProfilerStep windows and their like). */
    static StepList of(Dataset<Row> events) {
        if (events.columns().length == 0) return new StepList(List.of(), List.of(), 0);
        List<Long> steps = new ArrayList<>();
        List<Long> ranks = new ArrayList<>();
        for (Row r : events.where("step IS NOT NULL AND rank IS NOT NULL")
                .groupBy("step")
                .agg(countDistinct("rank").as("ranks"))
                .orderBy("step")
                .collectAsList()) {
            steps.add(r.getAs("step"));
            ranks.add(r.getAs("ranks"));
        }
        long all = events.where("rank IS NOT NULL").select("rank").distinct().count();
        return new StepList(steps, ranks, all);
    }

    public boolean has(long step) {
        return steps.contains(step);
    }

    /** The first step every rank has, or null when there is none (a rank without steps, or no steps at all). */
    public Long firstFull() {
        for (int i = 0; i < steps.size(); i++) if (ranksPerStep.get(i) == ranks) return steps.get(i);
        return null;
    }

    /** The steps as a person reads them: runs of consecutive steps as ranges, "10-13, 20" ("none" when empty). */
    public String describe() {
        if (steps.isEmpty()) return "none";
        StringBuilder sb = new StringBuilder();
        int i = 0;
        while (i < steps.size()) {
            int j = i;
            while (j + 1 < steps.size() && steps.get(j + 1) == steps.get(j) + 1) j++;
            if (sb.length() > 0) sb.append(", ");
            sb.append(steps.get(i));
            if (j > i) sb.append(j == i + 1 ? ", " : "-").append(steps.get(j));
            i = j + 1;
        }
        return sb.toString();
    }
}
