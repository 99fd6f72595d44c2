package org.tracelake.jobs.source;

import java.util.EnumSet;
import java.util.Set;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/** The files named by a read's path (or planned by ingest), as a readable table of the plan's schema. */
final class TraceTable implements SupportsRead {
    private final ReadPlan plan;

    TraceTable(ReadPlan plan) {
        this.plan = plan;
    }

    @Override
    public String name() {
        return "tracelake " + plan.table();
    }

    @Override
    public StructType schema() {
        return plan.schema();
    }

    @Override
    public Set<TableCapability> capabilities() {
        return EnumSet.of(TableCapability.BATCH_READ);
    }

    @Override
    public ScanBuilder newScanBuilder(CaseInsensitiveStringMap options) {
        return () -> new TraceScan(plan, options);
    }
}
