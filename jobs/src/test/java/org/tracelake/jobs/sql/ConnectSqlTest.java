package org.tracelake.jobs.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.serve.ClientLoader;
import org.tracelake.jobs.testing.MainProcess;
import org.tracelake.jobs.testing.SharedSpark;
import org.tracelake.jobs.testing.TestArchive;

/**
 * The thin Spark Connect client of {@code sql --remote} against a real {@code tracelake serve}: for warehouse tables
 * (maps of more than 4 entries, arrays, timestamps), literals of every kind a cell prints differently, an empty
 * result, a temp view made by one statement and read by the next, and an error, it prints exactly what the Spark
 * Connect JVM client (in its class loader, as the prompt runs it) prints, in table, csv and json; and an address where
 * nobody listens is exit code 1 with one line saying so.
 */
class ConnectSqlTest {

    @TempDir
    Path tmp;

    private Process serve;

    @AfterEach
    void stop() throws InterruptedException {
        if (serve != null && serve.isAlive()) {
            serve.destroy();
            if (!serve.waitFor(60, TimeUnit.SECONDS)) serve.destroyForcibly();
        }
    }

    @Test
    void printsWhatTheJvmClientPrints() throws Exception {
        TestArchive archive = new TestArchive(tmp).generated("a", 2, 2, 1, 0);
        assertTrue(archive.refresh(SharedSpark.get()).allOk());
        Path stdout = tmp.resolve("serve.out");
        serve = MainProcess.startTo(
                stdout,
                tmp.resolve("serve.err"),
                "serve",
                "--warehouse",
                archive.warehouse.toString(),
                "--port",
                "0",
                "--master",
                "local[1]",
                "--conf",
                "spark.ui.enabled=false",
                "--conf",
                "spark.sql.shuffle.partitions=2",
                "--conf",
                "spark.tracelake.serve.warmupQueries=0"); // the warm-up is ServeTest's
        assertTrue(
                MainProcess.waitFor(
                        () -> MainProcess.serveAddress(stdout) != null || !serve.isAlive(), Duration.ofSeconds(300)),
                "serve never said where it listens");
        assertTrue(serve.isAlive(), "serve ended: " + Files.readString(tmp.resolve("serve.err")));
        String url = MainProcess.serveAddress(stdout);
        String token = MainProcess.serveToken(archive.warehouse);
        String jvmUrl = MainProcess.clientUrl(url, token);

        List<List<String>> cases = List.of(
                List.of("SELECT * FROM events ORDER BY source_file, ordinal LIMIT 25"),
                List.of("SELECT * FROM workloads ORDER BY workload"),
                List.of("SELECT * FROM runs ORDER BY 1"),
                List.of("SELECT * FROM metrics ORDER BY workload, metric, figure, scope, rank, step, key LIMIT 40"),
                List.of("SELECT metric, figure, unit FROM metric_reference ORDER BY metric, figure LIMIT 7"),
                List.of("SELECT busbw_factor('all_reduce', 4) AS f, kernel_category('comm', 'x') AS k"),
                List.of("SELECT 1Y AS b, 2S AS s, 3 AS i, 4L AS l, 1.25F AS f, 1e-7D AS d, 87.412863D AS e,"
                        + " 12.340BD AS dec, true AS t, NULL AS n, 'a,\"b\"' AS q, DATE'2026-11-27' AS day,"
                        + " TIMESTAMP'2026-11-27 10:54:58.123456' AS ts, TIMESTAMP_NTZ'2026-11-27 10:54:58' AS ntz,"
                        + " array(1.5D, NULL) AS arr, array(array(1, 2)) AS nested,"
                        + " map('k1', 1, 'k2', 2, 'k3', 3, 'k4', 4, 'k5', 5, 'k6', 6) AS m6, map(1, 'a') AS m1,"
                        + " named_struct('x', 1, 'y', array('z')) AS st"),
                List.of("SELECT * FROM events WHERE rank = -99"),
                List.of("CREATE TEMP VIEW w AS SELECT 1 AS a", "SELECT * FROM w"),
                List.of("SELECT * FROM no_such_table"));
        for (List<String> statements : cases) {
            for (ResultPrinter.Format format : ResultPrinter.Format.values()) {
                Output thin = new Output();
                int thinCode = ConnectSql.run(url, token, statements, format, 30, thin.out, thin.err);
                Output jvm = new Output();
                int jvmCode = ClientLoader.runSql(jvmUrl, statements, format.name(), 30, null, false, jvm.out, jvm.err);
                String what = format + " " + statements;
                assertEquals(jvm.out(), thin.out(), what);
                assertEquals(jvm.err(), thin.err(), what);
                assertEquals(jvmCode, thinCode, what);
            }
        }

        // worked out by hand: busbw_factor(all_reduce, 4) = 2(n-1)/n = 1.5; 'comm' is its own kernel category
        Output csv = new Output();
        assertEquals(
                0,
                ConnectSql.run(
                        url,
                        token,
                        List.of("SELECT busbw_factor('all_reduce', 4) AS f, kernel_category('comm', 'x') AS k"),
                        ResultPrinter.Format.CSV,
                        10,
                        csv.out,
                        csv.err));
        assertEquals("f,k\n1.5,comm\n", csv.out());
    }

    @Test
    void anAddressWhereNobodyListensIsOneLine() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort(); // free once closed
        }
        Output o = new Output();
        String url = "sc://127.0.0.1:" + port;
        assertEquals(1, ConnectSql.run(url, null, List.of("SELECT 1"), ResultPrinter.Format.TABLE, 10, o.out, o.err));
        assertEquals("", o.out());
        List<String> lines = o.err().lines().toList();
        assertEquals(1, lines.size(), o.err());
        assertTrue(lines.get(0).startsWith("cannot reach " + url + ": "), lines.get(0));
        assertTrue(lines.get(0).endsWith("(is `tracelake serve` running there?)"), lines.get(0));
    }

    @Test
    void onlyAPlainAddressIsTaken() {
        assertTrue(ConnectSql.handles("sc://localhost:15002"));
        assertTrue(ConnectSql.handles("sc://127.0.0.1:15002/"));
        assertTrue(!ConnectSql.handles("sc://localhost:15002/;token=abc"), "sql --remote takes the token apart");
        assertTrue(!ConnectSql.handles("sc://localhost:15002/;use_ssl=true"), "TLS is the JVM client's");
        assertTrue(!ConnectSql.handles("http://localhost:15002"));
    }

    /** Standard output and error of one client run. */
    private static final class Output {
        final ByteArrayOutputStream o = new ByteArrayOutputStream();
        final ByteArrayOutputStream e = new ByteArrayOutputStream();
        final PrintStream out = new PrintStream(o, true, StandardCharsets.UTF_8);
        final PrintStream err = new PrintStream(e, true, StandardCharsets.UTF_8);

        String out() {
            return o.toString(StandardCharsets.UTF_8);
        }

        String err() {
            return e.toString(StandardCharsets.UTF_8);
        }
    }
}
