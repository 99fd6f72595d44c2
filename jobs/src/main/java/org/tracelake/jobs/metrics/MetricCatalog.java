package org.tracelake.jobs.metrics;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * Every workload-scope (metric, figure) of METRICS.md with its unit and what it requires
 * ({@code metrics/catalog.csv}); gaps.sql turns an unmet requirement into the reason a value is missing.
 */
final class MetricCatalog {
    private MetricCatalog() {}

    record Entry(String metric, String figure, String unit, String requires) {}

    static final StructType SCHEMA = new StructType()
            .add("metric", DataTypes.StringType, false)
            .add("figure", DataTypes.StringType, true)
            .add("unit", DataTypes.StringType, true)
            .add("requires", DataTypes.StringType, false);

    static List<Entry> entries() {
        List<Entry> out = new ArrayList<>();
        String[] lines = SqlScripts.text("catalog.csv").split("\n");
        for (int i = 1; i < lines.length; i++) {
            if (lines[i].isBlank()) continue;
            String[] f = lines[i].split(",", -1);
            out.add(new Entry(f[0], f[1].isEmpty() ? null : f[1], f[2], f[3].strip()));
        }
        return out;
    }

    static Dataset<Row> asDataFrame(SparkSession spark) {
        List<Row> rows = new ArrayList<>();
        for (Entry e : entries()) rows.add(RowFactory.create(e.metric(), e.figure(), e.unit(), e.requires()));
        return spark.createDataFrame(rows, SCHEMA);
    }
}
