package org.tracelake.jobs.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.tracelake.jobs.sql.SampleWarehouse;

/**
 * docs/METRICS-REFERENCE.md is what {@link MetricReference} makes of the catalog, so the reference a clone carries never
 * drifts from the metrics the engine writes. Run with -Dtracelake.regenerate=true to rewrite it after changing the
 * catalog.
 */
class MetricReferenceTest {
    @Test
    void theCommittedReferenceIsTheCatalogs() throws Exception {
        Path doc = SampleWarehouse.projectHome().resolve("docs/METRICS-REFERENCE.md");
        String expected = MetricReference.markdown();
        if (Boolean.getBoolean("tracelake.regenerate")) Files.writeString(doc, expected, StandardCharsets.UTF_8);
        assertEquals(
                expected,
                Files.readString(doc, StandardCharsets.UTF_8),
                "docs/METRICS-REFERENCE.md is not the catalog's: rerun with -Dtracelake.regenerate=true");
    }

    @Test
    void everyRequirementIsExplained() {
        for (MetricCatalog.Entry e : MetricCatalog.entries()) {
            assertFalse(
                    e.requires().needs().isBlank(),
                    e.metric() + " requires " + e.requires().id());
        }
    }
}
