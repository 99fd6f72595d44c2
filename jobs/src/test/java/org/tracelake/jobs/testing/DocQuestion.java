package org.tracelake.jobs.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.spark.sql.SparkSession;
import org.tracelake.jobs.sql.ResultPrinter;
import org.tracelake.jobs.sql.SampleWarehouse;
import org.tracelake.jobs.sql.SqlRunner;
import org.tracelake.jobs.sql.SqlStatementSplitter;
import org.tracelake.jobs.warehouse.Warehouse;

/**
 * A docs/SQL.md question whose answer is not on data/ (a {@code ```sql TAG} block, skipped by SqlCookbookTest): run
 * on the warehouse of the test that built its workloads.
 */
public final class DocQuestion {
    /** The documented answer and what the query printed. */
    public record Answer(String documented, String actual, boolean ok, String error) {}

    private DocQuestion() {}

    public static Answer run(SparkSession spark, String warehouse, String tag) throws IOException {
        String doc = Files.readString(SampleWarehouse.projectHome().resolve("docs/SQL.md"), StandardCharsets.UTF_8);
        Matcher m = Pattern.compile(
                        "```sql " + Pattern.quote(tag) + "\\n(.*?)```\\s*\\n```text\\n(.*?)```", Pattern.DOTALL)
                .matcher(doc);
        if (!m.find()) throw new AssertionError("docs/SQL.md has no ```sql " + tag + " question");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        SqlRunner runner = new SqlRunner(
                spark,
                ResultPrinter.Format.TABLE,
                1000,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        runner.register(new Warehouse(warehouse, spark.sparkContext().hadoopConfiguration()));
        boolean ok = runner.runAll(SqlStatementSplitter.split(m.group(1)));
        return new Answer(m.group(2), out.toString(StandardCharsets.UTF_8), ok, err.toString(StandardCharsets.UTF_8));
    }
}
