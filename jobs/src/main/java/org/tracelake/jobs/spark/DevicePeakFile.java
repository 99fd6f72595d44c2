package org.tracelake.jobs.spark;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The check of a per-device table given as a setting ({@code spark.tracelake.devicePeakFlops},
 * {@code spark.tracelake.deviceInterconnectBw}; issue 29 item 11), run before a command reads anything: the file must be
 * a regular file of at most {@link #MAX_BYTES} (a FIFO or {@code /dev/zero} would never return), and every line
 * {@code pattern,<value>[,note]} with a valid regex and a positive finite number. A malformed file used to fail after
 * the whole ingest, with {@code ArrayIndexOutOfBoundsException}.
 */
final class DevicePeakFile {
    static final int MAX_BYTES = 1 << 20;

    private DevicePeakFile() {}

    /** The path of a peak-FLOPS table, when the file is usable; else why not (thrown). Empty: the bundled table. */
    static String check(String path) {
        return check(path, "peak_tflops");
    }

    /** The path of a table whose value column is {@code value}, when the file is usable; else why not (thrown). */
    static String check(String path, String value) {
        if (path.isEmpty()) return path;
        Path p = Path.of(path);
        BasicFileAttributes a;
        try {
            a = Files.readAttributes(p, BasicFileAttributes.class);
        } catch (IOException e) {
            throw new IllegalArgumentException("no such file " + path);
        }
        if (!a.isRegularFile()) throw new IllegalArgumentException(path + " is not a regular file");
        if (a.size() > MAX_BYTES) throw new IllegalArgumentException(path + " is over " + MAX_BYTES + " bytes");
        byte[] bytes;
        try (InputStream in = Files.newInputStream(p, LinkOption.NOFOLLOW_LINKS)) {
            bytes = in.readNBytes(MAX_BYTES + 1); // bounded even if the file grows
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read " + path + ": " + e.getMessage());
        }
        if (bytes.length > MAX_BYTES) throw new IllegalArgumentException(path + " is over " + MAX_BYTES + " bytes");
        String[] lines = new String(bytes, StandardCharsets.UTF_8).split("\n");
        for (int i = 0; i < lines.length; i++) {
            String l = lines[i].strip();
            if (l.isEmpty() || l.startsWith("#") || l.startsWith("pattern,")) continue;
            String[] f = l.split(",", 3);
            String where = path + " line " + (i + 1) + ": ";
            if (f.length < 2) throw new IllegalArgumentException(where + "takes pattern," + value + "[,note]");
            try {
                Pattern.compile(f[0]);
            } catch (PatternSyntaxException e) {
                throw new IllegalArgumentException(where + "pattern is not a valid regex: " + e.getDescription());
            }
            double number;
            try {
                number = Double.parseDouble(f[1].strip());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(where + value + " '" + f[1].strip() + "' is not a number");
            }
            if (!(number > 0) || Double.isInfinite(number)) {
                throw new IllegalArgumentException(where + value + " must be a positive finite number");
            }
        }
        return path;
    }
}
