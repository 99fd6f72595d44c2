package org.tracelake.jobs.source;

import java.util.Map;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableProvider;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.sources.DataSourceRegister;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * Raw traces as a Spark table: {@code spark.read.format("tracelake").load("s3a://bucket/run/*.json.gz")} gives the
 * {@code events} schema from Kineto, Nsight, rocprof, XLA and XSpace files, each recognised by its content; option
 * {@code table} reads a side table instead ({@code iteration_telemetry}, {@code et_nodes}, {@code memory_events},
 * {@code memory_segments}) or {@code trace_files}, one row per file saying what became of it. One partition per
 * file, read on the executors with the same streaming readers tracelake's ingest uses (ingest reads through this
 * source too). A file that cannot be read contributes no rows, and its {@code trace_files} row says why.
 */
public final class TraceDataSource implements TableProvider, DataSourceRegister {
    @Override
    public String shortName() {
        return TraceSourceOptions.SHORT_NAME;
    }

    @Override
    public StructType inferSchema(CaseInsensitiveStringMap options) {
        return ReadPlan.of(options).schema();
    }

    @Override
    public Table getTable(StructType schema, Transform[] partitioning, Map<String, String> properties) {
        return new TraceTable(ReadPlan.of(new CaseInsensitiveStringMap(properties)));
    }
}
