package org.tracelake.jobs.refresh;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.tracelake.jobs.console.Progress;
import org.tracelake.jobs.warehouse.WarehouseTables;

/**
 * Finishes the runs that were killed after writing their journal ({@link RunJournal}), under the lock, before a run
 * plans anything: each with the commit routine a live run uses ({@link RunCommit}), which passes over what the killed
 * run committed already. A replay killed in turn is replayed again.
 */
final class JournalReplay {
    private JournalReplay() {}

    /** Replays every journal left behind; returns the run ids finished. */
    static List<String> replay(WarehouseTables tables, String currentRunId) throws IOException {
        List<String> done = new ArrayList<>();
        for (RunJournal j : RunJournal.leftBehind(tables.warehouse(), currentRunId)) {
            RunCommit.commit(tables, j);
            tables.warehouse().dropStaging(j.runId());
            Progress.info("finished run " + j.runId() + ", killed while committing (" + j.ok().size() + " workloads)");
            done.add(j.runId());
        }
        return done;
    }
}
