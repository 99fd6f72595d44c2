package org.tracelake.udfs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

/**
 * The setting docs/SQL.md gives {@code spark-sql} and {@code pyspark} users
 * ({@code spark.sql.extensions=org.tracelake.udfs.TracelakeSqlExtensions}): a session built with it has every udf,
 * and so does each new session of it, with no call to {@link UdfRegistry#registerAll}.
 */
class TracelakeSqlExtensionsTest {

    @Test
    void theSettingAloneRegistersTheUdfs() {
        SparkSession spark = SparkSession.builder()
                .master("local[1]")
                .appName("tracelake-udfs-extensions-test")
                .config("spark.ui.enabled", "false")
                .config("spark.sql.extensions", TracelakeSqlExtensions.class.getName())
                .getOrCreate();
        try {
            Row row = spark.sql("SELECT busbw_factor('all_reduce', 8), "
                            + "activity_class('kernel','ncclDevKernel_AllReduce_Sum_f16_RING_LL(x)', null)")
                    .first();
            assertEquals(1.75, row.getDouble(0), 1e-12); // 2*(8-1)/8
            assertEquals("comm", row.getString(1));
            // a second session (a Thrift server's per-connection session, PySpark's newSession) has them too
            SparkSession other = spark.newSession();
            assertEquals(
                    262_144L, other.sql("SELECT size_bucket(402176)").first().getLong(0)); // 2^18 <= 402,176 < 2^19
            assertEquals(
                    UdfRegistry.names().size(), other.sql("SHOW USER FUNCTIONS").count());
        } finally {
            spark.stop();
        }
    }
}
