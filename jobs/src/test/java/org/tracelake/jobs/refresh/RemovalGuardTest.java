package org.tracelake.jobs.refresh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.Main;
import org.tracelake.jobs.cli.ExitCodes;
import org.tracelake.jobs.cli.RunIds;
import org.tracelake.jobs.readers.InputLimits;
import org.tracelake.jobs.testing.MainProcess;
import org.tracelake.jobs.testing.SharedSpark;
import org.tracelake.jobs.testing.TestArchive;
import org.tracelake.jobs.testing.TestFiles;
import org.tracelake.jobs.warehouse.Warehouse;
import org.tracelake.jobs.warehouse.WarehouseTables;
import org.tracelake.schemas.Tables;

/**
 * Issue 42 item 1, no silent wipe: a refresh of an empty archive root printed "… 1 removed" and exited 0, and a
 * warehouse pointed at another archive removed all nine workloads. Each such run is now refused before it changes
 * anything (exit 2, one line), unless {@code --allow-removals}; a root that does not exist is refused before Spark
 * starts.
 */
class RemovalGuardTest {
    @TempDir
    Path tmp;

    private record Outcome(int code, String err) {}

    /** The command line in this JVM: each case here ends before Spark would start, well within the bound. */
    private static Outcome cli(String... args) {
        return assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            PrintStream saved = System.err;
            ByteArrayOutputStream captured = new ByteArrayOutputStream();
            System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
            try {
                return new Outcome(Main.run(args), captured.toString(StandardCharsets.UTF_8));
            } finally {
                System.setErr(saved);
            }
        });
    }

    private static void assertRefused(Outcome o, String... fragments) {
        assertEquals(ExitCodes.USAGE, o.code(), o.err());
        String line = o.err().strip();
        assertFalse(line.contains("\n"), () -> "one line, got: " + line);
        assertFalse(line.contains("Exception"), line);
        for (String f : fragments) assertTrue(line.contains(f), () -> "'" + line + "' lacks '" + f + "'");
    }

    @Test
    void aMissingArchiveIsAUsageErrorBeforeSparkStarts() {
        Path wh = tmp.resolve("wh");
        String missing = tmp.resolve("no-such-archive").toString();
        for (String command : List.of("refresh", "ingest")) {
            // before: exit 1 and a 33-line stack trace after Spark had started (31 s)
            assertRefused(cli(command, "--archive", missing, "--warehouse", wh.toString()), missing, "does not exist");
            assertRefused(
                    cli(command, "--archive", missing, "--warehouse", wh.toString(), "--allow-removals"),
                    "does not exist");
        }
        assertFalse(Files.exists(wh), "nothing done: not even the warehouse lock was taken");
    }

    @Test
    void anEmptyArchiveIsRefusedBeforeSparkStarts() throws IOException {
        Path wh = tmp.resolve("wh");
        Path empty = Files.createDirectories(tmp.resolve("empty"));
        assertRefused(
                cli("refresh", "--archive", empty.toString(), "--warehouse", wh.toString()),
                "holds no workload folder",
                "--allow-removals");
        // hidden folders and loose files are no workloads either (an unmounted mount point often holds such)
        Files.createDirectories(empty.resolve(".snapshot"));
        Files.writeString(empty.resolve("README"), "x");
        assertRefused(
                cli("ingest", "--archive", empty.toString(), "--warehouse", wh.toString()), "holds no workload folder");
        assertFalse(Files.exists(wh), "nothing done");
    }

    private static Refresh.Result run(SparkSession spark, Path warehouse, Path archive, boolean allow)
            throws IOException {
        Warehouse wh = new Warehouse(warehouse.toString(), spark.sparkContext().hadoopConfiguration());
        return new Refresh(new WarehouseTables(spark, wh), RunIds.newId(), InputLimits.defaults())
                .allowRemovals(allow)
                .run(archive.toString(), Set.of(), false);
    }

    private static long count(SparkSession spark, TestArchive a, String table) {
        return spark.read().format("iceberg").load(a.table(table)).count();
    }

    @Test
    void removingMostWorkloadsOrChangingTheRootIsRefusedUnlessAllowed() throws Exception {
        SparkSession spark = SharedSpark.get();
        TestArchive a = new TestArchive(tmp.resolve("a"));
        for (String w : List.of("w1", "w2", "w3")) a.generated(w, 2, 2, -1, 0);
        assertTrue(a.refresh(spark).allOk());
        assertEquals(3, count(spark, a, Tables.WORKLOADS));

        // 2 of 3 folders gone (a disk half mounted, a folder moved): refused, nothing changed
        Path aside = Files.createDirectories(tmp.resolve("aside"));
        for (String w : List.of("w2", "w3")) Files.move(a.archive.resolve(w), aside.resolve(w));
        RemovalGuard.Refused most =
                assertThrows(RemovalGuard.Refused.class, () -> run(spark, a.warehouse, a.archive, false));
        assertTrue(most.getMessage().contains("2 of the warehouse's 3 workloads (more than half)"), most.getMessage());
        assertTrue(most.getMessage().contains("--allow-removals"), most.getMessage());
        assertEquals(3, count(spark, a, Tables.WORKLOADS), "nothing removed");
        assertEquals(1, count(spark, a, Tables.RUNS), "no run recorded");

        // the same through the command line: exit 2, one line on standard error
        Path err = tmp.resolve("stderr.txt");
        Process p = MainProcess.startTo(
                tmp.resolve("stdout.txt"),
                err,
                "refresh",
                "--archive",
                a.archive.toString(),
                "--warehouse",
                a.warehouse.toString(),
                "--master",
                "local[1]",
                "--conf",
                "spark.ui.enabled=false");
        assertTrue(p.waitFor(300, TimeUnit.SECONDS), "the refresh ends");
        String stderr = Files.readString(err);
        assertEquals(ExitCodes.USAGE, p.exitValue(), stderr);
        List<String> lines =
                stderr.lines().filter(l -> l.startsWith("tracelake refresh:")).toList();
        assertEquals(1, lines.size(), stderr);
        assertTrue(lines.get(0).contains("more than half") && lines.get(0).contains("--allow-removals"), stderr);
        assertEquals(3, count(spark, a, Tables.WORKLOADS), "nothing removed");

        // all of them gone: refused too
        Files.move(a.archive.resolve("w1"), aside.resolve("w1"));
        RemovalGuard.Refused all =
                assertThrows(RemovalGuard.Refused.class, () -> run(spark, a.warehouse, a.archive, false));
        assertTrue(all.getMessage().contains("3 of the warehouse's 3 workloads (all of them)"), all.getMessage());

        // another archive root than the last run's: refused, even with every workload present in it
        Path other = tmp.resolve("other");
        TestFiles.copyTree(aside, other);
        RemovalGuard.Refused moved =
                assertThrows(RemovalGuard.Refused.class, () -> run(spark, a.warehouse, other, false));
        assertTrue(
                moved.getMessage().contains("is not the archive this warehouse was refreshed from")
                        && moved.getMessage().contains(a.archive.toString()),
                moved.getMessage());
        assertEquals(1, count(spark, a, Tables.RUNS));

        // --allow-removals lets each through: the new root is taken, then a removal of 2 of 3
        assertTrue(run(spark, a.warehouse, other, true).allOk());
        for (String w : List.of("w2", "w3")) TestFiles.deleteTree(other.resolve(w));
        assertThrows(RemovalGuard.Refused.class, () -> run(spark, a.warehouse, other, false));
        Refresh.Result removed = run(spark, a.warehouse, other, true);
        assertEquals(List.of("w2", "w3"), removed.removed());
        assertEquals(1, count(spark, a, Tables.WORKLOADS));
        // and one workload of one gone is still all of them: refused without the option
        TestFiles.deleteTree(other.resolve("w1"));
        Files.createDirectories(other.resolve("w4"));
        assertThrows(RemovalGuard.Refused.class, () -> run(spark, a.warehouse, other, false));
    }
}
