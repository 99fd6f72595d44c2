package org.tracelake.jobs.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/** File-tree helpers for tests. */
public final class TestFiles {
    private TestFiles() {}

    /** Every file under the given tables of a warehouse, with its size and modification time. */
    public static Map<String, Long> sizes(Path warehouse, String... tables) throws IOException {
        Map<String, Long> out = new TreeMap<>();
        for (String t : tables) {
            Path root = warehouse.resolve(t);
            if (!Files.exists(root)) continue;
            try (Stream<Path> files = Files.walk(root)) {
                for (Path p : files.filter(Files::isRegularFile).toList()) {
                    out.put(
                            warehouse.relativize(p) + "@"
                                    + Files.getLastModifiedTime(p).toMillis(),
                            Files.size(p));
                }
            }
        }
        return out;
    }

    /** Copies a folder and everything under it (files and folders; {@code to} may exist). */
    public static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path src : files.toList()) {
                Path dst = to.resolve(from.relativize(src).toString());
                if (Files.isDirectory(src)) Files.createDirectories(dst);
                else Files.copy(src, dst);
            }
        }
    }

    public static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) return;
        try (Stream<Path> files = Files.walk(root)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) Files.delete(p);
        }
    }
}
