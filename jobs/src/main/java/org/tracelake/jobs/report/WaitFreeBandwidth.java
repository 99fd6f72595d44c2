package org.tracelake.jobs.report;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.tracelake.jobs.report.ReportModel.MetricRow;

/**
 * Bus bandwidth per collective kind two ways, side by side, from the workload's metric rows (METRICS.md §4):
 * {@code busbw_gbps} times each rank's whole kernel, waiting for the other ranks included; {@code wait_free_busbw_gbps}
 * times each matched collective by its shortest rank, the one that waited for nobody (TraceLens's definition). A
 * report that shows one shows the other, with {@link #WHY} under them.
 *
 * @param waitMs Σ over ranks of collective_wait (ms), or null when the workload has none
 */
record WaitFreeBandwidth(List<Kind> kinds, Double waitMs) {
    /** The one line that says why the two differ. */
    static final String WHY = "busbw times each rank's whole kernel, so it includes the time a rank waits inside the"
            + " collective for the others to arrive; wait-free busbw times each collective by its shortest rank (the"
            + " last to arrive, who waited for nobody), as TraceLens does: the gap is waiting, not the network.";

    /**
     * The line that says why busbw and CCL-Bench's bandwidth_utilization_* differ (METRICS.md §4 busbw_gbps): the same
     * median over the same kernels, in other units and, for all_gather, of another size.
     */
    static final String WHY_CCL_BENCH = "CCL-Bench GiB/s (bandwidth_utilization_*) is the same per-kernel median in"
            + " CCL-Bench's units: GiB/s (2^30 bytes, so 7.4% below GB/s) with every kind sized by its input (In msg"
            + " nelems); busbw sizes all_gather by its output, n times its input, so CCL-Bench's all_gather figure is about"
            + " n times lower.";

    /** One kind: busbw median; wait-free median, p10, p90; the wait-free row's reason (partial / not meaningful). */
    record Kind(String kind, Double busbw, Double waitFree, Double p10, Double p90, String note) {}

    static WaitFreeBandwidth of(ReportModel m) {
        List<MetricRow> w = m.workloadMetrics();
        TreeSet<String> kinds = new TreeSet<>();
        for (MetricRow r : w) {
            if ((r.metric().equals("busbw_gbps") || r.metric().equals("wait_free_busbw_gbps")) && r.key() != null) {
                kinds.add(r.key());
            }
        }
        List<Kind> out = new ArrayList<>();
        for (String k : kinds) {
            String note = null;
            for (MetricRow r : w) {
                if (r.metric().equals("wait_free_busbw_gbps") && "median".equals(r.figure()) && k.equals(r.key())) {
                    note = r.reason();
                }
            }
            out.add(new Kind(
                    k,
                    TextReport.value(w, "busbw_gbps", null, k),
                    TextReport.value(w, "wait_free_busbw_gbps", "median", k),
                    TextReport.value(w, "wait_free_busbw_gbps", "p10", k),
                    TextReport.value(w, "wait_free_busbw_gbps", "p90", k),
                    note));
        }
        return new WaitFreeBandwidth(out, TextReport.value(w, "collective_wait", "total_ms", null));
    }
}
