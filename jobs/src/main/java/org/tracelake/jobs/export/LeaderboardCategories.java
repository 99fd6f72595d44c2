package org.tracelake.jobs.export;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The leaderboard's four metric categories (CCL-Bench's), with their labels and descriptions. What it says about
 * each metric (label, whether higher is better, category, description) is in the metric catalog
 * ({@link org.tracelake.jobs.metrics.MetricCatalog}); a metric not listed there still exports, described as
 * "see METRICS.md" with higher_is_better false.
 */
final class LeaderboardCategories {
    private LeaderboardCategories() {}

    static final List<Map<String, String>> CATEGORIES = List.of(
            category("model_execution", "Model Execution", "High-level model throughput and latency metrics"),
            category("gpu_efficiency", "GPU Efficiency", "GPU utilization, SM coverage, kernel mix, and load balance"),
            category("memory", "Memory", "Memory bandwidth, allocation and transfer overhead"),
            category("communication", "Communication", "Collective communication performance, overlap, and bandwidth"));

    private static Map<String, String> category(String id, String label, String description) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("id", id);
        m.put("label", label);
        m.put("description", description);
        return m;
    }
}
