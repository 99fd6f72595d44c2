package org.tracelake.jobs.generate.formats;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * PyTorch execution traces (schema 1.0.1, FORMATS.md §7) of two ranks, {@code torch_et_<rank>.json}: the process
 * root, an {@code aten::mm}, and the all-reduce chain {@code c10d::allreduce_} → {@code record_param_comms} →
 * {@code nccl:all_reduce} over one BFloat16 tensor of 4,194,304 elements (8 MiB) in the 2-rank default group,
 * communication sequence number 7.
 */
final class ExecutionTraceSample {
    static final int RANKS = 2;
    static final long NUMEL = 4_194_304L;

    private ExecutionTraceSample() {}

    static void write(Path dir) throws IOException {
        ObjectMapper json = new ObjectMapper();
        for (int rank = 0; rank < RANKS; rank++) {
            List<Object> tensor = List.of(131, 132, 0, NUMEL, 2, "cuda:" + rank);
            List<Object> nodes = List.of(
                    node("[pytorch|profiler|execution_trace|process]", 1, 1, 0, List.of(), List.of()),
                    node(
                            "aten::mm",
                            2,
                            1,
                            101,
                            List.of(
                                    List.of(11, 12, 0, 1048576, 2, "cuda:" + rank),
                                    List.of(13, 14, 0, 1048576, 2, "cuda:" + rank)),
                            List.of("Tensor(c10::BFloat16)", "Tensor(c10::BFloat16)")),
                    node(
                            "c10d::allreduce_",
                            3,
                            1,
                            102,
                            List.of(List.of(tensor)),
                            List.of("GenericList[Tensor(c10::BFloat16)]")),
                    node(
                            "record_param_comms",
                            4,
                            3,
                            103,
                            List.of(
                                    List.of(tensor),
                                    7,
                                    93825114103440L,
                                    rank,
                                    "allreduce",
                                    List.of(),
                                    List.of(),
                                    RANKS),
                            List.of(
                                    "GenericList[Tensor(c10::BFloat16)]",
                                    "Int",
                                    "Int",
                                    "Int",
                                    "String",
                                    "GenericList[]",
                                    "GenericList[]",
                                    "Int")),
                    node(
                            "nccl:all_reduce",
                            5,
                            4,
                            104,
                            List.of(List.of(tensor)),
                            List.of("GenericList[Tensor(c10::BFloat16)]")));
            Map<String, Object> et = FormatSamples.ordered(
                    "schema",
                    "1.0.1",
                    "pid",
                    4242 + rank,
                    "time",
                    "2026-11-01 00:00:00",
                    "start_ts",
                    535_086_983L,
                    "nodes",
                    nodes,
                    "finish_ts",
                    535_123_801L);
            json.writeValue(dir.resolve("torch_et_" + rank + ".json").toFile(), et);
        }
    }

    private static Map<String, Object> node(
            String name, int id, int parent, int rfId, List<Object> inputs, List<Object> types) {
        return FormatSamples.ordered(
                "name",
                name,
                "id",
                id,
                "rf_id",
                rfId,
                "parent",
                parent,
                "fw_parent",
                0,
                "seq_id",
                -1,
                "scope",
                0,
                "tid",
                1,
                "fw_tid",
                0,
                "op_schema",
                "",
                "inputs",
                inputs,
                "input_shapes",
                List.of(),
                "input_types",
                types,
                "outputs",
                List.of(),
                "output_shapes",
                List.of(),
                "output_types",
                List.of());
    }
}
