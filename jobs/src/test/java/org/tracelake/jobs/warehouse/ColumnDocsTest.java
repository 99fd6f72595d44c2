package org.tracelake.jobs.warehouse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.spark.SparkSchemaUtil;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.schemas.CollectiveSchema;
import org.tracelake.schemas.Tables;

/**
 * The schemas' column comments become Iceberg column docs: a new table has them, and a table made before columns had
 * docs (an existing warehouse) gets them at its next writer's load, with its columns, ids and snapshot unchanged, so
 * what it holds still reads.
 */
class ColumnDocsTest {
    private static final String LAST_RANK =
            CollectiveSchema.SCHEMA.apply("last_rank").getComment().get();

    @Test
    void aNewTableHasTheDocs(@TempDir Path root) {
        WarehouseCatalog catalog = new WarehouseCatalog(root.toString(), new Configuration());
        Table t = catalog.table(Tables.COLLECTIVES);
        assertEquals(LAST_RANK, t.schema().findField("last_rank").doc());
    }

    @Test
    void anOldTableGetsThemAndKeepsItsColumns(@TempDir Path root) {
        WarehouseCatalog catalog = new WarehouseCatalog(root.toString(), new Configuration());
        StructType undocumented = new StructType();
        for (StructField f : CollectiveSchema.SCHEMA.fields())
            undocumented = undocumented.add(f.name(), f.dataType(), f.nullable());
        Table old = catalog.catalog()
                .createTable(
                        catalog.id(Tables.COLLECTIVES),
                        SparkSchemaUtil.convert(undocumented),
                        PartitionSpec.unpartitioned());
        assertNull(old.schema().findField("last_rank").doc());
        int lastRankId = old.schema().findField("last_rank").fieldId();

        Table t = catalog.table(Tables.COLLECTIVES);
        assertEquals(LAST_RANK, t.schema().findField("last_rank").doc());
        assertEquals(lastRankId, t.schema().findField("last_rank").fieldId());
        assertEquals(
                old.schema().asStruct().fields().size(), t.schema().columns().size());
        // a second load finds nothing to change: no schema change per run
        int schemaId = t.schema().schemaId();
        assertEquals(schemaId, catalog.table(Tables.COLLECTIVES).schema().schemaId());
    }
}
