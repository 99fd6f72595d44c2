package org.tracelake.jobs.ingest;

import java.util.Locale;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/** Progress lines a person can follow on a long run: one per workload, n of N, files, MB, events, elapsed. */
public final class Progress {
    private static final Logger LOG = LogManager.getLogger("tracelake.progress");

    private Progress() {}

    public static void workloadDone(int n, int total, WorkloadIngest w, String outcome) {
        LOG.info(String.format(
                Locale.ROOT,
                "[%d/%d] %s: %s — %d files, %.1f MB, %,d events, %.1f s",
                n,
                total,
                printable(w.workload()),
                outcome,
                w.files().size(),
                w.bytes() / 1e6,
                w.events(),
                w.elapsedMs() / 1e3));
        for (String problem : w.problems()) LOG.warn("    {}", printable(problem));
    }

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

    public static void info(String message) {
        LOG.info(message);
    }
}
