package org.tracelake.jobs.archive;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * A workload folder on a local or mounted disk, walked with links in mind (issue 29 items 1, 2, 7, 8): a link is
 * followed only when its target lies inside the archive root, a folder is entered once (by its real path, so two
 * links to {@code .} or a link to a parent end at once), and only regular files become inputs. A link that leaves the
 * archive, one that leads nowhere, a link loop and a FIFO, socket or device are never opened: each becomes a
 * {@link WorkloadFolder.Refused} entry, which ingest turns into a {@code trace_files} row.
 */
final class LocalWalk {
    /** Lists a folder's entry: hidden names are skipped whole by the caller. */
    interface Visitor {
        /** A regular file to read (path as the walk reached it, attributes of its target). */
        void file(Path path, BasicFileAttributes target, boolean topLevel);

        void refused(Path path, String reason, boolean error);
    }

    private static final String ALREADY_READ = "a link to a folder already read (a loop, e.g. a link to '.' or to a"
            + " parent, or a second way to the same folder): its files are read once, from their own folder; delete the link";

    private final Path rootReal;
    private Path workloadReal;
    private final Set<Path> visited = new HashSet<>();

    LocalWalk(Path root) throws IOException {
        this.rootReal = root.toRealPath();
    }

    /**
     * What an entry leads to: its target's attributes, or null after telling the visitor why it is refused. A link is
     * resolved once, to its real path, which must lie inside the archive.
     */
    BasicFileAttributes resolve(Path entry, Visitor visitor) throws IOException {
        BasicFileAttributes own = Files.readAttributes(entry, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        if (!own.isSymbolicLink()) return own;
        Path real;
        try {
            real = entry.toRealPath();
        } catch (NoSuchFileException e) {
            visitor.refused(
                    entry,
                    "a link to nothing (dangling: its target " + insideOrNot(entry)
                            + " does not exist): point it at the file or delete it; a rank may be missing",
                    true);
            return null;
        } catch (FileSystemException e) {
            // ELOOP: "Too many levels of symbolic links"
            visitor.refused(
                    entry,
                    "a link loop (the link leads back to itself through other links): delete it or"
                            + " point it at a file",
                    true);
            return null;
        }
        if (!real.startsWith(rootReal)) {
            InsideArchive.Outside outside =
                    InsideArchive.outside(entry.getFileName().toString(), Files.isRegularFile(real), "");
            visitor.refused(entry, outside.reason(), outside.rankMayBeMissing());
            return null;
        }
        return Files.readAttributes(real, BasicFileAttributes.class);
    }

    /** The link's target as written, when it names a place inside the archive; else only that it is outside. */
    private String insideOrNot(Path link) {
        try {
            Path target = link.getParent().resolve(Files.readSymbolicLink(link)).normalize();
            return target.startsWith(rootReal) || target.toAbsolutePath().startsWith(rootReal)
                    ? rootReal.relativize(target.toAbsolutePath()).toString()
                    : "(outside the archive)";
        } catch (IOException | RuntimeException e) {
            return "(unreadable)";
        }
    }

    /**
     * Walks a workload folder: its real folders first, then the folder links found on the way (each entered only if
     * its real folder was not read yet), so that a link never takes the place of the folder it points to.
     */
    void walk(Path dir, Visitor visitor, Predicate<String> hidden) {
        Deque<Path> links = new ArrayDeque<>();
        try {
            workloadReal = dir.toRealPath();
        } catch (IOException e) {
            visitor.refused(dir, unreadable(e), true);
            return;
        }
        visited.add(workloadReal);
        walkOne(dir, true, visitor, hidden, links);
        while (!links.isEmpty()) {
            Path link = links.removeFirst();
            Path real;
            try {
                real = link.toRealPath();
            } catch (IOException e) {
                visitor.refused(link, unreadable(e), true);
                continue;
            }
            // a folder above the workload's (its parent, the archive root) holds the workload itself: a loop too
            if (workloadReal.startsWith(real) || !visited.add(real)) {
                visitor.refused(link, ALREADY_READ, true);
                continue;
            }
            walkOne(link, false, visitor, hidden, links);
        }
    }

    /**
     * Why a folder or entry could not be read (issue 45 item 4): a tree deeper than the system's path limit, a
     * folder without read permission, one deleted while the archive was scanned. The folder gets an error row of its
     * own; the rest of the workload, and of the archive, is read.
     */
    static String unreadable(IOException e) {
        String why = e instanceof FileSystemException f && f.getReason() != null ? f.getReason() : e.getMessage();
        if (e instanceof NoSuchFileException)
            return "deleted while the archive was scanned: not read; the next run reads it if it is back";
        if (e instanceof AccessDeniedException)
            return "could not be read (permission denied): give the refresh's user read access to it, or move it out"
                    + " of the archive; a rank may be missing";
        if (why != null && why.contains("File name too long"))
            return "could not be read (its path is longer than the file system allows, 4,096 bytes): move its files"
                    + " to a shallower folder; a rank may be missing";
        return "could not be read (" + why + "): a rank may be missing";
    }

    private void walkOne(Path dir, boolean topLevel, Visitor visitor, Predicate<String> hidden, Deque<Path> links) {
        List<Path> entries = new ArrayList<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir)) {
            for (Path p : stream) entries.add(p);
        } catch (IOException | java.nio.file.DirectoryIteratorException e) {
            IOException cause =
                    e instanceof IOException io ? io : ((java.nio.file.DirectoryIteratorException) e).getCause();
            visitor.refused(dir, unreadable(cause), true);
            return;
        }
        entries.sort(null);
        for (Path entry : entries) {
            if (hidden.test(entry.getFileName().toString())) continue;
            try {
                visit(entry, topLevel, visitor, hidden, links);
            } catch (IOException e) {
                visitor.refused(entry, unreadable(e), true);
            }
        }
    }

    private void visit(Path entry, boolean topLevel, Visitor visitor, Predicate<String> hidden, Deque<Path> links)
            throws IOException {
        BasicFileAttributes target = resolve(entry, visitor);
        if (target == null) return;
        if (target.isDirectory()) {
            if (Files.isSymbolicLink(entry)) {
                links.addLast(entry);
            } else if (visited.add(entry.toRealPath())) {
                walkOne(entry, false, visitor, hidden, links);
            } else {
                visitor.refused(entry, ALREADY_READ, true); // reached again through a link to a folder above it
            }
        } else if (target.isRegularFile()) {
            visitor.file(entry, target, topLevel);
        } else {
            visitor.refused(
                    entry,
                    "not a regular file (a FIFO, socket or device): not opened, since reading"
                            + " it could wait forever; replace it with the file itself",
                    true);
        }
    }
}
