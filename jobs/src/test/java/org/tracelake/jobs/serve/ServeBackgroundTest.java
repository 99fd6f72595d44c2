package org.tracelake.jobs.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.testing.MainProcess;
import org.tracelake.jobs.testing.SharedSpark;
import org.tracelake.jobs.testing.TestArchive;

/**
 * Issue 42 item 3: {@code serve --background} returns once the server listens and announces it in the warehouse;
 * {@code sql} on that warehouse then runs through it (the application that answers is serve's), {@code sql --local}
 * in a Spark of its own; {@code serve --stop} stops it and the announcement goes with it.
 */
class ServeBackgroundTest {
    @TempDir
    Path tmp;

    private Path warehouse;

    @AfterEach
    void killLeftovers() {
        RunningServe left = warehouse == null ? null : RunningServe.find(warehouse.toString());
        if (left != null) ProcessHandle.of(left.pid()).ifPresent(ProcessHandle::destroyForcibly);
    }

    @Test
    void sqlUsesARunningServeUntilItIsStopped() throws Exception {
        TestArchive archive = new TestArchive(tmp).generated("a", 2, 2, 1, 0);
        assertTrue(archive.refresh(SharedSpark.get()).allOk());
        warehouse = archive.warehouse;
        String wh = warehouse.toString();

        Process start = MainProcess.startTo(
                tmp.resolve("start.out"),
                tmp.resolve("start.err"),
                "serve",
                "--background",
                "--warehouse",
                wh,
                "--port",
                "0",
                "--master",
                "local[1]",
                "--conf",
                "spark.sql.shuffle.partitions=2",
                "--conf",
                "spark.tracelake.serve.warmupQueries=0"); // the warm-up is ServeTest's
        assertTrue(start.waitFor(600, TimeUnit.SECONDS), "serve --background returns");
        assertEquals(0, start.exitValue(), Files.readString(tmp.resolve("start.err")));
        assertTrue(Files.readString(tmp.resolve("start.out"))
                .startsWith("tracelake serve: running in the background on sc://127.0.0.1:"));
        RunningServe running = RunningServe.find(wh);
        assertTrue(running != null, "announced in " + wh + "/_serve/server");

        assertEquals("key,value\nspark.app.name,tracelake serve\n", sql(wh, "sql-remote"), "answered by serve");
        assertEquals("key,value\nspark.app.name,tracelake sql\n", sql(wh, "sql-local", "--local"), "--local: its own");

        // bin/tracelake runs such statements on the thin client's short class path: the same answers in every
        // format, and an error the server reports, with no class missing on the way
        String q = "SELECT workload, count(*) AS n, max(rank) AS top FROM events GROUP BY workload ORDER BY workload";
        for (String format : List.of("table", "json", "csv")) {
            List<String> args = List.of("sql", "--warehouse", wh, "--format", format, q);
            String full = run(MainProcess.command(args.toArray(String[]::new)), "full-" + format, 0);
            String thin = run(MainProcess.thinClientCommand(args.toArray(String[]::new)), "thin-" + format, 0);
            assertEquals(full, thin, format);
            if (format.equals("csv")) { // one workload "a" of ranks 0 and 1
                assertTrue(full.startsWith("workload,n,top\na,") && full.endsWith(",1\n"), full);
            }
        }
        // and the first thing bin/tracelake tries: serve's local client, with only tracelake's classes (the same
        // answers), which leaves what it does not read to the full command (97, nothing printed)
        for (String format : List.of("table", "json", "csv")) {
            List<String> args = List.of("sql", "--warehouse", wh, "--format", format, q);
            String full = run(MainProcess.command(args.toArray(String[]::new)), "full2-" + format, 0);
            String local = run(MainProcess.localClientCommand(args.toArray(String[]::new)), "local-" + format, 0);
            assertEquals(full, local, format);
        }
        run(MainProcess.localClientCommand("sql", "--warehouse", wh, "SELECT * FROM no_such_table"), "local-error", 1);
        assertTrue(Files.readString(tmp.resolve("local-error.err")).contains("no_such_table"));
        Path statements = Files.writeString(tmp.resolve("q.sql"), q + ";\n");
        int notMineCount = 0;
        for (List<String> notMine : List.of(
                List.of("sql", "--warehouse", wh, "--file", statements.toString()),
                List.of("sql", "--warehouse", wh, "--remote", running.address(), q),
                List.of("sql", "--warehouse", wh, "--frmat", "csv", q),
                List.of("sql", "--warehouse", wh, "--format", "xml", q),
                List.of("sql", "--warehouse", wh),
                List.of("sql", "--help"),
                List.of("sql", "--warehouse", tmp.resolve("no-serve-here").toString(), q))) {
            String name = "not-mine-" + notMineCount++;
            assertEquals(
                    "",
                    run(MainProcess.localClientCommand(notMine.toArray(String[]::new)), name, 97),
                    notMine.toString());
            assertEquals("", Files.readString(tmp.resolve(name + ".err")), notMine.toString());
        }
        run(MainProcess.thinClientCommand("sql", "--warehouse", wh, "SELECT * FROM no_such_table"), "thin-error", 1);
        assertTrue(
                Files.readString(tmp.resolve("thin-error.err")).contains("no_such_table"),
                Files.readString(tmp.resolve("thin-error.err")));

        Process stop = MainProcess.startTo(
                tmp.resolve("stop.out"), tmp.resolve("stop.err"), "serve", "--stop", "--warehouse", wh);
        assertTrue(stop.waitFor(300, TimeUnit.SECONDS));
        assertEquals(0, stop.exitValue(), Files.readString(tmp.resolve("stop.err")));
        assertFalse(ProcessHandle.of(running.pid()).map(ProcessHandle::isAlive).orElse(false), "serve ended");
        assertFalse(Files.exists(warehouse.resolve("_serve/server")), "its announcement removed");
        assertFalse(Files.exists(warehouse.resolve("_serve/token")), "its token removed");
    }

    /** Runs a command line to its end; returns its standard output, after checking its exit code. */
    private String run(List<String> command, String name, int exitCode) throws Exception {
        Path out = tmp.resolve(name + ".out");
        Path err = tmp.resolve(name + ".err");
        ProcessBuilder pb =
                new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
        pb.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
        Process p = pb.start();
        assertTrue(p.waitFor(600, TimeUnit.SECONDS), name);
        assertEquals(exitCode, p.exitValue(), name + ": " + Files.readString(err));
        return Files.readString(out);
    }

    private String sql(String wh, String name, String... extra) throws Exception {
        List<String> args = new java.util.ArrayList<>(List.of("sql", "--warehouse", wh, "--format", "csv"));
        args.addAll(List.of(extra));
        args.add("SET spark.app.name");
        return run(MainProcess.command(args.toArray(String[]::new)), name, 0);
    }
}
