package org.tracelake.jobs.source;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import org.tracelake.jobs.archive.WorkloadFolder;
import org.tracelake.jobs.readers.FileTask;
import org.tracelake.jobs.readers.FileTasks;
import org.tracelake.jobs.readers.InputLimits;

/**
 * The files a read of the source names, listed on the driver: each path may be a Hadoop glob, a file or a folder
 * (read recursively); hidden files ({@code .x}, {@code _x}) are left out, as Spark's file sources do. Files are
 * grouped into workloads by option {@code workload} or else by the folder holding them.
 */
final class SourceFiles {
    private SourceFiles() {}

    static List<FileTask> plan(CaseInsensitiveStringMap options, Configuration conf) {
        String planned = options.get(TraceSourceOptions.TASKS);
        if (planned != null) return TraceSourceOptions.decodeTasks(planned);
        List<String> paths = paths(options);
        if (paths.isEmpty()) throw new IllegalArgumentException("no path: use load(\"<file, folder or glob>\")");
        InputLimits limits = TraceSourceOptions.limits(options);
        String workload = options.get(TraceSourceOptions.WORKLOAD);
        Map<String, List<WorkloadFolder.InputFile>> byWorkload = new LinkedHashMap<>();
        try {
            for (String p : paths) {
                Path pattern = new Path(p);
                FileSystem fs = pattern.getFileSystem(conf);
                FileStatus[] matches = fs.globStatus(pattern);
                if (matches == null || matches.length == 0) throw new IllegalArgumentException("path does not exist: " + p);
                for (FileStatus m : matches) {
                    for (FileStatus f : files(fs, m)) {
                        String w = workload != null ? workload : f.getPath().getParent().getName();
                        byWorkload.computeIfAbsent(w, k -> new ArrayList<>()).add(new WorkloadFolder.InputFile(
                                f.getPath().toString(), f.getLen(), f.getModificationTime()));
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("listing " + paths + ": " + e.getMessage(), e);
        }
        List<FileTask> tasks = new ArrayList<>();
        byWorkload.forEach((w, files) -> {
            files.sort(Comparator.comparing(WorkloadFolder.InputFile::path));
            tasks.addAll(FileTasks.of(w, files, limits, "spark-read"));
        });
        return tasks;
    }

    private static List<FileStatus> files(FileSystem fs, FileStatus match) throws IOException {
        List<FileStatus> out = new ArrayList<>();
        if (!match.isDirectory()) {
            if (!hidden(match.getPath().getName())) out.add(match);
            return out;
        }
        RemoteIterator<LocatedFileStatus> it = fs.listFiles(match.getPath(), true);
        while (it.hasNext()) {
            LocatedFileStatus f = it.next();
            if (!hidden(f.getPath().getName()) && !hiddenBelow(match.getPath(), f.getPath())) out.add(f);
        }
        return out;
    }

    private static boolean hiddenBelow(Path root, Path file) {
        for (Path p = file.getParent(); p != null && !p.equals(root); p = p.getParent()) {
            if (hidden(p.getName())) return true;
        }
        return false;
    }

    private static boolean hidden(String name) {
        return name.startsWith(".") || name.startsWith("_");
    }

    /** {@code load(p)} sets option path; {@code load(p1, p2, …)} sets paths, a JSON array. */
    private static List<String> paths(CaseInsensitiveStringMap options) {
        List<String> out = new ArrayList<>();
        if (options.containsKey("path")) out.add(options.get("path"));
        if (options.containsKey("paths")) {
            try {
                out.addAll(new ObjectMapper().readValue(options.get("paths"), new TypeReference<List<String>>() {}));
            } catch (IOException e) {
                throw new IllegalArgumentException("option paths is not a JSON array of strings", e);
            }
        }
        return out;
    }
}
