package org.tracelake.jobs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.expressions.GenericRowWithSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.ingest.WorkloadCards;
import org.tracelake.jobs.ingest.WorkloadIngest;
import org.tracelake.jobs.readers.FileReport;
import org.tracelake.jobs.readers.FileTask;
import org.tracelake.jobs.readers.InputLimits;
import org.tracelake.jobs.readers.TraceFormat;
import org.tracelake.jobs.refresh.History;
import org.tracelake.jobs.refresh.Refresh;
import org.tracelake.jobs.warehouse.Warehouse;
import org.tracelake.jobs.warehouse.WarehouseTables;
import org.tracelake.schemas.RunSchema;

/**
 * The run summary says what moved since each workload's previous run in one line per workload, not one per metric,
 * and only from the rows the driver was given: a refresh that flags more than {@link History#REGRESSIONS_SHOWN} rows
 * says how many it left out and where they are.
 */
class RunSummaryTest {
    @TempDir
    Path dir;

    private static Row row(
            String workload, String metric, String figure, String rule, String verdict, Object... comparison) {
        Object[] v = new Object[RunSchema.REGRESSIONS.size()];
        // run_id .. threshold, rule, verdict; then the comparison columns in schema order from noise on
        Object[] head = {"run", workload, metric, figure, null, "previous", 100.0, 150.0, 0.5, 0.1, rule, verdict};
        System.arraycopy(head, 0, v, 0, head.length);
        System.arraycopy(comparison, 0, v, head.length, comparison.length);
        return new GenericRowWithSchema(v, RunSchema.REGRESSIONS);
    }

    /**
     * 60 rows flagged, 50 came back: w00's step verdict (+10 % step, noise 2 %, +1.5 ms of which compute +1.4 ms, its
     * top kernel gemm +1.4 ms) and two threshold rows of it (one worse, one better), w01's neutral verdict alone, and 46
     * threshold rows of w02..w47 (worse). Lines: w00 with its verdict and part and kernel, w02..w47 one line each, w01
     * counted among the workloads that held; then the 10 rows left out.
     */
    @Test
    void oneLinePerWorkloadWithItsVerdictPartAndKernel() throws Exception {
        List<Row> shown = new ArrayList<>();
        shown.add(row(
                "w00",
                "iter_time",
                "avg_ms",
                "step_verdict",
                "regression_likely",
                0.02,
                "worse",
                0.10,
                1.5,
                1.4,
                0.05,
                0.0,
                0.05,
                0.0,
                "sm90_gemm_bf16",
                1.4));
        shown.add(row("w01", "iter_time", "avg_ms", "step_verdict", "neutral", 0.02, "worse", 0.005, 0.05));
        shown.add(row("w00", "comm_time_s", null, "threshold", "inconclusive", null, "worse"));
        shown.add(row("w00", "busbw_gbps", null, "threshold", "inconclusive", null, "better"));
        for (int i = 2; i < 48; i++) {
            shown.add(row(
                    String.format(Locale.ROOT, "w%02d", i),
                    "comm_time_s",
                    null,
                    "threshold",
                    "inconclusive",
                    null,
                    "worse"));
        }
        assertEquals(History.REGRESSIONS_SHOWN, shown.size());
        Refresh.Result run = new Refresh.Result(
                "run", List.of(), List.of(), List.of(), new History.Regressions(60, shown), List.of());
        String text = summary(new Warehouse(dir.toString(), new Configuration()), run);
        assertTrue(
                text.contains("since each workload's previous run (step-time verdict; figures moved more than 0.1):"),
                text);
        String w00 = text.lines().filter(l -> l.startsWith("  w00")).findFirst().orElseThrow();
        assertTrue(w00.contains("regression_likely"), w00);
        assertTrue(w00.contains("step +10.0% (noise 2.0%)"), w00);
        assertTrue(w00.contains("most: compute +1.400 ms"), w00);
        assertTrue(w00.contains("kernel sm90_gemm_bf16 +1.400 ms"), w00);
        assertTrue(w00.contains("2 figures past the threshold (1 worse, 1 better)"), w00);
        assertEquals(
                46,
                text.lines()
                        .filter(l -> l.contains("1 figure past the threshold (1 worse, 0 better)"))
                        .count(),
                text);
        assertTrue(text.contains("  1 held their step time (neutral): w01"), text);
        assertTrue(text.contains("  ... and 10 more rows: the regressions table, or report --history"), text);
    }

    /**
     * Two failed workloads (issue 30): "old" has live events from an earlier run, "new" has none. Each holds its card,
     * a README no reader claims (skipped, no format) and one trace that failed, so the traces column says 1, and only
     * "old" (refreshed once before) may say its previous tables were kept. The count line says "0 workloads refreshed", and with one
     * workload that committed, "1 workload".
     */
    @Test
    void countsTraceFilesAndSaysKeptOnlyWhenThereWereTables() throws Exception {
        // "old" was refreshed once for real, so its events are in the events table's manifests
        org.tracelake.jobs.testing.TestArchive archive =
                new org.tracelake.jobs.testing.TestArchive(dir).generated("old", 2, 2, -1, 0);
        archive.refresh(org.tracelake.jobs.testing.SharedSpark.get());
        Warehouse warehouse = new Warehouse(archive.warehouse.toString(), new Configuration());
        List<WorkloadIngest> failed = List.of(failedWorkload("new"), failedWorkload("old"));
        String text = summary(
                warehouse,
                new Refresh.Result("run", failed, List.of(), List.of(), History.Regressions.NONE, List.of()));
        assertTrue(text.contains("run run: 0 workloads refreshed, 0 unchanged (not read), 2 failed, 0 removed"), text);
        String oldLine =
                text.lines().filter(l -> l.startsWith("old ")).findFirst().orElseThrow();
        String newLine =
                text.lines().filter(l -> l.startsWith("new ")).findFirst().orElseThrow();
        assertTrue(oldLine.contains("FAILED (previous tables kept): "), oldLine);
        assertTrue(newLine.contains("FAILED (nothing committed: no previous tables): "), newLine);
        assertFalse(newLine.contains("previous tables kept"), newLine);
        // workload, traces, ranks, events: the card and the README are not traces
        for (String line : List.of(oldLine, newLine)) {
            assertEquals(List.of("1", "0", "0"), List.of(line.split("\\s+")).subList(1, 4), line);
        }
        assertEquals(1, RunSummary.traceFiles(failed.get(0)));
    }

    @Test
    void oneWorkloadIsSingular() {
        assertEquals("1 workload", org.tracelake.jobs.report.ReportFormatting.count(1, "workload"));
        assertEquals("0 workloads", org.tracelake.jobs.report.ReportFormatting.count(0, "workload"));
        assertEquals("1,200 files", org.tracelake.jobs.report.ReportFormatting.count(1200, "file"));
        assertEquals("6 kernel categories", org.tracelake.jobs.report.ReportFormatting.count(6, "kernel category"));
        assertEquals("2 days", org.tracelake.jobs.report.ReportFormatting.count(2, "day"));
    }

    /** A workload with its card, a skipped README and a trace that failed with no events: nothing to commit. */
    private static WorkloadIngest failedWorkload(String name) {
        FileReport card = new FileReport(task(name, name + ".yaml", TraceFormat.WORKLOAD_CARD));
        FileReport readme = FileReport.skipped(task(name, "README.md", null), "not a trace: a text file");
        FileReport trace = new FileReport(task(name, "rank0_trace.json", TraceFormat.KINETO));
        trace.fail("truncated JSON: the file ends inside traceEvents");
        return new WorkloadIngest(
                name,
                new WorkloadCards.Outcome(null, name + ".yaml", "hash", null),
                List.of(card, readme, trace),
                100,
                0,
                1);
    }

    private static FileTask task(String workload, String file, TraceFormat format) {
        return new FileTask(
                workload, "file:/archive/" + workload + "/" + file, 10, 0, format, 0, InputLimits.defaults(), "run");
    }

    private static String summary(Warehouse warehouse, Refresh.Result run) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream stdout = System.out;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            RunSummary.print(
                    new WarehouseTables(org.tracelake.jobs.testing.SharedSpark.get(), warehouse),
                    run); // no workload committed: no headline rows to read, no Spark
        } finally {
            System.setOut(stdout);
        }
        return out.toString(StandardCharsets.UTF_8);
    }
}
