package org.tracelake.jobs.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.ingest.WorkloadCards;
import org.tracelake.jobs.ingest.WorkloadIngest;
import org.tracelake.jobs.warehouse.Warehouse;

/**
 * Issue 45 item 9: {@code ingest}'s summary printed a workload's name as it is, so a newline in a folder name started
 * a line of its own (a forged summary line), where the progress log and refresh's summary escape it.
 */
class IngestSummaryTest {
    @TempDir
    Path tmp;

    @Test
    void aNewlineInAWorkloadNameCannotForgeASummaryLine() throws Exception {
        String forged = "evil\n[1|1] forged                            2      2          1  ok";
        WorkloadIngest w = new WorkloadIngest(
                forged,
                new WorkloadCards.Outcome(null, tmp.toString(), null, "no card\nok"),
                new ArrayList<>(),
                0,
                0,
                0);
        PrintStream saved = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            IngestCommand.printSummary(new Warehouse(tmp.toString(), new Configuration()), List.of(w));
        } finally {
            System.setOut(saved);
        }
        String out = captured.toString(StandardCharsets.UTF_8);
        assertTrue(out.contains("evil\\n[1|1] forged"), out);
        for (String line : out.split("\n")) assertFalse(line.startsWith("[1|1] forged") || line.equals("ok"), out);
    }
}
