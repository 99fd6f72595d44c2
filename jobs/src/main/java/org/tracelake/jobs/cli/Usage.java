package org.tracelake.jobs.cli;

import java.util.ArrayList;
import java.util.List;
import org.tracelake.jobs.refresh.RemovalGuard;
import org.tracelake.jobs.spark.Settings;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * Usage errors (issue 29 item 11): a command line a scheduler must not retry as is. Each exits {@link ExitCodes#USAGE}
 * with one line on standard error that names the option and what it takes: picocli's own parse errors (an unknown
 * option or command, a missing value, {@code generate} without {@code -o}), a {@code --conf} value a setting does
 * not take, a warehouse path that is a file.
 */
public final class Usage {
    private Usage() {}

    /** A usage error found once the command runs, before it has read or written anything. */
    public static final class Error extends RuntimeException {
        public Error(String message) {
            super(message);
        }
    }

    /** picocli's handler for parse errors: the one line, exit 2 (help is one {@code --help} away). */
    public static int parameterError(ParameterException e, String[] args) {
        CommandLine cmd = e.getCommandLine();
        String name = cmd.getCommandSpec().qualifiedName();
        String message = e.getMessage();
        if (e instanceof UnmatchedArgumentException u
                && cmd.getParent() == null
                && !u.getUnmatched().isEmpty()
                && !u.getUnmatched().get(0).startsWith("-")) {
            List<String> commands = new ArrayList<>(cmd.getSubcommands().keySet());
            message = "unknown command '" + u.getUnmatched().get(0) + "'; the commands are "
                    + String.join(", ", commands);
        }
        System.err.println(name + ": " + oneLine(message) + " (see " + name + " --help)");
        return ExitCodes.USAGE;
    }

    /** Whether a failure of a running command is a usage error: a bad setting or a {@link Error}. */
    public static boolean is(Throwable e) {
        return e instanceof Settings.InvalidValueException || e instanceof Error || e instanceof RemovalGuard.Refused;
    }

    /** The line a usage error found while running prints. */
    public static String line(String command, Throwable e) {
        return "tracelake " + command + ": " + oneLine(e.getMessage());
    }

    private static String oneLine(String m) {
        return m == null ? "" : m.strip().replaceAll("\\s*\\R\\s*", " ");
    }
}
