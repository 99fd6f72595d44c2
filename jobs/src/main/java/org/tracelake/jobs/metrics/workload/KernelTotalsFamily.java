package org.tracelake.jobs.metrics.workload;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.tracelake.jobs.metrics.workload.KernelTotalsFamily.GpuTotalsPart.GpuKey;
import org.tracelake.jobs.metrics.workload.KernelTotalsFamily.GpuTotalsPart.GpuTotals;
import org.tracelake.jobs.rank.CommInstance;
import org.tracelake.jobs.rank.RankEvent;
import org.tracelake.jobs.rank.RankPart;
import org.tracelake.jobs.rank.RankSummary;
import org.tracelake.udfs.ActivityClass;
import org.tracelake.udfs.BusBandwidth;
import org.tracelake.udfs.KernelCategory;

/**
 * The kernel_totals table: per rank, GPU activities by name, class and category, and communication also by collective
 * kind and size bucket (calls, time, bytes, bus-bandwidth samples). It is what the reports' kernel and communication
 * tables sum, so that no report classifies events again.
 */
final class KernelTotalsFamily {
    private KernelTotalsFamily() {}

    static void compute(Workload w) {
        for (RankSummary r : w.ranks) add(w, r.rank, r);
        if (w.unranked != null) add(w, null, w.unranked);
    }

    private static void add(Workload w, Integer rank, RankSummary r) {
        List<Map.Entry<GpuKey, long[]>> other =
                new ArrayList<>(r.part(GpuTotals.class).byKey().entrySet());
        other.sort(Map.Entry.comparingByKey(KEY_ORDER));
        for (Map.Entry<GpuKey, long[]> e : other) {
            GpuKey k = e.getKey();
            w.kernelTotals.add(new Workload.KernelTotal(
                    rank,
                    k.name(),
                    k.activityClass(),
                    k.kernelCategory(),
                    null,
                    null,
                    e.getValue()[0],
                    e.getValue()[1],
                    null,
                    0));
        }
        // communication by (name, kind, size bucket), one call per collective instance (METRICS.md §2: S, busbw)
        Map<CommKey, long[]> comm = new TreeMap<>(COMM_ORDER);
        Map<CommKey, Long> bytes = new TreeMap<>(COMM_ORDER);
        for (CommInstance c : r.comm == null ? List.<CommInstance>of() : r.comm) {
            CommKey key = new CommKey(c.name(), c.kind(), BusBandwidth.sizeBucket(c.sizeBytes()));
            long[] t = comm.computeIfAbsent(key, k -> new long[3]);
            t[0]++;
            t[1] += c.dur();
            if (CommunicationFamily.isSample(c)) t[2]++;
            if (c.sizeBytes() != null) bytes.merge(key, c.sizeBytes(), Long::sum);
        }
        comm.forEach((k, t) -> w.kernelTotals.add(new Workload.KernelTotal(
                rank,
                k.name,
                ActivityClass.COMM,
                KernelCategory.COMM,
                k.kind,
                k.bucket,
                t[0],
                t[1],
                bytes.get(k),
                t[2])));
    }

    private record CommKey(String name, String kind, Long bucket) {}

    private static final Comparator<String> NULLS_FIRST = Comparator.nullsFirst(String::compareTo);
    private static final Comparator<GpuKey> KEY_ORDER = Comparator.comparing(GpuKey::name, NULLS_FIRST)
            .thenComparing(GpuKey::activityClass, NULLS_FIRST)
            .thenComparing(GpuKey::kernelCategory, NULLS_FIRST);
    private static final Comparator<CommKey> COMM_ORDER = Comparator.comparing(CommKey::name, NULLS_FIRST)
            .thenComparing(CommKey::kind, NULLS_FIRST)
            .thenComparing(CommKey::bucket, Comparator.nullsFirst(Long::compareTo));

    /**
     * The rank's GPU activities other than communication, grouped by (name, activity class, kernel category): calls and Σ
     * dur (kernel_totals). Communication is counted by instance from the rank's collective instances instead.
     */
    static final class GpuTotalsPart implements RankPart {
        private final Map<GpuKey, long[]> totals = new HashMap<>();

        @Override
        public void accept(RankEvent e) {
            if (!e.isGpu() || e.ts == null || ActivityClass.COMM.equals(e.activityClass)) return;
            long[] t = totals.computeIfAbsent(new GpuKey(e.name, e.activityClass, e.kernelCategory), k -> new long[2]);
            t[0]++;
            t[1] += e.dur;
        }

        @Override
        public Serializable finish(RankSummary done) {
            return new GpuTotals(totals);
        }

        /** A group of a rank's GPU activities in kernel_totals. */
        public record GpuKey(String name, String activityClass, String kernelCategory) implements Serializable {}

        /** Per group: {calls, Σ dur ns}. */
        public record GpuTotals(Map<GpuKey, long[]> byKey) implements Serializable {}
    }
}
