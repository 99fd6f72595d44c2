package org.tracelake.jobs.metrics.side;

import static org.apache.spark.sql.functions.col;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import org.apache.spark.api.java.function.CoGroupFunction;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.tracelake.jobs.metrics.MetricRow;
import org.tracelake.schemas.MetricSchema;

/**
 * The memory family (METRICS.md §4 "Memory (from CUDA memory snapshots)") from {@code memory_events} and
 * {@code memory_segments}: per device of each rank ({@code scope 'rank'}, {@code key 'cuda:<device>'}) the replay's
 * figures ({@link DeviceReplay}), and per workload their combination: the max over devices for the peaks and the
 * largest alloc (the device nearest to its limit decides), the sum for the counts and the internal waste, the mean
 * for memory_efficiency, fragmentation and alloc_rate_per_s.
 */
public final class MemoryMetrics {
    private MemoryMetrics() {}

    /** How the workload row of a metric combines the device rows. */
    private enum Combine {
        MAX,
        SUM,
        MEAN
    }

    /** A metric of the family: its unit, the reason a device has no value, and how devices combine. */
    private record Metric(String name, String unit, String whyMissing, Combine combine) {}

    /** The metrics in the order every device reports them. */
    private static final List<Metric> METRICS = List.of(
            new Metric("peak_allocated_bytes", "bytes (requested sizes)", null, Combine.MAX),
            new Metric("peak_reserved_bytes", "bytes", null, Combine.MAX),
            new Metric("memory_efficiency", "ratio", "no reserved memory at the peak of allocation", Combine.MEAN),
            new Metric("fragmentation", "ratio", null, Combine.MEAN),
            new Metric("internal_waste_bytes", "bytes", null, Combine.SUM),
            new Metric("alloc_count", "count", null, Combine.SUM),
            new Metric("free_count", "count", null, Combine.SUM),
            new Metric(
                    "alloc_rate_per_s",
                    "1/s",
                    "the trace spans no time (fewer than two distinct time_us)",
                    Combine.MEAN),
            new Metric("oom_count", "count", null, Combine.SUM),
            new Metric("largest_alloc_bytes", "bytes (requested sizes)", "no alloc in the trace", Combine.MAX));

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
                Metric metric = METRICS.get(m);
                out.add(withStatus(
                        new MetricRow(
                                workload,
                                metric.name(),
                                null,
                                v.get(m),
                                metric.unit(),
                                "rank",
                                d.rank(),
                                null,
                                "cuda:" + d.device(),
                                null,
                                null),
                        metric.whyMissing()));
            }
        }
        if (ordered.isEmpty()) return out;
        for (int m = 0; m < METRICS.size(); m++) {
            Metric metric = METRICS.get(m);
            Double combined = combine(metric.combine(), values, m);
            // the workload has no value only when no device has one: say why a device has none
            out.add(withStatus(
                    new MetricRow(
                            workload,
                            metric.name(),
                            null,
                            combined,
                            metric.unit(),
                            "workload",
                            null,
                            null,
                            null,
                            null,
                            null),
                    Objects.requireNonNullElse(metric.whyMissing(), "no device has a value")));
        }
        return out;
    }

    private static MetricRow withStatus(MetricRow row, String whyMissing) {
        return row.value() == null
                ? row.withStatus(MetricSchema.STATUS_MISSING_INPUT, whyMissing)
                : row.withStatus(MetricSchema.STATUS_OK, null);
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

    private static final String[] EVENT_COLUMNS = {
        "workload", "rank", "device", "ordinal", "action", "address", "size", "time_us"
    };
    private static final String[] SEGMENT_COLUMNS = {
        "workload", "rank", "device", "row_kind", "address", "size", "requested_size", "state"
    };

    /**
     * The family's rows (of {@link MetricSchema#QUERY_SCHEMA}) for every workload of the given {@code memory_events}
     * and {@code memory_segments} rows: one shuffle, each workload's two tables cogrouped and sorted by device (and the
     * trace by ordinal), so that a device is replayed as its rows stream by.
     */
    public static Dataset<Row> rows(Dataset<Row> memoryEvents, Dataset<Row> memorySegments) {
        Dataset<Row> events = SideInputs.project(memoryEvents, EVENT_COLUMNS);
        Dataset<Row> segments = SideInputs.project(memorySegments, SEGMENT_COLUMNS);
        return events.groupByKey(SideInputs.WORKLOAD, Encoders.STRING())
                .cogroupSorted(
                        segments.groupByKey(SideInputs.WORKLOAD, Encoders.STRING()),
                        new Column[] {
                            col("rank").asc_nulls_first(),
                            col("device").asc(),
                            col("ordinal").asc()
                        },
                        new Column[] {
                            col("rank").asc_nulls_first(), col("device").asc()
                        },
                        new ReplayWorkload(),
                        Encoders.row(MetricSchema.QUERY_SCHEMA));
    }

    /** One workload's sorted events and segment rows, walked device by device. */
    private static final class ReplayWorkload implements CoGroupFunction<String, Row, Row, Row> {
        @Override
        public Iterator<Row> call(String workload, Iterator<Row> events, Iterator<Row> segments) {
            List<Device> devices = new ArrayList<>();
            Row e = events.hasNext() ? events.next() : null;
            Row s = segments.hasNext() ? segments.next() : null;
            while (e != null || s != null) {
                Row first = e == null ? s : s == null ? e : compareDevice(e, s) <= 0 ? e : s;
                Integer rank = first.isNullAt(1) ? null : first.getInt(1);
                int device = first.getInt(2);
                DeviceReplay replay = new DeviceReplay();
                while (e != null && sameDevice(e, rank, device)) {
                    replay.event(new DeviceReplay.Event(
                            e.getLong(3), e.getString(4), nullableLong(e, 5), nullableLong(e, 6), nullableLong(e, 7)));
                    e = events.hasNext() ? events.next() : null;
                }
                while (s != null && sameDevice(s, rank, device)) {
                    replay.segmentRow(new DeviceReplay.SegmentRow(
                            s.getString(3),
                            nullableLong(s, 4),
                            nullableLong(s, 5),
                            nullableLong(s, 6),
                            s.getString(7)));
                    s = segments.hasNext() ? segments.next() : null;
                }
                devices.add(new Device(rank, device, replay.result()));
            }
            return workload(workload, devices).stream().map(MetricRow::toRow).iterator();
        }

        private static int compareDevice(Row a, Row b) {
            int byRank = SparkOrder.INT_NULLS_FIRST.compare(
                    a.isNullAt(1) ? null : a.getInt(1), b.isNullAt(1) ? null : b.getInt(1));
            return byRank != 0 ? byRank : Integer.compare(a.getInt(2), b.getInt(2));
        }

        private static boolean sameDevice(Row r, Integer rank, int device) {
            return Objects.equals(r.isNullAt(1) ? null : r.getInt(1), rank) && r.getInt(2) == device;
        }
    }

    static Long nullableLong(Row r, int i) {
        return r.isNullAt(i) ? null : r.getLong(i);
    }
}
