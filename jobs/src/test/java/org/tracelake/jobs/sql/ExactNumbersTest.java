package org.tracelake.jobs.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.tracelake.jobs.cli.SqlCommand;
import org.tracelake.jobs.testing.SharedSpark;
import picocli.CommandLine;

/**
 * Issue 32 item 8: {@code sql --format csv|json} print doubles as stored (87.412863 stays 87.412863: the shortest
 * decimal that reads back as the same double); only the aligned table rounds, and {@code --help} says so.
 */
class ExactNumbersTest {
    private static final String QUERY =
            "SELECT 87.412863D AS a, 0.1D + 0.2D AS b, 2.0937965632E10D AS c, 1.6E-8D AS d, "
                    + "1.0E300D AS e, -0.5D AS f, CAST(0.1 AS FLOAT) AS g, 258.84412345D AS h";

    @Test
    void csvAndJsonPrintEveryDoubleAsStoredAndTheTableRounds() throws Exception {
        SparkSession spark = SharedSpark.get();
        assertEquals(
                List.of(
                        "a,b,c,d,e,f,g,h",
                        // 0.1 + 0.2 is the double 0.30000000000000004 (the nearest double above 0.3), shown whole
                        "87.412863,0.30000000000000004,20937965632.0,1.6E-8,1.0E300,-0.5,0.1,258.84412345"),
                print(spark, ResultPrinter.Format.CSV).lines().toList());

        JsonNode json = new ObjectMapper()
                .readTree(print(spark, ResultPrinter.Format.JSON).strip());
        assertEquals("87.412863", json.get("a").asText());
        assertEquals(0.1 + 0.2, json.get("b").asDouble());
        assertEquals(258.84412345, json.get("h").asDouble());

        String table = print(spark, ResultPrinter.Format.TABLE);
        assertTrue(
                table.contains("87.4129") && !table.contains("87.412863"), "the table rounds to 6 digits:\n" + table);
    }

    @Test
    void theExactFormIsTheShortestThatReadsBackAsTheSameDouble() {
        assertEquals("87.412863", ResultPrinter.exact(87.412863));
        assertEquals("0.30000000000000004", ResultPrinter.exact(0.1 + 0.2));
        assertEquals("2.0E23", ResultPrinter.exact(2e23)); // JDK 17's Double.toString gives 1.9999999999999998E23
        assertEquals("1.0E-7", ResultPrinter.exact(1e-7));
        assertEquals("100000000000000000000.0", ResultPrinter.exact(1e20));
        assertEquals("-0.0", ResultPrinter.exact(-0.0));
        assertEquals(
                "5.0E-324",
                ResultPrinter.exact(Double.MIN_VALUE)); // Python: repr(5e-324) == "5e-324"; Java prints 4.9E-324
        assertEquals("1.7976931348623157E308", ResultPrinter.exact(Double.MAX_VALUE));
        assertEquals("NaN", ResultPrinter.exact(Double.NaN));
        SplittableRandom random = new SplittableRandom(30);
        for (int i = 0; i < 20_000; i++) {
            double d = Double.longBitsToDouble(random.nextLong());
            if (Double.isNaN(d)) continue;
            String s = ResultPrinter.exact(d);
            assertEquals(d, Double.parseDouble(s), s);
            // never longer than the JDK's own round-tripping form (which is not always the shortest on JDK 17)
            assertTrue(digits(s) <= digits(Double.toString(d)), s + " vs " + d);
        }
    }

    @Test
    void helpSaysOnlyTheTableRounds() {
        String help = new CommandLine(new SqlCommand()).getUsageMessage().replaceAll("\\s+", " ");
        assertTrue(help.contains("Only the table rounds"), help);
        assertTrue(help.contains("json and csv print every value as stored"), help);
    }

    private static int digits(String s) {
        String mantissa = s.contains("E") ? s.substring(0, s.indexOf('E')) : s;
        String d = mantissa.replace("-", "").replace(".", "").replaceAll("^0+", "");
        return d.replaceAll("0+$", "").length();
    }

    private static String print(SparkSession spark, ResultPrinter.Format format) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ResultPrinter.print(spark.sql(QUERY), format, 10, new PrintStream(out, true, StandardCharsets.UTF_8));
        return out.toString(StandardCharsets.UTF_8);
    }
}
