package org.tracelake.jobs.metrics.engine;

import static org.apache.spark.sql.functions.col;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.function.PairFlatMapFunction;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeProjection;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.unsafe.types.UTF8String;
import org.tracelake.jobs.metrics.side.SideRows;
import org.tracelake.jobs.metrics.side.SideTable;
import org.tracelake.schemas.Tables;
import scala.Tuple2;

/**
 * The side tables' rows (memory snapshots, telemetry, Flight Recorder dumps) as inputs of the workload task, where the
 * side families run ({@link SideRows}) beside the workload's other inputs: each table is read with only the columns
 * its family reads, and its rows become {@link RowChunk}s per workload as each input partition streams by, through the
 * RDD path ({@link WorkloadInputs}: interpreted, no typed Dataset, so nothing is generated or compiled for them). No
 * rule is applied here: the families sort and read their rows in the task.
 */
final class SideTableInputs {
    private SideTableInputs() {}

    /** A chunk is closed once its rows take this many bytes, so that no one input is large. */
    static final int CHUNK_BYTES = 4 << 20;

    /** The inputs from the side tables the run has (by name; any of them may be missing), or null when it has none. */
    static JavaPairRDD<String, WorkloadInputs.Input> of(Map<String, Dataset<Row>> sideTables) {
        JavaPairRDD<String, WorkloadInputs.Input> out = null;
        for (SideTable table : SideRows.TABLES) {
            Dataset<Row> rows = sideTables.get(table.name());
            if (rows == null) continue;
            JavaPairRDD<String, WorkloadInputs.Input> chunks = chunks(table, rows);
            out = out == null ? chunks : out.union(chunks);
        }
        return out;
    }

    private static JavaPairRDD<String, WorkloadInputs.Input> chunks(SideTable table, Dataset<Row> rows) {
        if (table.rowKind() != null) rows = rows.where(col("row_kind").equalTo(table.rowKind()));
        // the family's columns, then the workload: a chunk's rows are the columns before it
        List<Column> columns = new ArrayList<>();
        for (String c : table.columns()) columns.add(col(c));
        columns.add(col(Tables.PARTITION_COLUMN));
        Dataset<Row> selected = rows.select(columns.toArray(Column[]::new));
        StructField[] fields = selected.schema().fields();
        DataType[] types = new DataType[fields.length - 1];
        for (int i = 0; i < types.length; i++) types[i] = fields[i].dataType();
        return selected.queryExecution().toRdd().toJavaRDD().mapPartitionsToPair(new Chunker(table.name(), types));
    }

    /** One partition's rows, a chunk per workload (more when a workload's rows pass {@link #CHUNK_BYTES}). */
    private static final class Chunker
            implements PairFlatMapFunction<Iterator<InternalRow>, String, WorkloadInputs.Input> {
        private final String table;
        private final DataType[] types;

        Chunker(String table, DataType[] types) {
            this.table = table;
            this.types = types;
        }

        @Override
        public Iterator<Tuple2<String, WorkloadInputs.Input>> call(Iterator<InternalRow> rows) {
            // the row less its last column (the workload), in binary form: interpreted in the metrics phase
            // (spark.sql.codegen.factoryMode=NO_CODEGEN)
            UnsafeProjection project = UnsafeProjection.create(types);
            int workloadColumn = types.length;
            Map<UTF8String, RowChunk.Builder> open = new HashMap<>();
            List<Tuple2<String, WorkloadInputs.Input>> out = new ArrayList<>();
            while (rows.hasNext()) {
                InternalRow r = rows.next();
                UTF8String workload = r.getUTF8String(workloadColumn);
                RowChunk.Builder chunk = open.get(workload);
                if (chunk == null) {
                    chunk = new RowChunk.Builder(table, types.length);
                    open.put(workload.clone(), chunk); // the row's string may point into a reused buffer
                }
                chunk.add(project.apply(r));
                if (chunk.bytes() >= CHUNK_BYTES) {
                    out.add(input(workload, chunk));
                    open.remove(workload);
                }
            }
            open.forEach((workload, chunk) -> out.add(input(workload, chunk)));
            return out.iterator();
        }

        private static Tuple2<String, WorkloadInputs.Input> input(UTF8String workload, RowChunk.Builder chunk) {
            return WorkloadInputs.pair(workload.toString(), WorkloadInput.SIDE_ROWS, chunk.build());
        }
    }
}
