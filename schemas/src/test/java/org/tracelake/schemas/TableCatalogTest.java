package org.tracelake.schemas;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import org.apache.spark.sql.types.StructField;
import org.junit.jupiter.api.Test;

/** The table catalog names each table once, and the lists derived from it are what the stages write. */
class TableCatalogTest {
    @Test
    void everyTableOnce() {
        assertEquals(TableCatalog.TABLES.size(), new HashSet<>(Tables.ALL).size());
        for (String t : Tables.ALL) {
            TableCatalog.Table table = TableCatalog.of(t);
            assertNotNull(table, t);
            assertTrue(!table.doc().isBlank() && table.schema().size() > 0, t);
            if (table.perWorkload()) assertTrue(Tables.PER_WORKLOAD.contains(t), t);
        }
    }

    /** Every column of every table says what it means (its comment: the Iceberg column doc, what \d shows). */
    @Test
    void everyColumnSaysWhatItMeans() {
        for (TableCatalog.Table t : TableCatalog.TABLES) {
            for (StructField f : t.schema().fields()) {
                assertTrue(
                        f.getComment().isDefined() && !f.getComment().get().isBlank(),
                        t.name() + "." + f.name() + " has no comment");
            }
        }
    }

    @Test
    void whatEachStageWrites() {
        assertEquals(
                List.of(
                        Tables.WORKLOADS,
                        Tables.TRACE_FILES,
                        Tables.EVENTS,
                        Tables.MEMORY_EVENTS,
                        Tables.MEMORY_SEGMENTS,
                        Tables.ITERATION_TELEMETRY,
                        Tables.ET_NODES,
                        Tables.FLIGHT_RECORDER,
                        Tables.PROCESS_GROUP_STATUS),
                TableCatalog.perWorkload(TableCatalog.Stage.INGEST));
        assertEquals(
                List.of(
                        Tables.COLLECTIVES,
                        Tables.COLLECTIVE_MEMBERS,
                        Tables.COLLECTIVE_HANGS,
                        Tables.ALL_TO_ALL_PAIRS,
                        Tables.KERNEL_TOTALS,
                        Tables.FINDINGS,
                        Tables.METRICS),
                TableCatalog.perWorkload(TableCatalog.Stage.METRICS));
        assertEquals(List.of(), TableCatalog.perWorkload(TableCatalog.Stage.HISTORY));
    }
}
