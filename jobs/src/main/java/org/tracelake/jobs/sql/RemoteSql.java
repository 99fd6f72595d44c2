package org.tracelake.jobs.sql;

import java.io.BufferedReader;
import java.io.PrintStream;
import java.util.List;
import org.apache.spark.sql.SparkSession;

/**
 * {@code sql --remote}: the same statements, prompt and output formats as the local {@code sql} job, through a Spark
 * Connect session of a {@code tracelake serve} (or any Spark Connect server). Runs inside the class loader of the
 * Spark Connect JVM client ({@code serve/ClientLoader}): there {@link SparkSession}, {@code Dataset} and {@code Row}
 * are the client's, so this class and the printing it shares with the local job link against them. Everything it
 * takes and gives is a JDK type, which both class loaders share.
 */
public final class RemoteSql {
    private RemoteSql() {}

    /**
     * Runs {@code statements}, or with null the prompt over {@code in}; returns the exit code (0 all ran, 1 one
     * failed or the server could not be reached).
     */
    public static int run(
            String url,
            List<String> statements,
            String format,
            int limit,
            BufferedReader in,
            boolean prompts,
            PrintStream out,
            PrintStream err)
            throws Exception {
        SparkSession spark;
        try {
            spark = SparkSession.builder().remote(url).connect().create();
            spark.conf().get("spark.sql.session.timeZone"); // the first round trip: fails here when nobody listens
        } catch (Exception e) {
            err.println("cannot reach " + url.replaceAll("token=[^;]*", "token=…") + ": "
                    + SqlRunner.message(rootCause(e)) + " (is `tracelake serve` running there?)");
            return 1;
        }
        try {
            SqlRunner runner = new SqlRunner(spark, ResultPrinter.Format.valueOf(format), limit, out, err);
            boolean ok = statements != null ? runner.runAll(statements) : runner.interactive(in, prompts);
            return ok ? 0 : 1;
        } finally {
            spark.close();
        }
    }

    private static Throwable rootCause(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) t = t.getCause();
        return t;
    }
}
