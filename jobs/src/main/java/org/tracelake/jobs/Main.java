package org.tracelake.jobs;

import java.util.List;
import org.apache.logging.log4j.LogManager;
import org.tracelake.jobs.cli.CheckCommand;
import org.tracelake.jobs.cli.ExitCodes;
import org.tracelake.jobs.cli.ExportCommand;
import org.tracelake.jobs.cli.GenerateCommand;
import org.tracelake.jobs.cli.HelpText;
import org.tracelake.jobs.cli.IngestCommand;
import org.tracelake.jobs.cli.MaintainCommand;
import org.tracelake.jobs.cli.MigrateCommand;
import org.tracelake.jobs.cli.RefreshCommand;
import org.tracelake.jobs.cli.ReportCommand;
import org.tracelake.jobs.cli.ServeCommand;
import org.tracelake.jobs.cli.SqlCommand;
import org.tracelake.jobs.cli.Usage;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The command line of every tracelake job. Run by {@code bin/tracelake <job> …} on a laptop, or as the main class
 * of the application jar under {@code spark-submit … tracelake-jobs-*-app.jar <job> …}.
 */
@Command(
        name = "tracelake",
        mixinStandardHelpOptions = true,
        version = "tracelake 0.1.0",
        description = "Turns archives of distributed training/inference traces into Parquet tables and metrics.")
public final class Main implements Runnable {
    /** Every job, in the order {@code tracelake --help} lists them. */
    private static final List<Class<?>> COMMANDS = List.of(
            RefreshCommand.class,
            IngestCommand.class,
            SqlCommand.class,
            ServeCommand.class,
            ReportCommand.class,
            ExportCommand.class,
            MaintainCommand.class,
            CheckCommand.class,
            MigrateCommand.class,
            GenerateCommand.class,
            CommandLine.HelpCommand.class);

    @Override
    public void run() {
        commandLine(null).usage(System.out);
    }

    /**
     * The command line with the jobs it needs: only the named one when the first argument names a job (picocli builds
     * every registered command's model by reflection at start, a good share of a short {@code sql --remote}'s start),
     * every job otherwise (the list of {@code --help}, {@code help JOB}, suggestions for a misspelt job).
     */
    public static CommandLine commandLine(String first) {
        // picocli's default factory looks for Groovy's Closure class as it is first used, unless told not to: a class
        // that is not on the class path, so every one of its 200 jars was opened for it, a third of a second of every
        // start (most of a quick `sql` through serve). tracelake's commands are plain Java, never Groovy closures.
        System.setProperty("picocli.disable.closures", "true");
        CommandLine cmd = new CommandLine(new Main());
        Class<?> named = null;
        for (Class<?> c : COMMANDS) {
            if (c != CommandLine.HelpCommand.class
                    && c.getAnnotation(Command.class).name().equals(first)) named = c;
        }
        for (Class<?> c : COMMANDS) {
            if (named == null || c == named) cmd.addSubcommand(c);
        }
        return HelpText.install(cmd);
    }

    public static int run(String... args) {
        return commandLine(args.length > 0 ? args[0] : null)
                .setExitCodeExceptionMapper(
                        e -> e instanceof CommandLine.ParameterException ? ExitCodes.USAGE : ExitCodes.FAILED)
                .setParameterExceptionHandler(Usage::parameterError)
                .setExecutionExceptionHandler((e, cmd, parsed) -> {
                    if (Usage.is(e)) {
                        System.err.println(Usage.line(cmd.getCommandName(), e));
                        return ExitCodes.USAGE;
                    }
                    LogManager.getLogger(Main.class).error("tracelake " + cmd.getCommandName() + " failed", e);
                    System.err.println(ExitCodes.failureMessage(cmd.getCommandName(), e));
                    return ExitCodes.FAILED;
                })
                .execute(args);
    }

    public static void main(String[] args) {
        int code = run(args);
        if (Boolean.getBoolean("tracelake.writesClassArchive")) {
            // bin/tracelake's first run after a build: the JVM writes its class-data archive as it exits
            System.err.println("tracelake: writing the class-data archive for faster starts (once after a build)");
        }
        System.exit(code);
    }
}
