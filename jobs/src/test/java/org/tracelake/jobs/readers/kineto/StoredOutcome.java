package org.tracelake.jobs.readers.kineto;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.tracelake.jobs.testing.ReadOutcome;

/**
 * What {@link KinetoReaderEqualityTest} holds the reader to for one file: the section of the expected file, either
 * the error the file failed with, alone, or the report a field a line, the row count and a digest per row.
 */
record StoredOutcome(String name, List<String> lines) {

    /**
     * The section of an outcome. A file that failed keeps its error only: the old reader could make rows before its
     * second pass met the error and the new one meets every error before its first row, so neither those rows nor
     * the report of a failed file say anything about the reader's rows.
     */
    static List<String> of(ReadOutcome outcome) {
        if (outcome.error() != null) return List.of("error " + ReadOutcome.oneLine(outcome.error()));
        return outcome.lines();
    }

    /** The stored error (one line, as written), or null for a file read to its end. */
    String error() {
        return lines.stream()
                .filter(l -> l.startsWith("error "))
                .map(l -> l.substring(6))
                .findFirst()
                .orElse(null);
    }

    /**
     * Holds the outcome to the stored one. A failed file must fail again with the same kind of error, the words
     * before its place in the file: two parsers word a syntax error in their own way (Jackson's "Unrecognized token
     * 'tru': was expecting (JSON String, Number (or 'NaN'/'+INF'/'-INF'), ..." is the byte scanner's "unrecognized
     * token 'tru': was expecting (JSON String, Number, ...") and may place it a column apart. Any other file: the same
     * report, line by line, then each row's digest (a row's values are shown when its digest differs), then the row
     * count.
     */
    void assertMatches(String how, ReadOutcome actual) {
        String what = name + " (" + how + ")";
        String error = error();
        String now = actual.error() == null ? null : ReadOutcome.oneLine(actual.error());
        if (error != null || now != null) {
            assertEquals(error != null, now != null, () -> what + ": error before: " + error + ", now: " + now);
            assertEquals(kind(error), kind(now), () -> what + ": error before: " + error + ", now: " + now);
            return;
        }
        int rowsAt = rowsAt();
        List<String> report = lines.subList(0, rowsAt);
        String hash = contentHash(report);
        assertEquals(
                hash,
                contentHash(actual.reportLines()),
                () -> what + ": not the file the outcome was taken from (its contentHash differs): its rows cannot be"
                        + " compared");
        assertEquals(String.join("\n", report), String.join("\n", actual.reportLines()), what + ": the report");
        List<String> digests = lines.subList(rowsAt + 1, lines.size());
        int common = Math.min(digests.size(), actual.rows().size());
        for (int i = 0; i < common; i++) {
            int row = i;
            assertEquals(
                    digests.get(i),
                    ReadOutcome.digest(actual.rows().get(i)),
                    () -> what + ": row " + row + " differs, it is now "
                            + actual.rows().get(row));
        }
        assertEquals(
                lines.get(rowsAt),
                "rows " + actual.rows().size(),
                () -> what + ": rows"
                        + (actual.rows().size() > common
                                ? ", the first extra one: " + actual.rows().get(common)
                                : ""));
    }

    private int rowsAt() {
        for (int i = 0; i < lines.size(); i++) if (lines.get(i).startsWith("rows ")) return i;
        throw new IllegalStateException(name + ": neither rows nor an error stored");
    }

    private static String contentHash(List<String> report) {
        return report.stream()
                .filter(l -> l.startsWith("report contentHash="))
                .findFirst()
                .orElse(null);
    }

    /** What kind of error a message says: the words before its place in the file or its colon. */
    private static String kind(String error) {
        if (error == null) return null;
        int cut = error.indexOf(" at line ");
        if (cut < 0) cut = error.indexOf(':');
        return cut < 0 ? error : error.substring(0, cut);
    }
}
