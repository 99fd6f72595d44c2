package org.tracelake.jobs.readers.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.tracelake.jobs.ingest.toml.TorchtitanConfigs;
import org.tracelake.jobs.readers.EventStream;
import org.tracelake.jobs.readers.FileReport;
import org.tracelake.jobs.readers.FileTask;
import org.tracelake.jobs.readers.InputLimits;
import org.tracelake.jobs.readers.TraceFormat;
import org.tracelake.jobs.source.FileOpening;
import org.tracelake.schemas.card.CardException;
import org.tracelake.schemas.card.WorkloadCard;
import org.tracelake.schemas.card.WorkloadCardLoader;

/**
 * Coverage-guided fuzzing of every reader (issue 16), with Jazzer. Each target writes the input under the name its
 * format has in archives and reads it exactly as an ingest task does ({@link FileOpening} picks the reader by name
 * and content, then every row is pulled), without Spark. The property: every byte sequence ends in rows and a
 * {@link FileReport}, or a report with status error and a message — never an exception out of the read, a hang (the
 * per-input timeout), a stack overflow or a heap blown (the fuzzing JVM's -Xmx), and never a report that the reader
 * itself failed ({@link FileReport#READER_BUG}: a null dereference, an index past an end… which ingest would catch,
 * but which tells the person nothing about their file).
 *
 * <p>Under {@code mvn test} this runs in regression mode: once per input committed under
 * {@code src/test/resources/org/tracelake/jobs/readers/fuzz/ReaderFuzzTestInputs/<target>/} (small seeds and every
 * input a fuzzing run ever found failing). {@code bench/fuzz} runs each target in fuzzing mode, seeded with the real
 * files of ../shared/traces as well; docs/RELIABILITY.md has its figures.
 */
class ReaderFuzzTest {
    private static final Configuration CONF = rawLocalFiles();
    private static final Path DIR = tempDir();
    private static final Set<String> WRITTEN = ConcurrentHashMap.newKeySet();

    @FuzzTest
    void kinetoJson(byte[] input) {
        read("rank0_trace.json", input);
    }

    /** A gzip frame around any content (the magic decides, not the name): TraceInput's gunzip and expansion limit. */
    @FuzzTest
    void gzipFraming(byte[] input) {
        read("rank0_trace.json.gz", input);
    }

    /** xprof / TPU trace JSON: a ".trace.json" name, so the content picks Kineto or XLA. */
    @FuzzTest
    void xlaTraceJson(byte[] input) {
        read("host0.trace.json", input);
    }

    @FuzzTest
    void rocprofJson(byte[] input) {
        read("908_results.json", input);
    }

    @FuzzTest
    void nsysSqlite(byte[] input) {
        read("report.sqlite", input);
    }

    @FuzzTest
    void xspaceProtobuf(byte[] input) {
        read("host0.xplane.pb", input);
    }

    @FuzzTest
    void memorySnapshotPickle(byte[] input) {
        read("memory_snapshot.pickle", input);
    }

    @FuzzTest
    void flightRecorderPickle(byte[] input) {
        read("_dump_3", input);
    }

    @FuzzTest
    void flightRecorderJson(byte[] input) {
        read("nccl_trace_rank_3.json", input);
    }

    @FuzzTest
    void executionTraceJson(byte[] input) {
        read("dlrm_eg_3.json", input);
    }

    @FuzzTest
    void telemetryJsonl(byte[] input) {
        read("rank_03_metrics.jsonl", input);
    }

    /** The workload card: YAML parsed into the card, or a CardException with its message. */
    @FuzzTest
    void workloadCardYaml(byte[] input) {
        try {
            WorkloadCardLoader.parse(new String(input, StandardCharsets.UTF_8), "fuzz.yaml");
        } catch (CardException e) {
            if (e.getMessage() == null || e.getMessage().isBlank())
                throw new AssertionError("a card error without a message", e);
        }
    }

    /** A torchtitan TOML beside a card: what it fills, or an error report for that file only. */
    @FuzzTest
    void torchtitanToml(byte[] input) {
        FileTask task = write("train_config.toml", input, TraceFormat.TORCHTITAN_TOML);
        List<FileReport> reports =
                TorchtitanConfigs.fill(CARD, List.of(task), CONF).reports();
        for (FileReport r : reports) check(task.fileName(), r);
    }

    private static final WorkloadCard CARD = card();

    private static WorkloadCard card() {
        try {
            return WorkloadCardLoader.parse(
                    String.join("\n", "workload:", "  model:", "    phase: training", ""), "card.yaml");
        } catch (CardException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Reads the input as an ingest task reads a file of this name; returns its report. */
    static FileReport read(String fileName, byte[] input) {
        FileTask task = write(fileName, input, null);
        FileOpening.Outcome opened = FileOpening.open(task, CONF, null);
        FileReport report = opened.report();
        if (opened.stream() != null) {
            try (EventStream rows = opened.stream()) {
                while (rows.hasNext()) rows.next();
                report = rows.report();
            } catch (IOException e) {
                throw new UncheckedIOException("closing the reader of " + fileName, e);
            }
        }
        check(fileName, report);
        return report;
    }

    private static void check(String fileName, FileReport report) {
        if (report == null) throw new AssertionError(fileName + ": no FileReport");
        String bug = report.metadata.get(FileReport.READER_BUG);
        if (bug != null) throw new AssertionError(fileName + ": the reader failed: " + bug + " — " + report.error);
        if (report.isError() && (report.error == null || report.error.isBlank())) {
            throw new AssertionError(fileName + ": status error without a message");
        }
    }

    private static FileTask write(String fileName, byte[] input, TraceFormat format) {
        Path f = DIR.resolve(fileName);
        if (WRITTEN.add(fileName)) f.toFile().deleteOnExit(); // before the directory's own, which needs it empty
        try {
            Files.write(f, input);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new FileTask("fuzz", f.toUri().toString(), input.length, 0L, format, 0, InputLimits.defaults(), "fuzz");
    }

    /**
     * Hadoop's local file system without its checksum layer: the .crc side-file lookups cost more than reading a
     * small input, and they are Hadoop's code, not a reader's. Every tracelake byte of the read is the same.
     */
    private static Configuration rawLocalFiles() {
        Configuration conf = new Configuration();
        conf.setClass("fs.file.impl", RawLocalFileSystem.class, FileSystem.class);
        return conf;
    }

    /**
     * Where each input is written before it is read: memory (/dev/shm) when the machine has it. Every execution
     * rewrites the file, and on a disk mounted with discard (this project's CI machine: ext4, discard) truncating it
     * cost as much as reading it.
     */
    private static Path tempDir() {
        try {
            Path shm = Path.of("/dev/shm");
            Path d = Files.isDirectory(shm) && Files.isWritable(shm)
                    ? Files.createTempDirectory(shm, "tracelake-fuzz")
                    : Files.createTempDirectory("tracelake-fuzz");
            d.toFile().deleteOnExit();
            return d;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
