package org.tracelake.jobs.report;

import java.util.LinkedHashMap;
import java.util.List;
import org.tracelake.jobs.metrics.CollectiveHang;

/**
 * What a workload report shows: small, aggregated results only (metric rows, per-rank and per-step summaries,
 * one step's timeline capped at a few thousand activities). Built on Spark by {@link ReportQueries}.
 */
public record ReportModel(
        String workload,
        String runId,
        LinkedHashMap<String, Object> card,
        Files files,
        List<MetricRow> workloadMetrics,
        List<MetricRow> rankMetrics,
        List<MetricRow> keyMetrics,
        List<MetricRow> stepMeans,
        List<CommBucket> commBuckets,
        List<RankLastArrivals> lastArrivals,
        LagMap lag,
        Timeline timeline,
        List<KernelTime> categoryByRank,
        List<KernelTime> topKernels,
        Memory memory,
        Hang hang,
        AllToAll allToAll,
        Telemetry telemetry,
        ExecutionTrace executionTrace,
        List<Finding> findings) {

    /**
     * AORTA step telemetry ({@code iteration_telemetry}, its iteration rows): per step the mean over ranks of each ms
     * figure the log has (total, compute, the collective streams, idle); empty without telemetry.
     */
    public record Telemetry(
            long iterations, long ranks, List<Long> steps, LinkedHashMap<String, List<Double>> msPerStep) {
        public static final Telemetry NONE = new Telemetry(0, 0, List.of(), new LinkedHashMap<>());
    }

    /**
     * PyTorch execution traces ({@code et_nodes}): how many nodes on how many ranks, the communication nodes by
     * collective, and the most frequent node names; zero nodes without an execution trace.
     */
    public record ExecutionTrace(
            long nodes, long commNodes, long ranks, List<EtCollective> collectives, List<EtName> topNames) {
        public static final ExecutionTrace NONE = new ExecutionTrace(0, 0, 0, List.of(), List.of());
    }

    /** Communication nodes of one collective kind: how many, on how many ranks, their input bytes (null: unknown). */
    public record EtCollective(String collective, long nodes, long ranks, Long inBytes) {}

    /** A node name and how many nodes carry it. */
    public record EtName(String name, long nodes) {}

    /** A report without findings (a warehouse written before the findings table). */
    public ReportModel(
            String workload,
            String runId,
            LinkedHashMap<String, Object> card,
            Files files,
            List<MetricRow> workloadMetrics,
            List<MetricRow> rankMetrics,
            List<MetricRow> keyMetrics,
            List<MetricRow> stepMeans,
            List<CommBucket> commBuckets,
            List<RankLastArrivals> lastArrivals,
            LagMap lag,
            Timeline timeline,
            List<KernelTime> categoryByRank,
            List<KernelTime> topKernels,
            Memory memory,
            Hang hang,
            AllToAll allToAll,
            Telemetry telemetry,
            ExecutionTrace executionTrace) {
        this(
                workload,
                runId,
                card,
                files,
                workloadMetrics,
                rankMetrics,
                keyMetrics,
                stepMeans,
                commBuckets,
                lastArrivals,
                lag,
                timeline,
                categoryByRank,
                topKernels,
                memory,
                hang,
                allToAll,
                telemetry,
                executionTrace,
                List.of());
    }

    /** A row of the findings table (most severe first): what to act on, and the metric rows that show it. */
    public record Finding(
            String severity,
            String rule,
            Integer rank,
            Double value,
            Double threshold,
            String unit,
            String cause,
            String evidence,
            String message) {}

    /** trace_files of the workload, counted. */
    public record Files(
            long total,
            long ok,
            long skipped,
            long error,
            long ranks,
            long events,
            long eventsDropped,
            List<String> errors) {}

    /**
     * One metrics row. For step means, {@code value} is the mean over ranks and {@code rank} holds the number of
     * ranks averaged.
     */
    public record MetricRow(
            String metric,
            String figure,
            String key,
            Integer rank,
            Long step,
            Double value,
            String unit,
            String status,
            String reason) {
        public String label() {
            return metric + (figure == null ? "" : "." + figure) + (key == null ? "" : "[" + key + "]");
        }
    }

    /** Communication activities of one collective kind and power-of-2 size bucket (bucket 0: size 0; null: unknown). */
    public record CommBucket(
            String kind, Long bucket, long calls, Long bytes, long durNs, long busbwSamples, Double busbwMedianGbps) {}

    /** Per rank: the matched collective instances it took part in and those it arrived at last. */
    public record RankLastArrivals(int rank, long instances, long lastArrivals) {}

    /**
     * The rank × collective start-offset map: {@code instances} in time order (at most the cap), each cell the
     * rank's start minus the instance's first start, in µs.
     */
    public record LagMap(List<String> instances, List<Integer> ranks, List<double[]> cells, long totalInstances) {}

    /**
     * One step's GPU activities (start relative to the earliest start in the step, µs). Per rank for a few ranks;
     * with many ranks ({@code bands} not empty) one lane per band of ranks (a node, or a run of ranks): its busy
     * share over time in {@code heat} ([band, start µs, width µs, share of the band's rank-time busy]) and the spans
     * of its slowest rank, whose {@code rank} field then holds the band's index.
     */
    public record Timeline(Long step, List<Span> spans, long totalSpans, List<Band> bands, List<double[]> heat) {
        public Timeline(Long step, List<Span> spans, long totalSpans) {
            this(step, spans, totalSpans, List.of(), List.of());
        }
    }

    /** A band of the timeline: its ranks, how many of them have activity in the step, and its slowest rank. */
    public record Band(String label, int firstRank, int lastRank, long ranks, int slowestRank) {}

    public record Span(int rank, String activityClass, String category, String name, double startUs, double durUs) {}

    /** Σ duration of kernels of a category (rank given) or of one kernel name (rank null). */
    public record KernelTime(Integer rank, String category, String name, long count, long durNs) {}

    /** Allocated bytes over time per device from memory_events, or the reason there is none. */
    public record Memory(String reason, List<MemorySeries> series) {}

    public record MemorySeries(String device, List<double[]> points) {}

    /**
     * NCCL Flight Recorder hangs: the stuck collectives (roots first), the rank × group matrix of last enqueued /
     * completed collective ids ({@code groups} are labels "name desc"), and the fault log beside the dumps, if any;
     * {@code reason} says why there are no rows.
     */
    public record Hang(
            String reason,
            List<CollectiveHang> rows,
            List<String> groups,
            List<Integer> ranks,
            List<HangCell> cells,
            String faultLogFile,
            String faultLog) {}

    public record HangCell(int rank, String group, long enqueued, Long completed) {}

    /**
     * MoE all-to-all: the imbalance of each all_to_all instance with split sizes (largest first), and the bytes each
     * rank sent each rank summed over them, as [src rank, dst rank, bytes] (empty when there are none or more than
     * the cap: {@code rankCount} says how many ranks there were).
     */
    public record AllToAll(List<Imbalance> instances, List<Integer> ranks, List<long[]> cells, long rankCount) {}

    public record Imbalance(String instance, Double imbalance) {}
}
