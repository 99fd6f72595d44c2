package org.tracelake.jobs.readers.et;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.expr;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.tracelake.jobs.readers.FileReport;
import org.tracelake.jobs.readers.TraceFormat;
import org.tracelake.schemas.EventSchema;
import org.tracelake.schemas.TraceFileSchema;
import org.tracelake.udfs.MessageBytes;

/**
 * Links a workload's execution-trace nodes to its Kineto events and fills the message size of communication
 * kernels that lack one ({@code bytes_source = 'et'}, METRICS.md §2). A cross-file step, so it runs on the driver
 * as a Spark join once both staged partitions of the workload exist (after ingest's write jobs, before the swap):
 *
 * <pre>
 *   comm kernel (in_bytes and out_bytes null)  ──External id, rank──▶  Kineto CPU op with args['Record function id']
 *   Kineto CPU op                              ──rank, rf_id──────────▶  ET communication node with a size
 * </pre>
 *
 * When one ET node of a kernel's op qualifies it is used; of several, {@code record_param_comms} before
 * {@code nccl:*}, then the lower rf_id. A kernel keeps what it already knew (collective kind, group size, process
 * group, seq) and takes the rest from the node.
 *
 * <p><b>Cost.</b> Only workloads with ET files pay anything. The check is one scan of the staged events partition
 * (filtered to comm kernels without size and to ops carrying a Record function id) joined with the small et_nodes
 * partition, plus a count. Only when at least one kernel links is the workload's staged events partition rewritten
 * whole: one more read and one write of it, into a sibling directory that then replaces it. Traces from PyTorch
 * before 2024 have no {@code Record function id}: nothing links, nothing is rewritten, and each ET file's
 * {@code trace_files.metadata['link']} says why.
 */
public final class KinetoLink {
    private KinetoLink() {}

    public static final String METADATA_KEY = "link";
    static final String RF_ID_ARG = "Record function id";

    /**
     * @param eventsPath  the workload's staged events partition (no workload column)
     * @param etNodesPath the workload's staged et_nodes partition
     * @param reports     the workload's file reports; the ET ones get their {@code link} note
     * @return kernels filled
     */
    public static long link(SparkSession spark, FileSystem fs, String eventsPath, String etNodesPath, List<FileReport> reports)
            throws IOException {
        List<FileReport> etReports = new ArrayList<>();
        for (FileReport r : reports) {
            if (TraceFormat.PYTORCH_ET.id().equals(r.format) && !r.fatal && TraceFileSchema.STATUS_OK.equals(r.status)) etReports.add(r);
        }
        if (etReports.isEmpty()) return 0;
        if (!fs.exists(new Path(etNodesPath))) {
            note(etReports, "not linked: no execution-trace nodes were staged");
            return 0;
        }
        boolean anyKineto = reports.stream().anyMatch(r -> TraceFormat.KINETO.id().equals(r.format) && !r.fatal && r.eventsRead > 0);
        if (!anyKineto || !fs.exists(new Path(eventsPath))) {
            note(etReports, "not linked: this workload has no Kineto trace to link the ET nodes to");
            return 0;
        }
        spark.sparkContext().setJobDescription("link execution traces to Kineto events");
        try {
            Dataset<Row> events = spark.read().parquet(eventsPath);
            Dataset<Row> nodes = spark.read().parquet(etNodesPath);

            Dataset<Row> ops = events
                    .where("activity_class IS NULL AND external_id IS NOT NULL AND format = 'kineto'")
                    .select(col("rank").as("o_rank"), col("external_id").as("o_ext"),
                            expr("try_cast(args['" + RF_ID_ARG + "'] AS BIGINT)").as("o_rf"))
                    .where("o_rf IS NOT NULL");
            if (ops.isEmpty()) {
                note(etReports, "not linked: the Kineto traces carry no '" + RF_ID_ARG + "' on their CPU ops (PyTorch "
                        + "before 2024), so ET nodes cannot be matched by rf_id; ET nodes ingested unlinked, message "
                        + "sizes stay as the Kineto trace gives them");
                return 0;
            }
            Dataset<Row> kernels = events
                    .where("activity_class = 'comm' AND in_bytes IS NULL AND out_bytes IS NULL AND external_id IS NOT NULL")
                    .select(col("source_file").as("k_file"), col("ordinal").as("k_ord"), col("rank").as("k_rank"),
                            col("external_id").as("k_ext"));
            Dataset<Row> sized = nodes
                    .where("is_comm AND rf_id IS NOT NULL AND (in_bytes IS NOT NULL OR out_bytes IS NOT NULL)")
                    .select(col("rank").as("n_rank"), col("rf_id").as("n_rf"), col("name").as("n_name"),
                            col("collective").as("n_kind"), col("in_nelems").as("n_in_nelems"),
                            col("out_nelems").as("n_out_nelems"), col("dtype").as("n_dtype"),
                            col("in_bytes").as("n_in_bytes"), col("out_bytes").as("n_out_bytes"),
                            col("group_size").as("n_group_size"), col("pg_name").as("n_pg_name"),
                            col("comm_seq").as("n_seq"));
            Dataset<Row> links = kernels
                    .join(ops, col("k_rank").eqNullSafe(col("o_rank")).and(col("k_ext").equalTo(col("o_ext"))))
                    .join(sized, col("o_rank").eqNullSafe(col("n_rank")).and(col("o_rf").equalTo(col("n_rf"))))
                    .withColumn("pick", expr("row_number() OVER (PARTITION BY k_file, k_ord ORDER BY "
                            + "CASE WHEN n_name = 'record_param_comms' THEN 0 ELSE 1 END, n_rf)"))
                    .where("pick = 1").drop("pick")
                    .cache();
            try {
                Map<Integer, Long> perRank = new java.util.HashMap<>();
                long total = 0;
                for (Row r : links.groupBy("k_rank").count().collectAsList()) {
                    perRank.put(r.isNullAt(0) ? null : r.getInt(0), r.getLong(1));
                    total += r.getLong(1);
                }
                if (total == 0) {
                    boolean unsized = !kernels.isEmpty();
                    note(etReports, unsized
                            ? "not linked: no communication kernel without a message size reaches an ET communication "
                              + "node through its CPU op's '" + RF_ID_ARG + "'"
                            : "not needed: every communication kernel already has a message size from the Kineto trace");
                    return 0;
                }
                rewrite(spark, fs, events, links, eventsPath);
                for (FileReport r : etReports) {
                    Long n = perRank.get(r.rank);
                    r.metadata.put(METADATA_KEY, n == null
                            ? "linked 0 kernels of rank " + r.rank + " (" + total + " in the workload); bytes_source = et"
                            : "linked " + n + " communication kernels of rank " + r.rank + " by Record function id; "
                              + "their message sizes now come from this file (bytes_source = et)");
                }
                return total;
            } finally {
                links.unpersist();
            }
        } finally {
            spark.sparkContext().setJobDescription(null);
        }
    }

    /** Writes the events partition with the linked kernels filled, beside it, then puts it in its place. */
    private static void rewrite(SparkSession spark, FileSystem fs, Dataset<Row> events, Dataset<Row> links, String eventsPath)
            throws IOException {
        Dataset<Row> joined = events.join(links,
                col("source_file").equalTo(col("k_file")).and(col("ordinal").equalTo(col("k_ord"))), "left");
        Column linked = col("k_file").isNotNull();
        List<Column> cols = new ArrayList<>();
        for (String name : events.columns()) {
            Column c = switch (name) {
                case EventSchema.COLLECTIVE -> expr("coalesce(collective, n_kind)");
                case EventSchema.IN_NELEMS -> org.apache.spark.sql.functions.when(linked, col("n_in_nelems")).otherwise(col(name));
                case EventSchema.OUT_NELEMS -> org.apache.spark.sql.functions.when(linked, col("n_out_nelems")).otherwise(col(name));
                case EventSchema.DTYPE -> org.apache.spark.sql.functions.when(linked, col("n_dtype")).otherwise(col(name));
                case EventSchema.IN_BYTES -> org.apache.spark.sql.functions.when(linked, col("n_in_bytes")).otherwise(col(name));
                case EventSchema.OUT_BYTES -> org.apache.spark.sql.functions.when(linked, col("n_out_bytes")).otherwise(col(name));
                case EventSchema.BYTES_SOURCE -> org.apache.spark.sql.functions.when(linked,
                        org.apache.spark.sql.functions.lit(MessageBytes.ET)).otherwise(col(name));
                case EventSchema.GROUP_SIZE -> expr("coalesce(group_size, n_group_size)");
                case EventSchema.PG_NAME -> expr("coalesce(pg_name, n_pg_name)");
                case EventSchema.SEQ -> expr("coalesce(seq, n_seq)");
                default -> col(name);
            };
            cols.add(c.as(name));
        }
        Path target = new Path(eventsPath);
        Path aside = new Path(target.getParent(), "_et_linked_" + target.getName());
        fs.delete(aside, true);
        joined.select(cols.toArray(new Column[0])).write().mode(SaveMode.Overwrite).parquet(aside.toString());
        fs.delete(target, true);
        if (!fs.rename(aside, target)) throw new IOException("could not move " + aside + " to " + target);
    }

    private static void note(List<FileReport> etReports, String why) {
        for (FileReport r : etReports) r.metadata.put(METADATA_KEY, why);
    }
}
