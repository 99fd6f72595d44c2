package org.tracelake.jobs.archive;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.tracelake.jobs.readers.FileTask;
import org.tracelake.jobs.readers.FormatDetector;
import org.tracelake.jobs.readers.InputLimits;
import org.tracelake.jobs.readers.TraceFormat;
import org.tracelake.jobs.readers.TraceInput;

/**
 * Input files of one workload as reader tasks, each with its format decided here, on the driver, by its name and its
 * first bytes ({@link FormatDetector#resolve}): the task carries the decision to the executor that reads the file, and
 * ingest routes the file to the read of its table by it.
 */
public final class ReaderTasks {
    private ReaderTasks() {}

    /**
     * One task per file, in the order given; the rank of last resort (METRICS.md §1) is the file's position among the
     * workload's files of the kind its name suggests (a name that suggests nothing counts as Kineto). A task's format
     * is null when neither name nor content shows one: the executor then says what the file is instead.
     */
    public static List<FileTask> of(
            String workload,
            List<WorkloadFolder.InputFile> files,
            InputLimits limits,
            String runId,
            Configuration conf) {
        return of(workload, files, limits, runId, conf, null);
    }

    /** The tasks of a scanned workload folder: each file must still lie inside its archive when it is opened. */
    public static List<FileTask> of(WorkloadFolder w, InputLimits limits, String runId, Configuration conf) {
        return of(w.name(), w.files(), limits, runId, conf, w.archiveRoot());
    }

    private static List<FileTask> of(
            String workload,
            List<WorkloadFolder.InputFile> files,
            InputLimits limits,
            String runId,
            Configuration conf,
            String archiveRoot) {
        Map<TraceFormat, Integer> positions = new HashMap<>();
        List<FileTask> tasks = new ArrayList<>(files.size());
        for (WorkloadFolder.InputFile f : files) {
            TraceFormat named = FormatDetector.byName(f.fileName());
            int position = positions.merge(named == null ? TraceFormat.KINETO : named, 1, Integer::sum) - 1;
            tasks.add(new FileTask(
                    workload,
                    f.path(),
                    f.sizeBytes(),
                    f.modifiedAtMs(),
                    decide(f, named, conf, archiveRoot),
                    position,
                    limits,
                    runId,
                    archiveRoot,
                    null));
        }
        return XprofRenderings.markDuplicates(tasks);
    }

    /**
     * The file's format by name and first bytes (4 KB read here, decoded when gzip). An empty file or one whose
     * first bytes cannot be read keeps the name's suggestion: the executor opens it and reports why it cannot.
     */
    private static TraceFormat decide(
            WorkloadFolder.InputFile f, TraceFormat named, Configuration conf, String archiveRoot) {
        if (f.sizeBytes() == 0) return named;
        try {
            // a link planted out of the archive since the scan: not sniffed here; the executor reports it
            if (InsideArchive.check(f.path(), archiveRoot, conf) != null) return named;
            return FormatDetector.resolve(f.fileName(), TraceInput.head(f.path(), conf, FormatDetector.SNIFF_BYTES));
        } catch (IOException | RuntimeException e) {
            return named;
        }
    }
}
