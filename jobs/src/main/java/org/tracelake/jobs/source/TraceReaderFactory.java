package org.tracelake.jobs.source;

import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.tracelake.jobs.spark.SerializableConf;

/** Shipped to the executors: opens a {@link FileReader} per file partition. */
final class TraceReaderFactory implements PartitionReaderFactory {
    private final ReadPlan plan;
    private final SerializableConf conf;

    TraceReaderFactory(ReadPlan plan, SerializableConf conf) {
        this.plan = plan;
        this.conf = conf;
    }

    @Override
    public PartitionReader<InternalRow> createReader(InputPartition partition) {
        return new FileReader(((TraceScan.FilePartition) partition).task(), plan, conf.get());
    }
}
