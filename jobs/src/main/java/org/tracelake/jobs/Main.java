package org.tracelake.jobs;

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
        description = "Turns archives of distributed training/inference traces into Parquet tables and metrics.",
        subcommands = {
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
            CommandLine.HelpCommand.class
        })
public final class Main implements Runnable {

    @Override
    public void run() {
        HelpText.install(new CommandLine(this)).usage(System.out);
    }

    public static int run(String... args) {
        return HelpText.install(new CommandLine(new Main()))
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
