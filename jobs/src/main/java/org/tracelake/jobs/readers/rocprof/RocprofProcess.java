package org.tracelake.jobs.readers.rocprof;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What one element of {@code rocprofiler-sdk-tool} (one profiled process) says about its records: agent handles to
 * GPU ordinals, kernel ids to names, and the operation names of each buffer-record kind.
 */
final class RocprofProcess {
    record KernelSymbol(String name, String shortName) {}

    String pid;
    final Map<Long, Integer> gpuIndexByAgent = new HashMap<>();
    final Map<Long, KernelSymbol> kernels = new HashMap<>();
    /** strings.buffer_records: index = record kind, value = its operation names by operation number. */
    final List<List<String>> operations = new ArrayList<>();

    /** GPU ordinal of an agent handle; null for CPU agents (gpu_index −1) and unknown handles. */
    Integer device(Long agentHandle) {
        Integer gpu = agentHandle == null ? null : gpuIndexByAgent.get(agentHandle);
        return gpu == null || gpu < 0 ? null : gpu;
    }

    String operationName(Long kind, Long operation) {
        if (kind == null || operation == null || kind < 0 || kind >= operations.size()) return null;
        List<String> ops = operations.get(kind.intValue());
        return operation >= 0 && operation < ops.size() ? ops.get(operation.intValue()) : null;
    }
}
