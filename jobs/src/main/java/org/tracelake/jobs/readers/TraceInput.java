package org.tracelake.jobs.readers;

import java.io.BufferedInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.zip.GZIPInputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.tracelake.jobs.spark.Settings;

/**
 * Opens an input file from any Hadoop file system for streaming: gunzips when the content starts with the gzip
 * magic (whatever the name says), enforces the expansion limit, and can hash the raw bytes as they pass.
 */
public final class TraceInput {
    private TraceInput() {}

    /** A stream over a file's decoded content; {@link #drainAndHash()} gives the hash of the raw file once it was read. */
    public static final class Opened extends FilterInputStream {
        private final MessageDigest digest;
        private final InputStream raw;
        private final boolean gzipped;

        private Opened(InputStream in, InputStream raw, MessageDigest digest, boolean gzipped) {
            super(in);
            this.raw = raw;
            this.digest = digest;
            this.gzipped = gzipped;
        }

        public boolean gzipped() {
            return gzipped;
        }

        /**
         * "sha256:<hex>" of the whole raw (still compressed) file, or null when not hashing. Reads what the parser
         * left unread (trailing bytes after the JSON, the gzip trailer) so the hash covers every byte.
         */
        public String drainAndHash() throws IOException {
            if (digest == null) return null;
            byte[] sink = new byte[8192]; // what the parser left: a gzip trailer, trailing bytes
            while (raw.read(sink) >= 0) {
                // only the digest needs these bytes
            }
            return "sha256:" + HexFormat.of().formatHex(digest.digest());
        }
    }

    public static Opened open(String path, Configuration conf, InputLimits limits, boolean hash) throws IOException {
        Path p = new Path(path);
        FileSystem fs = p.getFileSystem(conf);
        long size = fs.getFileStatus(p).getLen();
        // 64 kB buffers, or the file's size when smaller: a file is opened up to three times (sniff, two passes), and
        // for a small one (a card, a short telemetry file) zeroing the buffers cost more than reading it
        int bufferSize = (int) Math.max(512, Math.min(1 << 16, size + 1));
        InputStream raw = RegularFiles.open(fs, p, bufferSize);
        MessageDigest digest = null;
        if (hash) {
            digest = sha256();
            raw = new DigestInputStream(raw, digest);
        }
        BufferedInputStream buffered = new BufferedInputStream(raw, bufferSize);
        boolean gzipped = startsWithGzipMagic(buffered);
        InputStream decoded = gzipped
                ? new ExpansionLimitedStream(
                        new GZIPInputStream(buffered, bufferSize), limits.maxExpandedBytes(size), path)
                : buffered;
        return new Opened(decoded, buffered, digest, gzipped);
    }

    /** The first {@code n} decoded bytes (gunzipped when needed), for format sniffing. */
    public static byte[] head(String path, Configuration conf, int n) throws IOException {
        try (Opened in = open(path, conf, InputLimits.defaults(), false)) {
            return in.readNBytes(n);
        }
    }

    private static boolean startsWithGzipMagic(BufferedInputStream in) throws IOException {
        in.mark(2);
        int b0 = in.read();
        int b1 = in.read();
        in.reset();
        return b0 == 0x1f && b1 == 0x8b;
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JVM has no SHA-256", e);
        }
    }

    /** Refuses to decompress past a limit, so a gzip bomb fails fast instead of filling a disk or a heap. */
    static final class ExpansionLimitedStream extends FilterInputStream {
        private final long limit;
        private final String path;
        private long count;

        ExpansionLimitedStream(InputStream in, long limit, String path) {
            super(in);
            this.limit = limit;
            this.path = path;
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) add(1);
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n > 0) add(n);
            return n;
        }

        private void add(long n) throws IOException {
            count += n;
            if (count > limit) {
                throw new InputRefusedException("gzip content expands past " + limit + " bytes (limit "
                        + Settings.GZIP_MAX_EXPANSION_RATIO.name() + " x compressed size, at least "
                        + Settings.GZIP_MIN_EXPANDED_BYTES.name()
                        + "); refusing it as a possible gzip bomb. Raise the limit with --conf if the file is genuine: "
                        + path);
            }
        }
    }
}
