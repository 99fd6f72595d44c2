package org.tracelake.jobs.ingest;

import java.util.Locale;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;

/** Progress lines a person can follow on a long run: one per workload, n of N, files, MB, events, elapsed. */
public final class Progress {
    private static final Logger LOG = LogManager.getLogger("tracelake.progress");

    private Progress() {}

    /**
     * A workload's line once the stage that read it is done: its files, bytes and events. No time of its own: every
     * workload is read in the same Spark jobs, so the stage's time is said once, after the last line.
     */
    public static void workloadDone(int n, int total, WorkloadIngest w, String outcome) {
        LOG.info(String.format(
                Locale.ROOT,
                "[%d/%d] %s: %s — %s, %.1f MB, %s",
                n,
                total,
                printable(w.workload()),
                outcome,
                count(w.files().size(), "file"),
                w.bytes() / 1e6,
                count(w.events(), "event")));
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

    /** A count and its noun, singular for one ("1 file", "2 files"). */
    public static String count(long n, String noun) {
        return String.format(Locale.ROOT, "%,d %s", n, n == 1 ? noun : noun + "s");
    }

    public static void info(String message) {
        LOG.info(message);
    }
}
