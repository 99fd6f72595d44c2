package org.tracelake.jobs.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Help;
import picocli.CommandLine.Model.UsageMessageSpec;

/**
 * The help of {@code tracelake --help}: its list of commands gives each command's whole description, where picocli's
 * own list shows only the first line (which cut {@code sql}'s at "every" and {@code report}'s at a colon). Each
 * command's own {@code --help} prints its description the same way: prose is re-wrapped to the help's width (picocli
 * wraps each source line on its own, which broke a sentence into ragged pieces at 80 columns); a line that starts
 * with spaces (the option tables of {@code report} and {@code export}, written narrow enough for the indented command
 * list) is kept as written; an empty line starts a new paragraph.
 */
public final class HelpText {
    private HelpText() {}

    /** Installs the whole-description command list on a command line. */
    public static CommandLine install(CommandLine cmd) {
        cmd.getHelpSectionMap().put(UsageMessageSpec.SECTION_KEY_COMMAND_LIST, HelpText::commandList);
        descriptions(cmd);
        return cmd;
    }

    /** The description section of a command and of each of its subcommands, wrapped as {@link #lines} says. */
    private static void descriptions(CommandLine cmd) {
        cmd.getHelpSectionMap().put(UsageMessageSpec.SECTION_KEY_DESCRIPTION, HelpText::description);
        for (CommandLine sub : cmd.getSubcommands().values()) descriptions(sub);
    }

    private static String description(Help help) {
        UsageMessageSpec usage = help.commandSpec().usageMessage();
        StringBuilder out = new StringBuilder();
        for (String line : lines(usage.description(), usage.width()))
            out.append(line).append(System.lineSeparator());
        return out.toString();
    }

    private static String commandList(Help help) {
        Map<String, Help> commands = help.subcommands();
        if (commands.isEmpty()) return "";
        int indent = 2;
        for (String name : commands.keySet()) indent = Math.max(indent, name.length() + 4);
        int width = Math.max(indent + 20, help.commandSpec().usageMessage().width() - indent);
        StringBuilder out = new StringBuilder();
        for (Map.Entry<String, Help> e : commands.entrySet()) {
            UsageMessageSpec usage = e.getValue().commandSpec().usageMessage();
            List<String> all = new ArrayList<>(List.of(usage.header())); // picocli's own list shows the header alone
            all.addAll(List.of(usage.description()));
            List<String> lines = lines(all.toArray(String[]::new), width);
            String name = "  " + e.getKey();
            for (int i = 0; i < Math.max(1, lines.size()); i++) {
                out.append(String.format("%-" + indent + "s", i == 0 ? name : ""));
                out.append(i < lines.size() ? lines.get(i) : "").append(System.lineSeparator());
            }
        }
        return out.toString();
    }

    /** The description's lines: prose joined and wrapped at {@code width}; indented lines as they are. */
    static List<String> lines(String[] description, int width) {
        List<String> out = new ArrayList<>();
        StringBuilder prose = new StringBuilder();
        for (String raw : description) {
            boolean verbatim = !raw.isBlank() && Character.isWhitespace(raw.charAt(0));
            String line = raw.replace("%n", " ").replace("%%", "%"); // picocli's format markers (help's own text)
            if (raw.isBlank()) {
                wrap(prose, width, out);
                out.add("");
            } else if (verbatim) {
                wrap(prose, width, out);
                out.add(line.stripTrailing());
            } else {
                prose.append(prose.length() == 0 ? "" : " ").append(line.strip());
            }
        }
        wrap(prose, width, out);
        return out;
    }

    private static void wrap(StringBuilder prose, int width, List<String> out) {
        StringBuilder line = new StringBuilder();
        for (String word : prose.toString().split("\\s+")) {
            if (word.isEmpty()) continue;
            if (line.length() > 0 && line.length() + 1 + word.length() > width) {
                out.add(line.toString());
                line.setLength(0);
            }
            line.append(line.length() == 0 ? "" : " ").append(word);
        }
        if (line.length() > 0) out.add(line.toString());
        prose.setLength(0);
    }
}
