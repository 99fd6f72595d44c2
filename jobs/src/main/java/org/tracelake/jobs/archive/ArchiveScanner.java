package org.tracelake.jobs.archive;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.tracelake.jobs.readers.FormatDetector;

/**
 * Lists an archive (DESIGN.md "Input"): every folder directly below the root is a workload; its card is the
 * {@code *.yaml} at the top of the folder; every other file at any depth is an input. Works on any Hadoop file
 * system URI. Only metadata is read here.
 */
public final class ArchiveScanner {
    private ArchiveScanner() {}

    public static List<WorkloadFolder> scan(String archive, Configuration conf) throws IOException {
        Path root = new Path(archive);
        FileSystem fs = root.getFileSystem(conf);
        if (!fs.exists(root)) throw new IOException("archive not found: " + archive);
        if (!fs.getFileStatus(root).isDirectory()) throw new IOException("archive is not a directory: " + archive);
        List<WorkloadFolder> workloads = new ArrayList<>();
        for (FileStatus entry : sorted(fs.listStatus(root))) {
            if (!entry.isDirectory() || hidden(entry.getPath().getName())) continue;
            workloads.add(scanWorkload(fs, entry.getPath()));
        }
        return workloads;
    }

    private static WorkloadFolder scanWorkload(FileSystem fs, Path dir) throws IOException {
        List<WorkloadFolder.InputFile> cards = new ArrayList<>();
        List<WorkloadFolder.InputFile> files = new ArrayList<>();
        collect(fs, dir, true, cards, files);
        cards.sort(Comparator.comparing(WorkloadFolder.InputFile::path));
        files.sort(Comparator.comparing(WorkloadFolder.InputFile::path));
        return new WorkloadFolder(dir.getName(), fs.makeQualified(dir).toString(), List.copyOf(cards), List.copyOf(files));
    }

    /**
     * Walks a workload folder with plain {@code listStatus}: name, size and modification time are all a refresh
     * needs. ({@code listFiles} builds a {@code LocatedFileStatus} per file, which on a local or mounted archive
     * without Hadoop's native library runs {@code ls -ld} in a new process for every file and folder just to fill
     * in permissions, and on HDFS asks for block locations: the cost of a no-change refresh of a large archive.)
     */
    private static void collect(FileSystem fs, Path dir, boolean topLevel, List<WorkloadFolder.InputFile> cards,
                                List<WorkloadFolder.InputFile> files) throws IOException {
        for (FileStatus f : fs.listStatus(dir)) {
            if (hidden(f.getPath().getName())) continue; // a hidden folder is skipped whole, as its files would be
            if (f.isDirectory()) {
                collect(fs, f.getPath(), false, cards, files);
                continue;
            }
            WorkloadFolder.InputFile input = new WorkloadFolder.InputFile(
                    f.getPath().toString(), f.getLen(), f.getModificationTime());
            String lower = f.getPath().getName().toLowerCase(Locale.ROOT);
            if (topLevel && (lower.endsWith(".yaml") || lower.endsWith(".yml"))) {
                cards.add(input);
            } else {
                files.add(input);
            }
        }
    }

    /**
     * Dot and underscore files are tool droppings (.DS_Store, _SUCCESS), not inputs — except NVRx's Flight Recorder
     * dumps, {@code _dump_<rank>} (FORMATS.md §9).
     */
    private static boolean hidden(String name) {
        return name.startsWith(".") || (name.startsWith("_") && !FormatDetector.isFlightRecorderName(name));
    }

    private static FileStatus[] sorted(FileStatus[] entries) {
        java.util.Arrays.sort(entries, Comparator.comparing(s -> s.getPath().getName()));
        return entries;
    }
}
