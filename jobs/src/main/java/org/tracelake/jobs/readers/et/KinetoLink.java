package org.tracelake.jobs.readers.et;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.tracelake.jobs.readers.FileReport;
import org.tracelake.jobs.readers.TraceFormat;
import org.tracelake.schemas.TraceFileSchema;

/**
 * What became of a workload's execution-trace link, in words on its ET files' {@code trace_files} rows
 * ({@code metadata['link']}). The link itself happens while the Kineto files are read ({@link EtSizes}: ingest reads
 * the ET files first, then the Kineto readers fill the kernels without a size from the ET nodes), so {@code events}
 * is written once; here the driver only words the outcome from the Kineto files' reports — no Spark job. Traces
 * from PyTorch before 2024 have no {@code Record function id}: nothing links, and the note says why.
 */
public final class KinetoLink {
    private KinetoLink() {}

    public static final String METADATA_KEY = "link";

    /**
     * Notes on the workload's usable ET files what the link did.
     *
     * @param reports the workload's file reports
     * @return kernels sized from execution traces
     */
    public static long note(List<FileReport> reports) {
        List<FileReport> etReports = new ArrayList<>();
        List<FileReport> kineto = new ArrayList<>();
        for (FileReport r : reports) {
            boolean usable = !r.fatal && TraceFileSchema.STATUS_OK.equals(r.status);
            if (usable && TraceFormat.PYTORCH_ET.id().equals(r.format)) etReports.add(r);
            if (!r.fatal && TraceFormat.KINETO.id().equals(r.format) && r.eventsRead > 0) kineto.add(r);
        }
        if (etReports.isEmpty()) return 0;
        if (etReports.stream().allMatch(r -> r.eventsRead == 0)) {
            note(etReports, "not linked: no execution-trace nodes were staged");
            return 0;
        }
        if (kineto.isEmpty()) {
            note(etReports, "not linked: this workload has no Kineto trace to link the ET nodes to");
            return 0;
        }
        if (kineto.stream().noneMatch(r -> r.recordFunctionIds)) {
            note(
                    etReports,
                    "not linked: the Kineto traces carry no '" + EtSizes.RF_ID_ARG + "' on their CPU ops (PyTorch "
                            + "before 2024), so ET nodes cannot be matched by rf_id; ET nodes ingested unlinked, message "
                            + "sizes stay as the Kineto trace gives them");
            return 0;
        }
        Map<Integer, Long> perRank = new HashMap<>();
        long total = 0;
        long unsized = 0;
        for (FileReport r : kineto) {
            if (r.etLinkedKernels > 0) perRank.merge(r.rank, r.etLinkedKernels, Long::sum);
            total += r.etLinkedKernels;
            unsized += r.unsizedCommKernels;
        }
        if (total == 0) {
            note(
                    etReports,
                    unsized > 0
                            ? "not linked: no communication kernel without a message size reaches an ET communication "
                                    + "node through its CPU op's '" + EtSizes.RF_ID_ARG + "'"
                            : "not needed: every communication kernel already has a message size from the Kineto trace");
            return 0;
        }
        for (FileReport r : etReports) {
            Long n = perRank.get(r.rank);
            r.metadata.put(
                    METADATA_KEY,
                    n == null
                            ? "linked 0 kernels of rank " + r.rank + " (" + total
                                    + " in the workload); bytes_source = et"
                            : "linked " + n + " communication kernels of rank " + r.rank + " by Record function id; "
                                    + "their message sizes now come from this file (bytes_source = et)");
        }
        return total;
    }

    private static void note(List<FileReport> etReports, String why) {
        for (FileReport r : etReports) r.metadata.put(METADATA_KEY, why);
    }
}
