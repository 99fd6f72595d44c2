package org.tracelake.jobs.readers.et;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.ingest.WorkloadIngest;
import org.tracelake.jobs.testing.KinetoTraceBuilder;
import org.tracelake.jobs.testing.RealTraces;
import org.tracelake.jobs.testing.SharedSpark;
import org.tracelake.jobs.testing.TestArchive;

/**
 * PyTorch execution traces: the eight real DLRM files of ../shared/traces/execution-trace/dlrm-8rank-v100 (schema
 * 1.0.1), alone and next to their Kineto traces (which predate {@code Record function id}: nothing links), and a
 * hand-built Kineto + ET pair that does link by rf_id.
 *
 * <p>Expected DLRM values were read off the files with python3 + json: per file {@code len(d['nodes'])} = 1675;
 * 13 {@code record_param_comms} of which 5 are {@code wait} records ({@code "wait"} among their inputs) and 8 real
 * collectives, and 8 {@code nccl:*} annotations (5 {@code nccl:all_to_all}, 3 {@code nccl:all_reduce}) — the same in
 * every rank. Rank 0's rf_id 513 is {@code inputs = [[718,715,0,6144,4,"cuda:0"], 147, 94594108284448, 0,
 * "all_to_allv", [768]*8, [768]*8]}; rf_id 781's input tensor has 3392 elements (in split [96,224,288,1664,592,96,
 * 192,240]) and its output 768 on rank 0 (out split [96]*8) but 13312 on rank 3 ([1664]*8); rf_id 903 is an
 * allreduce of 394241 floats with seq 151.
 */
@RealTraces({"execution-trace/dlrm-8rank-v100", "kineto/dlrm-8rank-v100"})
class EtIngestTest {
    @TempDir
    static Path tmp;

    private static String etNodes;
    private static String builtKinetoFile;
    static SparkSession spark;
    static List<WorkloadIngest> results;

    /** rank0_et.json: a 1.0.1-style ET whose record_param_comms nodes have the 10 inputs of newer PyTorch. */
    static final String BUILT_ET = """
            {"schema": "1.0.1", "pid": 4242, "time": "2024-06-01 10:00:00", "start_ts": 100,
             "nodes": [
              {"name": "[pytorch|profiler|execution_trace|process]", "id": 1, "rf_id": 0, "parent": 1, "fw_parent": 0,
               "seq_id": -1, "scope": 7, "tid": 0, "fw_tid": 0, "op_schema": "", "inputs": [], "input_shapes": [],
               "input_types": [], "outputs": [], "output_shapes": [], "output_types": []},
              {"name": "record_param_comms", "id": 10, "rf_id": 42, "parent": 1, "fw_parent": 0, "seq_id": -1,
               "scope": 0, "tid": 1, "fw_tid": 0, "op_schema": "",
               "inputs": [[[5, 6, 0, 1048576, 4, "cuda:0"]], 5, ["0", "default_pg"], 0, "allreduce", [], [], 0, 1, 2],
               "input_shapes": [[[1048576]], [], [], [], [], [], [], [], [], []],
               "input_types": ["GenericList[Tensor(float)]", "Int", "GenericList[String,String]", "Int", "String",
                               "GenericList[]", "GenericList[]", "Int", "Int", "Int"],
               "outputs": [[[5, 6, 0, 1048576, 4, "cuda:0"]]], "output_shapes": [[[1048576]]],
               "output_types": ["GenericList[Tensor(float)]"]},
              {"name": "nccl:all_reduce", "id": 11, "rf_id": 43, "parent": 10, "fw_parent": 0, "seq_id": -1,
               "scope": 7, "tid": 1, "fw_tid": 0, "op_schema": "", "inputs": [[5, 6, 0, 1048576, 4, "cuda:0"]],
               "input_shapes": [[1048576]], "input_types": ["Tensor(float)"], "outputs": [], "output_shapes": [],
               "output_types": []},
              {"name": "record_param_comms", "id": 12, "rf_id": 44, "parent": 1, "fw_parent": 0, "seq_id": -1,
               "scope": 0, "tid": 1, "fw_tid": 0, "op_schema": "",
               "inputs": [[[7, 8, 0, 2048, 4, "cuda:0"]], 6, ["0", "default_pg"], 0, "_reduce_scatter_base", [], [], 0, 1, 2],
               "input_shapes": [[[2048]], [], [], [], [], [], [], [], [], []],
               "input_types": ["GenericList[Tensor(float)]", "Int", "GenericList[String,String]", "Int", "String",
                               "GenericList[]", "GenericList[]", "Int", "Int", "Int"],
               "outputs": [[[9, 10, 0, 1024, 4, "cuda:0"]]], "output_shapes": [[[1024]]],
               "output_types": ["GenericList[Tensor(float)]"]}
             ],
             "finish_ts": 200}
            """;

    static String builtKineto() {
        long t = 1_717_200_000_000_000_000L; // epoch ns (2024-06-01), as Kineto writes without baseTimeNanoseconds
        return new KinetoTraceBuilder(0, 2)
                .step(1, t, 10_000_000)
                // Kernel 1: its op has a Record function id (42) but no size args: the ET fills it.
                .cpu(
                        "cpu_op",
                        "record_param_comms",
                        t + 1_000_000,
                        50_000,
                        Map.of("External id", 7, "Record function id", 42))
                .kernel(
                        "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, ncclDevKernelArgsStorage<4096ul>)",
                        20,
                        t + 2_000_000,
                        100_000,
                        t + 1_010_000,
                        Map.of("External id", 7))
                // Kernel 2: its op has no Record function id: stays without a size.
                .cpu("cpu_op", "record_param_comms", t + 4_000_000, 50_000, Map.of("External id", 8))
                .kernel(
                        "ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
                        20,
                        t + 5_000_000,
                        100_000,
                        t + 4_010_000,
                        Map.of("External id", 8))
                // Kernel 3: sized by its own args already; the ET node for rf_id 44 does not overwrite it.
                .cpu(
                        "cpu_op",
                        "record_param_comms",
                        t + 6_000_000,
                        50_000,
                        Map.of("External id", 9, "Record function id", 44))
                .kernel(
                        "ncclDevKernel_ReduceScatter_Sum_f32_RING_LL(ncclDevComm*, ncclDevKernelArgsStorage<4096ul>)",
                        20,
                        t + 7_000_000,
                        100_000,
                        t + 6_010_000,
                        with(
                                KinetoTraceBuilder.collectiveArgs("_reduce_scatter_base", 512, 256, "Float", 2, "0"),
                                "External id",
                                9))
                .toJson();
    }

    static Map<String, Object> with(Map<String, Object> m, String k, Object v) {
        Map<String, Object> out = new java.util.LinkedHashMap<>(m);
        out.put(k, v);
        return out;
    }

    @BeforeAll
    static void ingest() {
        spark = SharedSpark.get();
        TestArchive archive = new TestArchive(tmp)
                .copyShared("dlrm_et", "execution-trace/dlrm-8rank-v100")
                .card("dlrm_et", "training", "dlrm", "nvidia_v100", 8)
                .copyShared("dlrm_pair", "execution-trace/dlrm-8rank-v100")
                .copyShared("dlrm_pair", "kineto/dlrm-8rank-v100")
                .card("dlrm_pair", "training", "dlrm", "nvidia_v100", 8)
                .write("built_pair", "profile/rank0_trace.json", builtKineto())
                .write("built_pair", "et/rank0_et.json", BUILT_ET)
                .card("built_pair", "training", "llama", "nvidia_h100", 2);
        results = archive.ingest(spark);
        etNodes = archive.table("et_nodes");
        builtKinetoFile =
                archive.archive.resolve("built_pair/profile/rank0_trace.json").toString();
        spark.read().format("iceberg").load(etNodes).createOrReplaceTempView("et_t");
        spark.read().format("iceberg").load(archive.table("events")).createOrReplaceTempView("et_events_t");
        spark.read().format("iceberg").load(archive.table("trace_files")).createOrReplaceTempView("et_files_t");
    }

    @Test
    void everythingIngests() {
        assertEquals(3, results.size());
        results.forEach(r -> assertTrue(r.clean(), () -> r.workload() + ": " + r.problems()));
    }

    @Test
    void nodeCountsPerRank() {
        List<Row> rows = spark.sql("SELECT rank, count(*), sum(CASE WHEN is_comm THEN 1 ELSE 0 END), "
                        + "sum(CASE WHEN name = 'record_param_comms' AND NOT is_comm THEN 1 ELSE 0 END), "
                        + "sum(CASE WHEN name LIKE 'nccl:%' THEN 1 ELSE 0 END), "
                        + "sum(CASE WHEN collective = 'all_to_all' THEN 1 ELSE 0 END), sum(CASE WHEN collective = 'all_reduce' THEN 1 ELSE 0 END) "
                        + "FROM et_t WHERE workload = 'dlrm_et' GROUP BY rank ORDER BY rank")
                .collectAsList();
        assertEquals(8, rows.size());
        for (int r = 0; r < 8; r++) {
            Row row = rows.get(r);
            assertEquals(r, row.getInt(0)); // dlrm_eg_<r>.json.gz
            assertEquals(1675L, row.getLong(1));
            assertEquals(16L, row.getLong(2)); // 8 record_param_comms collectives + 8 nccl:* annotations
            assertEquals(5L, row.getLong(3)); // wait records are not collectives
            assertEquals(8L, row.getLong(4));
            assertEquals(10L, row.getLong(5)); // 5 all_to_all(v) records + 5 nccl:all_to_all
            assertEquals(6L, row.getLong(6)); // 3 allreduce records + 3 nccl:all_reduce
        }
        Row f = spark.sql(
                        "SELECT status, rank_source, metadata['et.nodes'], metadata['et.comm_nodes'], metadata['et.schema'], "
                                + "metadata['link'] FROM et_files_t WHERE workload = 'dlrm_et' AND path LIKE '%dlrm_eg_0.json.gz'")
                .first();
        assertEquals("ok", f.getString(0));
        assertEquals("file_name", f.getString(1));
        assertEquals("1675", f.getString(2));
        assertEquals("16", f.getString(3));
        assertEquals("1.0.1", f.getString(4));
        assertTrue(f.getString(5).contains("no Kineto trace"), f.getString(5));
    }

    @Test
    void rankZeroAllToAllv() {
        Row r = spark.sql(
                        "SELECT id, parent, collective, collective_name, in_nelems, out_nelems, dtype, in_bytes, out_bytes, "
                                + "in_split_sizes, out_split_sizes, group_size, pg_name, comm_seq, seq_id, input_types "
                                + "FROM et_t WHERE workload = 'dlrm_et' AND rank = 0 AND rf_id = 513")
                .first();
        assertEquals(727L, r.getLong(0));
        assertEquals(726L, r.getLong(1)); // c10d::alltoall_base_
        assertEquals("all_to_all", r.getString(2));
        assertEquals("all_to_allv", r.getString(3));
        assertEquals(6144L, r.getLong(4));
        assertEquals(6144L, r.getLong(5));
        assertEquals("float", r.getString(6));
        assertEquals(24576L, r.getLong(7)); // 6144 × 4-byte items
        assertEquals(24576L, r.getLong(8));
        assertEquals("[768,768,768,768,768,768,768,768]", r.getString(9));
        assertEquals("[768,768,768,768,768,768,768,768]", r.getString(10));
        assertEquals(8, r.getInt(11)); // eight splits: one per rank of the group
        assertNull(r.get(12)); // 1.0.1 records a pointer there, not a comparable name
        assertEquals(147L, r.getLong(13));
        assertEquals(-1L, r.getLong(14));
        assertTrue(r.getString(15).startsWith("[\"Tensor(float)\",\"Int\""));

        Row a = spark.sql("SELECT collective, collective_name, in_nelems, out_nelems, in_bytes FROM et_t "
                        + "WHERE workload = 'dlrm_et' AND rank = 0 AND rf_id = 514")
                .first(); // nccl:all_to_all under it
        assertEquals("all_to_all", a.getString(0));
        assertEquals("all_to_all", a.getString(1));
        assertEquals(6144L, a.getLong(2));
        assertEquals(6144L, a.getLong(3));
        assertEquals(24576L, a.getLong(4));
    }

    @Test
    void unevenSplitsAndAllReduce() {
        Row r0 = spark.sql("SELECT in_nelems, out_nelems, in_split_sizes, out_split_sizes FROM et_t "
                        + "WHERE workload = 'dlrm_et' AND rank = 0 AND rf_id = 781")
                .first();
        assertEquals(3392L, r0.getLong(0));
        assertEquals(768L, r0.getLong(1));
        assertEquals("[96,224,288,1664,592,96,192,240]", r0.getString(2));
        assertEquals("[96,96,96,96,96,96,96,96]", r0.getString(3));
        assertEquals(
                13312L,
                spark.sql("SELECT out_nelems FROM et_t WHERE workload = 'dlrm_et' AND rank = 3 AND rf_id = 781")
                        .first()
                        .getLong(0));
        Row ar = spark.sql("SELECT collective, collective_name, in_nelems, in_bytes, comm_seq, dtype FROM et_t "
                        + "WHERE workload = 'dlrm_et' AND rank = 0 AND rf_id = 903")
                .first();
        assertEquals("all_reduce", ar.getString(0));
        assertEquals("allreduce", ar.getString(1));
        assertEquals(394241L, ar.getLong(2));
        assertEquals(1576964L, ar.getLong(3));
        assertEquals(151L, ar.getLong(4));
        assertEquals("float", ar.getString(5));
    }

    @Test
    void olderPairIsIngestedButNotLinked() {
        List<Row> notes = spark.sql(
                        "SELECT metadata['link'] FROM et_files_t WHERE workload = 'dlrm_pair' AND format = 'pytorch_et'")
                .collectAsList();
        assertEquals(8, notes.size());
        notes.forEach(n -> assertTrue(n.getString(0).contains("no 'Record function id'"), n.getString(0)));
        assertEquals(
                0L,
                spark.sql("SELECT count(*) FROM et_events_t WHERE workload = 'dlrm_pair' AND bytes_source = 'et'")
                        .first()
                        .getLong(0));
        assertEquals(
                8 * 1675L,
                spark.sql("SELECT count(*) FROM et_t WHERE workload = 'dlrm_pair'")
                        .first()
                        .getLong(0));
    }

    @Test
    void builtPairLinksByRecordFunctionId() {
        List<Row> k = spark.sql(
                        "SELECT name, collective, in_nelems, out_nelems, dtype, in_bytes, out_bytes, bytes_source, "
                                + "group_size, pg_name, seq FROM et_events_t WHERE workload = 'built_pair' AND activity_class = 'comm' "
                                + "ORDER BY ts_ns")
                .collectAsList();
        assertEquals(3, k.size());
        Row filled = k.get(0); // ET rf_id 42: 1048576 floats in and out, seq 5, process group "0"
        assertEquals("all_reduce", filled.getString(1));
        assertEquals(1048576L, filled.getLong(2));
        assertEquals(1048576L, filled.getLong(3));
        assertEquals("float", filled.getString(4));
        assertEquals(4194304L, filled.getLong(5));
        assertEquals(4194304L, filled.getLong(6));
        assertEquals("et", filled.getString(7));
        assertEquals(2, filled.getInt(8)); // the Kineto trace's world size, kept
        assertEquals("0", filled.getString(9));
        assertEquals(5L, filled.getLong(10));

        Row unlinked = k.get(1); // its op has no Record function id
        assertNull(unlinked.get(5));
        assertNull(unlinked.get(7));

        Row own = k.get(2); // its own args: 512 Float in = 2048 bytes, kept as kernel_args
        assertEquals(2048L, own.getLong(5));
        assertEquals("kernel_args", own.getString(7));

        String link = spark.sql(
                        "SELECT metadata['link'] FROM et_files_t WHERE workload = 'built_pair' AND format = 'pytorch_et'")
                .first()
                .getString(0);
        assertTrue(link.startsWith("linked 1 communication kernels of rank 0"), link);
        // Every event is written once, linked as it was read.
        assertEquals(
                spark.sql("SELECT events_read FROM et_files_t WHERE workload = 'built_pair' AND format = 'kineto'")
                        .first()
                        .getLong(0),
                spark.sql("SELECT count(*) FROM et_events_t WHERE workload = 'built_pair'")
                        .first()
                        .getLong(0));
    }

    /** The same link from a plain Spark session: the data source's etNodes option names an et_nodes table. */
    @Test
    void dataSourceLinksWithTheEtNodesItIsGiven() {
        Dataset<Row> read = spark.read()
                .format("tracelake")
                .option("workload", "built_pair")
                .option("etNodes", etNodes)
                .load(builtKinetoFile);
        Row filled = read.where("activity_class = 'comm' AND bytes_source = 'et'")
                .select("in_bytes", "seq")
                .first();
        assertEquals(4194304L, filled.getLong(0)); // ET rf_id 42: 1048576 floats
        assertEquals(5L, filled.getLong(1));
        assertEquals(
                0L,
                spark.read()
                        .format("tracelake")
                        .option("workload", "built_pair")
                        .load(builtKinetoFile)
                        .where("bytes_source = 'et'")
                        .count()); // without the option, nothing links
    }
}
