package org.tracelake.jobs.source;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.expressions.Expressions;
import org.apache.spark.sql.connector.expressions.SortDirection;
import org.apache.spark.sql.connector.expressions.SortOrder;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.SupportsReportOrdering;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import org.tracelake.jobs.readers.FileTask;
import org.tracelake.jobs.readers.et.EtSizes;
import org.tracelake.jobs.spark.SerializableConf;
import org.tracelake.jobs.warehouse.TableLocation;
import org.tracelake.schemas.Tables;

/**
 * One batch scan: a partition per file, the largest first so that a big file does not start last and hold up the
 * whole job while the other cores idle.
 */
final class TraceScan implements Scan, Batch, SupportsReportOrdering {
    private final ReadPlan plan;
    private final CaseInsensitiveStringMap options;

    TraceScan(ReadPlan plan, CaseInsensitiveStringMap options) {
        this.plan = plan;
        this.options = options;
    }

    @Override
    public StructType readSchema() {
        return plan.schema();
    }

    @Override
    public String description() {
        return "tracelake " + plan.table();
    }

    /**
     * Every partition is sorted by workload: a partition is one file, and a file belongs to one workload. Said to
     * Spark, it spares a write partitioned by workload (every ingest) its sort of the rows: that sort copied every
     * event into the sorter's pages and, for a 5 GB trace, spilled and then ran out of a 1 GB heap merging the spills.
     */
    @Override
    public SortOrder[] outputOrdering() {
        if (!Arrays.asList(plan.schema().fieldNames()).contains(Tables.PARTITION_COLUMN)) return new SortOrder[0];
        return new SortOrder[] {Expressions.sort(Expressions.column(Tables.PARTITION_COLUMN), SortDirection.ASCENDING)};
    }

    @Override
    public Batch toBatch() {
        return this;
    }

    @Override
    public InputPartition[] planInputPartitions() {
        List<FileTask> tasks = new ArrayList<>(SourceFiles.plan(options, hadoopConf()));
        tasks.sort(Comparator.comparingLong(FileTask::sizeBytes).reversed().thenComparing(FileTask::path));
        InputPartition[] partitions = new InputPartition[tasks.size()];
        for (int i = 0; i < partitions.length; i++) partitions[i] = new FilePartition(tasks.get(i));
        return partitions;
    }

    @Override
    public PartitionReaderFactory createReaderFactory() {
        Configuration conf = hadoopConf();
        String etNodes = options.get(TraceSourceOptions.ET_NODES);
        if (etNodes != null) {
            conf = new Configuration(conf);
            conf.set(EtSizes.ET_NODES, etNodes);
            // a warehouse's et_nodes is an Iceberg table: its live files, listed here once, not its folder's partitions
            Map<String, List<String>> live = TableLocation.liveDataFiles(etNodes, conf);
            if (live != null) conf.set(EtSizes.ET_NODE_FILES, EtSizes.fileList(live));
        }
        return new TraceReaderFactory(plan, new SerializableConf(conf));
    }

    private static Configuration hadoopConf() {
        return SparkSession.active().sparkContext().hadoopConfiguration();
    }

    /** One input file. */
    record FilePartition(FileTask task) implements InputPartition {}
}
