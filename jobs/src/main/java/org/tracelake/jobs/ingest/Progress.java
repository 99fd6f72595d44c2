package org.tracelake.jobs.ingest;

import java.util.Locale;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/** Progress lines a person can follow on a long run: one per workload, n of N, files, MB, events, elapsed. */
public final class Progress {
    private static final Logger LOG = LogManager.getLogger("tracelake.progress");

    private Progress() {}

    public static void workloadDone(int n, int total, WorkloadIngest w, String outcome) {
        LOG.info(String.format(Locale.ROOT, "[%d/%d] %s: %s — %d files, %.1f MB, %,d events, %.1f s",
                n, total, w.workload(), outcome, w.files().size(), w.bytes() / 1e6, w.events(), w.elapsedMs() / 1e3));
        for (String problem : w.problems()) LOG.warn("    {}", problem);
    }

    public static void info(String message) {
        LOG.info(message);
    }
}
