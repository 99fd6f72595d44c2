package org.tracelake.jobs.sql;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.SparkSession;
import org.tracelake.jobs.warehouse.Warehouse;
import org.tracelake.schemas.Tables;

/** Registers every warehouse table that exists as a temporary view of the same name. */
public final class WarehouseViews {
    private WarehouseViews() {}

    public static List<String> register(SparkSession spark, Warehouse warehouse) {
        List<String> registered = new ArrayList<>();
        for (String table : Tables.ALL) {
            if (!warehouse.exists(table)) continue;
            spark.read().parquet(warehouse.table(table)).createOrReplaceTempView(table);
            registered.add(table);
        }
        return registered;
    }
}
