package org.tracelake.jobs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.tracelake.jobs.refresh.Refresh;
import org.tracelake.jobs.sql.SampleWarehouse;
import org.tracelake.jobs.testing.SharedSpark;
import org.tracelake.jobs.warehouse.WarehouseTables;

/**
 * Issue 42 item 6: the summary the README's quick start shows is the one a first refresh of data/ prints, digit for
 * digit (the run id written as "…"), from the count line to the legend; after it come the tables that exist (18 of
 * the 21: a first refresh cannot fill regressions, regression_kernels or all_to_all_pairs) and where the exports are.
 */
class ReadmeQuickStartTest {
    @Test
    void readmeShowsTheSummaryAFirstRefreshPrints() throws Exception {
        SparkSession spark = SharedSpark.get();
        Refresh.Result run = SampleWarehouse.firstRun();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream stdout = System.out;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            RunSummary.print(new WarehouseTables(spark, SampleWarehouse.warehouse(spark)), run);
        } finally {
            System.setOut(stdout);
        }
        List<String> printed = new ArrayList<>(out.toString(StandardCharsets.UTF_8)
                .replace(run.runId(), "…")
                .lines()
                .toList());
        while (printed.get(0).isBlank()) printed.remove(0);
        int tables = 0;
        while (!printed.get(tables).contains(" tables under ")) tables++;
        String tablesLine = printed.get(tables);
        assertTrue(tablesLine.startsWith("18 tables under "), tablesLine);
        assertTrue(
                !tablesLine.contains("regressions")
                        && !tablesLine.contains("regression_kernels")
                        && !tablesLine.contains("all_to_all_pairs"),
                tablesLine);
        List<String> summary = new ArrayList<>(printed.subList(0, tables));
        while (summary.get(summary.size() - 1).isBlank()) summary.remove(summary.size() - 1);

        String readme = Files.readString(SampleWarehouse.projectHome().resolve("README.md"));
        int block = readme.indexOf("```text\nrun …:");
        assertTrue(block >= 0, "the README's quick start shows the summary in a text block");
        String shown = readme.substring(block + "```text\n".length(), readme.indexOf("```", block + 7));
        assertEquals(String.join("\n", summary), shown.stripTrailing(), "README.md's quick-start summary");
    }
}
