package org.tracelake.jobs.source;

import java.io.Serializable;
import java.util.List;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import org.tracelake.jobs.readers.ReaderRegistry;
import org.tracelake.schemas.Tables;
import org.tracelake.schemas.TraceFileSchema;

/**
 * What one read of the source produces, decided from its options on the driver and shipped to the executors: the
 * table asked for, the reader group that writes it (a multi-table reader's files are read once per group), and
 * which rows of that group are kept.
 *
 * @param table        the table asked for ({@code events}, a side table, or {@code trace_files})
 * @param readerTable  the reader group's table, as {@link ReaderRegistry.Entry#table()} names it (null: any)
 * @param output       which output of a multi-table reader is kept (-1: every row as it comes)
 * @param width        the kept output's column count (to unwrap it from its envelope)
 * @param reportsDir   where file reports go, or null
 */
record ReadPlan(String table, String readerTable, int output, int width, String reportsDir) implements Serializable {

    static ReadPlan of(CaseInsensitiveStringMap options) {
        String table = TraceSourceOptions.table(options);
        String reportsDir = options.get(TraceSourceOptions.REPORTS_DIR);
        if (table.equals(Tables.TRACE_FILES)) return new ReadPlan(table, null, -1, 0, reportsDir);
        ReaderRegistry.Entry entry = ReaderRegistry.entryWriting(table);
        if (entry == null) {
            throw new IllegalArgumentException("option table: no reader writes " + table + "; one of "
                    + String.join(", ", ReaderRegistry.tables()) + ", " + Tables.TRACE_FILES);
        }
        List<ReaderRegistry.Output> outputs = entry.outputs();
        if (!entry.multiTable()) return new ReadPlan(table, entry.table(), -1, 0, reportsDir);
        for (int i = 0; i < outputs.size(); i++) {
            if (outputs.get(i).table().equals(table)) {
                return new ReadPlan(
                        table, entry.table(), i, outputs.get(i).schema().size(), reportsDir);
            }
        }
        throw new IllegalStateException("registry entry of " + table + " does not list it");
    }

    boolean readsTraceFiles() {
        return table.equals(Tables.TRACE_FILES);
    }

    StructType schema() {
        if (readsTraceFiles()) return TraceFileSchema.SCHEMA;
        List<ReaderRegistry.Output> outputs = ReaderRegistry.outputsOf(readerTable);
        return output >= 0 ? outputs.get(output).schema() : outputs.get(0).schema();
    }
}
