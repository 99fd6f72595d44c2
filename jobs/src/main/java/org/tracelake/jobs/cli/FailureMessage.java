package org.tracelake.jobs.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * What a person reads when a command fails on something other than its input (a warehouse that cannot be written,
 * a lost cluster): the innermost cause, which names the file and the reason ("No space left on device … writing
 * /warehouse/_staging/…/part-0.parquet"), and the outermost exception's first line, which says what was being done.
 * Spark's messages embed whole stack traces; only their first line is kept. The stack trace goes to the log.
 */
final class FailureMessage {
    private FailureMessage() {}

    static String of(String command, Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) root = root.getCause();
        List<String> lines = new ArrayList<>();
        lines.add("tracelake " + command + " failed: " + firstLine(root));
        if (root != e) lines.add("  while: " + firstLine(e));
        if (command.equals("refresh") || command.equals("ingest")) {
            lines.add(
                    "  Workloads committed before the failure keep their new tables; every other table is as the previous"
                            + " run left it, and the next run starts over from there.");
        }
        return String.join("\n", lines);
    }

    private static String firstLine(Throwable t) {
        String m = t.getMessage() == null ? "" : t.getMessage().strip();
        int nl = m.indexOf('\n');
        String first = nl < 0 ? m : m.substring(0, nl).strip();
        return t.getClass().getSimpleName() + (first.isEmpty() ? "" : ": " + first);
    }
}
