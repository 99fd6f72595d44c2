package org.tracelake.jobs.archive;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Lists an archive by {@link ArchiveLayout}'s rule (DESIGN.md "Input"): every folder directly below the root is a
 * workload; its card is the {@code *.yaml} at the top of the folder; every other file at any depth is an input. Works
 * on any Hadoop file system URI. Only metadata is read here.
 */
public final class ArchiveScanner {
    private ArchiveScanner() {}

    /** The workload folders of an archive, only those named in {@code only} when it names any. */
    public static List<WorkloadFolder> scan(String archive, Set<String> only, Configuration conf) throws IOException {
        List<WorkloadFolder> all = scan(archive, conf);
        if (only == null || only.isEmpty()) return all;
        List<WorkloadFolder> out = new ArrayList<>();
        for (WorkloadFolder w : all) if (only.contains(w.name())) out.add(w);
        return out;
    }

    public static List<WorkloadFolder> scan(String archive, Configuration conf) throws IOException {
        Path root = new Path(archive);
        FileSystem fs = root.getFileSystem(conf);
        if (!fs.exists(root)) throw new IOException("archive not found: " + archive);
        if (!fs.getFileStatus(root).isDirectory()) throw new IOException("archive is not a directory: " + archive);
        if ("file".equals(fs.getUri().getScheme())) return scanLocal(fs.makeQualified(root));
        List<WorkloadFolder> workloads = new ArrayList<>();
        for (FileStatus entry : sorted(fs.listStatus(root))) {
            if (!entry.isDirectory() || ArchiveLayout.hidden(entry.getPath().getName())) continue;
            workloads.add(scanWorkload(fs, entry.getPath()));
        }
        return workloads;
    }

    /**
     * A local or mounted archive, where links, FIFOs and devices exist: walked by {@link LocalWalk}, which follows a
     * link only inside the archive, enters each folder once and opens nothing but regular files. Hadoop's local
     * listing follows every link (a link to '/' walks the machine, two links to '.' never end) and drops dangling ones
     * without a word.
     */
    private static List<WorkloadFolder> scanLocal(Path root) throws IOException {
        // java.nio's Path stays qualified in this class: the imported Path is Hadoop's.
        java.nio.file.Path rootDir = Paths.get(root.toUri());
        List<java.nio.file.Path> entries = new ArrayList<>();
        try (DirectoryStream<java.nio.file.Path> stream = Files.newDirectoryStream(rootDir)) {
            for (java.nio.file.Path p : stream) entries.add(p);
        }
        entries.sort(Comparator.comparing(p -> p.getFileName().toString()));
        List<WorkloadFolder> workloads = new ArrayList<>();
        for (java.nio.file.Path entry : entries) {
            String name = entry.getFileName().toString();
            if (ArchiveLayout.hidden(name)) continue;
            LocalWalk walk = new LocalWalk(rootDir);
            Path dir = child(root, name);
            List<WorkloadFolder.InputFile> cards = new ArrayList<>();
            List<WorkloadFolder.InputFile> files = new ArrayList<>();
            List<WorkloadFolder.Refused> refused = new ArrayList<>();
            LocalWalk.Visitor visitor = new LocalWalk.Visitor() {
                @Override
                public void file(java.nio.file.Path path, BasicFileAttributes target, boolean topLevel) {
                    WorkloadFolder.InputFile input = new WorkloadFolder.InputFile(
                            hadoopPath(dir, entry, path).toString(),
                            target.size(),
                            target.lastModifiedTime().toMillis());
                    boolean card = topLevel
                            && ArchiveLayout.isCardName(path.getFileName().toString());
                    if (card) cards.add(input);
                    else files.add(input);
                }

                @Override
                public void refused(java.nio.file.Path path, String reason, boolean error) {
                    refused.add(new WorkloadFolder.Refused(
                            hadoopPath(dir, entry, path).toString(), reason, error));
                }
            };
            BasicFileAttributes target = walk.resolve(entry, visitor);
            if (target == null && refused.isEmpty()) continue;
            if (target != null && !target.isDirectory()) continue; // a file at the top is no workload
            if (target != null) walk.walk(entry, visitor, ArchiveLayout::hidden);
            cards.sort(Comparator.comparing(WorkloadFolder.InputFile::path));
            files.sort(Comparator.comparing(WorkloadFolder.InputFile::path));
            refused.sort(Comparator.comparing(WorkloadFolder.Refused::path));
            workloads.add(new WorkloadFolder(
                    name, dir.toString(), List.copyOf(cards), List.copyOf(files), List.copyOf(refused)));
        }
        return workloads;
    }

    /** The Hadoop path of a walked entry: the workload folder's, then the entry's names below it, each taken as a name. */
    private static Path hadoopPath(Path workloadDir, java.nio.file.Path workloadEntry, java.nio.file.Path walked) {
        Path p = workloadDir;
        for (java.nio.file.Path part : workloadEntry.relativize(walked)) {
            if (!part.toString().isEmpty()) p = child(p, part.toString());
        }
        return p;
    }

    /** A child by name: a name with ':' or '%' is a name, not a URI (Hadoop's own local listing does the same). */
    private static Path child(Path parent, String name) {
        return new Path(parent, new Path(null, null, name));
    }

    private static WorkloadFolder scanWorkload(FileSystem fs, Path dir) throws IOException {
        List<WorkloadFolder.InputFile> cards = new ArrayList<>();
        List<WorkloadFolder.InputFile> files = new ArrayList<>();
        collect(fs, dir, true, cards, files);
        cards.sort(Comparator.comparing(WorkloadFolder.InputFile::path));
        files.sort(Comparator.comparing(WorkloadFolder.InputFile::path));
        return new WorkloadFolder(
                dir.getName(), fs.makeQualified(dir).toString(), List.copyOf(cards), List.copyOf(files));
    }

    /**
     * Walks a workload folder with plain {@code listStatus}: name, size and modification time are all a refresh
     * needs. ({@code listFiles} builds a {@code LocatedFileStatus} per file, which on a local or mounted archive
     * without Hadoop's native library runs {@code ls -ld} in a new process for every file and folder just to fill
     * in permissions, and on HDFS asks for block locations: the cost of a no-change refresh of a large archive.)
     */
    private static void collect(
            FileSystem fs,
            Path dir,
            boolean topLevel,
            List<WorkloadFolder.InputFile> cards,
            List<WorkloadFolder.InputFile> files)
            throws IOException {
        for (FileStatus f : fs.listStatus(dir)) {
            // a hidden folder is skipped whole, as its files would be
            if (ArchiveLayout.hidden(f.getPath().getName())) continue;
            if (f.isDirectory()) {
                collect(fs, f.getPath(), false, cards, files);
                continue;
            }
            WorkloadFolder.InputFile input =
                    new WorkloadFolder.InputFile(f.getPath().toString(), f.getLen(), f.getModificationTime());
            if (topLevel && ArchiveLayout.isCardName(f.getPath().getName())) {
                cards.add(input);
            } else {
                files.add(input);
            }
        }
    }

    private static FileStatus[] sorted(FileStatus[] entries) {
        Arrays.sort(entries, Comparator.comparing(s -> s.getPath().getName()));
        return entries;
    }
}
