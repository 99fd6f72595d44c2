package org.tracelake.jobs.archive;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;

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
        RemoteIterator<LocatedFileStatus> it = fs.listFiles(dir, true);
        while (it.hasNext()) {
            LocatedFileStatus f = it.next();
            if (hiddenBelow(dir, f.getPath())) continue;
            WorkloadFolder.InputFile input = new WorkloadFolder.InputFile(
                    f.getPath().toString(), f.getLen(), f.getModificationTime());
            boolean topLevel = f.getPath().getParent().equals(fs.makeQualified(dir)) || f.getPath().getParent().equals(dir);
            String lower = f.getPath().getName().toLowerCase(Locale.ROOT);
            if (topLevel && (lower.endsWith(".yaml") || lower.endsWith(".yml"))) {
                cards.add(input);
            } else {
                files.add(input);
            }
        }
        cards.sort(Comparator.comparing(WorkloadFolder.InputFile::path));
        files.sort(Comparator.comparing(WorkloadFolder.InputFile::path));
        return new WorkloadFolder(dir.getName(), fs.makeQualified(dir).toString(), List.copyOf(cards), List.copyOf(files));
    }

    /** Dot and underscore files are tool droppings (.DS_Store, _SUCCESS), not inputs. */
    private static boolean hidden(String name) {
        return name.startsWith(".") || name.startsWith("_");
    }

    private static boolean hiddenBelow(Path dir, Path file) {
        for (Path p = file; p != null && !p.getName().equals(dir.getName()); p = p.getParent()) {
            if (hidden(p.getName())) return true;
        }
        return false;
    }

    private static FileStatus[] sorted(FileStatus[] entries) {
        java.util.Arrays.sort(entries, Comparator.comparing(s -> s.getPath().getName()));
        return entries;
    }
}
