package org.tracelake.jobs.readers.nsys;

import java.io.File;
import java.io.IOException;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.tracelake.jobs.readers.InputRefusedException;

/**
 * Turns an {@code .nsys-rep} report into the SQLite export the reader understands, with NVIDIA's own
 * {@code nsys export} when that command is on the PATH; otherwise the file fails with the exact command to run.
 * The command is run directly (no shell), with the file path as one argument.
 */
final class NsysExport implements Serializable {
    private static final long TIMEOUT_MINUTES = 60;

    private final String searchPath;

    NsysExport(String searchPath) {
        this.searchPath = searchPath;
    }

    static NsysExport fromEnvironment() {
        return new NsysExport(System.getenv("PATH"));
    }

    /** The {@code nsys} executable on the search path, or null. */
    File findNsys() {
        if (searchPath == null) return null;
        for (String dir : searchPath.split(File.pathSeparator)) {
            if (dir.isEmpty()) continue;
            File candidate = new File(dir, "nsys");
            if (candidate.isFile() && candidate.canExecute()) return candidate;
        }
        return null;
    }

    /** What a person runs to convert the report by hand. */
    static String manualCommand(String reportName) {
        return "nsys export --type sqlite --output " + sqliteName(reportName) + " " + reportName;
    }

    static String sqliteName(String reportName) {
        String stem = reportName.replaceFirst("\\.(nsys-rep|qdrep)$", "");
        return stem + ".sqlite";
    }

    /** Exports the local report into {@code out}; throws with nsys's own words when it fails. */
    void export(File report, File out, String reportName) throws IOException {
        File nsys = findNsys();
        if (nsys == null) {
            throw new InputRefusedException(
                    "an Nsight Systems report (.nsys-rep) needs the nsys command to be read, and "
                            + "none is on the PATH: convert it where Nsight Systems is installed with `"
                            + manualCommand(reportName)
                            + "` and put the .sqlite file in the archive instead (or beside it, then remove the report)");
        }
        File log = new File(out.getParentFile(), "nsys-export.log");
        Process process = new ProcessBuilder(List.of(
                        nsys.getPath(), "export", "--type", "sqlite", "--output", out.getPath(), report.getPath()))
                .redirectErrorStream(true)
                .redirectOutput(log)
                .start();
        try {
            if (!process.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new IOException("nsys export did not finish within " + TIMEOUT_MINUTES
                        + " minutes: convert it by hand with `" + manualCommand(reportName) + "`");
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while nsys export ran", e);
        }
        if (process.exitValue() != 0 || !out.isFile()) {
            throw new IOException("nsys export failed (exit " + process.exitValue() + "): " + tail(log) + "; try `"
                    + manualCommand(reportName) + "` by hand");
        }
    }

    private static String tail(File log) {
        try {
            String text = Files.readString(log.toPath(), StandardCharsets.UTF_8).strip();
            return text.length() <= 400 ? text : "…" + text.substring(text.length() - 400);
        } catch (IOException e) {
            return "(no output)";
        }
    }
}
