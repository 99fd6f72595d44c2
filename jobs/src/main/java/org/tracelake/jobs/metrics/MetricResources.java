package org.tracelake.jobs.metrics;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The metric resources shipped in {@code jobs/src/main/resources/metrics/} (the catalog).
 */
public final class MetricResources {
    private MetricResources() {}

    public static String text(String name) {
        String path = "/metrics/" + name;
        try (InputStream in = MetricResources.class.getResourceAsStream(path)) {
            if (in == null) throw new IllegalStateException("missing metric resource " + path);
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The fields of one CSV line: separated by commas; a field holding a comma or a quote is written in double quotes,
     * a quote inside doubled (RFC 4180, one line per record: the catalog's texts have no line breaks).
     */
    public static List<String> csvFields(String line, String where) {
        List<String> out = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted) {
                if (c != '"') field.append(c);
                else if (i + 1 < line.length() && line.charAt(i + 1) == '"') field.append(line.charAt(++i));
                else quoted = false;
            } else if (c == '"' && field.length() == 0) {
                quoted = true;
            } else if (c == ',') {
                out.add(field.toString());
                field.setLength(0);
            } else {
                field.append(c);
            }
        }
        if (quoted) throw new IllegalStateException(where + ": a quoted field does not end");
        out.add(field.toString());
        return out;
    }
}
