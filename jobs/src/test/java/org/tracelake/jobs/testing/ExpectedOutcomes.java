package org.tracelake.jobs.testing;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The file a reader equality test holds a reader to: one section per input file, {@code file NAME} then the lines of
 * its {@link ReadOutcome} (lines starting with {@code #} are comments). Read from the test class path; written, in a
 * test's write mode, to the module's {@code src/test/resources} (the test's working directory is the module's), in
 * the order the sections were put.
 */
public final class ExpectedOutcomes {
    private final String resource;
    private final Map<String, List<String>> sections = new LinkedHashMap<>();

    private ExpectedOutcomes(String resource) {
        this.resource = resource;
    }

    /** The sections of {@code resource}, a path on the test class path. */
    public static ExpectedOutcomes load(String resource) throws IOException {
        ExpectedOutcomes expected = new ExpectedOutcomes(resource);
        String text;
        try (InputStream in = ExpectedOutcomes.class.getResourceAsStream(resource)) {
            if (in == null) throw new IllegalStateException(resource + " is missing");
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        List<String> current = null;
        for (String line : text.split("\n", -1)) {
            if (line.startsWith("#") || line.isEmpty()) continue;
            if (line.startsWith("file ")) {
                current = new ArrayList<>();
                expected.sections.put(line.substring(5), current);
            } else {
                current.add(line);
            }
        }
        return expected;
    }

    /** None yet: the write mode fills it with {@link #put} and {@link #write}s it. */
    public static ExpectedOutcomes empty(String resource) {
        return new ExpectedOutcomes(resource);
    }

    public String resource() {
        return resource;
    }

    /** The lines stored for the file of that name, or null. */
    public List<String> get(String name) {
        return sections.get(name);
    }

    /** The names of the files held, in their order. */
    public Set<String> names() {
        return sections.keySet();
    }

    public void put(String name, List<String> lines) {
        sections.put(name, List.copyOf(lines));
    }

    /** Writes the sections after the header (each line a comment) and returns where. */
    public Path write(List<String> header) throws IOException {
        StringBuilder out = new StringBuilder();
        header.forEach(l -> out.append("# ").append(l).append('\n'));
        sections.forEach((name, lines) -> {
            out.append("file ").append(name).append('\n');
            lines.forEach(l -> out.append(l).append('\n'));
        });
        Path to = Path.of("src/test/resources" + resource);
        Files.createDirectories(to.getParent());
        Files.writeString(to, out);
        return to;
    }
}
