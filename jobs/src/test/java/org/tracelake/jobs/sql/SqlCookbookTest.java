package org.tracelake.jobs.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.tracelake.jobs.testing.SharedSpark;

/**
 * docs/SQL.md is true: every cookbook query (a ```sql block followed by its ```text answer) runs on a fresh refresh
 * of data/ and prints that answer (text cells equal, numbers within 1e-4 relative); the documented DDL works on the
 * warehouse; and the sql job's prompt behaves as documented when driven through a pipe.
 */
public class SqlCookbookTest {
    private static final Pattern QUERY = Pattern.compile("```sql\\n(.*?)```\\s*\\n```text\\n(.*?)```", Pattern.DOTALL);
    private static final Pattern ANY_SQL = Pattern.compile("```sql\\n(.*?)```", Pattern.DOTALL);
    private static final Pattern DDL = Pattern.compile("```sql ddl\\n(.*?)```", Pattern.DOTALL);

    static SparkSession spark;
    static String doc;

    @BeforeAll
    static void setUp() throws IOException {
        spark = SharedSpark.get();
        SampleWarehouse.get();
        doc = Files.readString(SampleWarehouse.projectHome().resolve("docs/SQL.md"), StandardCharsets.UTF_8);
    }

    private static SqlRunner runner(ByteArrayOutputStream out, ByteArrayOutputStream err) {
        SqlRunner r = new SqlRunner(
                spark,
                ResultPrinter.Format.TABLE,
                1000,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        r.register(SampleWarehouse.warehouse(spark));
        return r;
    }

    @Test
    void everyCookbookQueryGivesItsDocumentedAnswer() {
        Matcher all = ANY_SQL.matcher(doc);
        int sqlBlocks = 0;
        while (all.find()) sqlBlocks++;
        Matcher m = QUERY.matcher(doc);
        List<String> failures = new ArrayList<>();
        int n = 0;
        while (m.find()) {
            n++;
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            boolean ok = runner(out, err).runAll(SqlStatementSplitter.split(m.group(1)));
            String actual = out.toString(StandardCharsets.UTF_8);
            if (!ok) {
                failures.add("query " + n + " failed: " + err.toString(StandardCharsets.UTF_8) + "\n" + m.group(1));
                continue;
            }
            String why = differs(m.group(2), actual);
            if (why != null)
                failures.add("query " + n + ": " + why + "\nexpected:\n" + m.group(2) + "actual:\n" + actual);
        }
        assertEquals(sqlBlocks, n, "every ```sql block of docs/SQL.md is followed by a ```text answer");
        assertTrue(n >= 10, "at least ten cookbook questions, found " + n);
        if (!failures.isEmpty()) fail(String.join("\n\n", failures));
    }

    /** Null when the printed tables agree: same lines, same text cells, numbers within 1e-4 relative. */
    public static String differs(String expected, String actual) {
        String[] e = expected.strip().split("\n");
        String[] a = actual.strip().split("\n");
        if (e.length != a.length) return e.length + " lines expected, " + a.length + " printed";
        for (int i = 0; i < e.length; i++) {
            String[] ec = e[i].split("\\|");
            String[] ac = a[i].split("\\|");
            if (ec.length != ac.length) return "line " + (i + 1) + " has " + ac.length + " cells, not " + ec.length;
            for (int j = 0; j < ec.length; j++) {
                String x = ec[j].strip();
                String y = ac[j].strip();
                if (x.equals(y)) continue;
                try {
                    double dx = Double.parseDouble(x);
                    double dy = Double.parseDouble(y);
                    if (Math.abs(dx - dy) <= 1e-4 * Math.max(Math.abs(dx), Math.abs(dy))) continue;
                } catch (NumberFormatException notNumbers) {
                    // text cells must be equal
                }
                return "line " + (i + 1) + " cell " + (j + 1) + ": expected " + x + ", got " + y;
            }
        }
        return null;
    }

    @Test
    void documentedDdlReadsTheWarehouse() {
        Matcher m = DDL.matcher(doc);
        int blocks = 0;
        String root = SampleWarehouse.get().warehouse.toAbsolutePath().toString();
        while (m.find()) {
            blocks++;
            for (String statement : SqlStatementSplitter.split(m.group(1).replace("/data/tracelake", root))) {
                // keep the session's registered views: the documented temporary views get a prefix here
                spark.sql(statement.replace("TEMPORARY VIEW ", "TEMPORARY VIEW ddl_"));
            }
        }
        assertEquals(2, blocks);
        try {
            // GPU activities: 1136 (llama) + 336 (dlrm), as docs/SQL.md question 11 counts them; the format samples'
            // few kernels: Nsight 2 GPUs × (GEMM + all-reduce) + 1 copy = 5, XSpace 2 GPUs × (fusion + all-reduce)
            // = 4, rocprof 3 GEMMs + 1 RCCL kernel = 4
            assertEquals(
                    1136 + 336 + 5 + 4 + 4,
                    spark.sql("SELECT count(*) FROM ddl_events WHERE activity_class IS NOT NULL")
                            .first()
                            .getLong(0));
            // the workloads with events: the two Kineto runs and the Nsight, XSpace and rocprof samples (the other
            // four samples fill side tables only)
            assertEquals(
                    5,
                    spark.sql("SELECT count(DISTINCT workload) FROM tracelake_events")
                            .first()
                            .getLong(0));
            assertEquals(
                    spark.sql("SELECT count(*) FROM events").first().getLong(0),
                    spark.sql("SELECT count(*) FROM tracelake_events").first().getLong(0));
            assertTrue(spark.sql("SELECT count(*) FROM tracelake_metrics WHERE workload = 'llama3-8b-fsdp-h100x4'")
                            .first()
                            .getLong(0)
                    > 100);
            assertEquals(
                    1, spark.sql("SELECT count(*) FROM tracelake_runs").first().getLong(0));
        } finally {
            for (String t : List.of("tracelake_events", "tracelake_metrics", "tracelake_runs"))
                spark.sql("DROP VIEW IF EXISTS " + t);
        }
    }

    private static String[] prompt(String input) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        boolean ok = runner(out, err).interactive(new BufferedReader(new StringReader(input)), false);
        return new String[] {
            out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8), Boolean.toString(ok)
        };
    }

    @Test
    void promptRunsStatementsEndedBySemicolonsAcrossLines() throws IOException {
        String[] r =
                // the two Kineto workloads only (4 traces and a card each), so the table's column keeps its width
                prompt("SELECT workload, count(*) AS files\n  FROM trace_files WHERE workload NOT LIKE 'sample-%'\n"
                        + " GROUP BY workload ORDER BY workload;"
                        + " SELECT 'a;b' AS s; -- a comment; not a statement\nSELECT 40 + 2 AS answer\n");
        String out = r[0];
        assertTrue(out.contains("dlrm-ddp-v100x4-legacy |     5"), out);
        assertTrue(out.contains("llama3-8b-fsdp-h100x4  |     5"), out);
        assertTrue(out.contains("a;b"), out);
        assertTrue(out.contains("42"), "a last statement without ';' runs at the end of the input: " + out);
        assertEquals("true", r[2], r[1]);
    }

    @Test
    void promptCommandsListTablesColumnsAndFunctions() throws IOException {
        String[] r = prompt("\\d\n\\d collectives\n\\f\n\\q\nSELECT 'after quit' AS never;\n");
        String out = r[0];
        for (String table : List.of("workloads", "trace_files", "events", "collectives", "metrics", "runs")) {
            assertTrue(out.lines().anyMatch(l -> l.startsWith(table + " ")), "\\d lists " + table + ":\n" + out);
        }
        assertTrue(
                out.lines().anyMatch(l -> l.matches("last_rank\\s+int\\s+.+")),
                "\\d collectives shows its columns:\n" + out);
        assertTrue(out.lines().anyMatch(l -> l.matches("lag_ns\\s+bigint.*")), out);
        for (String udf : org.tracelake.udfs.UdfRegistry.names()) {
            assertTrue(out.lines().anyMatch(l -> l.startsWith(udf + " ")), "\\f lists " + udf + ":\n" + out);
        }
        assertFalse(out.contains("after quit"), "\\q stops reading");
    }

    @Test
    void promptReportsAnErrorAndGoesOn() throws IOException {
        String[] r = prompt("SELECT * FROM no_such_table;\n\\d no_such_table\nSELECT 7 AS seven;\n");
        assertTrue(r[1].contains("TABLE_OR_VIEW_NOT_FOUND"), r[1]);
        assertTrue(r[1].contains("no table no_such_table"), r[1]);
        assertTrue(r[0].contains("seven"), r[0]);
        assertEquals("false", r[2], "a failed statement makes the run fail (exit code 1)");
    }
}
