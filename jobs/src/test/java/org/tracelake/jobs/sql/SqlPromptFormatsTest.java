package org.tracelake.jobs.sql;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.tracelake.jobs.testing.SharedSpark;

/**
 * Issue 42 item 2: every prompt command ({@code \d}, {@code \d TABLE}, {@code \f}, {@code \m}, {@code \m METRIC},
 * {@code \q}) and a query, in every output format, on a refresh of data/ ({@link PromptScript} says what each format
 * shows). {@code \m} in the table format failed: the printer asked Spark for {@code Integer.MAX_VALUE + 1} rows.
 */
class SqlPromptFormatsTest {
    @ParameterizedTest
    @EnumSource(ResultPrinter.Format.class)
    void everyCommandInEveryFormat(ResultPrinter.Format format) throws Exception {
        // a session of its own, as the sql job has: \d lists the session's views, and other tests leave theirs
        SparkSession spark = SharedSpark.get().newSession();
        org.tracelake.udfs.UdfRegistry.registerAll(spark);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        SqlRunner runner = new SqlRunner(
                spark,
                format,
                1000,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        runner.register(SampleWarehouse.warehouse(spark));
        boolean ok = runner.interactive(new BufferedReader(new StringReader(PromptScript.INPUT)), false);
        PromptScript.check(
                format.name(), out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8), ok);
    }
}
