package org.tracelake.jobs.report;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.tracelake.jobs.report.ReportModel.Band;
import org.tracelake.jobs.report.ReportModel.Span;
import org.tracelake.jobs.report.ReportModel.Timeline;

/**
 * The HTML page's timeline of one step, from the workload's events (the {@code _report_events} view). A few ranks
 * get a lane per rank and activity class. Beyond {@link #RANK_LANES} ranks that stops being readable and the page
 * heavy, so ranks are grouped into bands: a node each when the card gives {@code count_per_node} (and there are at
 * most {@link #MAX_BANDS} nodes), else runs of ranks. A band's lane shows how busy its ranks were over the step
 * ({@link #HEAT_BINS} bins) with the activities of its slowest rank drawn on top: the rank that reaches its
 * collectives latest (the mean start of its communication in the step), the one the others wait for; without
 * communication, the rank that ends last. Everything is aggregated on the executors; the driver gets at most
 * bands × bins heat cells and {@code cap} spans.
 */
final class TimelineQuery {
    static final int RANK_LANES = 32;
    static final int MAX_BANDS = 64;
    static final int HEAT_BINS = 120;

    private final SparkSession spark;

    TimelineQuery(SparkSession spark) {
        this.spark = spark;
    }

    /** The given step, else the middle step that every rank has; {@code countPerNode} from the card, or null. */
    Timeline timeline(Long step, int cap, Long countPerNode) {
        Long chosen = step != null ? step : middleStepOfEveryRank();
        if (chosen == null) return new Timeline(null, List.of(), 0);
        Dataset<Row> inStep = spark.table("_report_events")
                .where("activity_class IS NOT NULL AND ts_ns IS NOT NULL AND dur_ns IS NOT NULL AND rank IS NOT NULL")
                .where(col("step").equalTo(lit(chosen)));
        Row extent = inStep.selectExpr(
                        "count(*) AS n",
                        "min(ts_ns) AS first",
                        "max(ts_ns + dur_ns) AS last",
                        "count(DISTINCT rank) AS ranks",
                        "max(rank) AS max_rank")
                .first();
        long total = extent.getAs("n");
        if (total == 0) return new Timeline(chosen, List.of(), 0);
        long origin = extent.getAs("first");
        if (extent.<Long>getAs("ranks") <= RANK_LANES) return perRank(inStep, chosen, cap, origin, total);
        long span = extent.<Long>getAs("last") - origin;
        return banded(inStep, chosen, cap, origin, span, total, extent.getAs("max_rank"), countPerNode);
    }

    private Long middleStepOfEveryRank() {
        List<Row> steps = spark.sql("""
                SELECT step FROM _report_events
                WHERE activity_class IS NOT NULL AND step IS NOT NULL AND rank IS NOT NULL
                GROUP BY step
                HAVING count(DISTINCT rank) = (SELECT count(DISTINCT rank) FROM _report_events
                                               WHERE activity_class IS NOT NULL AND rank IS NOT NULL)
                ORDER BY step""").collectAsList();
        return steps.isEmpty() ? null : steps.get(steps.size() / 2).getAs("step");
    }

    /** Every activity of the step, the first {@code cap} in time. */
    private static Timeline perRank(Dataset<Row> inStep, long step, int cap, long origin, long total) {
        List<Span> spans = new ArrayList<>();
        for (Row r : inStep.select("rank", "activity_class", "kernel_category", "name", "ts_ns", "dur_ns")
                .orderBy("ts_ns", "rank", "name")
                .limit(cap)
                .collectAsList()) {
            spans.add(new Span(
                    r.getAs("rank"),
                    r.getAs("activity_class"),
                    r.getAs("kernel_category"),
                    r.getAs("name"),
                    (r.<Long>getAs("ts_ns") - origin) / 1000.0,
                    r.<Long>getAs("dur_ns") / 1000.0));
        }
        return new Timeline(step, spans, total);
    }

    private Timeline banded(
            Dataset<Row> inStep,
            long step,
            int cap,
            long origin,
            long spanNs,
            long total,
            int maxRank,
            Long countPerNode) {
        boolean byNode = countPerNode != null && countPerNode > 0 && maxRank / countPerNode + 1 <= MAX_BANDS;
        long bandSize = byNode ? countPerNode : (maxRank + MAX_BANDS) / MAX_BANDS; // ceil((maxRank + 1) / MAX_BANDS)
        long binNs = Math.max(1, (spanNs + HEAT_BINS - 1) / HEAT_BINS);
        inStep.selectExpr(
                        "rank",
                        "CAST(rank DIV " + bandSize + " AS INT) AS band",
                        "activity_class",
                        "kernel_category",
                        "name",
                        "ts_ns - " + origin + " AS rel",
                        "dur_ns")
                .createOrReplaceTempView("_report_step");
        spark.sql("""
                SELECT band, rank, n FROM (
                  SELECT band, rank, count(*) OVER (PARTITION BY band) AS n,
                         row_number() OVER (PARTITION BY band
                                            ORDER BY avg(CASE WHEN activity_class = 'comm' THEN rel END) DESC NULLS LAST,
                                                     max(rel + dur_ns) DESC, rank) AS pick
                  FROM _report_step GROUP BY band, rank)
                WHERE pick = 1""").createOrReplaceTempView("_report_slowest");
        List<Band> bands = new ArrayList<>();
        List<Integer> bandIds = new ArrayList<>();
        for (Row r : spark.sql("SELECT band, rank, n FROM _report_slowest ORDER BY band")
                .collectAsList()) {
            int band = r.getAs("band");
            int first = (int) (band * bandSize);
            int last = (int) Math.min(maxRank, first + bandSize - 1);
            bands.add(new Band(
                    byNode ? "node " + band : "ranks " + first + "-" + last,
                    first,
                    last,
                    r.getAs("n"),
                    r.getAs("rank")));
            bandIds.add(band);
        }
        long perBand = Math.max(1, cap / bands.size());
        List<Span> spans = new ArrayList<>();
        // The slowest rank's longest activities, so a capped band still shows what took its time.
        for (Row r : spark.sql(String.format(Locale.ROOT, """
                SELECT band, activity_class, kernel_category, name, rel, dur_ns FROM (
                  SELECT s.*, row_number() OVER (PARTITION BY s.band ORDER BY s.dur_ns DESC, s.rel, s.name) AS k
                  FROM _report_step s JOIN _report_slowest w ON w.band = s.band AND w.rank = s.rank)
                WHERE k <= %d ORDER BY band, rel""", perBand)).collectAsList()) {
            spans.add(new Span(
                    bandIds.indexOf(r.<Integer>getAs("band")),
                    r.getAs("activity_class"),
                    r.getAs("kernel_category"),
                    r.getAs("name"),
                    r.<Long>getAs("rel") / 1000.0,
                    r.<Long>getAs("dur_ns") / 1000.0));
        }
        // Per band and bin: the time its ranks' activities cover in the bin ÷ (bin width × ranks), capped at 1
        // (a rank running compute and communication on two streams at once counts both).
        List<double[]> heat = new ArrayList<>();
        for (Row r : spark.sql(String.format(Locale.ROOT, """
                SELECT band, bin,
                       least(sum(least(rel + dur_ns, (bin + 1) * %1$d) - greatest(rel, bin * %1$d)) / (%1$d * max(n)), 1.0)
                         AS covered
                FROM (SELECT s.band, s.rel, s.dur_ns, w.n,
                             explode(sequence(s.rel DIV %1$d, (s.rel + greatest(s.dur_ns, 1) - 1) DIV %1$d)) AS bin
                      FROM _report_step s JOIN _report_slowest w ON w.band = s.band)
                GROUP BY band, bin ORDER BY band, bin""", binNs)).collectAsList()) {
            heat.add(new double[] {
                bandIds.indexOf(r.<Integer>getAs("band")),
                r.<Long>getAs("bin") * binNs / 1000.0,
                binNs / 1000.0,
                r.<Double>getAs("covered")
            });
        }
        return new Timeline(step, spans, total, bands, heat);
    }
}
