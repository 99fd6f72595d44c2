package org.tracelake.udfs;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The rank a trace file's name carries, for files without {@code distributedInfo.rank} (METRICS.md
 * section 1). Only explicit rank markers count: a bare number is usually a pid, an epoch or a step
 * ({@code host_200691.1758927066581847260.pt.trace.json}, {@code 908_results.json},
 * {@code worker3_step_12.1694128201556…}), and a wrong rank is worse than none (the reader then falls
 * back to file order and says so).
 */
public final class RankFromFileName {

    /**
     * Tried in order; the first hit wins. A rank is at most 9 digits and must not run into more digits.
     * <ol>
     *   <li>{@code rank3}, {@code rank-3}, {@code rank_03_metrics.jsonl}, {@code sampled_rank-1.json.gz};</li>
     *   <li>{@code worker3_step_12…}: the number glued to "worker", never the step or epoch after it;</li>
     *   <li>{@code kineto_trace_3.json}, {@code foo_kineto_3.json};</li>
     *   <li>{@code _3.json}, {@code dlrm_eg_5.json.gz}, {@code torch_et_3.json}: the number that ends the
     *       stem right before {@code .json}, after an underscore;</li>
     *   <li>{@code _dump_12}, {@code job_dump_3.pkl}: an NCCL Flight Recorder dump (FORMATS.md §9), the number that
     *       ends the name.</li>
     * </ol>
     */
    private static final List<Pattern> RULES = List.of(
            Pattern.compile("(?:^|[^a-z])rank[-_]?(\\d{1,9})(?!\\d)", Pattern.CASE_INSENSITIVE),
            Pattern.compile("(?:^|[^a-z])worker[-_]?(\\d{1,9})(?!\\d)", Pattern.CASE_INSENSITIVE),
            Pattern.compile("kineto(?:_trace)?[-_](\\d{1,9})(?!\\d)", Pattern.CASE_INSENSITIVE),
            Pattern.compile("_(\\d{1,9})\\.json(?:l)?(?:\\.gz)?$", Pattern.CASE_INSENSITIVE),
            Pattern.compile("(?:^|_)dump_(\\d{1,9})(?:\\.(?:pkl|pickle))?(?:\\.gz)?$", Pattern.CASE_INSENSITIVE));

    private RankFromFileName() {}

    /** The rank in a file's base name (directories are ignored), or null when it names none. */
    public static Integer rank(String fileName) {
        return firstMatch(fileName, RULES);
    }

    /**
     * The rank only when the name says "rank" ({@code rank3_train.sqlite}): the one marker that still names a rank
     * for a file holding several devices, where {@code worker1.xplane.pb} or {@code host_3.json} name a host or a
     * process, not a device's rank.
     */
    public static Integer explicitRank(String fileName) {
        return firstMatch(fileName, RULES.subList(0, 1));
    }

    private static final Pattern OVERSIZED =
            Pattern.compile("(?:^|[^a-z])(?:rank|worker)[-_]?(\\d{10,})(?!\\d)", Pattern.CASE_INSENSITIVE);

    /**
     * The digits of an explicit rank marker too long to be a rank ({@code rank99999999999_trace.json}), or null:
     * such a name is not a rank, but it is not silence either — the file is flagged, not quietly ranked by order.
     */
    public static String oversizedRank(String fileName) {
        if (fileName == null) {
            return null;
        }
        String base = fileName.substring(Math.max(fileName.lastIndexOf('/'), fileName.lastIndexOf('\\')) + 1);
        Matcher m = OVERSIZED.matcher(base);
        return m.find() && rank(base) == null ? m.group(1) : null;
    }

    private static Integer firstMatch(String fileName, List<Pattern> rules) {
        if (fileName == null) {
            return null;
        }
        String base = fileName.substring(Math.max(fileName.lastIndexOf('/'), fileName.lastIndexOf('\\')) + 1);
        for (Pattern p : rules) {
            Matcher m = p.matcher(base);
            if (m.find()) {
                return Integer.parseInt(m.group(1));
            }
        }
        return null;
    }
}
