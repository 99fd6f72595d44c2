package org.tracelake.jobs.metrics.engine;

import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.tracelake.jobs.metrics.MetricRow;
import org.tracelake.jobs.metrics.workload.Workload;
import org.tracelake.schemas.AllToAllPairSchema;
import org.tracelake.schemas.CollectiveMemberSchema;
import org.tracelake.schemas.CollectiveSchema;
import org.tracelake.schemas.MetricSchema;

/**
 * What the workload step emits, for every table it fills at once: one row per output row, tagged with its table and
 * holding it in that table's struct column (the others null), so that one computation feeds every write.
 */
final class WorkloadOutput {
    private WorkloadOutput() {}

    static final String METRIC = "metric";
    static final String MEMBER = "member";
    static final String INSTANCE = "instance";
    static final String PAIR = "pair";

    static final StructType SCHEMA = new StructType()
            .add("tag", DataTypes.StringType, false)
            .add(METRIC, MetricSchema.QUERY_SCHEMA, true)
            .add(MEMBER, CollectiveMemberSchema.SCHEMA, true)
            .add(INSTANCE, CollectiveSchema.SCHEMA, true)
            .add(PAIR, AllToAllPairSchema.SCHEMA, true);

    static Row metric(MetricRow m) {
        return RowFactory.create(METRIC, m.toRow(), null, null, null);
    }

    static Row member(String workload, Workload.Member m) {
        return RowFactory.create(MEMBER, null, RowFactory.create(workload, m.rank(), m.matchKey(), m.bySeq(), m.k(),
                m.ts(), m.end(), m.kind(), m.groupSize(), m.sizeBytes()), null, null);
    }

    static Row instance(String workload, Workload.Instance i) {
        return RowFactory.create(INSTANCE, null, null, RowFactory.create(workload, i.matchKey(), i.matchBy(), i.k(),
                i.kind(), i.groupSize(), i.bytes(), i.ranks(), i.minStart(), i.maxStart(), i.minEnd(), i.maxEnd(),
                i.lag(), i.maxEnd() - i.minEnd(), i.lastRank(), i.busbw()), null);
    }

    static Row pair(String workload, Workload.Pair p) {
        return RowFactory.create(PAIR, null, null, null, RowFactory.create(workload, p.matchKey(), p.k(), p.source(),
                p.srcRank(), p.dstRank(), p.bytes()));
    }
}
