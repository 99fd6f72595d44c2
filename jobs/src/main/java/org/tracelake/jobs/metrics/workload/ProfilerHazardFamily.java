package org.tracelake.jobs.metrics.workload;

import static org.tracelake.schemas.MetricSchema.STATUS_OK;

import java.io.Serializable;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import org.tracelake.jobs.metrics.Figure;
import org.tracelake.jobs.metrics.Metric;
import org.tracelake.jobs.metrics.workload.ProfilerHazardFamily.LaunchLedger.MissingLaunches;
import org.tracelake.jobs.rank.KernelTimePart.KernelTime;
import org.tracelake.jobs.rank.RankEvent;
import org.tracelake.jobs.rank.RankPart;
import org.tracelake.jobs.rank.RankSummary;
import org.tracelake.jobs.rank.StreamClipper.Clipped;
import org.tracelake.udfs.KernelNameRules;

/**
 * What the profiler got wrong or left out, so that a person reading the GPU figures knows how far to trust them:
 * {@code stream_overrun_ms}, the time clipped off GPU activities that ran past the start of the next activity on their
 * stream (figure {@code activities}: how many), and {@code missing_gpu_activities}, kernel launches the trace holds
 * no GPU activity of (figures {@code at_start}, launched before the first kernel the trace holds: the profiler dropped
 * the session's first kernels; {@code at_end}, launched after the last: still running when the profile stopped).
 * Per rank; workload = Σ over ranks.
 */
final class ProfilerHazardFamily {
    private ProfilerHazardFamily() {}

    static final Metric STREAM_OVERRUN_MS = Metric.of("stream_overrun_ms");
    static final Metric MISSING_GPU_ACTIVITIES = Metric.of("missing_gpu_activities");

    static void compute(Workload w) {
        overruns(w);
        missingActivities(w);
    }

    private static void overruns(Workload w) {
        double ms = 0;
        long activities = 0;
        boolean any = false;
        for (RankSummary r : w.ranks) {
            if (!r.part(KernelTime.class).any()) continue;
            any = true;
            Clipped c = r.part(Clipped.class);
            w.add(STREAM_OVERRUN_MS.at(r.rank).value(c.ns() / 1e6));
            w.add(OVERRUN_ACTIVITIES.at(r.rank).value((double) c.activities()));
            ms += c.ns() / 1e6;
            activities += c.activities();
        }
        if (!any) return;
        String reason = activities == 0
                ? null
                : String.format(
                        Locale.ROOT,
                        "%d GPU activities ran past the start of the next activity on their stream (%.3f ms in all);"
                                + " each was clipped there, so kernel times count each stream's time once",
                        activities,
                        ms);
        w.add(STREAM_OVERRUN_MS.workload().row(ms, STATUS_OK, reason));
        w.add(OVERRUN_ACTIVITIES.workload().row((double) activities, STATUS_OK, reason));
    }

    private static void missingActivities(Workload w) {
        long[] sum = new long[3];
        boolean any = false;
        StringBuilder ranksAtStart = new StringBuilder();
        for (RankSummary r : w.ranks) {
            long[] m = r.part(MissingLaunches.class).counts();
            if (m == null) continue;
            any = true;
            for (int i = 0; i < 3; i++) w.add(MISSING.get(i).at(r.rank).value((double) m[i]));
            for (int i = 0; i < 3; i++) sum[i] += m[i];
            if (m[1] > 0)
                ranksAtStart.append(ranksAtStart.length() == 0 ? "" : ", ").append(r.rank);
        }
        if (!any) return;
        String reason = null;
        if (sum[1] > 0) {
            reason = sum[1] + " kernel launches before the first kernel the trace holds have no GPU activity (rank "
                    + ranksAtStart + "): the profiler dropped the first kernels of its session, so GPU time, kernel"
                    + " counts and the first step's figures miss them";
        } else if (sum[0] > sum[2]) {
            reason = (sum[0] - sum[2]) + " kernel launches amid the recorded kernels have no GPU activity: the"
                    + " profiler lost them, so GPU figures miss them";
        } else if (sum[2] > 0) {
            reason = sum[2] + " kernel launches after the last recorded kernel have no GPU activity: they still ran"
                    + " when the profile stopped";
        }
        for (int i = 0; i < 3; i++) w.add(MISSING.get(i).workload().row((double) sum[i], STATUS_OK, reason));
    }

    private static final Figure OVERRUN_ACTIVITIES = STREAM_OVERRUN_MS.figure("activities");

    /** missing_gpu_activities' figures in the order of MissingLaunches' counts: all, at the start, at the end. */
    private static final List<Figure> MISSING = List.of(
            MISSING_GPU_ACTIVITIES.figure(null),
            MISSING_GPU_ACTIVITIES.figure("at_start"),
            MISSING_GPU_ACTIVITIES.figure("at_end"));

    /**
     * The rank's kernel launches (runtime and driver calls, udfs KernelNameRules.isKernelLaunch) and which of them the
     * trace holds a GPU activity of, matched by the launch's start, which a GPU activity carries as its launch time
     * ({@code launch_ts_ns}, joined on correlation by the reader). A launch without one ran on a GPU the profiler did not
     * record: CUPTI drops the first kernels of a session when its buffers are not ready, and a kernel still running when
     * the profile stops is never written. Counted only on a rank where some GPU activity is linked to its launch (without
     * links every launch would look unmatched).
     */
    static final class LaunchLedger implements RankPart {
        private long[] starts = new long[64];
        private int size;
        private boolean sorted = true;
        private BitSet matched;
        private boolean sawLink;

        @Override
        public void accept(RankEvent e) {
            if (e.ts == null) return;
            if (e.isGpu()) {
                if (e.launchTs != null) activity(e.launchTs);
            } else if (("cuda_runtime".equals(e.cat) || "cuda_driver".equals(e.cat))
                    && KernelNameRules.isKernelLaunch(e.name)) {
                launch(e.ts);
            }
        }

        @Override
        public Serializable finish(RankSummary done) {
            return new MissingLaunches(missing());
        }

        /**
         * Kernel launches without a GPU activity in the trace: {all, before the first launch whose activity is there,
         * after the last}; null when no GPU activity of the rank is linked to its launch.
         */
        public record MissingLaunches(long[] counts) implements Serializable {}

        /** A kernel launch call starting at ts (CPU-side events come in start order, before every GPU activity). */
        private void launch(long ts) {
            if (size > 0 && ts < starts[size - 1]) sorted = false;
            if (size == starts.length) starts = Arrays.copyOf(starts, size * 2);
            starts[size++] = ts;
        }

        /** A GPU activity launched at launchTs. */
        private void activity(long launchTs) {
            if (matched == null) {
                if (!sorted) Arrays.sort(starts, 0, size);
                matched = new BitSet(size);
            }
            sawLink = true;
            int i = Arrays.binarySearch(starts, 0, size, launchTs);
            if (i < 0) return;
            while (i > 0 && starts[i - 1] == launchTs) i--; // several launches at one instant: mark them all
            for (; i < size && starts[i] == launchTs; i++) matched.set(i);
        }

        /** Kernel launches without a GPU activity: {all, before the first matched launch, after the last}, or null. */
        private long[] missing() {
            if (!sawLink || matched == null || size == 0) return null;
            int first = matched.nextSetBit(0);
            int last = matched.previousSetBit(size - 1);
            if (first < 0) return new long[] {size, 0, 0};
            long all = (long) size - matched.cardinality();
            return new long[] {all, first, (long) size - 1 - last};
        }
    }
}
