package org.tracelake.jobs.ingest;

import java.nio.charset.StandardCharsets;
import org.tracelake.jobs.warehouse.Warehouse;
import org.tracelake.schemas.card.Hashes;

/**
 * Whether a workload's name can be its tables' partition folder: {@code workload=<Hive-escaped name>} must fit the
 * 255 bytes most file systems allow a name (ext4, XFS, HDFS's default). 250 characters, or 100 quotes (each escaped
 * to three), do not.
 */
public final class PartitionNames {
    /** The longest file name ext4, XFS and HDFS (dfs.namenode.fs-limits.max-component-length) accept, in bytes. */
    public static final int MAX_NAME_BYTES = 255;

    private PartitionNames() {}

    /**
     * The {@code workload} value of a workload's {@code trace_files} rows: its name, or for a name too long to be a
     * folder a stand-in that fits — as many of its first characters as fit, {@code ~} and 16 hex digits of its
     * SHA-256 (two long names never share one). The ledger row of such a workload says why it was not read, and its
     * {@code path} is the folder's own.
     */
    public static String ledgerName(String workload) {
        if (tooLong(workload) == null) return workload;
        String tag = "~"
                + Hashes.sha256Hex(workload.getBytes(StandardCharsets.UTF_8)).substring(0, 16);
        int end = 0;
        while (end < workload.length()) {
            int next = end + Character.charCount(workload.codePointAt(end));
            if (tooLong(workload.substring(0, next) + tag) != null) break;
            end = next;
        }
        return workload.substring(0, end) + tag;
    }

    /** Why the workload's name cannot be a partition folder, or null when it can. */
    public static String tooLong(String workload) {
        int bytes = Warehouse.partitionDir(workload).getBytes(StandardCharsets.UTF_8).length;
        if (bytes <= MAX_NAME_BYTES) return null;
        return "the workload folder's name is too long for a table folder: as workload=<name>, escaped, it is " + bytes
                + " bytes, over the " + MAX_NAME_BYTES + " a file name may have; rename the folder to a shorter name"
                + " (characters other than letters, digits, '-', '_' and '.' count three bytes or more each)";
    }
}
