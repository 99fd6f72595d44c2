package org.tracelake.jobs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.tracelake.jobs.Main;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;

/** Issue 30 "Help that says it right": whole descriptions in {@code tracelake --help}, and no option without one. */
class HelpTextTest {
    private static String out(String... args) {
        PrintStream saved = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            assertEquals(ExitCodes.OK, Main.run(args));
        } finally {
            System.setOut(saved);
        }
        return captured.toString(StandardCharsets.UTF_8);
    }

    private static String words(String s) {
        return s.replace("%n", " ").strip().replaceAll("\\s+", " ");
    }

    /** Every command and subcommand of the command line, as the parser knows them. */
    private static List<CommandSpec> commands(CommandLine cmd) {
        List<CommandSpec> all = new ArrayList<>(List.of(cmd.getCommandSpec()));
        for (CommandLine sub : cmd.getSubcommands().values()) all.addAll(commands(sub));
        return all;
    }

    @Test
    void everyOptionOfEveryCommandHasADescription() {
        List<String> bare = new ArrayList<>();
        int options = 0;
        for (CommandSpec spec : commands(Main.commandLine(null))) {
            List<ArgSpec> args = new ArrayList<>(spec.options());
            args.addAll(spec.positionalParameters());
            for (ArgSpec a : args) {
                options++;
                if (words(String.join(" ", a.description())).isEmpty()) {
                    bare.add(spec.qualifiedName() + " "
                            + (a.isOption() ? ((CommandLine.Model.OptionSpec) a).longestName() : a.paramLabel()));
                }
            }
        }
        assertTrue(options > 60, "the parser lists every job's options: " + options);
        assertEquals(List.of(), bare, "options without a description");
    }

    @Test
    void mainHelpPrintsEveryCommandsWholeDescription() {
        String help = out("--help");
        String flat = words(help);
        CommandLine main = Main.commandLine(null);
        assertEquals(11, main.getSubcommands().size());
        for (CommandLine sub : main.getSubcommands().values()) {
            String[] description = sub.getCommandSpec().usageMessage().description();
            assertTrue(description.length > 0, sub.getCommandName());
            // every line of it, wrapped anew perhaps, but every word there (sql's was cut at "every")
            for (String line : description) assertTrue(flat.contains(words(line)), sub.getCommandName() + ": " + line);
        }
        assertTrue(
                flat.contains(
                        "sql Spark SQL over the warehouse: every table is a view of its name, every udf a function."),
                help);
        // report's option table stays a table: one option per line, aligned as written
        assertTrue(
                help.contains("\n              --compare REF CAND [--out DIR]\n"
                        + "                  opened by the step-time verdict, then shared workload-scope\n"),
                help);
        for (String line : help.split("\\R")) assertFalse(line.contains("%n"), line);
    }

    @Test
    void generateDescribesItsOptions() {
        String help = words(out("generate", "--help"));
        for (String fragment : List.of(
                "--ranks=N Ranks (GPUs) of the workload",
                "--steps=N Profiled training steps",
                "--seed=N Seed of",
                "--[no-]gzip Write the traces gzipped",
                "--straggler-rank=RANK This rank starts",
                "--straggler-delay-us=US How late the straggler rank starts")) {
            assertTrue(help.contains(fragment), fragment + " in " + help);
        }
    }

    /**
     * Issue 42 item 6: at picocli's 80 columns, no line of any command's help is longer, and the tables of report and
     * export keep their rows as written (picocli wrapped each source line on its own: a sentence of generate broke
     * into ragged pieces, a table row of report into two); every word of each description is there.
     */
    @Test
    void everyHelpFitsEightyColumnsAndKeepsItsTables() {
        CommandLine main = Main.commandLine(null);
        List<String> pages = new ArrayList<>(List.of("--help"));
        for (String sub : main.getSubcommands().keySet()) pages.add(sub);
        for (String page : pages) {
            String help = page.equals("--help") ? out("--help") : out(page, "--help");
            for (String line : help.split("\\R"))
                assertTrue(line.length() <= 80, page + ": a line of " + line.length() + " columns: " + line);
            if (page.equals("--help")) continue;
            String[] description = main.getSubcommands()
                    .get(page)
                    .getCommandSpec()
                    .usageMessage()
                    .description();
            for (String line : description) {
                if (!line.isBlank() && Character.isWhitespace(line.charAt(0)))
                    assertTrue(help.contains("\n" + line.stripTrailing() + "\n"), page + " keeps the row: " + line);
                else assertTrue(words(help).contains(words(line)), page + ": " + line);
            }
        }
        // the prose of generate and serve is one paragraph, filled: no line ends far short of the width but the last
        for (String page : List.of("generate", "serve")) {
            String help = out(page, "--help");
            String first = Main.commandLine(null)
                    .getSubcommands()
                    .get(page)
                    .getCommandSpec()
                    .usageMessage()
                    .description()[0]
                    .split(" ")[0];
            List<String> prose = help.lines()
                    .dropWhile(l -> !l.startsWith(first + " "))
                    .takeWhile(l -> !l.isBlank() && !l.startsWith(" "))
                    .toList();
            assertTrue(prose.size() > 1, page + ":\n" + help);
            for (int k = 0; k + 1 < prose.size(); k++) {
                // filled: the next line's first word would not have fitted on this one
                String l = prose.get(k);
                String next = prose.get(k + 1).strip().split(" ")[0];
                assertTrue(
                        l.length() + 1 + next.length() > 80,
                        page + " wraps its prose to the width, not line by line: '" + l + "'\n" + help);
            }
        }
        String refresh = out("refresh", "--help");
        for (String code : List.of("0", "1", "2", "3", "75"))
            assertTrue(
                    refresh.lines().anyMatch(l -> l.strip().startsWith(code + " ")),
                    "refresh states exit code " + code + ":\n" + refresh);
    }
}
