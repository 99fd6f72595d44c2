package org.tracelake.jobs.cli;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.tracelake.jobs.archive.WorkloadFolder;
import org.tracelake.jobs.ingest.IngestRun;
import org.tracelake.jobs.ingest.Progress;
import org.tracelake.jobs.ingest.WorkloadIngest;
import org.tracelake.jobs.metrics.MetricsRun;
import org.tracelake.jobs.warehouse.Warehouse;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "refresh", mixinStandardHelpOptions = true,
        description = {"Ingest an archive and compute every metric: the main job.",
                "Each workload's new tables are written aside and swapped in whole once its metrics are done;",
                "a workload that fails keeps its previous tables."})
public final class RefreshCommand implements Callable<Integer> {
    @Option(names = {"-a", "--archive"}, defaultValue = "data", paramLabel = "URI",
            description = "Archive root: one folder per workload (any Hadoop file system URI). Default: ${DEFAULT-VALUE}")
    String archive;

    @Option(names = "--workloads", split = ",", paramLabel = "NAME", description = "Only these workloads (comma-separated).")
    Set<String> workloads = new LinkedHashSet<>();

    @Mixin WarehouseOption warehouseOption;
    @Mixin SparkOptions sparkOptions;

    @Override
    public Integer call() throws Exception {
        SparkSession spark = sparkOptions.session("tracelake refresh");
        try {
            Warehouse warehouse = new Warehouse(warehouseOption.warehouse, spark.sparkContext().hadoopConfiguration());
            String runId = RunIds.newId();
            IngestRun ingest = new IngestRun(spark, warehouse, runId, Limits.from(spark));
            List<WorkloadFolder> selected = IngestRun.select(ingest.scan(archive), workloads);
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

            RunSummary.print(warehouse, results, exported);
            return results.stream().allMatch(WorkloadIngest::ok) ? ExitCodes.OK : ExitCodes.PARTIAL;
        } finally {
            spark.stop();
        }
    }
}
