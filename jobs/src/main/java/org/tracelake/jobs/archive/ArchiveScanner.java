package org.tracelake.jobs.archive;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;

/**
 * Lists an archive by {@link ArchiveLayout}'s rule (DESIGN.md "Input"): every folder directly below the root is a
 * workload; its card is the {@code *.yaml} at the top of the folder; every other file at any depth is an input. Works
 * on any Hadoop file system URI. Only metadata is read here.
 *
 * <p>The root is listed once; its workload folders are then listed side by side on a few threads (issue 39: the
 * listing is the part of a no-change refresh that grows with the archive, and each request to a remote store, or a
 * mounted one, mostly waits). A local or mounted archive is walked folder by folder by {@link LocalWalk}, which keeps
 * links inside the archive; any other file system (HDFS, S3) lists each workload flat, with one
 * {@code listFiles(folder, recursive)}: on S3 one paged listing of the folder's keys, not one request per folder.
 */
public final class ArchiveScanner {
    /** Workload folders listed at once: requests in flight, not CPU, so more than the cores. */
    static final int THREADS = 8;

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
        if ("file".equals(fs.getUri().getScheme())) return inParallel(localWorkloads(fs.makeQualified(root)));
        List<Callable<WorkloadFolder>> work = new ArrayList<>();
        for (FileStatus entry : sorted(fs.listStatus(root))) {
            if (!entry.isDirectory() || ArchiveLayout.hidden(entry.getPath().getName())) continue;
            work.add(() -> scanWorkload(fs, entry.getPath()));
        }
        return inParallel(work);
    }

    /** Runs the listings of the workload folders on a few threads; the folders come back in name order. */
    private static List<WorkloadFolder> inParallel(List<Callable<WorkloadFolder>> work) throws IOException {
        List<WorkloadFolder> out = new ArrayList<>(work.size());
        if (work.size() <= 1) {
            for (Callable<WorkloadFolder> w : work) add(out, call(w));
            return out;
        }
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(THREADS, work.size()), r -> {
            Thread t = new Thread(r, "tracelake-archive-scan");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<WorkloadFolder>> listed = new ArrayList<>(work.size());
            for (Callable<WorkloadFolder> w : work) listed.add(pool.submit(() -> call(w)));
            for (Future<WorkloadFolder> f : listed) add(out, f.get());
            return out;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while listing the archive", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof UncheckedIOException u) throw u.getCause();
            if (e.getCause() instanceof RuntimeException r) throw r;
            throw new IOException(e.getCause());
        } finally {
            pool.shutdownNow();
        }
    }

    private static WorkloadFolder call(Callable<WorkloadFolder> w) {
        try {
            return w.call();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static void add(List<WorkloadFolder> out, WorkloadFolder w) {
        if (w != null) out.add(w);
    }

    /**
     * A local or mounted archive, where links, FIFOs and devices exist: walked by {@link LocalWalk}, which follows a
     * link only inside the archive, enters each folder once and opens nothing but regular files. Hadoop's local
     * listing follows every link (a link to '/' walks the machine, two links to '.' never end) and drops dangling ones
     * without a word. One task per entry of the root, in name order.
     */
    private static List<Callable<WorkloadFolder>> localWorkloads(Path root) throws IOException {
        // java.nio's Path stays qualified in this class: the imported Path is Hadoop's.
        java.nio.file.Path rootDir = Paths.get(root.toUri());
        List<java.nio.file.Path> entries = new ArrayList<>();
        try (DirectoryStream<java.nio.file.Path> stream = Files.newDirectoryStream(rootDir)) {
            for (java.nio.file.Path p : stream) entries.add(p);
        }
        entries.sort(Comparator.comparing(p -> p.getFileName().toString()));
        List<Callable<WorkloadFolder>> work = new ArrayList<>();
        for (java.nio.file.Path entry : entries) {
            if (ArchiveLayout.hidden(entry.getFileName().toString())) continue;
            work.add(() -> scanLocal(root, rootDir, entry));
        }
        return work;
    }

    /** One entry of a local root: its workload folder, or null when it is none (a file at the top). */
    private static WorkloadFolder scanLocal(Path root, java.nio.file.Path rootDir, java.nio.file.Path entry)
            throws IOException {
        String name = entry.getFileName().toString();
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
                boolean card =
                        topLevel && ArchiveLayout.isCardName(path.getFileName().toString());
                if (card) cards.add(input);
                else files.add(input);
            }

            @Override
            public void refused(java.nio.file.Path path, String reason, boolean error) {
                refused.add(
                        new WorkloadFolder.Refused(hadoopPath(dir, entry, path).toString(), reason, error));
            }
        };
        BasicFileAttributes target;
        try {
            target = walk.resolve(entry, visitor);
        } catch (IOException e) { // deleted since the root was listed, or unreadable: the folder's own row
            visitor.refused(entry, LocalWalk.unreadable(e), true);
            target = null;
        }
        if (target == null && refused.isEmpty()) return null;
        if (target != null && !target.isDirectory()) return null; // a file at the top is no workload
        if (target != null) walk.walk(entry, visitor, ArchiveLayout::hidden);
        cards.sort(Comparator.comparing(WorkloadFolder.InputFile::path));
        files.sort(Comparator.comparing(WorkloadFolder.InputFile::path));
        refused.sort(Comparator.comparing(WorkloadFolder.Refused::path));
        return new WorkloadFolder(name, dir.toString(), List.copyOf(cards), List.copyOf(files), List.copyOf(refused));
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

    /**
     * A workload folder of a remote file system, listed flat: one {@code listFiles(folder, recursive)}, whose files
     * are sorted out here (a file under a hidden folder is skipped, as the folder would be). A folder that cannot be
     * listed (permission denied, deleted since the root was listed) is that workload's error row, not a failed run.
     */
    private static WorkloadFolder scanWorkload(FileSystem fs, Path dir) {
        Path qualified = fs.makeQualified(dir);
        List<WorkloadFolder.InputFile> cards = new ArrayList<>();
        List<WorkloadFolder.InputFile> files = new ArrayList<>();
        List<WorkloadFolder.Refused> refused = new ArrayList<>();
        try {
            RemoteIterator<LocatedFileStatus> it = fs.listFiles(qualified, true);
            while (it.hasNext()) {
                LocatedFileStatus f = it.next();
                Path p = f.getPath();
                if (!f.isFile() || hiddenBelow(qualified, p)) continue;
                WorkloadFolder.InputFile input =
                        new WorkloadFolder.InputFile(p.toString(), f.getLen(), f.getModificationTime());
                boolean topLevel = qualified.equals(p.getParent());
                if (topLevel && ArchiveLayout.isCardName(p.getName())) cards.add(input);
                else files.add(input);
            }
        } catch (IOException e) {
            refused.add(new WorkloadFolder.Refused(
                    qualified.toString(),
                    "could not be listed (" + e.getMessage() + "): not read; a rank may be missing",
                    true));
        }
        cards.sort(Comparator.comparing(WorkloadFolder.InputFile::path));
        files.sort(Comparator.comparing(WorkloadFolder.InputFile::path));
        return new WorkloadFolder(
                dir.getName(), qualified.toString(), List.copyOf(cards), List.copyOf(files), List.copyOf(refused));
    }

    /** Whether the file or a folder between the workload folder and it is hidden (its name starts with . or _). */
    private static boolean hiddenBelow(Path workloadDir, Path file) {
        for (Path p = file; p != null && !p.equals(workloadDir); p = p.getParent()) {
            if (ArchiveLayout.hidden(p.getName())) return true;
        }
        return false;
    }

    private static FileStatus[] sorted(FileStatus[] entries) {
        Arrays.sort(entries, Comparator.comparing(s -> s.getPath().getName()));
        return entries;
    }
}
