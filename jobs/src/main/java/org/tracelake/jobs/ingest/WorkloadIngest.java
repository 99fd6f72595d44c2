package org.tracelake.jobs.ingest;

import java.util.ArrayList;
import java.util.List;
import org.tracelake.jobs.readers.FileReport;

/** What ingesting one workload produced: its file reports and whether its new tables may replace the old. */
public record WorkloadIngest(
        String workload,
        WorkloadCards.Outcome card,
        List<FileReport> files,
        long bytes,
        long events,
        long elapsedMs) {

    /** Nothing fatal: the workload's new tables replace the old ones. */
    public boolean ok() {
        return card.ok() && files.stream().noneMatch(f -> f.fatal);
    }

    /** Committed and without any file error (dropped events included). */
    public boolean clean() {
        return ok() && files.stream().noneMatch(FileReport::isError);
    }

    /** Why the workload failed, one line per problem (empty when it did not). */
    public List<String> problems() {
        List<String> out = new ArrayList<>();
        if (!card.ok()) out.add("card: " + card.error());
        for (FileReport f : files) {
            boolean card = f.task.format() == org.tracelake.jobs.readers.TraceFormat.WORKLOAD_CARD;
            if (f.isError() && !card) out.add(f.task.fileName() + ": " + f.error); // the card's is said above
        }
        return out;
    }
}
