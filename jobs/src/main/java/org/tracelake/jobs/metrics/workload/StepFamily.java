package org.tracelake.jobs.metrics.workload;

import static org.tracelake.schemas.MetricSchema.STATUS_MISSING_INPUT;
import static org.tracelake.schemas.MetricSchema.STATUS_NOT_APPLICABLE;
import static org.tracelake.schemas.MetricSchema.STATUS_NOT_MEANINGFUL;
import static org.tracelake.schemas.MetricSchema.STATUS_OK;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.tracelake.jobs.metrics.Figure;
import org.tracelake.jobs.metrics.Metric;
import org.tracelake.jobs.metrics.Where;
import org.tracelake.jobs.rank.RankFactNames;
import org.tracelake.jobs.rank.RankSummary;
import org.tracelake.udfs.StepNames;

/**
 * Steps, throughput and efficiency (METRICS.md §4): iter_time, CCL-Bench's avg_step_time, throughput_tokens, mfu,
 * and the inference latencies ttft and tpot, from each rank's step windows (METRICS.md §1) and the card.
 */
final class StepFamily {
    private StepFamily() {}

    static final Metric ITER_TIME = Metric.of("iter_time");
    static final Metric AVG_STEP_TIME = Metric.of("avg_step_time");
    static final Metric THROUGHPUT_TOKENS = Metric.of("throughput_tokens");
    static final Metric MFU = Metric.of("mfu");
    static final Metric TTFT = Metric.of("ttft");
    static final Metric TPOT = Metric.of("tpot");
    /** A step's duration (iter_time's rank and workload rows are figures over these: avg_ms, min_ms ...). */
    static final Figure ITER_TIME_OF_STEP = ITER_TIME.unlisted(null, "ms");

    /** A step window of a rank. */
    record Window(int rank, long step, long start, long end, boolean trimmed) {
        long dur() {
            return end - start;
        }
    }

    static List<Window> windows(RankSummary r) {
        List<Window> out = new ArrayList<>();
        r.steps.forEach((step, f) -> {
            Long start = f.get(RankFactNames.WINDOW_START);
            if (start != null) {
                out.add(new Window(
                        r.rank,
                        step,
                        start,
                        f.get(RankFactNames.WINDOW_END),
                        f.getOrDefault(RankFactNames.TRIMMED, 0L) == 1));
            }
        });
        return out;
    }

    static final String NO_STEPS = "no ProfilerStep annotations (nor vLLM/SGLang/TPU-vLLM step annotations, nor an XLA"
            + " device Steps line) on any rank; looked for " + StepNames.LOOKED_FOR;

    /**
     * Why the workload has no steps: what was looked for, and the annotation seen that came nearest a step form
     * (METRICS.md §1), so that a user whose annotation nearly matches sees which one and which form it missed.
     */
    static String noSteps(Workload w) {
        RankSummary nearest = null;
        double best = Double.MAX_VALUE;
        for (RankSummary r : w.ranks) {
            if (r.nearestAnnotation == null) continue;
            double score = StepNames.nearness(r.nearestAnnotation).score();
            if (score < best) {
                best = score;
                nearest = r;
            }
        }
        if (nearest == null) return NO_STEPS + "; the traces hold no other CPU-side annotation";
        return NO_STEPS + "; the nearest annotation seen is '" + nearest.nearestAnnotation + "' (rank " + nearest.rank
                + "), which does not match the " + nearest.nearestStepForm + " form";
    }

    static void compute(Workload w) {
        List<Long> all = new ArrayList<>();
        List<Double> stepSeconds = new ArrayList<>();
        for (RankSummary r : w.ranks) {
            List<Window> windows = windows(r);
            List<Long> durs = new ArrayList<>();
            List<Long> trimmed = new ArrayList<>();
            for (Window s : windows) {
                w.add(ITER_TIME_OF_STEP.step(r.rank, s.step()).value(s.dur() / 1e6));
                gpuSpan(w, r, s.step());
                durs.add(s.dur());
                if (s.trimmed()) trimmed.add(s.dur());
            }
            if (!durs.isEmpty()) iterStats(w, durs, Where.rank(r.rank));
            all.addAll(durs);
            if (!trimmed.isEmpty()) {
                double seconds = Stats.mean(trimmed) / 1e9;
                stepSeconds.add(seconds);
                w.add(AVG_STEP_TIME.at(r.rank).value(seconds));
            }
        }
        if (!all.isEmpty()) iterStats(w, all, Where.workload());
        Double stepS = stepSeconds.isEmpty() ? null : Stats.mean(stepSeconds);
        if (stepS != null) w.add(AVG_STEP_TIME.workload().value(stepS));
        throughput(w, stepS);
        mfu(w, stepS);
        inference(w);
    }

    private static final Figure ITER_AVG = ITER_TIME.figure("avg_ms");
    private static final Figure ITER_MIN = ITER_TIME.figure("min_ms");
    private static final Figure ITER_MAX = ITER_TIME.figure("max_ms");
    private static final Figure ITER_STD = ITER_TIME.figure("std_ms");
    private static final Figure GPU_SPAN = ITER_TIME.figure("gpu_span_ms");

    private static void iterStats(Workload w, List<Long> durs, Where where) {
        long min = durs.stream().mapToLong(Long::longValue).min().getAsLong();
        long max = durs.stream().mapToLong(Long::longValue).max().getAsLong();
        w.add(ITER_AVG.at(where).value(Stats.mean(durs) / 1e6));
        w.add(ITER_MIN.at(where).value(min / 1e6));
        w.add(ITER_MAX.at(where).value(max / 1e6));
        w.add(ITER_STD.at(where).value(Stats.stddevPop(durs) / 1e6));
    }

    /** Why the card's tokens per second cannot be computed, or null. */
    private static String tokensReason(Workload w, Double stepS) {
        Card c = w.card;
        if (c.batchSize() == null || c.seqLen() == null)
            return "card lacks workload.data.batch_size or workload.data.seq_len";
        if (stepS == null) return "no step durations: " + noSteps(w);
        if (stepS <= 0) return "average step time is zero";
        return null;
    }

    private static Double tokensPerS(Card c, Double stepS) {
        if (c.batchSize() == null || c.seqLen() == null || stepS == null) return null;
        return (double) c.batchSize() * c.seqLen() / stepS;
    }

    /** throughput_tokens: batch × seq_len ÷ avg_step_time (global batch), and per GPU; training only. */
    private static void throughput(Workload w, Double stepS) {
        Card c = w.card;
        if (!c.isTraining()) return;
        String reason = tokensReason(w, stepS);
        Double tokens = tokensPerS(c, stepS);
        w.add(THROUGHPUT_TOKENS
                .figure("tokens_per_s")
                .workload()
                .row(reason == null ? tokens : null, reason == null ? STATUS_OK : STATUS_MISSING_INPUT, reason));
        String perGpuReason = reason != null
                ? reason
                : c.deviceCount() == null || c.deviceCount() <= 0 ? "card lacks hardware.xpu_spec.total_count" : null;
        Double perGpu = tokens == null || c.deviceCount() == null ? null : tokens / c.deviceCount();
        w.add(THROUGHPUT_TOKENS
                .figure("tokens_per_s_per_gpu")
                .workload()
                .row(
                        perGpuReason == null ? perGpu : null,
                        perGpuReason == null ? STATUS_OK : STATUS_MISSING_INPUT,
                        perGpuReason));
    }

    /**
     * mfu (CCL-Bench formula): FLOP/token = 6(N − N_emb) + 12·L·H·Q·S for training, 2(N − N_emb) + 4·L·H·Q·S for
     * inference; achieved = tokens/s × FLOP/token; ÷ (peak per device × total_count) × 100. A value above 100 % is kept,
     * with a note.
     */
    private static void mfu(Workload w, Double stepS) {
        Card c = w.card;
        String phase = c.phaseLower();
        Double peak = w.peaks.peakFor(c.xpuModel());
        String reason;
        if (phase == null) reason = "card lacks workload.model.phase";
        else if (!phase.equals("training") && !phase.equals("inference"))
            reason = "no FLOP/token formula for card phase " + phase;
        else if (c.params() == null) reason = "card lacks model_arch.num_params";
        else if (c.numLayers() == null) reason = "card lacks model_arch.num_layers";
        else if (c.numHeads() == null || c.headDim() == null) reason = "card lacks model_arch.num_heads or head_dim";
        else if (tokensReason(w, stepS) != null) reason = tokensReason(w, stepS);
        else if (c.deviceCount() == null || c.deviceCount() <= 0) reason = "card lacks hardware.xpu_spec.total_count";
        else if (c.xpuModel() == null) reason = "card lacks hardware.xpu_spec.model";
        else if (peak == null)
            reason = "no peak FLOPS for device model '" + c.xpuModel() + "' in conf/device_peak_flops.csv";
        else reason = null;
        boolean notApplicable = phase != null && !phase.equals("training") && !phase.equals("inference");
        Double value = null;
        if (reason == null) {
            double emb = c.numParamsEmbedding() == null ? 0 : c.numParamsEmbedding();
            double attention = (double) c.numLayers() * c.headDim() * c.numHeads() * c.seqLen();
            double flopsPerToken = phase.equals("training")
                    ? 6.0 * (c.params() - emb) + 12.0 * attention
                    : 2.0 * (c.params() - emb) + 4.0 * attention;
            value = flopsPerToken * tokensPerS(c, stepS) / (peak * c.deviceCount()) * 100;
        }
        String status = reason == null ? STATUS_OK : notApplicable ? STATUS_NOT_APPLICABLE : STATUS_MISSING_INPUT;
        if (reason == null && value > 100) {
            reason = "above 100 %: the card's model size, batch or sequence length do not match the profiled step time";
        }
        w.add(MFU.workload().row(value, status, reason));
    }

    /**
     * ttft, tpot (CCL-Bench, inference): per rank, its steps in time order; ttft = the first step's duration; tpot =
     * the mean of the middle steps (all but the first and the last; with two steps, the second). Workload = the mean
     * over ranks; tpot is not applicable when the card's output_len ≤ 1.
     */
    private static void inference(Workload w) {
        if (!w.card.isInference()) return;
        List<Double> ttfts = new ArrayList<>();
        List<Double> tpots = new ArrayList<>();
        boolean anyRank = false;
        String noPrefill = null; // the reason of the first rank whose first step carries no prefill
        String singleStep = null; // the annotation of a rank's only step
        for (RankSummary r : w.ranks) {
            List<Window> windows = windows(r);
            if (windows.isEmpty()) continue;
            anyRank = true;
            windows.sort(Comparator.comparingLong(Window::start).thenComparingLong(Window::step));
            int n = windows.size();
            String firstName = r.stepNames.get(windows.get(0).step());
            if (n == 1 && singleStep == null) singleStep = firstName == null ? "unnamed" : "'" + firstName + "'";
            double ttft = windows.get(0).dur() / 1e9;
            List<Long> middle = new ArrayList<>();
            for (int k = 2; k <= n; k++) {
                if (k < n || n == 2) middle.add(windows.get(k - 1).dur());
            }
            String ttftGap = ttftGap(w.card, firstName);
            if (ttftGap == null) {
                ttfts.add(ttft);
                w.add(TTFT.at(r.rank).value(ttft));
            } else {
                if (noPrefill == null) noPrefill = ttftGap + " (rank " + r.rank + ")";
                w.add(TTFT.at(r.rank).notMeaningful(ttftGap));
            }
            if (!middle.isEmpty()) {
                double tpot = Stats.mean(middle) / 1e9;
                tpots.add(tpot);
                w.add(TPOT.at(r.rank).value(tpot));
            }
        }
        Double ttft = anyRank && !ttfts.isEmpty() ? Stats.mean(ttfts) : null;
        Double tpot = anyRank && !tpots.isEmpty() ? Stats.mean(tpots) : null;
        latency(w, TTFT, ttft, anyRank, noPrefill, singleStep);
        latency(w, TPOT, tpot, anyRank, noPrefill, singleStep);
    }

    /**
     * Why a rank's first step gives no time to first token (METRICS.md §4), or null when it gives one: the card's model
     * generates no tokens (diffusion), or the first step's annotation says it carried no prefill.
     */
    private static String ttftGap(Card card, String firstStepName) {
        if (card.isDiffusion()) {
            return "the card's model (" + card.modelFamily() + ") is a diffusion model, not a token generator: no time"
                    + " to first token";
        }
        if (StepNames.saysNoPrefill(firstStepName)) {
            return "the first step, '" + firstStepName + "', carries no prefill (no prompt tokens): it gives no time"
                    + " to first token";
        }
        return null;
    }

    /** A workload row of ttft or tpot: one reason, the condition that failed (METRICS.md §4). */
    private static void latency(
            Workload w, Metric metric, Double value, boolean anyRank, String noPrefill, String singleStep) {
        Long outputLen = w.card.outputLen();
        String reason = null;
        String status = STATUS_MISSING_INPUT;
        if (metric == TPOT && outputLen != null && outputLen <= 1) {
            reason = "card output_len is " + outputLen + ": no decode steps";
            status = STATUS_NOT_APPLICABLE;
        } else if (!anyRank) {
            reason = "no inference step annotations (execute_context_*, run_batch, $core.py:331 step) on any rank: "
                    + noSteps(w);
        } else if (value == null && metric == TTFT) {
            reason = noPrefill;
            status = STATUS_NOT_MEANINGFUL;
        } else if (value == null) {
            reason = "every rank has a single inference step (" + singleStep + "): tpot is the mean of the steps after"
                    + " the first, and there are none";
        }
        w.add(metric.workload().row(reason == null ? value : null, reason == null ? STATUS_OK : status, reason));
    }

    /**
     * A step whose GPU work ends after its annotation (graph replay, deep launch queues) gets its GPU span beside
     * iter_time, which stays the annotation's duration (CCL-Bench): from the step's start to its last GPU activity's end
     * (METRICS.md §1).
     */
    private static void gpuSpan(Workload w, RankSummary r, long step) {
        Map<String, Long> f = r.steps.get(step);
        Long spanEnd = f == null ? null : f.get(RankFactNames.GPU_SPAN_END);
        Long start = f == null ? null : f.get(RankFactNames.WINDOW_START);
        if (spanEnd != null && start != null) {
            w.add(GPU_SPAN.step(r.rank, step).value((spanEnd - start) / 1e6));
        }
    }

    /** The rank's facts of one step (for families that read windows alongside other facts). */
    static Map<String, Long> facts(RankSummary r, long step) {
        return r.steps.get(step);
    }
}
