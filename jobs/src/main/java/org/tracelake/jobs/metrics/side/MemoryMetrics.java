package org.tracelake.jobs.metrics.side;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apache.spark.sql.catalyst.InternalRow;
import org.tracelake.jobs.metrics.Metric;
import org.tracelake.jobs.metrics.MetricRow;
import org.tracelake.jobs.metrics.Slot;
import org.tracelake.jobs.metrics.Where;
import org.tracelake.schemas.Tables;

/**
 * The memory family (METRICS.md §4 "Memory (from CUDA memory snapshots)") from {@code memory_events} and
 * {@code memory_segments}: per device of each rank ({@code scope 'rank'}, {@code key 'cuda:<device>'}) the replay's
 * figures ({@link DeviceReplay}), and per workload their combination: the max over devices for the peaks and the
 * largest alloc (the device nearest to its limit decides), the sum for the counts and the internal waste, the mean
 * for memory_efficiency, fragmentation and alloc_rate_per_s.
 */
public final class MemoryMetrics {
    private MemoryMetrics() {}

    static final Metric PEAK_ALLOCATED_BYTES = Metric.of("peak_allocated_bytes");
    static final Metric PEAK_RESERVED_BYTES = Metric.of("peak_reserved_bytes");
    static final Metric MEMORY_EFFICIENCY = Metric.of("memory_efficiency");
    static final Metric FRAGMENTATION = Metric.of("fragmentation");
    static final Metric INTERNAL_WASTE_BYTES = Metric.of("internal_waste_bytes");
    static final Metric ALLOC_COUNT = Metric.of("alloc_count");
    static final Metric FREE_COUNT = Metric.of("free_count");
    static final Metric ALLOC_RATE_PER_S = Metric.of("alloc_rate_per_s");
    static final Metric OOM_COUNT = Metric.of("oom_count");
    static final Metric LARGEST_ALLOC_BYTES = Metric.of("largest_alloc_bytes");

    /** How the workload row of a metric combines the device rows. */
    private enum Combine {
        MAX,
        SUM,
        MEAN
    }

    /** A metric of the family: the reason a device has no value, and how devices combine. */
    private record Measure(Metric metric, String whyMissing, Combine combine) {}

    /** The metrics in the order every device reports them. */
    private static final List<Measure> METRICS = List.of(
            new Measure(PEAK_ALLOCATED_BYTES, null, Combine.MAX),
            new Measure(PEAK_RESERVED_BYTES, null, Combine.MAX),
            new Measure(MEMORY_EFFICIENCY, "no reserved memory at the peak of allocation", Combine.MEAN),
            new Measure(FRAGMENTATION, null, Combine.MEAN),
            new Measure(INTERNAL_WASTE_BYTES, null, Combine.SUM),
            new Measure(ALLOC_COUNT, null, Combine.SUM),
            new Measure(FREE_COUNT, null, Combine.SUM),
            new Measure(ALLOC_RATE_PER_S, "the trace spans no time (fewer than two distinct time_us)", Combine.MEAN),
            new Measure(OOM_COUNT, null, Combine.SUM),
            new Measure(LARGEST_ALLOC_BYTES, "no alloc in the trace", Combine.MAX));

    /** One device of a workload: which rank's snapshot, which CUDA device, and its replayed figures. */
    public record Device(Integer rank, int device, DeviceReplay.Result figures) {
        /** The device's trace entries (any order: replayed in ordinal order) and final segment rows. */
        public static Device replayed(
                Integer rank, int device, List<DeviceReplay.Event> events, List<DeviceReplay.SegmentRow> segments) {
            DeviceReplay replay = new DeviceReplay();
            events.stream()
                    .sorted(Comparator.comparingLong(DeviceReplay.Event::ordinal))
                    .forEach(replay::event);
            segments.forEach(replay::segmentRow);
            return new Device(rank, device, replay.result());
        }

        /** The figures in {@link #METRICS}' order; null where the device has no value. */
        List<Double> values() {
            DeviceReplay.Result f = figures;
            return Arrays.asList(
                    (double) f.peakAllocated(),
                    (double) f.peakReserved(),
                    f.memoryEfficiency(),
                    f.fragmentation(),
                    (double) f.internalWaste(),
                    (double) f.allocCount(),
                    (double) f.freeCount(),
                    f.allocRatePerS(),
                    (double) f.oomCount(),
                    f.largestAlloc() == null ? null : (double) f.largestAlloc());
        }
    }

    /** Devices in a fixed order (rank, nulls first, then device), so that the workload means sum in one order. */
    private static final Comparator<Device> DEVICE_ORDER =
            Comparator.comparing(Device::rank, SparkOrder.INT_NULLS_FIRST).thenComparingInt(Device::device);

    /** Every row of one workload: ten per device (scope rank), then ten workload rows. */
    public static List<MetricRow> workload(String workload, List<Device> devices) {
        List<Device> ordered = devices.stream().sorted(DEVICE_ORDER).toList();
        List<MetricRow> out = new ArrayList<>();
        List<List<Double>> values = new ArrayList<>();
        for (Device d : ordered) {
            List<Double> v = d.values();
            values.add(v);
            for (int m = 0; m < METRICS.size(); m++) {
                Measure metric = METRICS.get(m);
                Slot slot = metric.metric().at(Where.rank(d.rank()).keyed("cuda:" + d.device()));
                out.add(reading(slot, v.get(m), metric.whyMissing()).in(workload));
            }
        }
        if (ordered.isEmpty()) return out;
        for (int m = 0; m < METRICS.size(); m++) {
            Measure metric = METRICS.get(m);
            Double combined = combine(metric.combine(), values, m);
            // the workload has no value only when no device has one: say why a device has none
            Slot slot = metric.metric().workload();
            out.add(reading(slot, combined, Objects.requireNonNullElse(metric.whyMissing(), "no device has a value"))
                    .in(workload));
        }
        return out;
    }

    private static Slot.Reading reading(Slot slot, Double value, String whyMissing) {
        return value == null ? slot.missing(whyMissing) : slot.value(value);
    }

    /** max / sum / avg over the devices' non-null values (null when there is none), as Spark's aggregates. */
    private static Double combine(Combine how, List<List<Double>> values, int metric) {
        Double acc = null;
        long n = 0;
        for (List<Double> v : values) {
            Double x = v.get(metric);
            if (x == null) continue;
            n++;
            if (acc == null) acc = how == Combine.SUM || how == Combine.MEAN ? 0.0 + x : x;
            else acc = how == Combine.MAX ? (Double) Math.max(acc, x) : (Double) (acc + x);
        }
        if (acc == null || how != Combine.MEAN) return acc;
        return acc / (double) n;
    }

    /** The {@code memory_events} columns the replay reads, in the order {@link Devices#event} reads them. */
    public static final SideTable EVENTS = new SideTable(
            Tables.MEMORY_EVENTS, List.of("rank", "device", "ordinal", "action", "address", "size", "time_us"), null);

    /** The {@code memory_segments} columns the replay reads, in the order {@link Devices#segment} reads them. */
    public static final SideTable SEGMENTS = new SideTable(
            Tables.MEMORY_SEGMENTS,
            List.of("rank", "device", "row_kind", "address", "size", "requested_size", "state"),
            null);

    /**
     * One workload's {@code memory_events} and {@code memory_segments} rows, in any order, gathered per device (a
     * rank's CUDA device); {@link #rows} replays each device ({@link Device#replayed}: its trace sorted by ordinal,
     * stably, which is the order a sort by (rank, device, ordinal) gives; the final segments in any order, which the
     * replay's sums and maxima do not see) and gives the family's rows.
     */
    static final class Devices implements SideFamily {
        private record Key(Integer rank, int device) {}

        private final Map<Key, List<DeviceReplay.Event>> events = new LinkedHashMap<>();
        private final Map<Key, List<DeviceReplay.SegmentRow>> segments = new LinkedHashMap<>();

        @Override
        public void add(SideTable table, InternalRow row) {
            if (table.equals(EVENTS)) event(row);
            else segment(row);
        }

        @Override
        public SideRows.Result compute(String workload) {
            return new SideRows.Result(rows(workload), List.of());
        }

        /** A row of {@link #EVENTS}' columns. */
        private void event(InternalRow r) {
            events.computeIfAbsent(new Key(RowCells.intOrNull(r, 0), r.getInt(1)), k -> new ArrayList<>())
                    .add(new DeviceReplay.Event(
                            r.getLong(2),
                            RowCells.string(r, 3),
                            RowCells.longOrNull(r, 4),
                            RowCells.longOrNull(r, 5),
                            RowCells.longOrNull(r, 6)));
        }

        /** A row of {@link #SEGMENTS}' columns. */
        private void segment(InternalRow r) {
            segments.computeIfAbsent(new Key(RowCells.intOrNull(r, 0), r.getInt(1)), k -> new ArrayList<>())
                    .add(new DeviceReplay.SegmentRow(
                            RowCells.string(r, 2),
                            RowCells.longOrNull(r, 3),
                            RowCells.longOrNull(r, 4),
                            RowCells.longOrNull(r, 5),
                            RowCells.string(r, 6)));
        }

        /** The family's rows of the workload: none when it has no memory rows. */
        private List<MetricRow> rows(String workload) {
            Set<Key> devices = new LinkedHashSet<>(events.keySet());
            devices.addAll(segments.keySet());
            List<Device> replayed = new ArrayList<>(devices.size());
            for (Key k : devices) {
                replayed.add(Device.replayed(
                        k.rank(), k.device(), events.getOrDefault(k, List.of()), segments.getOrDefault(k, List.of())));
            }
            return workload(workload, replayed);
        }
    }
}
