package org.tracelake.jobs.warehouse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.sql.SampleWarehouse;
import org.tracelake.jobs.testing.MainProcess;
import org.tracelake.jobs.testing.SharedSpark;
import org.tracelake.jobs.testing.TestArchive;

/**
 * A reader outside tracelake reads the tables through the catalog (docs/SQL.md, "Reading the tables from outside
 * tracelake"): a JVM of its own whose classpath is Spark and its libraries with the Iceberg runtime, and no tracelake
 * class, configures the warehouse as an Iceberg Hadoop catalog ({@code spark.sql.catalog.lab.*}, exactly the lines the
 * doc gives) and reads {@code lab.metrics} and {@code lab.events}; the figures must equal those of tracelake's own
 * {@code sql} on the same warehouse.
 */
class ForeignReaderTest {
    @TempDir
    Path tmp;

    /** The foreign reader: plain Spark, the doc's catalog settings, one query, its one row printed. */
    private static final String READER = String.join(
            "\n",
            "import org.apache.spark.sql.Row;",
            "import org.apache.spark.sql.SparkSession;",
            "public class ForeignReader {",
            "  public static void main(String[] args) throws Exception {",
            "    try {",
            "      Class.forName(\"org.tracelake.jobs.Main\");",
            "      System.out.println(\"TRACELAKE ON THE CLASSPATH\");",
            "    } catch (ClassNotFoundException expected) {",
            "      // as it should be",
            "    }",
            "    SparkSession spark = SparkSession.builder().master(\"local[1]\").appName(\"foreign reader\")",
            "        .config(\"spark.ui.enabled\", \"false\")",
            "        .config(\"spark.sql.catalog.lab\", \"org.apache.iceberg.spark.SparkCatalog\")",
            "        .config(\"spark.sql.catalog.lab.type\", \"hadoop\")",
            "        .config(\"spark.sql.catalog.lab.warehouse\", args[0])",
            "        .getOrCreate();",
            "    for (int i = 1; i < args.length; i++) {",
            "      Row r = spark.sql(args[i]).first();",
            "      System.out.println(\"ROW \" + r.mkString(\",\"));",
            "    }",
            "    spark.stop();",
            "  }",
            "}",
            "");

    private static final String METRICS_QUERY =
            "SELECT count(*) AS n, count(DISTINCT workload) AS workloads, sum(value) AS total FROM %s"
                    + " WHERE status = 'ok'";
    private static final String EVENTS_QUERY = "SELECT count(*) AS n, count(DISTINCT workload) AS workloads FROM %s";

    @Test
    void sparkWithOnlyTheIcebergRuntimeReadsWhatSqlReads() throws Exception {
        TestArchive archive =
                new TestArchive(tmp).generated("alpha", 2, 3, -1, 0).generated("beta", 2, 3, 1, 300);
        assertTrue(archive.refresh(SharedSpark.get()).allOk());
        String warehouse = archive.warehouse.toUri().toString();

        List<String> foreign =
                foreign(warehouse, METRICS_QUERY.formatted("lab.metrics"), EVENTS_QUERY.formatted("lab.events"));
        List<String> own = new ArrayList<>();
        for (String q : List.of(METRICS_QUERY.formatted("metrics"), EVENTS_QUERY.formatted("events"))) {
            List<String> lines =
                    sql(archive.warehouse.toString(), q).strip().lines().toList();
            assertEquals(2, lines.size(), "sql printed a header and one row: " + lines);
            own.add(lines.get(1));
        }

        // metrics: row count and workloads exact, the sum of the values to the last bits a double printing keeps
        String[] f = foreign.get(0).split(",");
        String[] o = own.get(0).split(",");
        assertEquals(o[0], f[0], "metric rows");
        assertEquals("2", f[1], "workloads with metrics");
        assertEquals(o[1], f[1]);
        assertEquals(Double.parseDouble(o[2]), Double.parseDouble(f[2]), Math.abs(Double.parseDouble(o[2])) * 1e-12);
        assertTrue(Long.parseLong(f[0]) > 0, "no metric rows read: " + foreign);
        assertEquals(own.get(1), foreign.get(1), "events: rows and workloads");
    }

    /** Runs the foreign reader; returns the row each query printed. */
    private List<String> foreign(String warehouse, String... queries) throws IOException, InterruptedException {
        Path src = Files.createDirectories(tmp.resolve("reader-src"));
        Path classes = Files.createDirectories(tmp.resolve("reader-classes"));
        Files.writeString(src.resolve("ForeignReader.java"), READER, StandardCharsets.UTF_8);
        String classpath = foreignClasspath();
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        int compiled = javac.run(
                null,
                null,
                null,
                "-proc:none",
                "-cp",
                classpath,
                "-d",
                classes.toString(),
                src.resolve("ForeignReader.java").toString());
        assertEquals(0, compiled, "the foreign reader did not compile");

        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xmx1g");
        Path home = SampleWarehouse.projectHome();
        cmd.addAll(Arrays.asList(Files.readString(home.resolve("jobs/target/jvm-options.txt"))
                .trim()
                .split("\\s+")));
        cmd.add("-Dlog4j2.configurationFile=" + home.resolve("conf/log4j2-test.properties"));
        cmd.addAll(List.of("-cp", classes + File.pathSeparator + classpath, "ForeignReader", warehouse));
        cmd.addAll(Arrays.asList(queries));
        Path out = tmp.resolve("reader.out");
        Path err = tmp.resolve("reader.err");
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile());
        pb.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
        Process p = pb.start();
        if (!p.waitFor(10, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError("the foreign reader did not finish in 10 minutes");
        }
        String stdout = Files.readString(out, StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), "the foreign reader failed:\n" + Files.readString(err, StandardCharsets.UTF_8));
        assertFalse(stdout.contains("TRACELAKE ON THE CLASSPATH"), "the foreign reader could load tracelake's classes");
        List<String> rows = new ArrayList<>();
        for (String line : stdout.lines().toList()) if (line.startsWith("ROW ")) rows.add(line.substring(4));
        assertEquals(queries.length, rows.size(), stdout);
        return rows;
    }

    /**
     * The test's own classpath without the project's classes: Spark, its libraries and the Iceberg runtime (and the
     * other libraries the build resolved), never a folder or jar of this checkout.
     */
    private static String foreignClasspath() {
        Path home = SampleWarehouse.projectHome().toAbsolutePath().normalize();
        List<String> kept = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (entry.isEmpty()) continue;
            Path p = Path.of(entry).toAbsolutePath().normalize();
            if (p.startsWith(home) || p.getFileName().toString().startsWith("tracelake-")) continue;
            kept.add(entry);
        }
        assertTrue(kept.stream().anyMatch(e -> e.contains("iceberg-spark-runtime")), "no Iceberg runtime: " + kept);
        return String.join(File.pathSeparator, kept);
    }

    /** tracelake's own {@code sql}, as a user runs it, with CSV output. */
    private String sql(String warehouse, String query) throws IOException, InterruptedException {
        Path out = tmp.resolve("sql-" + Integer.toHexString(query.hashCode()) + ".out");
        Path err = tmp.resolve("sql-" + Integer.toHexString(query.hashCode()) + ".err");
        Process p = MainProcess.startTo(
                out,
                err,
                "sql",
                "--warehouse",
                warehouse,
                "--local",
                "--master",
                "local[1]",
                "--conf",
                "spark.ui.enabled=false",
                "--format",
                "csv",
                query);
        if (!p.waitFor(10, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError("tracelake sql did not finish in 10 minutes");
        }
        assertEquals(0, p.exitValue(), "tracelake sql failed:\n" + Files.readString(err, StandardCharsets.UTF_8));
        return Files.readString(out, StandardCharsets.UTF_8);
    }
}
