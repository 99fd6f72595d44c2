package org.tracelake.jobs.metrics;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The metric SQL files shipped in {@code jobs/src/main/resources/metrics/}: plain Spark SQL a person can read
 * and run by hand in {@code tracelake sql} once the views exist. Statements end with ';' at the end of a line.
 */
public final class SqlScripts {
    private SqlScripts() {}

    public static String text(String name) {
        String path = "/metrics/" + name;
        try (InputStream in = SqlScripts.class.getResourceAsStream(path)) {
            if (in == null) throw new IllegalStateException("missing SQL resource " + path);
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The statements of a file, comments removed. */
    public static List<String> statements(String name) {
        List<String> out = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : text(name).split("\n")) {
            String stripped = line.strip();
            if (stripped.startsWith("--")) continue;
            current.append(line).append('\n');
            if (stripped.endsWith(";")) {
                String s = current.toString().strip();
                out.add(s.substring(0, s.length() - 1));
                current.setLength(0);
            }
        }
        if (!current.toString().isBlank()) out.add(current.toString().strip());
        return out;
    }
}
