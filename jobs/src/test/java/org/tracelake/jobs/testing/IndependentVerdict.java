package org.tracelake.jobs.testing;

import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A small independent implementation of METRICS.md §4 "Run comparison verdicts" for issue 41's targets: it reads the
 * generated Kineto trace files itself (its own JSON parsing, step windows, launch correlation, trimming and
 * nearest-rank percentiles), shares no code with the project, and gives the verdict, Δ, noise and the kernel that moved
 * most between two runs.
 */
public record IndependentVerdict(String verdict, double change, double noise, String topKernel, double topDeltaMs) {
    /** One run as the independent implementation sees it: trimmed step durations and kernel ms per (rank, step). */
    public record Run(List<Double> trimmedStepsMs, Map<String, Double> kernelMsPerRankStep) {
        private static final Pattern STEP = Pattern.compile("ProfilerStep#(\\d+)$");

        public static Run read(Path workloadDir) throws IOException {
            List<Path> files;
            try (Stream<Path> s = Files.walk(workloadDir)) {
                files = s.filter(p -> p.toString().endsWith("_trace.json"))
                        .sorted()
                        .toList();
            }
            List<Double> trimmed = new ArrayList<>();
            Map<String, Double> kernelUs = new TreeMap<>();
            int rankSteps = 0;
            ObjectMapper json = new ObjectMapper();
            for (Path f : files) {
                JsonNode events = json.readTree(f.toFile()).get("traceEvents");
                TreeMap<Long, double[]> windows = new TreeMap<>(); // step → [ts, dur] in µs
                Map<Long, Double> launchTs = new HashMap<>(); // correlation → runtime call start
                for (JsonNode e : events) {
                    String cat = e.path("cat").asText();
                    if (cat.equals("user_annotation")) {
                        Matcher m = STEP.matcher(e.path("name").asText());
                        if (m.find())
                            windows.put(Long.parseLong(m.group(1)), new double[] {
                                e.get("ts").asDouble(), e.get("dur").asDouble()
                            });
                    } else if (cat.equals("cuda_runtime") && e.path("args").has("correlation")) {
                        launchTs.put(
                                e.get("args").get("correlation").asLong(),
                                e.get("ts").asDouble());
                    }
                }
                List<double[]> steps = new ArrayList<>(windows.values());
                rankSteps += steps.size();
                List<double[]> kept = steps.size() > 2 ? steps.subList(1, steps.size() - 1) : steps;
                for (double[] w : kept) trimmed.add(w[1] / 1000);
                for (JsonNode e : events) {
                    String cat = e.path("cat").asText();
                    if (!cat.equals("kernel") && !cat.equals("gpu_memcpy") && !cat.equals("gpu_memset")) continue;
                    Double launch =
                            launchTs.get(e.path("args").path("correlation").asLong(-1));
                    double at = launch != null ? launch : e.get("ts").asDouble();
                    boolean inStep = steps.stream().anyMatch(w -> at >= w[0] && at < w[0] + w[1]);
                    if (inStep)
                        kernelUs.merge(e.get("name").asText(), e.get("dur").asDouble(), Double::sum);
                }
            }
            Map<String, Double> perRankStep = new TreeMap<>();
            for (Map.Entry<String, Double> k : kernelUs.entrySet())
                perRankStep.put(k.getKey(), k.getValue() / 1000 / rankSteps);
            return new Run(trimmed, perRankStep);
        }
    }

    /** METRICS.md §4 as written, on two runs: A the reference, B the candidate. */
    public static IndependentVerdict of(Run a, Run b) {
        double[] sa = sorted(a.trimmedStepsMs());
        double[] sb = sorted(b.trimmedStepsMs());
        double medA = pct(sa, 0.5);
        double medB = pct(sb, 0.5);
        double change = medB / medA - 1;
        double noise = Math.max(0.02, Math.max(spread(sa), spread(sb)));
        String v;
        if (Math.abs(change) <= noise) v = "neutral";
        else if (change > noise && pct(sb, 0.1) > medA) v = "regression_likely";
        else if (change < -noise && pct(sb, 0.9) < medA) v = "improvement_likely";
        else v = "inconclusive";
        TreeSet<String> names = new TreeSet<>(a.kernelMsPerRankStep().keySet());
        names.addAll(b.kernelMsPerRankStep().keySet());
        String top = null;
        double topDelta = 0;
        for (String n : names) { // ascending names: on equal |Δ| the first name stays
            double d = b.kernelMsPerRankStep().getOrDefault(n, 0.0)
                    - a.kernelMsPerRankStep().getOrDefault(n, 0.0);
            if (top == null || Math.abs(d) > Math.abs(topDelta)) {
                top = n;
                topDelta = d;
            }
        }
        assertNotNull(top);
        return new IndependentVerdict(v, change, noise, top, topDelta);
    }

    static double spread(double[] s) {
        return (pct(s, 0.9) - pct(s, 0.1)) / (2 * pct(s, 0.5));
    }

    /** Nearest rank: the smallest value with at least p of the values at or below it. */
    static double pct(double[] s, double p) {
        for (int i = 0; i < s.length; i++) if ((i + 1) >= p * s.length - 1e-9) return s[i];
        return s[s.length - 1];
    }

    static double[] sorted(List<Double> v) {
        double[] s = v.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(s);
        return s;
    }
}
