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
        if (e instanceof UnmatchedArgumentException u
                && !u.getUnmatched().isEmpty()
                && u.getUnmatched().get(0).startsWith("-")) {
            // picocli lists every word it could not place ("'--frmat', 'SELECT', '1'": the misspelt option and the
            // words after it); the first is the one to fix, and picocli knows the options it resembles
            List<String> near = nearest(u.getUnmatched().get(0), cmd);
            message = "unknown option '" + u.getUnmatched().get(0) + "'"
                    + (near.isEmpty() ? "" : "; did you mean " + String.join(" or ", near) + "?");
        }
        System.err.println(name + ": " + oneLine(message) + " (see " + name + " --help)");
        return ExitCodes.USAGE;
    }

    /**
     * The command's option names nearest to a misspelt one: those at the smallest edit distance, when it is at most 2
     * ("--frmat" → "--format", "--fulll" → "--full"); picocli's own suggestions share only the first two letters,
     * which "--frmat" does not. Empty when nothing is that near.
     */
    static List<String> nearest(String arg, CommandLine cmd) {
        String typed = arg.contains("=") ? arg.substring(0, arg.indexOf('=')) : arg;
        List<String> best = new ArrayList<>();
        int bestDistance = 3;
        for (CommandLine.Model.OptionSpec option : cmd.getCommandSpec().options()) {
            for (String name : option.names()) {
                int d = editDistance(typed, name);
                if (d < bestDistance) {
                    bestDistance = d;
                    best.clear();
                }
                if (d == bestDistance && !best.contains(name)) best.add(name);
            }
        }
        return best;
    }

    /** Levenshtein distance: insertions, deletions and substitutions of one character each. */
    static int editDistance(String a, String b) {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) previous[j] = j;
        for (int i = 1; i <= a.length(); i++) {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitute = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitute, Math.min(previous[j], current[j - 1]) + 1);
            }
            int[] t = previous;
            previous = current;
            current = t;
        }
        return previous[b.length()];
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
