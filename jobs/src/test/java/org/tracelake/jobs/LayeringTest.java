package org.tracelake.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The layering the README states for the packages of {@code jobs/}: a package uses only packages of a layer below
 * its own, so no reference runs up a layer and none goes round in a circle. The build fails on a back-arrow.
 *
 * <p>A reference is an import or a fully qualified name in code (comments and string literals are not code). A new
 * package fails this test until it is given a layer here, so the layering is decided, not drifted into.
 */
class LayeringTest {
    /**
     * The layers, from the command line down; packages on one line are peers and do not use each other. Kept in the
     * order of the README's "Layout of this repository".
     */
    static final List<List<String>> LAYERS = List.of(
            List.of("(root)"), // Main: the entry point
            List.of("cli"),
            List.of("export", "serve"),
            List.of("report", "sql"),
            List.of("refresh"),
            List.of("metrics"),
            List.of("ingest"),
            List.of("source"),
            List.of("rank"),
            List.of("archive", "generate"),
            List.of("readers"),
            List.of("warehouse"),
            List.of("spark"),
            List.of("console"));

    private static final Pattern REFERENCE = Pattern.compile("\\borg\\.tracelake\\.jobs\\.([a-z][a-z0-9_]*)\\.");

    private static Path mainSources() {
        Path home = Path.of(System.getProperty("tracelake.home", "..")).toAbsolutePath();
        return home.resolve("jobs/src/main/java/org/tracelake/jobs");
    }

    private static Map<String, Integer> layerOf() {
        Map<String, Integer> out = new LinkedHashMap<>();
        for (int i = 0; i < LAYERS.size(); i++) for (String p : LAYERS.get(i)) out.put(p, i);
        return out;
    }

    /** The top-level package of {@code org.tracelake.jobs} a source file is in, {@code (root)} for the entry point. */
    static String packageOf(Path root, Path file) {
        Path rel = root.relativize(file);
        return rel.getNameCount() == 1 ? "(root)" : rel.getName(0).toString();
    }

    /** The source without comments and string or character literals, so that only code is searched. */
    static String code(String src) {
        StringBuilder out = new StringBuilder(src.length());
        int i = 0;
        int n = src.length();
        while (i < n) {
            char c = src.charAt(i);
            if (c == '/' && i + 1 < n && src.charAt(i + 1) == '/') {
                while (i < n && src.charAt(i) != '\n') i++;
            } else if (c == '/' && i + 1 < n && src.charAt(i + 1) == '*') {
                int end = src.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
            } else if (src.startsWith("\"\"\"", i)) {
                int end = src.indexOf("\"\"\"", i + 3);
                i = end < 0 ? n : end + 3;
            } else if (c == '"' || c == '\'') {
                i++;
                while (i < n && src.charAt(i) != c) i += src.charAt(i) == '\\' ? 2 : 1;
                i++;
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }

    /** Every reference from one package to another that is not to a layer below, as "file: from -> to". */
    static List<String> backArrows(Path root) throws IOException {
        Map<String, Integer> layer = layerOf();
        List<String> wrong = new ArrayList<>();
        List<Path> files;
        try (Stream<Path> s = Files.walk(root)) {
            files = s.filter(p -> p.toString().endsWith(".java")).sorted().toList();
        }
        for (Path f : files) {
            String from = packageOf(root, f);
            Integer fromLayer = layer.get(from);
            if (fromLayer == null) {
                wrong.add(root.relativize(f) + ": package " + from + " has no layer (add it to LayeringTest.LAYERS)");
                continue;
            }
            Matcher m = REFERENCE.matcher(code(Files.readString(f, StandardCharsets.UTF_8)));
            TreeSet<String> targets = new TreeSet<>();
            while (m.find()) targets.add(m.group(1));
            for (String to : targets) {
                if (to.equals(from)) continue;
                Integer toLayer = layer.get(to);
                if (toLayer == null || toLayer <= fromLayer)
                    wrong.add(root.relativize(f) + ": " + from + " -> " + to
                            + (toLayer == null
                                    ? " (no such layer)"
                                    : toLayer == fromLayer.intValue() ? " (a peer)" : " (up)"));
            }
        }
        return wrong;
    }

    @Test
    void noPackageUsesOneAboveItOrAPeer() throws IOException {
        Path root = mainSources();
        assertTrue(Files.isDirectory(root), "the main sources are at " + root);
        assertEquals(List.of(), backArrows(root), "references against the layering of README's Layout section");
    }

    @Test
    void aPlantedBackArrowIsFound() throws IOException {
        // The check itself can fail: a warehouse class that imports the command line is a back-arrow, and a
        // fully qualified name in code counts as much as an import (a comment or a string does not).
        Path root = Files.createTempDirectory("layering");
        try {
            Files.createDirectories(root.resolve("warehouse"));
            Files.writeString(
                    root.resolve("warehouse/Planted.java"),
                    "package org.tracelake.jobs.warehouse;\n"
                            + "// org.tracelake.jobs.report.X in a comment is not a reference\n"
                            + "class Planted { String s = \"org.tracelake.jobs.sql.Y\";"
                            + " Object o = org.tracelake.jobs.cli.ExitCodes.OK; }\n");
            assertEquals(List.of("warehouse/Planted.java: warehouse -> cli (up)"), backArrows(root));
        } finally {
            try (Stream<Path> s = Files.walk(root)) {
                for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) Files.delete(p);
            }
        }
    }
}
