package org.tracelake.jobs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.Main;

/**
 * Issue 29 item 11: every usage error exits 2 with one line naming the option and what it takes, before anything is
 * read (no Spark starts for any of these: each returns in well under the bound).
 */
class UsageExitCodesTest {
    @TempDir
    Path tmp;

    private record Outcome(int code, String err) {}

    private Outcome run(String... args) {
        return assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            PrintStream saved = System.err;
            ByteArrayOutputStream captured = new ByteArrayOutputStream();
            System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
            try {
                int code = Main.run(args);
                return new Outcome(code, captured.toString(StandardCharsets.UTF_8));
            } finally {
                System.setErr(saved);
            }
        });
    }

    private void assertUsage(String[] args, String... fragments) {
        Outcome o = run(args);
        assertEquals(ExitCodes.USAGE, o.code(), () -> String.join(" ", args) + " -> " + o.err());
        String line = o.err().strip();
        assertFalse(line.contains("\n"), () -> "one line, got: " + line);
        assertFalse(line.contains("Exception"), () -> "no exception class names: " + line);
        for (String f : fragments) assertTrue(line.contains(f), () -> "'" + line + "' lacks '" + f + "'");
    }

    private String[] refresh(String... more) {
        String[] base = {
            "refresh",
            "-a",
            tmp.resolve("archive").toString(),
            "-w",
            tmp.resolve("wh").toString()
        };
        String[] all = new String[base.length + more.length];
        System.arraycopy(base, 0, all, 0, base.length);
        System.arraycopy(more, 0, all, base.length, more.length);
        return all;
    }

    @Test
    void parseErrorsExit2WithOneLine() {
        assertUsage(new String[] {"refresh", "--fulll"}, "unknown option '--fulll'", "did you mean --full?");
        // issue 42 item 6: the misspelt option alone, and the one it resembles (not "'--frmat', 'SELECT', '1'")
        Outcome typo = run("sql", "--frmat", "json", "SELECT 1");
        assertEquals(ExitCodes.USAGE, typo.code(), typo.err());
        assertEquals(
                "tracelake sql: unknown option '--frmat'; did you mean --format? (see tracelake sql --help)",
                typo.err().strip());
        assertUsage(new String[] {"refresh", "--archive"}, "--archive", "URI");
        assertUsage(new String[] {"frobnicate"}, "unknown command 'frobnicate'", "refresh");
        assertUsage(new String[] {"generate"}, "--out", "DIR");
        assertUsage(new String[] {"generate", "-o", tmp.toString(), "--ranks", "many"}, "--ranks", "many");
        assertUsage(new String[] {"refresh", "--conf", "novalue"}, "--conf", "KEY=VALUE");
        // issue 41: the generator's GEMM scale, and what --against-run goes with
        assertUsage(
                new String[] {"generate", "-o", tmp.toString(), "--gemm-scale", "0"},
                "--gemm-scale: takes a number above 0",
                "not 0");
        assertUsage(new String[] {"generate", "-o", tmp.toString(), "--gemm-scale", "-1.1"}, "--gemm-scale", "-1.1");
        assertUsage(new String[] {"report", "--against-run", "r1"}, "--against-run RUN goes with --workload W alone");
        assertUsage(
                new String[] {"report", "--workload", "w", "--against-run", "r1", "--html"},
                "--against-run RUN goes with --workload W alone");
    }

    @Test
    void badSettingsExit2NamingTheKey() throws IOException {
        assertUsage(
                refresh("--conf", "spark.tracelake.lockStaleAfterHours=9223372036854775807"),
                "spark.tracelake.lockStaleAfterHours=9223372036854775807",
                "at most");
        assertUsage(
                refresh("--conf", "spark.tracelake.lockStaleAfterHours=two"),
                "spark.tracelake.lockStaleAfterHours=two");
        assertUsage(
                refresh("--conf", "spark.tracelake.regressionThreshold=Infinity"),
                "regressionThreshold=Infinity",
                "finite");
        assertUsage(
                refresh("--conf", "spark.tracelake.regressionThreshold=1e400"), "regressionThreshold=1e400", "finite");
        assertUsage(refresh("--conf", "spark.tracelake.gzip.maxExpansionRatio=NaN"), "maxExpansionRatio=NaN");
        assertUsage(refresh("--conf", "spark.tracelake.metrics.codegen=yes"), "takes true or false");
        assertUsage(
                refresh("--conf", "spark.tracelake.regresionThreshold=0.1"),
                "spark.tracelake.regresionThreshold: no such tracelake setting",
                "spark.tracelake.regressionThreshold");
        Path noCommas = Files.writeString(tmp.resolve("peaks.csv"), "H100 989\n");
        assertUsage(
                refresh("--conf", "spark.tracelake.devicePeakFlops=" + noCommas),
                "devicePeakFlops",
                "line 1",
                "pattern,peak_tflops");
        Path badNumber = Files.writeString(tmp.resolve("peaks2.csv"), "pattern,peak_tflops,note\nH100,lots,x\n");
        assertUsage(
                refresh("--conf", "spark.tracelake.devicePeakFlops=" + badNumber), "line 2", "'lots' is not a number");
        assertUsage(refresh("--conf", "spark.tracelake.devicePeakFlops=/dev/zero"), "/dev/zero is not a regular file");
        assertUsage(refresh("--conf", "spark.tracelake.devicePeakFlops=" + tmp.resolve("missing.csv")), "no such file");
        Path badBandwidth =
                Files.writeString(tmp.resolve("links.csv"), "pattern,bw_gbps_per_direction,note\nA100,-300,x\n");
        assertUsage(
                refresh("--conf", "spark.tracelake.deviceInterconnectBw=" + badBandwidth),
                "deviceInterconnectBw",
                "line 2",
                "bw_gbps_per_direction must be a positive finite number");
        assertUsage(
                refresh("--conf", "spark.tracelake.deviceInterconnectBw=/dev/zero"), "/dev/zero is not a regular file");
        assertFalse(Files.exists(tmp.resolve("wh")), "nothing was written: the check comes before the lock");
    }

    @Test
    void aWarehousePathThatIsAFileExits2() throws IOException {
        Path file = Files.writeString(tmp.resolve("wh-file"), "x");
        for (String command : new String[] {"refresh", "ingest"}) {
            assertUsage(
                    new String[] {command, "-a", tmp.toString(), "-w", file.toString()},
                    "--warehouse",
                    "is a file",
                    "folder");
        }
    }

    /** report --trace's options (issue 30): what goes with what, and a window that is no window. */
    @Test
    void reportTraceOptionsExit2() {
        assertUsage(new String[] {"report", "--window", "1:2"}, "--window goes with --trace");
        assertUsage(new String[] {"report", "--trace", "w", "--html"}, "--trace takes one workload");
        assertUsage(
                new String[] {"report", "--trace", "w", "--step", "3", "--window", "1:2"}, "--step N or --window A:B");
        assertUsage(new String[] {"report", "--trace", "w", "--window", "5:1"}, "--window takes A:B", "'5:1'");
        assertUsage(new String[] {"report", "--trace", "w", "--window", "soon"}, "--window takes A:B", "'soon'");
        assertUsage(new String[] {"report", "--trace", "w", "--max-events", "0"}, "--max-events must be at least 1");
        assertUsage(
                new String[] {"report", "--compare", "a", "b", "--step", "3"},
                "--step goes with --workload, --html or --trace");
    }

    /**
     * A warehouse of the previous release (Parquet files in a table folder, no Iceberg metadata) is refused by every
     * command but migrate, before the lock and Spark: exit 2 and one line naming the command and migrate.
     */
    @Test
    void aWarehouseOfThePreviousReleaseIsRefusedByEveryCommandButMigrate() throws IOException {
        Path wh = tmp.resolve("previous");
        Files.createDirectories(wh.resolve("runs"));
        Files.write(wh.resolve("runs/part-00000-0.snappy.parquet"), new byte[0]);
        String w = wh.toString();
        for (String[] args : new String[][] {
            {"serve", "-w", w},
            {"report", "--workload", "x", "-w", w},
            {"maintain", "-w", w},
            {"sql", "-w", w, "-e", "select 1"}
        }) {
            assertUsage(
                    args,
                    "tracelake " + args[0] + ": this warehouse has the previous release's layout:",
                    "run `tracelake migrate --warehouse " + w + "` once (it keeps metrics_history and runs)");
        }
    }
}
