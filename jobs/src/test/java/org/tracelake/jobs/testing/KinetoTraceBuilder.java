package org.tracelake.jobs.testing;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;

/**
 * Hand-built Kineto traces for tests, so a person can state every expected number from the events written here.
 * Times are absolute epoch nanoseconds, written as Kineto does without baseTimeNanoseconds: microseconds with
 * three decimals (so ts_ns comes back exactly). CPU events go to pid 100 / tid 101; GPU events to pid = device.
 */
public final class KinetoTraceBuilder {
    private static final ObjectMapper JSON = new ObjectMapper();
    public static final int CPU_PID = 100;
    public static final int CPU_TID = 101;

    private final ObjectNode root = JSON.createObjectNode();
    private final ArrayNode events;
    private final int device;
    private long nextCorrelation = 1;

    public KinetoTraceBuilder(int rank, int worldSize) {
        root.put("schemaVersion", 1);
        ObjectNode info = root.putObject("distributedInfo");
        info.put("backend", "nccl");
        info.put("rank", rank);
        info.put("world_size", worldSize);
        events = root.putArray("traceEvents");
        device = rank;
    }

    /** A ProfilerStep#N annotation on the CPU thread. */
    public KinetoTraceBuilder step(long number, long startNs, long durNs) {
        complete("user_annotation", "ProfilerStep#" + number, CPU_PID, CPU_TID, startNs, durNs, Map.of());
        return this;
    }

    /** Any complete event on the CPU thread. */
    public KinetoTraceBuilder cpu(String cat, String name, long startNs, long durNs, Map<String, ?> args) {
        complete(cat, name, CPU_PID, CPU_TID, startNs, durNs, args);
        return this;
    }

    /** A cudaLaunchKernel at launchNs and the kernel it launches (same correlation id) on the given stream. */
    public KinetoTraceBuilder kernel(
            String name, int stream, long startNs, long durNs, long launchNs, Map<String, ?> extraArgs) {
        long correlation = nextCorrelation++;
        complete(
                "cuda_runtime",
                "cudaLaunchKernel",
                CPU_PID,
                CPU_TID,
                launchNs,
                1_000,
                Map.of("correlation", correlation));
        java.util.Map<String, Object> args = new java.util.LinkedHashMap<>();
        args.put("device", device);
        args.put("stream", stream);
        args.put("correlation", correlation);
        args.putAll(extraArgs);
        complete("kernel", name, device, stream, startNs, durNs, args);
        return this;
    }

    /** A kernel whose launch record is missing (its own start decides its step). */
    public KinetoTraceBuilder kernelWithoutLaunch(
            String name, int stream, long startNs, long durNs, Map<String, ?> extraArgs) {
        java.util.Map<String, Object> args = new java.util.LinkedHashMap<>(extraArgs);
        args.put("device", device);
        args.put("stream", stream);
        complete("kernel", name, device, stream, startNs, durNs, args);
        return this;
    }

    /**
     * The GPU-side copy Kineto writes of a CPU annotation: {@code gpu_user_annotation}, pid = device, tid = stream,
     * args {@code External id} (the shape of the copies in traces/kineto/hta-nccl-args-rank0of2).
     */
    public KinetoTraceBuilder gpuAnnotation(String name, int stream, long startNs, long durNs, long externalId) {
        complete("gpu_user_annotation", name, device, stream, startNs, durNs, Map.of("External id", externalId));
        return this;
    }

    /** A memcpy on the stream, with its byte count. */
    public KinetoTraceBuilder memcpy(int stream, long startNs, long durNs, long bytes) {
        complete(
                "gpu_memcpy",
                "Memcpy HtoD (Pinned -> Device)",
                device,
                stream,
                startNs,
                durNs,
                Map.of("device", device, "stream", stream, "bytes", bytes));
        return this;
    }

    /** Modern collective args for a kernel: Collective name, In/Out msg nelems, dtype, Group size, process group. */
    public static Map<String, Object> collectiveArgs(
            String collectiveName, long inNelems, long outNelems, String dtype, int groupSize, String pgName) {
        java.util.Map<String, Object> a = new java.util.LinkedHashMap<>();
        a.put("Collective name", collectiveName);
        a.put("In msg nelems", inNelems);
        a.put("Out msg nelems", outNelems);
        a.put("dtype", dtype);
        a.put("Group size", groupSize);
        a.put("Process Group Name", pgName);
        StringBuilder ranks = new StringBuilder("[");
        for (int r = 0; r < groupSize; r++) ranks.append(r == 0 ? "" : ", ").append(r);
        a.put("Process Group Ranks", ranks.append(']').toString());
        return a;
    }

    private void complete(
            String cat, String name, Object pid, Object tid, long startNs, long durNs, Map<String, ?> args) {
        ObjectNode e = events.addObject();
        e.put("ph", "X");
        e.put("cat", cat);
        e.put("name", name);
        e.putPOJO("pid", pid);
        e.putPOJO("tid", tid);
        e.put("ts", new java.math.BigDecimal(startNs).movePointLeft(3));
        e.put("dur", new java.math.BigDecimal(durNs).movePointLeft(3));
        if (!args.isEmpty()) e.set("args", JSON.valueToTree(args));
    }

    public String toJson() {
        try {
            return JSON.writeValueAsString(root);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
