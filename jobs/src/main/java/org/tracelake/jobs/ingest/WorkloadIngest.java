package org.tracelake.jobs.ingest;

import java.util.ArrayList;
import java.util.List;
import org.tracelake.jobs.readers.FileReport;
import org.tracelake.jobs.readers.TraceFormat;
import org.tracelake.schemas.TraceFileSchema;

/**
 * What the ingest stage gives back for one workload (how the stage's four classes divide it: the package's doc): its
 * card's outcome, its file reports, and whether its new tables may replace the old.
 */
public record WorkloadIngest(
        String workload, WorkloadCards.Outcome card, List<FileReport> files, long bytes, long events, long elapsedMs) {

    /** Nothing fatal and something to measure: the workload's new tables replace the old ones. */
    public boolean ok() {
        return card.ok() && files.stream().noneMatch(f -> f.fatal) && hasUsableTrace();
    }

    /**
     * Whether any trace file was read (issue 14 item 4): a workload whose files were all skipped — zips, tarballs,
     * an unsupported protobuf — or that has only its card has nothing to measure, and must not replace last
     * night's tables with empty ones or appear on the leaderboard with every metric null.
     */
    public boolean hasUsableTrace() {
        return files.stream().anyMatch(WorkloadIngest::usable);
    }

    /**
     * A trace file that gave something to measure: read, not skipped, and not an error that yielded nothing (issue 29
     * item 9: a workload whose only trace was a telemetry file of one 300 MB line was "ok" with 0 events).
     */
    private static boolean usable(FileReport f) {
        return TraceFormat.isTrace(f.format)
                && !TraceFileSchema.STATUS_SKIPPED.equals(f.status)
                && !f.fatal
                && !(f.isError() && f.eventsRead == 0);
    }

    /** Committed and without any file error (dropped events included). */
    public boolean clean() {
        return ok() && files.stream().noneMatch(FileReport::isError);
    }

    /** Why the workload failed, one line per problem (empty when it did not). */
    public List<String> problems() {
        List<String> out = new ArrayList<>();
        if (!card.ok()) out.add("card: " + card.error());
        if (!hasUsableTrace()) {
            StringBuilder why = new StringBuilder("no usable trace");
            for (FileReport f : files) {
                if (TraceFileSchema.STATUS_SKIPPED.equals(f.status))
                    why.append("; ").append(f.task.fileName()).append(": ").append(f.error);
                else if (f.isError() && f.eventsRead == 0 && !f.fatal && TraceFormat.isTrace(f.format)) {
                    why.append("; ").append(f.task.fileName()).append(" gave no events");
                } else if (f.fatal && TraceFormat.isTrace(f.format)) {
                    // a trace file that could not be read is not "no trace files": say which, and why (issue 46)
                    why.append("; ").append(f.task.fileName()).append(" could not be read (its error follows)");
                }
            }
            out.add(
                    why.toString().equals("no usable trace")
                            ? "no usable trace: the workload has no trace files"
                            : why.toString());
        }
        for (FileReport f : files) {
            boolean card = f.task.format() == TraceFormat.WORKLOAD_CARD;
            if (f.isError() && !card) out.add(f.task.fileName() + ": " + f.error); // the card's is said above
        }
        return out;
    }
}
