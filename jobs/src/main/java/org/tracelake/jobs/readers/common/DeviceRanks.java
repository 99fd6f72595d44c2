package org.tracelake.jobs.readers.common;

import java.util.Collection;
import java.util.SortedSet;
import java.util.TreeSet;
import org.tracelake.jobs.readers.FileReport;
import org.tracelake.udfs.RankFromFileName;

/**
 * Ranks for files that may hold several devices (an Nsight report of a process driving 4 GPUs, a single-host TPU or
 * GPU XSpace, a rocprof process). A file with one device (or none) takes the rank its name states (rank3_…,
 * worker3…), else its device index. A file with several devices gives each device its own rank, its index, unless
 * the name says "rank" (rank3_train.sqlite: one rank's process that touched a second GPU): a {@code worker1} or
 * {@code _1.json} there names a host or a process (JAX writes one file per host, its devices inside), and putting
 * eight devices on one rank would merge their streams into one rank's timeline. Host rows take the process's
 * device when it used exactly one. Shared by the Nsight, rocprof, XLA JSON and XSpace readers.
 *
 * <p>Several multi-device files of one workload whose device indexes are local to their host (0–7 on every host)
 * then claim the same ranks, and ingest reports "two files claim one rank": tracelake does not guess a host's place
 * in the job.
 */
public final class DeviceRanks {
    /** {@code trace_files.rank_source} when ranks are the device indexes found in the file. */
    public static final String RANK_FROM_DEVICE = "device";

    private final Integer fileRank;
    /** The number the name states when the file has several devices, so it is not the rank (said in the report). */
    private final Integer nameNumberNotARank;

    /** @param devices the device indexes the file's index found (read before any row) */
    public DeviceRanks(String fileName, Collection<Integer> devices) {
        Integer named = RankFromFileName.rank(fileName);
        boolean severalDevices = devices.size() > 1;
        this.fileRank = severalDevices ? RankFromFileName.explicitRank(fileName) : named;
        this.nameNumberNotARank = fileRank == null ? named : null;
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
        return devicesOfProcess != null && devicesOfProcess.size() == 1
                ? devicesOfProcess.iterator().next()
                : null;
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
            report.metadata.put(
                    "rank_note",
                    nameNumberNotARank == null
                            ? "one rank per device index"
                            : "one rank per device index; the " + nameNumberNotARank
                                    + " in the file name names the host, not a rank," + " in a file of " + sorted.size()
                                    + " devices");
        }
    }
}
