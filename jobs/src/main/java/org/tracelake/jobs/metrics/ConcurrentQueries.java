package org.tracelake.jobs.metrics;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.UnaryOperator;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Runs independent SQL queries as concurrent Spark jobs from a few driver threads (one SparkSession serves them all;
 * Spark schedules jobs from several threads side by side) and returns their rows in the order of the queries, so
 * the result does not depend on which finished first. A failing query fails the whole call, as it would one at a time.
 */
final class ConcurrentQueries {
    private final SparkSession spark;
    private final int threads;

    ConcurrentQueries(SparkSession spark, int threads) {
        this.spark = spark;
        this.threads = threads;
    }

    /** A query and the label its Spark jobs carry (the job description in the UI and the event log). */
    record Query(String label, String sql) {}

    /** Every query's rows, after {@code shape} (applied to each query's Dataset before it is collected). */
    List<Row> collect(List<Query> queries, UnaryOperator<Dataset<Row>> shape) {
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "tracelake-metric-query");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<List<Row>>> results = new ArrayList<>(queries.size());
            for (Query query : queries) {
                results.add(pool.submit(() -> {
                    spark.sparkContext().setJobDescription(query.label());
                    try {
                        return shape.apply(spark.sql(query.sql())).collectAsList();
                    } finally {
                        spark.sparkContext().setJobDescription(null);
                    }
                }));
            }
            List<Row> rows = new ArrayList<>();
            for (Future<List<Row>> result : results) rows.addAll(result.get());
            return rows;
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException r) throw r;
            if (cause instanceof Error err) throw err;
            throw new IllegalStateException(cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while metric queries ran", e);
        } finally {
            pool.shutdownNow(); // on failure: interrupt the queries still running (Spark cancels their jobs)
        }
    }
}
