package org.tracelake.jobs.readers.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tracelake.jobs.readers.EventStream;
import org.tracelake.jobs.readers.FileReport;
import org.tracelake.jobs.readers.FileTask;
import org.tracelake.jobs.readers.InputLimits;
import org.tracelake.jobs.source.FileOpening;

/**
 * A trace's own top-level fields are kept in trace_files' metadata, but cannot pass for tracelake's findings: found by
 * fuzzing (ReaderFuzzTestInputs/kinetoJson/crash-42e6…, a Kineto file whose top starts {@code "reader_bug":1}), a
 * malformed file was reported as a reader bug. A field named like one of tracelake's keys is kept as "trace.<name>".
 */
class FileMetadataKeysTest {
    @TempDir
    Path dir;

    private FileReport read(String name, String json) throws IOException {
        Path f = Files.writeString(dir.resolve(name), json, StandardCharsets.UTF_8);
        FileTask task =
                new FileTask("w", f.toUri().toString(), Files.size(f), 0L, null, 0, InputLimits.defaults(), "r");
        FileOpening.Outcome opened = FileOpening.open(task, new Configuration(), null);
        try (EventStream rows = opened.stream()) {
            while (rows.hasNext()) rows.next();
            return rows.report();
        }
    }

    @Test
    void aKinetoTraceCannotClaimAReaderBugOrItsStepCount() throws IOException {
        FileReport r = read(
                "rank0_trace.json",
                "{\"reader_bug\":1,\"step_count\":\"99\",\"schemaVersion\":1,"
                        + "\"traceEvents\":[{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":0,\"tid\":7,\"ts\":10,"
                        + "\"dur\":5,\"args\":{\"device\":0}}]}");
        assertFalse(r.isError(), r.error);
        assertNull(r.metadata.get(FileReport.READER_BUG));
        assertEquals("1", r.metadata.get("trace.reader_bug"));
        assertEquals("0", r.metadata.get("step_count"), "the steps tracelake found, not the file's field");
        assertEquals("99", r.metadata.get("trace.step_count"));
        assertEquals("1", r.metadata.get("schemaVersion"), "other fields keep their names");
    }

    @Test
    void anXlaTraceCannotClaimAReaderBug() throws IOException {
        String seed = new String(
                getClass()
                        .getResourceAsStream(
                                "/org/tracelake/jobs/readers/fuzz/ReaderFuzzTestInputs/xlaTraceJson/seed-tpu-async-2chip.trace.json")
                        .readAllBytes(),
                StandardCharsets.UTF_8);
        FileReport r = read("host0.trace.json", "{\"reader_bug\":\"yes\"," + seed.substring(1));
        assertFalse(r.isError(), r.error);
        assertNull(r.metadata.get(FileReport.READER_BUG));
        assertEquals("yes", r.metadata.get("trace.reader_bug"));
    }
}
