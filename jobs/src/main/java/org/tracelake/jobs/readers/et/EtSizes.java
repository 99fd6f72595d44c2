package org.tracelake.jobs.readers.et;

import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.example.GroupReadSupport;
import org.apache.spark.sql.catalyst.catalog.ExternalCatalogUtils;
import org.tracelake.schemas.Tables;

/**
 * The message sizes a workload's execution traces give its communication ops, by (rank, rf_id), for the Kineto reader
 * to fill the kernels whose own trace has none (METRICS.md §2, {@code bytes_source = 'et'}):
 *
 * <pre>
 *   comm kernel without a size  ──External id──▶  its CPU op's args['Record function id']  ──rank, rf_id──▶  ET node
 * </pre>
 *
 * The ET files are read first, into {@code et_nodes}; the Kineto files then read the sized communication nodes of
 * their workload and rank from that table's Parquet (a few hundred rows per rank) while they stream, so {@code events}
 * is written once, already linked. Read on the executor with parquet-hadoop, on first use only: a file whose
 * kernels all have sizes reads nothing. Of several nodes with one rf_id, {@code record_param_comms} wins over
 * {@code nccl:*}.
 */
public final class EtSizes {
    /** The Hadoop configuration key, and the data source option, naming the {@code et_nodes} table to link with. */
    public static final String ET_NODES = "tracelake.etNodes";
    /**
     * The Hadoop configuration key listing the live data files of the {@code et_nodes} table when it is an Iceberg
     * table, one per line after its URL-encoded workload ({@link #fileList}); unset for a folder of Parquet partitions.
     */
    public static final String ET_NODE_FILES = "tracelake.etNodes.files";
    /** The Kineto arg that equals an ET node's rf_id. */
    public static final String RF_ID_ARG = "Record function id";

    /** A sized communication node of an execution trace. */
    public record Node(
            String name,
            String collective,
            Long inNelems,
            Long outNelems,
            String dtype,
            Long inBytes,
            Long outBytes,
            Integer groupSize,
            String pgName,
            Long seq) {}

    /** No sizes: nothing to link with. */
    public static final EtSizes NONE = new EtSizes(Map.of());

    private final Map<Long, Node> byRfId;

    private EtSizes(Map<Long, Node> byRfId) {
        this.byRfId = byRfId;
    }

    /** The node with this rf_id, or null. */
    public Node node(Long rfId) {
        return rfId == null ? null : byRfId.get(rfId);
    }

    /**
     * The sized communication nodes of one rank of a workload in the {@code et_nodes} table named by {@link #ET_NODES}
     * (none when the key is unset, or the workload has no partition there).
     */
    public static EtSizes load(Configuration conf, String workload, Integer rank) throws IOException {
        String root = conf.get(ET_NODES);
        if (root == null || workload == null) return NONE;
        Map<Long, Node> byRfId = new HashMap<>();
        for (Path file : partitionFiles(conf, root, workload)) {
            try (ParquetReader<Group> reader = ParquetReader.builder(new GroupReadSupport(), file)
                    .withConf(conf)
                    .build()) {
                for (Group g = reader.read(); g != null; g = reader.read()) {
                    if (!Boolean.TRUE.equals(bool(g, "is_comm")) || !Objects.equals(integer(g, "rank"), rank)) continue;
                    Long rf = longValue(g, "rf_id");
                    Long inBytes = longValue(g, "in_bytes");
                    Long outBytes = longValue(g, "out_bytes");
                    if (rf == null || (inBytes == null && outBytes == null)) continue;
                    Node node = new Node(
                            string(g, "name"),
                            string(g, "collective"),
                            longValue(g, "in_nelems"),
                            longValue(g, "out_nelems"),
                            string(g, "dtype"),
                            inBytes,
                            outBytes,
                            integer(g, "group_size"),
                            string(g, "pg_name"),
                            longValue(g, "comm_seq"));
                    byRfId.merge(rf, node, (kept, other) -> "record_param_comms".equals(other.name()) ? other : kept);
                }
            }
        }
        return new EtSizes(byRfId);
    }

    /** The value of {@link #ET_NODE_FILES} for these files by workload. */
    public static String fileList(Map<String, List<String>> filesByWorkload) {
        StringBuilder out = new StringBuilder();
        filesByWorkload.forEach((workload, files) -> {
            for (String f : files)
                out.append(URLEncoder.encode(workload, StandardCharsets.UTF_8))
                        .append(' ')
                        .append(f)
                        .append('\n');
        });
        return out.toString();
    }

    /**
     * The Parquet files of one workload's partition: of the listed live files of an Iceberg table, those listed for
     * the workload; else the files of its partition folder under the table's root.
     */
    private static List<Path> partitionFiles(Configuration conf, String root, String workload) throws IOException {
        List<Path> out = new ArrayList<>();
        String live = conf.get(ET_NODE_FILES);
        if (live != null) {
            String key = URLEncoder.encode(workload, StandardCharsets.UTF_8) + " ";
            for (String line : live.split("\n"))
                if (line.startsWith(key)) out.add(new Path(line.substring(key.length())));
            return out;
        }
        Path partition = new Path(root, Tables.PARTITION_COLUMN + "=" + ExternalCatalogUtils.escapePathName(workload));
        FileSystem fs = partition.getFileSystem(conf);
        if (!fs.exists(partition)) return out;
        for (FileStatus f : fs.listStatus(partition))
            if (f.getPath().getName().endsWith(".parquet")) out.add(f.getPath());
        return out;
    }

    private static boolean present(Group g, String field) {
        return g.getType().containsField(field) && g.getFieldRepetitionCount(field) > 0;
    }

    private static Long longValue(Group g, String field) {
        return present(g, field) ? g.getLong(field, 0) : null;
    }

    private static Integer integer(Group g, String field) {
        return present(g, field) ? g.getInteger(field, 0) : null;
    }

    private static String string(Group g, String field) {
        return present(g, field) ? g.getString(field, 0) : null;
    }

    private static Boolean bool(Group g, String field) {
        return present(g, field) ? g.getBoolean(field, 0) : null;
    }
}
