package org.tracelake.jobs.report;

import static org.apache.spark.sql.functions.col;
import static org.apache.spark.sql.functions.lit;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.tracelake.jobs.report.ReportModel.AllToAll;
import org.tracelake.jobs.report.ReportModel.Imbalance;
import org.tracelake.jobs.warehouse.Warehouse;
import org.tracelake.jobs.warehouse.WarehouseTables;
import org.tracelake.schemas.Tables;

/**
 * The "MoE all-to-all" part of a workload report: the imbalance of each all_to_all instance with split sizes (the
 * metrics rows all_to_all_imbalance.instance) and the rank × rank matrix of bytes sent, summed over those instances
 * (the all_to_all_pairs table). Bounded: at most {@link #RANK_CAP} ranks a side, {@link #INSTANCE_CAP} instances.
 */
final class AllToAllQuery {
    /** A matrix of more ranks than this would not be readable as cells; the page says so instead. */
    static final int RANK_CAP = 128;

    static final int INSTANCE_CAP = 200;

    private final Warehouse warehouse;
    private final WarehouseTables tables;

    AllToAllQuery(WarehouseTables tables) {
        this.warehouse = tables.warehouse();
        this.tables = tables;
    }

    AllToAll allToAll(String workload, Dataset<Row> metrics) {
        List<Imbalance> instances = new ArrayList<>();
        for (Row r : metrics.where(col("metric")
                        .equalTo(lit("all_to_all_imbalance"))
                        .and(col("figure").equalTo(lit("instance"))))
                .select("key", "value")
                .orderBy(col("value").desc(), col("key"))
                .limit(INSTANCE_CAP)
                .collectAsList()) {
            instances.add(new Imbalance(r.getAs("key"), r.getAs("value")));
        }
        if (!warehouse.exists(Tables.ALL_TO_ALL_PAIRS)) return new AllToAll(instances, List.of(), List.of(), 0);
        Dataset<Row> pairs =
                tables.live(Tables.ALL_TO_ALL_PAIRS).where(col("workload").equalTo(lit(workload)));
        long ranks = pairs.select("src_rank")
                .union(pairs.select("dst_rank"))
                .distinct()
                .count();
        if (ranks == 0 || ranks > RANK_CAP) return new AllToAll(instances, List.of(), List.of(), ranks);
        List<long[]> cells = new ArrayList<>();
        TreeSet<Integer> seen = new TreeSet<>();
        for (Row r : pairs.groupBy("src_rank", "dst_rank")
                .sum("bytes")
                .orderBy("src_rank", "dst_rank")
                .collectAsList()) {
            int src = r.getAs("src_rank");
            int dst = r.getAs("dst_rank");
            Long bytes = r.getAs("sum(bytes)");
            seen.add(src);
            seen.add(dst);
            cells.add(new long[] {src, dst, bytes == null ? 0 : bytes});
        }
        return new AllToAll(instances, new ArrayList<>(seen), cells, ranks);
    }
}
