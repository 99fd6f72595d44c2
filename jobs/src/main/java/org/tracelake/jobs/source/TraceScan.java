package org.tracelake.jobs.source;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import org.tracelake.jobs.ingest.SerializableConf;
import org.tracelake.jobs.readers.FileTask;

/**
 * One batch scan: a partition per file, the largest first so that a big file does not start last and hold up the
 * whole job while the other cores idle.
 */
final class TraceScan implements Scan, Batch {
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
        return new TraceReaderFactory(plan, new SerializableConf(hadoopConf()));
    }

    private static Configuration hadoopConf() {
        return SparkSession.active().sparkContext().hadoopConfiguration();
    }

    /** One input file. */
    record FilePartition(FileTask task) implements InputPartition {}
}
