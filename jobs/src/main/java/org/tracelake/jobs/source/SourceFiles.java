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
import org.tracelake.jobs.archive.ArchiveLayout;
import org.tracelake.jobs.archive.ReaderTasks;
import org.tracelake.jobs.archive.WorkloadFolder;
import org.tracelake.jobs.readers.FileTask;
import org.tracelake.jobs.readers.InputLimits;
import org.tracelake.jobs.readers.TraceFormat;

/**
 * The files a read of the source names, listed on the driver: each path may be a Hadoop glob, a file or a folder
 * (read recursively); hidden files ({@code .x}, {@code _x}, but not Flight Recorder's {@code _dump_<rank>}) are left
 * out, as the refresh leaves them out. Files are grouped into workloads by option {@code workload}, or else as the
 * refresh names them ({@link ArchiveLayout}): the loaded folder (a glob's folder before its first wildcard; a file's
 * own folder) is an archive, and each file belongs to the first folder below it, at whatever depth the file sits —
 * unless the loaded folder holds a workload card at its top, which makes it one workload folder itself. A file at the
 * top of the loaded folder belongs to that folder. A workload's card is listed as its card, never read as a trace.
 */
final class SourceFiles {
    private SourceFiles() {}

    /** The job id the source's tasks carry (they belong to no refresh run). */
    private static final String RUN_ID = "spark-read";

    /** A listed file and the folders between the loaded folder and it, outermost first. */
    private record Listed(FileStatus status, List<String> folders) {}

    static List<FileTask> plan(CaseInsensitiveStringMap options, Configuration conf) {
        String planned = options.get(TraceSourceOptions.TASKS);
        if (planned != null) return TraceSourceOptions.decodeTasks(planned);
        List<String> paths = paths(options);
        if (paths.isEmpty()) throw new IllegalArgumentException("no path: use load(\"<file, folder or glob>\")");
        InputLimits limits = TraceSourceOptions.limits(options);
        String workload = options.get(TraceSourceOptions.WORKLOAD);
        Map<String, List<WorkloadFolder.InputFile>> byWorkload = new LinkedHashMap<>();
        Map<String, List<WorkloadFolder.InputFile>> cards = new LinkedHashMap<>();
        try {
            for (String p : paths) {
                Path pattern = new Path(p);
                FileSystem fs = pattern.getFileSystem(conf);
                FileStatus[] matches = fs.globStatus(pattern);
                if (matches == null || matches.length == 0)
                    throw new IllegalArgumentException("path does not exist: " + p);
                Path root = fs.makeQualified(loadedFolder(fs, pattern, matches));
                List<Listed> listed = new ArrayList<>();
                for (FileStatus m : matches) {
                    for (FileStatus f : files(fs, m)) listed.add(new Listed(f, foldersBetween(root, f.getPath())));
                }
                // a card at the top makes the loaded folder one workload: its place is then below its parent
                boolean oneWorkload = listed.stream()
                        .anyMatch(l -> l.folders().isEmpty()
                                && ArchiveLayout.isCardName(l.status().getPath().getName()));
                for (Listed l : listed) {
                    List<String> folders = l.folders();
                    if (oneWorkload) {
                        folders = new ArrayList<>(folders);
                        folders.add(0, root.getName());
                    }
                    ArchiveLayout.Place place =
                            ArchiveLayout.place(folders, l.status().getPath().getName());
                    String w = workload != null
                            ? workload
                            : place.workloadFolder() != null ? place.workloadFolder() : root.getName();
                    FileStatus f = l.status();
                    WorkloadFolder.InputFile input =
                            new WorkloadFolder.InputFile(f.getPath().toString(), f.getLen(), f.getModificationTime());
                    (place.card() ? cards : byWorkload)
                            .computeIfAbsent(w, k -> new ArrayList<>())
                            .add(input);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("listing " + paths + ": " + e.getMessage(), e);
        }
        List<FileTask> tasks = new ArrayList<>();
        byWorkload.forEach((w, files) -> {
            files.sort(Comparator.comparing(WorkloadFolder.InputFile::path));
            tasks.addAll(ReaderTasks.of(w, files, limits, RUN_ID, conf));
        });
        cards.forEach((w, files) -> {
            for (WorkloadFolder.InputFile c : files) {
                tasks.add(new FileTask(
                        w, c.path(), c.sizeBytes(), c.modifiedAtMs(), TraceFormat.WORKLOAD_CARD, 0, limits, RUN_ID));
            }
        });
        return tasks;
    }

    /**
     * The folder a path names: a glob's folder before its first wildcard (for {@code /archive/llama*}: {@code
     * /archive}); a folder itself; a file's own folder.
     */
    private static Path loadedFolder(FileSystem fs, Path pattern, FileStatus[] matches) {
        Path literal = pattern;
        boolean glob = false;
        for (Path p = pattern; p != null; p = p.getParent()) {
            if (hasWildcard(p.getName())) {
                literal = p.getParent();
                glob = true;
            }
        }
        if (glob && (literal == null || literal.toString().isEmpty())) return fs.getWorkingDirectory(); // "*.json"
        if (glob) return literal;
        return matches[0].isDirectory()
                ? matches[0].getPath()
                : matches[0].getPath().getParent();
    }

    private static boolean hasWildcard(String name) {
        for (char c : name.toCharArray()) {
            if (c == '*' || c == '?' || c == '[' || c == '{' || c == '\\') return true;
        }
        return false;
    }

    /** The names of the folders between {@code root} and {@code file}, outermost first (empty: a file at its top). */
    private static List<String> foldersBetween(Path root, Path file) {
        List<String> names = new ArrayList<>();
        for (Path p = file.getParent(); p != null && !p.equals(root); p = p.getParent()) names.add(0, p.getName());
        return names;
    }

    private static List<FileStatus> files(FileSystem fs, FileStatus match) throws IOException {
        List<FileStatus> out = new ArrayList<>();
        if (!match.isDirectory()) {
            if (!ArchiveLayout.hidden(match.getPath().getName())) out.add(match);
            return out;
        }
        RemoteIterator<LocatedFileStatus> it = fs.listFiles(match.getPath(), true);
        while (it.hasNext()) {
            LocatedFileStatus f = it.next();
            if (!ArchiveLayout.hidden(f.getPath().getName()) && !hiddenBelow(match.getPath(), f.getPath())) out.add(f);
        }
        return out;
    }

    private static boolean hiddenBelow(Path root, Path file) {
        for (Path p = file.getParent(); p != null && !p.equals(root); p = p.getParent()) {
            if (ArchiveLayout.hidden(p.getName())) return true;
        }
        return false;
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
