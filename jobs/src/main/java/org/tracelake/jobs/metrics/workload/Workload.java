package org.tracelake.jobs.metrics.workload;

import java.util.ArrayList;
import java.util.List;
import org.tracelake.jobs.metrics.MetricRow;
import org.tracelake.jobs.metrics.Slot;
import org.tracelake.jobs.rank.CommInstance;
import org.tracelake.jobs.rank.RankSummary;

/**
 * One workload as its metric families see it: its card, every rank's summary (in rank order), the execution-trace
 * all_to_all nodes, the device peaks table; and what the families computed, to be written as tables.
 */
public final class Workload {
    public final String name;
    public final Card card;
    public final List<RankSummary> ranks;
    /** The events without a rank (an XLA trace's host lines), or null: only the XLA wall time and copies read them. */
    public final RankSummary unranked;

    public final List<EtAllToAll> etAllToAll;
    public final DevicePeakTable peaks;

    public final List<MetricRow> metrics = new ArrayList<>();
    public final List<Member> members = new ArrayList<>();
    public final List<Instance> instances = new ArrayList<>();
    public final List<Pair> pairs = new ArrayList<>();
    public final List<KernelTotal> kernelTotals = new ArrayList<>();
    /** Each member's lead-in window (lateness_cause), by member; members of ranks without one are absent. */
    public final java.util.IdentityHashMap<Member, LeadIn> leadIns = new java.util.IdentityHashMap<>();
    /** The cause of each instance with a lag of at least 10 µs (lateness_cause), by instance. */
    public final java.util.IdentityHashMap<Instance, Cause> causes = new java.util.IdentityHashMap<>();

    /** A member's lead-in window: its start, and its compute and idle time (ns). */
    public record LeadIn(long from, long computeNs, long idleNs) {}

    /**
     * Why an instance's last arriver was late: the cause, and its window against the other ranks' medians (ns).
     */
    public record Cause(String cause, long deltaStartNs, long deltaComputeNs, long deltaIdleNs) {}

    /** Match keys on which ranks disagree about the number of collectives (set by the cross-rank join), or null. */
    public String mismatch;

    /** A rank's part in a matched collective instance (collective_members). */
    public record Member(
            int rank,
            String matchKey,
            boolean bySeq,
            long k,
            long ts,
            long end,
            String kind,
            Integer groupSize,
            Long sizeBytes,
            CommInstance op) {}

    /** A collective instance at least two ranks took part in (collectives). */
    public record Instance(
            String matchKey,
            String matchBy,
            long k,
            String kind,
            Integer groupSize,
            Long bytes,
            int ranks,
            long minStart,
            long maxStart,
            long minEnd,
            long maxEnd,
            Integer lastRank,
            Double busbw) {
        public long lag() {
            return maxStart - minStart;
        }
    }

    /** Bytes one rank sent another in one all_to_all instance (all_to_all_pairs). */
    public record Pair(String matchKey, long k, String source, int srcRank, int dstRank, Long bytes) {}

    /** One group of a rank's GPU activities (kernel_totals); rank null for events without one. */
    public record KernelTotal(
            Integer rank,
            String name,
            String activityClass,
            String kernelCategory,
            String collective,
            Long sizeBucket,
            long calls,
            long durNs,
            Long bytes,
            long busbwSamples) {}

    public Workload(
            String name,
            Card card,
            List<RankSummary> ranks,
            RankSummary unranked,
            List<EtAllToAll> etAllToAll,
            DevicePeakTable peaks) {
        this.name = name;
        this.card = card;
        this.ranks = ranks;
        this.unranked = unranked;
        this.etAllToAll = etAllToAll;
        this.peaks = peaks;
    }

    /** Adds a row written through a catalog handle ({@link org.tracelake.jobs.metrics.Metric}, declared by the family). */
    public void add(Slot.Reading reading) {
        metrics.add(reading.in(name));
    }
}
