package org.tracelake.jobs.readers;

import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * What a file that no reader takes is, in words a person acts on ("a zip archive"), from its first decoded bytes and
 * its name; the fallback shows the first bytes.
 */
public final class UnrecognisedFiles {
    private UnrecognisedFiles() {}

    public static String describe(String fileName, byte[] head) {
        String n = fileName.toLowerCase(Locale.ROOT);
        if (startsWith(head, 'P', 'K', 3, 4) || startsWith(head, 'P', 'K', 5, 6)) {
            return "a zip archive: unpack it into the workload folder";
        }
        if (head.length >= 262 && new String(head, 257, 5, StandardCharsets.ISO_8859_1).equals("ustar")) {
            return "a tar archive: unpack it into the workload folder";
        }
        if (n.endsWith(".et") || n.endsWith(".et.gz")) {
            return "a Chakra protobuf execution trace (not supported; export the JSON execution trace instead)";
        }
        if (startsWith(head, 0x28, 0xb5, 0x2f, 0xfd)) return "zstd-compressed (decompress it, or gzip it instead)";
        if (startsWith(head, 'B', 'Z', 'h')) return "bzip2-compressed (decompress it, or gzip it instead)";
        if (startsWith(head, 0xfd, '7', 'z', 'X', 'Z')) return "xz-compressed (decompress it, or gzip it instead)";
        if (startsWith(head, 0x89, 'P', 'N', 'G') || startsWith(head, 0xff, 0xd8, 0xff)) return "an image";
        if (startsWith(head, '%', 'P', 'D', 'F')) return "a PDF document";
        return "not a recognised trace format (first bytes: " + printable(head) + ")";
    }

    /** The first bytes of a file, printable. */
    public static String printable(byte[] head) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < Math.min(16, head.length); i++) {
            int b = head[i] & 0xff;
            sb.append(b >= 0x20 && b < 0x7f ? String.valueOf((char) b) : String.format(Locale.ROOT, "\\x%02x", b));
        }
        return sb.length() == 0 ? "none" : "'" + sb + "'";
    }

    private static boolean startsWith(byte[] head, int... magic) {
        if (head.length < magic.length) return false;
        for (int i = 0; i < magic.length; i++) if ((head[i] & 0xff) != magic[i]) return false;
        return true;
    }
}
