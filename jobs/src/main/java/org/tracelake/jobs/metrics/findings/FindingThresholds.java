package org.tracelake.jobs.metrics.findings;

import java.io.IOException;
import java.io.InputStream;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The thresholds of the findings rules ({@code conf/findings.csv}, or the file a site names in
 * {@code spark.tracelake.findings}): per rule its levels (severity, threshold), and the rules' parameters.
 */
public final class FindingThresholds implements Serializable {
    /** One level of a rule. */
    public record Level(String severity, double threshold) implements Serializable {}

    private final Map<String, List<Level>> levels;
    private final Map<String, Double> parameters;

    private FindingThresholds(Map<String, List<Level>> levels, Map<String, Double> parameters) {
        this.levels = levels;
        this.parameters = parameters;
    }

    /** The bundled conf/findings.csv. */
    public static FindingThresholds bundled() {
        try (InputStream in = FindingThresholds.class.getResourceAsStream("/conf/findings.csv")) {
            if (in == null) throw new IllegalStateException("conf/findings.csv is missing from the jar");
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), "conf/findings.csv");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The file at the path, or the bundled one when the path is empty. */
    public static FindingThresholds load(String path) {
        if (path == null || path.isEmpty()) return bundled();
        try {
            return parse(Files.readString(Path.of(path), StandardCharsets.UTF_8), path);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the findings thresholds " + path, e);
        }
    }

    /** Lines {@code rule,severity,threshold,description}; # lines and the header skipped. */
    public static FindingThresholds parse(String csv, String source) {
        Map<String, List<Level>> levels = new HashMap<>();
        Map<String, Double> parameters = new HashMap<>();
        int n = 0;
        for (String line : csv.split("\n")) {
            n++;
            String l = line.strip();
            if (l.isEmpty() || l.startsWith("#") || l.startsWith("rule,")) continue;
            String[] f = l.split(",", 4);
            if (f.length < 3) throw bad(source, n, "expected rule,severity,threshold[,description]");
            double t;
            try {
                t = Double.parseDouble(f[2].strip());
            } catch (NumberFormatException e) {
                throw bad(source, n, "threshold '" + f[2].strip() + "' is not a number");
            }
            if (!Double.isFinite(t)) throw bad(source, n, "threshold must be finite");
            String severity = f[1].strip().toLowerCase(Locale.ROOT);
            if (severity.isEmpty()) parameters.put(f[0].strip(), t);
            else if (List.of("info", "warning", "critical").contains(severity))
                levels.computeIfAbsent(f[0].strip(), k -> new ArrayList<>()).add(new Level(severity, t));
            else throw bad(source, n, "severity '" + severity + "' is not info, warning or critical");
        }
        return new FindingThresholds(levels, parameters);
    }

    private static IllegalArgumentException bad(String source, int line, String what) {
        return new IllegalArgumentException(source + " line " + line + ": " + what + " (see conf/findings.csv)");
    }

    /**
     * The most severe level of the rule that the value reaches ({@code value ≥ threshold}; with {@code below}, value
     * < threshold), or null when none does or the rule has no level (a site switched it off).
     */
    public Level reached(String rule, double value, boolean below) {
        Level best = null;
        for (Level l : levels.getOrDefault(rule, List.of())) {
            boolean hit = below ? value < l.threshold() : value >= l.threshold();
            if (hit && (best == null || Finding.order(l.severity()) < Finding.order(best.severity()))) best = l;
        }
        return best;
    }

    /** A rule's parameter, or the default when the file does not set it. */
    public double parameter(String name, double otherwise) {
        return parameters.getOrDefault(name, otherwise);
    }
}
