package org.tracelake.jobs.readers.kineto.oracle;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * PyTorch writes a process group's ranks as a string and cuts it after 30 entries: {@code "[0, 8, 16, …, 232, ...]"}
 * (FORMATS.md §1 pitfalls). Such a list is expanded to the group's size by the stride of its entries, as PARAM's
 * trace parser does, when the entries it kept are evenly strided; otherwise it is kept as written (which the metrics
 * then treat as unknown rather than as a group of 30).
 */
final class TruncatedRanks {
    private TruncatedRanks() {}

    private static final Pattern TRUNCATED =
            Pattern.compile("^\\[\\s*(-?\\d{1,9}(?:\\s*,\\s*-?\\d{1,9})+)\\s*,\\s*\\.\\.\\.\\s*\\]$");

    /** The ranks as written, or the whole group's when the text was cut with "..." and its stride is even. */
    static String expand(String ranks, Integer groupSize) {
        if (ranks == null || groupSize == null) return ranks;
        Matcher m = TRUNCATED.matcher(ranks.trim());
        if (!m.matches()) return ranks;
        List<Long> kept = new ArrayList<>();
        for (String part : m.group(1).split(",")) kept.add(Long.valueOf(part.trim()));
        long stride = kept.get(1) - kept.get(0);
        for (int i = 2; i < kept.size(); i++) {
            if (kept.get(i) - kept.get(i - 1) != stride) return ranks;
        }
        if (stride <= 0 || groupSize <= kept.size() || groupSize > 1_000_000) return ranks;
        StringBuilder out = new StringBuilder("[");
        for (int i = 0; i < groupSize; i++) {
            if (i > 0) out.append(", ");
            out.append(kept.get(0) + i * stride);
        }
        return out.append(']').toString();
    }
}
