package org.tracelake.jobs.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.tracelake.schemas.CollectiveSchema;

/**
 * Issue 42 item 2: every prompt command and a query, typed at the prompt in one output format, and what each format
 * must show of them. The prompt test runs it locally and the serve test through a running {@code serve}, so both ways
 * answer every command in every format ({@code \m} in the table format failed on a negative limit).
 */
public final class PromptScript {
    /** What a user types: each command, a query, quit, and a statement after quit that must not run. */
    public static final String INPUT = "\\d\n\\d collectives\n\\f\n\\m\n\\m coll_call_num\nSELECT 40 + 2 AS answer;\n"
            + "\\q\nSELECT 'after quit' AS never;\n";

    private PromptScript() {}

    /** Checks the prompt's output for {@link #INPUT} in {@code format} (TABLE, JSON or CSV); err must be empty. */
    public static void check(String format, String out, String err, boolean ok) throws IOException {
        String where = format + " output:\n" + out + "\nerrors:\n" + err;
        assertTrue(ok, where);
        assertEquals("", err, where);
        assertFalse(out.contains("after quit"), "\\q stops reading: " + where);
        // the figure's own meaning (the meaning column of metrics/catalog.csv), as \m prints it
        String description = org.tracelake.jobs.metrics.FigureReference.of("coll_call_num", null)
                .meaning();
        // the column's comment in the schema (StructField comment, the Iceberg column doc), as \d prints it
        String lastRank =
                CollectiveSchema.SCHEMA.apply("last_rank").getComment().get();
        List<String> lines = out.lines().toList();
        switch (format) {
            case "TABLE" -> {
                assertTrue(lines.stream().anyMatch(l -> l.startsWith("events ")), "\\d lists events: " + where);
                assertTrue(
                        lines.stream().anyMatch(l -> l.matches("last_rank\\s+int\\s+" + Pattern.quote(lastRank))),
                        "\\d collectives says what each column means: " + where);
                assertTrue(
                        lines.stream().anyMatch(l -> l.matches("size_bucket\\s+size_bucket\\(size_bytes\\) -> .+")),
                        "\\f describes size_bucket: " + where);
                assertTrue(
                        lines.stream().anyMatch(l -> l.matches("metric\\s+\\| figure\\s+\\| unit\\s+\\| category.*")),
                        "\\m prints the reference as a table: " + where);
                assertTrue(lines.stream().anyMatch(l -> l.startsWith("coll_call_num ")), "\\m lists it: " + where);
                assertTrue(out.contains(description), "\\m coll_call_num gives its meaning: " + where);
                assertTrue(lines.stream().anyMatch(l -> l.strip().equals("42")), "the query: " + where);
            }
            case "JSON" -> {
                List<JsonNode> rows = new ArrayList<>();
                ObjectMapper json = new ObjectMapper();
                for (String l : lines) rows.add(json.readTree(l)); // every line one JSON object
                assertTrue(rows.stream().allMatch(JsonNode::isObject), where);
                assertTrue(rows.stream().anyMatch(r -> r.path("table").asText().equals("events")), where);
                assertTrue(
                        rows.stream()
                                .anyMatch(r -> r.path("column").asText().equals("last_rank")
                                        && r.path("type").asText().equals("int")
                                        && r.path("about").asText().equals(lastRank)),
                        where);
                assertTrue(
                        rows.stream()
                                .anyMatch(r -> r.path("function").asText().equals("size_bucket")
                                        && !r.path("signature and meaning")
                                                .asText()
                                                .isEmpty()),
                        where);
                assertTrue(
                        rows.stream()
                                        .filter(r -> r.path("metric").asText().equals("coll_call_num"))
                                        .count()
                                >= 2,
                        "\\m lists it and \\m coll_call_num shows it: " + where);
                assertTrue(
                        rows.stream()
                                .anyMatch(r -> r.path("description").asText().equals(description)),
                        where);
                assertTrue(rows.stream().anyMatch(r -> r.path("answer").asInt() == 42), where);
            }
            case "CSV" -> {
                for (String header :
                        List.of("table,columns,about", "column,type,about", "function,signature and meaning"))
                    assertTrue(lines.contains(header), header + ": " + where);
                assertTrue(lines.stream().anyMatch(l -> l.startsWith("metric,figure,unit,category")), where);
                assertTrue(lines.contains("last_rank,int," + lastRank), where);
                assertTrue(
                        lines.stream()
                                .anyMatch(
                                        l -> l.startsWith("size_bucket,") && l.contains("size_bucket(size_bytes) -> ")),
                        where);
                assertTrue(lines.stream().anyMatch(l -> l.startsWith("coll_call_num,")), where);
                assertTrue(out.contains(description) || out.contains(description.replace("\"", "\"\"")), where);
                int answer = lines.indexOf("answer");
                assertTrue(answer >= 0 && lines.get(answer + 1).equals("42"), where);
            }
            default -> throw new IllegalArgumentException(format);
        }
    }
}
