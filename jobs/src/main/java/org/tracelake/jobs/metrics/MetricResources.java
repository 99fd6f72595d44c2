package org.tracelake.jobs.metrics;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

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
}
