package org.tracelake.jobs.refresh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.Main;
import org.tracelake.jobs.cli.ExitCodes;
import org.tracelake.jobs.testing.MainProcess;
import org.tracelake.jobs.testing.TestArchive;
import org.tracelake.jobs.warehouse.Warehouse;

/**
 * Every command that writes the warehouse holds its lock, and a second writer stops with exit 75 and the owner's name
 * whatever the pair: refresh, ingest, export (its default target is under the warehouse) and report --html (likewise).
 * The lock is taken before Spark starts, so the refused commands run in this JVM; the real pair runs a refresh
 * process and tries every writer against it while it works.
 */
class WarehouseWritersLockTest {
    @TempDir
    Path tmp;

    /** Each writer's command line, on one archive and warehouse. */
    private static Map<String, String[]> writers(TestArchive a) {
        String w = a.warehouse.toString();
        String[] spark = {"--master", "local[1]", "--conf", "spark.ui.enabled=false"};
        return Map.of(
                "refresh", concat(new String[] {"refresh", "--archive", a.archive.toString(), "--warehouse", w}, spark),
                "ingest", concat(new String[] {"ingest", "--archive", a.archive.toString(), "--warehouse", w}, spark),
                "export", concat(new String[] {"export", "--leaderboard", "--warehouse", w}, spark),
                "report", concat(new String[] {"report", "--html", "--warehouse", w}, spark));
    }

    @Test
    void everyWriterIsRefusedWhileAnyOtherWriterHoldsTheWarehouse() throws IOException {
        TestArchive archive = new TestArchive(tmp).generated("alpha", 2, 2, -1, 0);
        Warehouse warehouse = new Warehouse(archive.warehouse.toString(), new Configuration());
        Map<String, String[]> writers = writers(archive);
        for (String holder : writers.keySet()) {
            try (WarehouseLock held =
                    WarehouseLock.acquire(warehouse, "held-by-" + holder, Duration.ofHours(24), holder)) {
                for (Map.Entry<String, String[]> second : writers.entrySet()) {
                    String pair = holder + " holds, " + second.getKey() + " tries";
                    Run run = inProcess(second.getValue());
                    assertEquals(ExitCodes.LOCKED, run.exit(), pair + ": " + run.stderr());
                    assertTrue(
                            run.stderr().startsWith("tracelake " + second.getKey() + ": another writer holds"),
                            pair + ": " + run.stderr());
                    assertTrue(
                            run.stderr().contains("tracelake " + holder + ", run held-by-" + holder + " on "),
                            pair + ": " + run.stderr());
                    assertTrue(
                            run.stderr()
                                    .contains("(pid " + ProcessHandle.current().pid() + ")"),
                            pair + ": " + run.stderr());
                }
            }
            assertFalse(Files.exists(archive.warehouse.resolve("_lock")), holder + "'s lock is gone with it");
        }
        try (var left = Files.list(archive.warehouse)) {
            assertEquals(List.of(), left.toList(), "no refused writer wrote anything");
        }
    }

    @Test
    void aRunningRefreshRefusesEveryOtherWriterAndReadersStillRun() throws Exception {
        TestArchive archive =
                new TestArchive(tmp).generated("alpha", 2, 3, -1, 0).generated("beta", 2, 3, -1, 0);
        Map<String, String[]> writers = writers(archive);
        Process refresh = MainProcess.start(writers.get("refresh"));
        try {
            Path lockFile = archive.warehouse.resolve("_lock");
            assertTrue(
                    MainProcess.waitFor(
                            () -> Files.exists(lockFile) && owner(lockFile).containsKey("started_at"),
                            Duration.ofSeconds(120)),
                    "the refresh never took the lock");
            Properties owner = owner(lockFile);
            assertEquals("refresh", owner.getProperty("command"));
            assertEquals(Long.toString(refresh.pid()), owner.getProperty("pid"));
            for (Map.Entry<String, String[]> second : writers.entrySet()) {
                Run run = inProcess(second.getValue());
                assertEquals(ExitCodes.LOCKED, run.exit(), second.getKey() + ": " + run.stderr());
                assertTrue(
                        run.stderr()
                                .contains("tracelake refresh, run " + owner.getProperty("run_id") + " on "
                                        + owner.getProperty("host") + " (pid " + refresh.pid() + ")"),
                        run.stderr());
            }
            assertTrue(refresh.waitFor(300, TimeUnit.SECONDS), "the refresh did not finish");
            assertEquals(ExitCodes.OK, refresh.exitValue(), stderr(refresh));
        } finally {
            refresh.destroyForcibly();
        }
        // Output outside the warehouse makes export a reader: it runs while a writer holds the warehouse.
        Warehouse warehouse = new Warehouse(archive.warehouse.toString(), new Configuration());
        try (WarehouseLock held = WarehouseLock.acquire(warehouse, "held", Duration.ofHours(24), "refresh")) {
            Path outside = tmp.resolve("leaderboard.json");
            Process export = MainProcess.start(
                    "export",
                    "--leaderboard",
                    outside.toString(),
                    "--warehouse",
                    archive.warehouse.toString(),
                    "--master",
                    "local[1]",
                    "--conf",
                    "spark.ui.enabled=false");
            assertTrue(export.waitFor(300, TimeUnit.SECONDS));
            assertEquals(ExitCodes.OK, export.exitValue(), stderr(export));
            assertTrue(Files.readString(outside).contains("\"alpha\""));
        }
    }

    private record Run(int exit, String stderr) {}

    /** A command in this JVM (it stops before Spark when refused), with its standard error. */
    private static Run inProcess(String... args) {
        PrintStream err = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            return new Run(Main.run(args), captured.toString(StandardCharsets.UTF_8));
        } finally {
            System.setErr(err);
        }
    }

    private static Properties owner(Path lockFile) {
        Properties p = new Properties();
        try (var in = Files.newInputStream(lockFile)) {
            p.load(in);
        } catch (IOException e) {
            // being written: not yet
        }
        return p;
    }

    private static String stderr(Process p) throws IOException {
        return new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    }

    private static String[] concat(String[] a, String[] b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
