package org.tracelake.jobs.warehouse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The reasons {@link DataFileCheck} gives for one file, without Spark (the whole check: WarehouseCheckTest). */
class DataFileCheckTest {
    @TempDir
    Path tmp;

    @Test
    void aFileOfTheRecordedSizeThatIsNotParquetAndAMissingFileAreDamaged() throws IOException {
        Path f = Files.writeString(tmp.resolve("x.parquet"), "not a parquet file at all");
        String reason = DataFileCheck.reason(f.toUri().toString(), Files.size(f), new Configuration());
        assertTrue(reason != null && reason.startsWith("cannot be read as Parquet"), reason);
        assertEquals(
                "is 25 bytes, the table recorded 40 (truncated or overwritten)",
                DataFileCheck.reason(f.toUri().toString(), 40, new Configuration()));
        assertEquals(
                "is missing (deleted from the warehouse's folder)",
                DataFileCheck.reason(tmp.resolve("gone").toUri().toString(), 10, new Configuration()));
    }
}
