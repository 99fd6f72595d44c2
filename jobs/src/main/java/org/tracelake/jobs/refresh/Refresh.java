package org.tracelake.jobs.refresh;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.tracelake.jobs.archive.WorkloadFolder;
import org.tracelake.jobs.ingest.IngestRun;
import org.tracelake.jobs.ingest.Progress;
import org.tracelake.jobs.ingest.WorkloadIngest;
import org.tracelake.jobs.metrics.MetricsRun;
import org.tracelake.jobs.readers.InputLimits;
import org.tracelake.jobs.warehouse.Warehouse;

/**
 * One refresh: ingest the archive's workloads into the run's staging area, compute their metrics there, then
 * swap each workload in whole (a failed one keeps its previous tables) and export its metrics JSON.
 */
public final class Refresh {
    private final SparkSession spark;
    private final Warehouse warehouse;
    private final String runId;
    private final InputLimits limits;

    public Refresh(SparkSession spark, Warehouse warehouse, String runId, InputLimits limits) {
        this.spark = spark;
        this.warehouse = warehouse;
        this.runId = runId;
        this.limits = limits;
    }

    /** What a refresh did: per workload its ingest, and the metrics rows exported for the committed ones. */
    public record Result(String runId, List<WorkloadIngest> workloads, Map<String, List<Row>> metrics) {
        public boolean allOk() {
            return workloads.stream().allMatch(WorkloadIngest::ok);
        }
    }

    public Result run(String archive, Set<String> only) throws IOException {
        IngestRun ingest = new IngestRun(spark, warehouse, runId, limits);
        List<WorkloadFolder> selected = IngestRun.select(ingest.scan(archive), only);
        Progress.info("run " + runId + ": " + selected.size() + " workloads in " + archive + " -> " + warehouse.root());
        List<WorkloadIngest> results = ingest.ingestAll(selected);

        List<String> ok = new ArrayList<>();
        for (WorkloadIngest r : results) if (r.ok()) ok.add(r.workload());
        Progress.info("computing metrics for " + ok.size() + " workloads");
        MetricsRun metrics = new MetricsRun(spark, warehouse, runId);
        metrics.computeStaged(ok);
        for (WorkloadIngest r : results) ingest.commit(r, MetricsRun.TABLES);
        Map<String, List<Row>> exported = metrics.export(ok);
        ingest.finish();
        return new Result(runId, results, exported);
    }
}
