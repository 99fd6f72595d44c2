package org.tracelake.jobs.serve;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.tracelake.jobs.sql.ConnectSql;
import org.tracelake.jobs.sql.ResultPrinter;

/**
 * Makes a fresh serve answer at the speed of one that has run a while. A serve just started plans and runs its first
 * queries in an interpreted, unprofiled JVM: measured on 2 cores, a query of the README took 10 s first, about 1 s
 * for the next ten, and about 0.35 s only after some fifty (Spark's analyser, optimiser, task scheduling and Iceberg's
 * scan planning, compiled by the JIT as they run). So once serve listens, a daemon thread asks serve, through the path
 * {@code sql} on this machine takes (its local endpoint, {@link LocalClient}; Spark Connect, {@link ConnectSql}, where
 * there is none), with serve's token, the kinds of query users ask — an aggregate of events, a metric lookup, a udf,
 * the metric reference — a fixed number of times, and says when it is done. Clients are served meanwhile (their
 * queries share the cores for those seconds).
 *
 * <p>{@code spark.tracelake.serve.warmupQueries} sets how many queries (default 48; 0 turns it off).
 */
final class ServeWarmup {
    private ServeWarmup() {}

    private static final Logger LOG = LogManager.getLogger(ServeWarmup.class);

    /**
     * The statements one round asks, over the tables serve has: the README's query, a metric lookup, a udf over
     * events and the reference view. Empty when the warehouse has neither events nor metrics yet.
     */
    static List<String> statements(List<String> tables) {
        List<String> out = new ArrayList<>();
        if (tables.contains("events")) {
            out.add("SELECT workload, rank, collective, count(*) AS kernels, sum(in_bytes) AS bytes FROM events"
                    + " WHERE activity_class = 'comm' GROUP BY ALL ORDER BY ALL");
            out.add("SELECT kernel_category(activity_class, name) AS category, count(*) AS n FROM events"
                    + " WHERE activity_class IS NOT NULL GROUP BY ALL ORDER BY n DESC LIMIT 5");
        }
        if (tables.contains("metrics")) {
            out.add("SELECT workload, figure, value FROM metrics WHERE scope = 'workload' AND metric = 'iter_time'"
                    + " ORDER BY workload, figure");
            out.add("SELECT metric, figure, unit FROM metric_reference ORDER BY metric LIMIT 5");
        }
        return out;
    }

    /**
     * Starts the warm-up on a daemon thread: {@code queries} statements in all, round after round of
     * {@link #statements}. Returns the thread, or null when there is nothing to do.
     */
    static Thread start(String address, int localPort, String token, List<String> tables, int queries) {
        List<String> round = statements(tables);
        if (queries <= 0 || round.isEmpty()) return null;
        Thread t = new Thread(() -> run(address, localPort, token, round, queries), "tracelake-serve-warmup");
        t.setDaemon(true);
        t.start();
        return t;
    }

    private static void run(String address, int localPort, String token, List<String> round, int queries) {
        long started = System.nanoTime();
        List<String> all = new ArrayList<>(queries);
        for (int i = 0; i < queries; i++) all.add(round.get(i % round.size()));
        PrintStream discard = new PrintStream(OutputStream.nullOutputStream(), false, StandardCharsets.UTF_8);
        java.io.ByteArrayOutputStream problems = new java.io.ByteArrayOutputStream();
        PrintStream errors = new PrintStream(problems, true, StandardCharsets.UTF_8);
        try {
            int rc = localPort > 0
                    ? LocalClient.run(localPort, token, all, "table", 20, discard, errors)
                    : ConnectSql.run(address, token, all, ResultPrinter.Format.TABLE, 20, discard, errors);
            double seconds = (System.nanoTime() - started) / 1e9;
            if (rc == 0) {
                System.out.printf(
                        java.util.Locale.ROOT,
                        "tracelake serve: warmed up (%d queries in %.1f s): answers now come at their usual speed%n",
                        queries,
                        seconds);
                System.out.flush();
            } else {
                // Not the user's problem to act on: the warm-up only saves later queries time.
                LOG.debug(
                        "warm-up stopped: {}",
                        problems.toString(StandardCharsets.UTF_8).strip());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            LOG.debug("warm-up stopped", e);
        }
    }
}
