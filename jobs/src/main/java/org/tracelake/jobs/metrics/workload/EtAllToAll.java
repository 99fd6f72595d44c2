package org.tracelake.jobs.metrics.workload;

import java.io.Serializable;
import org.apache.spark.sql.Row;

/** An execution-trace all_to_all node with a comm sequence number (et_nodes), for all_to_all splits. */
public record EtAllToAll(
        int rank,
        String pgName,
        long commSeq,
        String name,
        long ordinal,
        String inSplitSizes,
        Long inNelems,
        Long inBytes)
        implements Serializable {

    public static EtAllToAll of(Row r) {
        return new EtAllToAll(
                r.getAs("rank"),
                r.getAs("pg_name"),
                r.getAs("comm_seq"),
                r.getAs("name"),
                r.getAs("ordinal"),
                r.getAs("in_split_sizes"),
                r.getAs("in_nelems"),
                r.getAs("in_bytes"));
    }
}
