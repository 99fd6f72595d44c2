package org.tracelake.jobs.source;

import java.util.List;
import org.apache.spark.sql.DataFrameReader;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.tracelake.jobs.readers.FileTask;

/**
 * A read through the {@code tracelake} data source of files the caller planned (each {@link FileTask} says its
 * workload and format), each file's report left in a folder: how tests read files exactly as ingest's readers do.
 */
public final class TraceSource {
    private TraceSource() {}

    /**
     * The rows of {@code table} from the given files, one partition per file.
     *
     * @param reportsDir where each file's report is left ({@link ReportSink#readAll} once the data was written)
     * @param etNodes    the et_nodes table whose ET sizes fill Kineto kernels without one, or null
     */
    public static Dataset<Row> read(
            SparkSession spark, List<FileTask> tasks, String table, String reportsDir, String etNodes) {
        DataFrameReader reader = spark.read()
                .format(TraceDataSource.class.getName())
                .option(TraceSourceOptions.TABLE, table)
                .option(TraceSourceOptions.TASKS, TraceSourceOptions.encodeTasks(tasks))
                .option(TraceSourceOptions.REPORTS_DIR, reportsDir);
        if (etNodes != null) reader = reader.option(TraceSourceOptions.ET_NODES, etNodes);
        return reader.load();
    }
}
