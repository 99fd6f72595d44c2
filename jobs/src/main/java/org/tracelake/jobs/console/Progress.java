package org.tracelake.jobs.console;

import java.util.Locale;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/**
 * The lines a person follows on a long run (log4j's {@code tracelake.progress} logger: what ingest, the metrics phase,
 * refresh, maintenance and the reports are doing), and the two helpers every console line uses: names made printable
 * and counts with their noun. Kept at the bottom of the layers so that any package may log progress without depending
 * on the stage that first needed it.
 */
public final class Progress {
    private static final Logger LOG = LogManager.getLogger("tracelake.progress");

    private Progress() {}

    /**
     * A name or message as one log line (issue 29 item 10): workload and file names are data, and a newline or other
     * control character in one must not start a line of its own (a forged progress line) or move the cursor. Each is
     * written as an escape (backslash-n, backslash-u001b); a backslash is doubled so that the escape is unambiguous.
     */
    public static String printable(String s) {
        if (s == null) return "null";
        StringBuilder out = null;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            String esc = c == '\\'
                    ? "\\\\"
                    : c == '\n'
                            ? "\\n"
                            : c == '\r'
                                    ? "\\r"
                                    : c == '\t'
                                            ? "\\t"
                                            : Character.isISOControl(c) || c == '\u2028' || c == '\u2029'
                                                    ? String.format(Locale.ROOT, "\\u%04x", (int) c)
                                                    : null;
            if (esc != null && out == null) out = new StringBuilder(s.substring(0, i));
            if (out != null) out.append(esc != null ? esc : String.valueOf(c));
        }
        return out == null ? s : out.toString();
    }

    /** A count and its noun, singular for one ("1 file", "2 files"). */
    public static String count(long n, String noun) {
        return String.format(Locale.ROOT, "%,d %s", n, n == 1 ? noun : noun + "s");
    }

    public static void info(String message) {
        LOG.info(message);
    }

    /** A problem worth a person's attention that does not stop the run (a line already made printable). */
    public static void warn(String message) {
        LOG.warn(message);
    }
}
