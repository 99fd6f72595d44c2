package org.tracelake.jobs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.expressions.GenericRowWithSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.refresh.History;
import org.tracelake.jobs.refresh.Refresh;
import org.tracelake.jobs.warehouse.Warehouse;
import org.tracelake.schemas.RunSchema;

/**
 * The run summary lists the metrics that moved, but only the rows the driver was given: a refresh that flags more
 * than {@link History#REGRESSIONS_SHOWN} says how many it left out and where they are. Here 60 moved, 50 came back:
 * each from 100 to 150, +50 %.
 */
class RunSummaryTest {
    @TempDir Path dir;

    @Test
    void saysHowManyRegressionsItLeftOut() throws Exception {
        List<Row> shown = new ArrayList<>();
        for (int i = 0; i < History.REGRESSIONS_SHOWN; i++) {
            shown.add(new GenericRowWithSchema(new Object[] {"run", String.format("w%02d", i), "avg_step_time", "mean_ms", null,
                    "previous", 100.0, 150.0, 0.5, 0.1}, RunSchema.REGRESSIONS));
        }
        Refresh.Result run = new Refresh.Result("run", List.of(), List.of(), List.of(),
                new History.Regressions(60, shown), List.of());
        Warehouse warehouse = new Warehouse(dir.toString(), new Configuration());

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream stdout = System.out;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            RunSummary.print(null, warehouse, run); // no workload was read: the summary needs no Spark
        } finally {
            System.setOut(stdout);
        }
        String text = out.toString(StandardCharsets.UTF_8);
        assertTrue(text.contains("metrics that moved more than 0.1 since the previous run:"), text);
        assertEquals(History.REGRESSIONS_SHOWN, text.lines().filter(l -> l.contains("avg_step_time.mean_ms")).count(), text);
        assertTrue(text.contains("(+50.0%)"), text);
        assertTrue(text.contains("  ... and 10 more: the regressions table, or report --history"), text);
    }
}
