package org.tracelake.jobs.readers.common;

import java.util.Collection;
import java.util.SortedSet;
import java.util.TreeSet;
import org.tracelake.jobs.readers.FileReport;
import org.tracelake.udfs.RankFromFileName;

/**
 * Ranks for files that hold several devices (an Nsight report of a process driving 4 GPUs, a single-host TPU or
 * GPU XSpace, a rocprof process): a rank the file name states applies to every row; otherwise each device is its
 * own rank, and host rows take the process's device when it used exactly one. Shared by the Nsight, rocprof,
 * XLA JSON and XSpace readers.
 */
public final class DeviceRanks {
    /** {@code trace_files.rank_source} when ranks are the device indexes found in the file. */
    public static final String RANK_FROM_DEVICE = "device";

    private final Integer fileRank;

    public DeviceRanks(String fileName) {
        this.fileRank = RankFromFileName.rank(fileName);
    }

    public Integer fileRank() {
        return fileRank;
    }

    /** Rank of a row on a device (null device: see {@link #forHost}). */
    public Integer forDevice(Integer device) {
        return fileRank != null ? fileRank : device;
    }

    /** Rank of a host row of a process that used these devices: the only one, or null when it used several. */
    public Integer forHost(Collection<Integer> devicesOfProcess) {
        if (fileRank != null) return fileRank;
        return devicesOfProcess != null && devicesOfProcess.size() == 1 ? devicesOfProcess.iterator().next() : null;
    }

    /**
     * The file's rank in {@code trace_files}: the file name's, else the single device's; with several devices the
     * file has no single rank (null) and metadata {@code ranks} lists them.
     */
    public void describe(FileReport report, Collection<Integer> devices) {
        SortedSet<Integer> sorted = new TreeSet<>(devices);
        if (fileRank != null) {
            report.resolveRank(null, fileRank);
        } else if (sorted.isEmpty()) {
            report.resolveRank(null, null);
        } else {
            report.rank = sorted.size() == 1 ? sorted.first() : null;
            report.deviceRanks.addAll(sorted);
            report.rankSource = RANK_FROM_DEVICE;
            report.metadata.put("ranks", sorted.toString());
            report.metadata.put("rank_note", "one rank per device index; a rank in the file name (rank<N>) overrides it");
        }
    }
}
