package org.tracelake.jobs.archive;

import java.io.Serializable;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * One workload as found in the archive: its card(s), every other file below its folder, and the entries the scan
 * refused to open (links that leave the archive or lead nowhere, FIFOs and devices). A listing only: nothing here has
 * been read.
 */
public record WorkloadFolder(
        String name, String path, List<InputFile> cards, List<InputFile> files, List<Refused> refused)
        implements Serializable {

    public WorkloadFolder(String name, String path, List<InputFile> cards, List<InputFile> files) {
        this(name, path, cards, files, List.of());
    }

    /** The archive the folder was found in: every workload folder sits directly below its root. */
    public String archiveRoot() {
        return new org.apache.hadoop.fs.Path(path).getParent().toString();
    }

    /**
     * A digest of the folder's listing: every card, file and refused entry, by path, with its size and modification
     * time (a refused entry as the ledger records it: size 0, time 0). Equal digests mean the listing the ledger rows
     * of the workload were made from is the listing now, so a refresh passes the workload over without reading them.
     */
    public long listingDigest() {
        List<InputFile> entries = new ArrayList<>(files);
        entries.addAll(cards);
        for (Refused r : refused) entries.add(new InputFile(r.path(), 0, 0));
        entries.sort(Comparator.comparing(InputFile::path));
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
        ByteBuffer numbers = ByteBuffer.allocate(16);
        for (InputFile f : entries) {
            sha.update(f.path().getBytes(StandardCharsets.UTF_8));
            numbers.clear();
            numbers.putLong(f.sizeBytes()).putLong(f.modifiedAtMs());
            sha.update((byte) 0); // no path is a prefix of the next entry's bytes
            sha.update(numbers.array());
        }
        return ByteBuffer.wrap(sha.digest()).getLong();
    }

    /** A file's listing entry: path, size and modification time, as the file system reports them. */
    public record InputFile(String path, long sizeBytes, long modifiedAtMs) implements Serializable {
        public String fileName() {
            int slash = path.lastIndexOf('/');
            return slash < 0 ? path : path.substring(slash + 1);
        }
    }

    /**
     * An entry of the folder that is never opened, and why. {@code error}: someone should look (a dangling link, a
     * loop, a FIFO: a rank may be missing); otherwise it is merely skipped (a link to outside the archive).
     */
    public record Refused(String path, String reason, boolean error) implements Serializable {}
}
