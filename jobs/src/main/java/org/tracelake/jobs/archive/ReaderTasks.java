package org.tracelake.jobs.archive;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.tracelake.jobs.readers.FileTask;
import org.tracelake.jobs.readers.FormatDetector;
import org.tracelake.jobs.readers.InputLimits;
import org.tracelake.jobs.readers.TraceFormat;

/** Input files of one workload as reader tasks. */
public final class ReaderTasks {
    private ReaderTasks() {}

    /**
     * One task per file, in the order given; the rank of last resort (METRICS.md §1) is the file's position among the
     * workload's files of the kind its name suggests (a name that suggests nothing counts as Kineto).
     */
    public static List<FileTask> of(
            String workload, List<WorkloadFolder.InputFile> files, InputLimits limits, String runId) {
        Map<TraceFormat, Integer> positions = new HashMap<>();
        List<FileTask> tasks = new ArrayList<>(files.size());
        for (WorkloadFolder.InputFile f : files) {
            TraceFormat named = FormatDetector.byName(f.fileName());
            int position = positions.merge(named == null ? TraceFormat.KINETO : named, 1, Integer::sum) - 1;
            tasks.add(
                    new FileTask(workload, f.path(), f.sizeBytes(), f.modifiedAtMs(), named, position, limits, runId));
        }
        return tasks;
    }
}
