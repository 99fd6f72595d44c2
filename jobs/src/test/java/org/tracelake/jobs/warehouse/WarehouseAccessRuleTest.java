package org.tracelake.jobs.warehouse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The warehouse package is the one way to the warehouse's tables (issue 31): no main source outside it hands Spark a
 * Parquet path or opens a reader of its own. The data source's entry point reads raw traces, not tables, through the
 * {@code tracelake} format, and is the one exception.
 */
class WarehouseAccessRuleTest {
    private static final Path MAIN = Path.of("src/main/java/org/tracelake/jobs");
    private static final Pattern SPARK_IO =
            Pattern.compile("\\bspark(\\(\\))?\\s*\\.read\\(\\)|\\.parquet\\(|\\bparquet\\.`");
    private static final Path TRACE_SOURCE = MAIN.resolve("source/TraceSource.java");

    @Test
    void onlyTheWarehousePackageReadsOrWritesTables() throws IOException {
        assertTrue(Files.isDirectory(MAIN), () -> "run from the jobs module: " + MAIN.toAbsolutePath());
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(MAIN)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                if (f.startsWith(MAIN.resolve("warehouse"))) continue;
                List<String> lines = Files.readAllLines(f, StandardCharsets.UTF_8);
                for (int i = 0; i < lines.size(); i++) {
                    String line = lines.get(i);
                    if (!SPARK_IO.matcher(line).find()) continue;
                    if (f.equals(TRACE_SOURCE) && line.contains("spark.read()")) continue;
                    found.add(MAIN.relativize(f) + ":" + (i + 1) + ": " + line.strip());
                }
            }
        }
        assertEquals(List.of(), found, "Spark table I/O outside the warehouse package");
    }
}
