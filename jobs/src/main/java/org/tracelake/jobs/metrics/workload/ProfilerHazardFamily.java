package org.tracelake.jobs.metrics.workload;

import static org.tracelake.schemas.MetricSchema.SCOPE_RANK;
import static org.tracelake.schemas.MetricSchema.SCOPE_WORKLOAD;
import static org.tracelake.schemas.MetricSchema.STATUS_OK;

import java.util.Locale;
import org.tracelake.jobs.rank.KernelTimePart.KernelTime;
import org.tracelake.jobs.rank.LaunchLedger.MissingLaunches;
import org.tracelake.jobs.rank.RankSummary;
import org.tracelake.jobs.rank.StreamClipper.Clipped;

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
            w.ok(OVERRUN, null, c.ns() / 1e6, "ms", SCOPE_RANK, r.rank, null, null);
            w.ok(OVERRUN, "activities", (double) c.activities(), "count", SCOPE_RANK, r.rank, null, null);
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
        w.row(OVERRUN, null, ms, "ms", SCOPE_WORKLOAD, null, null, null, STATUS_OK, reason);
        w.row(OVERRUN, "activities", (double) activities, "count", SCOPE_WORKLOAD, null, null, null, STATUS_OK, reason);
    }

    private static void missingActivities(Workload w) {
        long[] sum = new long[3];
        boolean any = false;
        StringBuilder ranksAtStart = new StringBuilder();
        for (RankSummary r : w.ranks) {
            long[] m = r.part(MissingLaunches.class).counts();
            if (m == null) continue;
            any = true;
            w.ok(MISSING, null, (double) m[0], "count", SCOPE_RANK, r.rank, null, null);
            w.ok(MISSING, "at_start", (double) m[1], "count", SCOPE_RANK, r.rank, null, null);
            w.ok(MISSING, "at_end", (double) m[2], "count", SCOPE_RANK, r.rank, null, null);
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
        w.row(MISSING, null, (double) sum[0], "count", SCOPE_WORKLOAD, null, null, null, STATUS_OK, reason);
        w.row(MISSING, "at_start", (double) sum[1], "count", SCOPE_WORKLOAD, null, null, null, STATUS_OK, reason);
        w.row(MISSING, "at_end", (double) sum[2], "count", SCOPE_WORKLOAD, null, null, null, STATUS_OK, reason);
    }

    private static final String OVERRUN = "stream_overrun_ms";
    private static final String MISSING = "missing_gpu_activities";
}
