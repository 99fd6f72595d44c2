package org.tracelake.jobs.source;

import java.util.List;
import org.apache.spark.sql.DataFrameReader;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.tracelake.jobs.readers.FileTask;

/** tracelake's own reads through the {@code tracelake} data source: files it planned, reports to a folder. */
public final class TraceSource {
    private TraceSource() {}

    /**
     * The rows of {@code table} from the given files, one partition per file.
     *
     * @param envelopes  for a multi-table reader: rows of all its tables as envelopes ({@code MultiTableRows}), read once
     * @param reportsDir where each file's report is left ({@link ReportSink#readAll} once the data was written)
     * @param etNodes    the et_nodes table whose ET sizes fill Kineto kernels without one, or null
     * @param rankSummariesDir for the events table: where each file's per-rank summaries are left, or null
     */
    public static Dataset<Row> read(
            SparkSession spark,
            List<FileTask> tasks,
            String table,
            boolean envelopes,
            String reportsDir,
            String etNodes,
            String rankSummariesDir) {
        DataFrameReader reader = spark.read()
                .format(TraceDataSource.class.getName())
                .option(TraceSourceOptions.TABLE, table)
                .option(TraceSourceOptions.TASKS, TraceSourceOptions.encodeTasks(tasks))
                .option(TraceSourceOptions.ENVELOPES, envelopes)
                .option(TraceSourceOptions.REPORTS_DIR, reportsDir);
        if (etNodes != null) reader = reader.option(TraceSourceOptions.ET_NODES, etNodes);
        if (rankSummariesDir != null) reader = reader.option(TraceSourceOptions.RANK_SUMMARIES_DIR, rankSummariesDir);
        return reader.load();
    }
}
