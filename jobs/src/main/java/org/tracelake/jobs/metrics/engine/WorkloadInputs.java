package org.tracelake.jobs.metrics.engine;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.CatalystTypeConverters;
import org.apache.spark.sql.types.StructType;
import org.tracelake.jobs.rank.Blobs;
import scala.Function1;
import scala.Tuple2;

/**
 * The workload step's inputs as pairs (workload, input), taken from each Dataset's internal rows: the step is plain
 * Java, so its inputs go through Spark's RDD shuffle, not a typed Dataset. A typed {@code map} or {@code groupByKey}
 * makes Spark compile Java for every (de)serializer of the plan (Janino, whatever {@code codegen.factoryMode} says:
 * {@code ObjectOperator} and the row joiner of {@code groupByKey} have no interpreted form), which on a small archive
 * was most of the metrics phase's compile work.
 */
final class WorkloadInputs {
    private WorkloadInputs() {}

    /** One input of a workload: its kind ({@link WorkloadInput}) and its Java value, serialised. */
    record Input(String kind, byte[] blob) implements Serializable {}

    /** Turns one row (as an external {@link Row}) into a workload's input. */
    interface Convert extends Serializable {
        Tuple2<String, Input> apply(Row row);
    }

    /** Rows already in {@link WorkloadInput#SCHEMA}. */
    static JavaPairRDD<String, Input> inSchema(Dataset<Row> rows) {
        return rows.queryExecution()
                .toRdd()
                .toJavaRDD()
                .mapToPair(r -> new Tuple2<>(
                        r.getUTF8String(0).toString(),
                        new Input(r.getUTF8String(1).toString(), r.getBinary(2))));
    }

    /** Turns a partition's rows, in their order, into workload inputs. */
    interface ConvertPartition extends Serializable {
        Iterator<Tuple2<String, Input>> apply(Iterator<Row> rows);
    }

    /** Any rows, each converted by {@code convert} (the row converted from Spark's internal form, interpreted). */
    static JavaPairRDD<String, Input> of(Dataset<Row> rows, Convert convert) {
        return ofPartitions(rows, it -> {
            List<Tuple2<String, Input>> out = new ArrayList<>();
            while (it.hasNext()) out.add(convert.apply(it.next()));
            return out.iterator();
        });
    }

    /**
     * Any rows, each partition's converted by {@code convert}, in the partition's order (a sort within partitions
     * holds): each row converted from Spark's internal form as the partition streams by, interpreted.
     */
    static JavaPairRDD<String, Input> ofPartitions(Dataset<Row> rows, ConvertPartition convert) {
        StructType schema = rows.schema();
        return rows.queryExecution().toRdd().toJavaRDD().mapPartitionsToPair(it -> {
            Function1<Object, Object> toRow = CatalystTypeConverters.createToScalaConverter(schema);
            return convert.apply(new Iterator<Row>() {
                @Override
                public boolean hasNext() {
                    return it.hasNext();
                }

                @Override
                public Row next() {
                    return (Row) toRow.apply(it.next());
                }
            });
        });
    }

    static Tuple2<String, Input> pair(String workload, String kind, Serializable value) {
        return new Tuple2<>(workload, new Input(kind, Blobs.write(value)));
    }
}
