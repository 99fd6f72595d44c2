package org.tracelake.jobs.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.SparkSession;
import org.tracelake.jobs.cli.RunIds;
import org.tracelake.jobs.ingest.WorkloadIngest;
import org.tracelake.jobs.readers.InputLimits;
import org.tracelake.jobs.refresh.Refresh;
import org.tracelake.jobs.warehouse.Warehouse;
import org.tracelake.jobs.warehouse.WarehouseTables;

/**
 * A throwaway archive and warehouse for one test: copies real traces from ../shared/traces (never modified),
 * writes the workload card the test needs (the shared traces carry none), and ingests.
 */
public final class TestArchive {
    public final Path archive;
    public final Path warehouse;

    public TestArchive(Path tempDir) {
        this.archive = tempDir.resolve("archive");
        this.warehouse = tempDir.resolve("warehouse");
        try {
            Files.createDirectories(archive);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A file or folder of the real traces; the test is skipped when they are absent ({@link SharedTraces}). */
    public static Path shared(String relative) {
        return SharedTraces.path(relative);
    }

    public Path workload(String name) {
        Path dir = archive.resolve(name);
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return dir;
    }

    /** Copy every file of a shared trace folder (or one file) into the workload, keeping names. */
    public TestArchive copyShared(String workload, String sharedRelative) {
        Path src = shared(sharedRelative);
        Path dir = workload(workload);
        try (var files = Files.isDirectory(src) ? Files.list(src) : java.util.stream.Stream.of(src)) {
            for (Path f : files.toList()) Files.copy(f, dir.resolve(f.getFileName()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /** Copy a whole folder of the shared captures into the workload, sub-folders and names kept. */
    public TestArchive copyCapture(String workload, String captureRelative) {
        Path src = SharedTraces.capture(captureRelative);
        Path dir = workload(workload);
        try (var files = Files.walk(src)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                Path to = dir.resolve(src.relativize(f).toString());
                Files.createDirectories(to.getParent());
                Files.copy(f, to);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    public TestArchive write(String workload, String relative, String content) {
        return write(workload, relative, content.getBytes(StandardCharsets.UTF_8));
    }

    public TestArchive write(String workload, String relative, byte[] content) {
        Path f = workload(workload).resolve(relative);
        try {
            Files.createDirectories(f.getParent());
            Files.write(f, content);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /** A minimal CCL-Bench card with the facts the shared traces' README gives. */
    public TestArchive card(String workload, String phase, String model, String xpuModel, int devices) {
        return write(
                workload,
                workload + ".yaml",
                String.join(
                        "\n",
                        "workload:",
                        "  model:",
                        "    phase: " + phase,
                        "    model_family: " + model,
                        "  hardware:",
                        "    xpu_spec:",
                        "      type: GPU",
                        "      model: " + xpuModel,
                        "      total_count: " + devices,
                        ""));
    }

    public List<WorkloadIngest> ingest(SparkSession spark) {
        try {
            Warehouse wh =
                    new Warehouse(warehouse.toString(), spark.sparkContext().hadoopConfiguration());
            return new Refresh(new WarehouseTables(spark, wh), RunIds.newId(), InputLimits.defaults())
                    .ingestOnly()
                    .run(archive.toString(), java.util.Set.of(), true)
                    .workloads();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The main job on this archive: ingest + metrics + swap, exactly as {@code tracelake refresh} runs it. */
    public Refresh.Result refresh(SparkSession spark) {
        return refresh(spark, InputLimits.defaults());
    }

    public Refresh.Result refresh(SparkSession spark, InputLimits limits) {
        try {
            Warehouse wh =
                    new Warehouse(warehouse.toString(), spark.sparkContext().hadoopConfiguration());
            return new Refresh(new WarehouseTables(spark, wh), RunIds.newId(), limits)
                    .run(archive.toString(), java.util.Set.of(), false);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A small simulated workload written by the project's generator (plain JSON, so tests can edit it). */
    public TestArchive generated(String workload, int ranks, int steps, int stragglerRank, long stragglerDelayUs) {
        try {
            org.tracelake.jobs.generate.SampleArchiveGenerator.write(
                    archive,
                    new org.tracelake.jobs.generate.WorkloadSpec(
                            workload,
                            org.tracelake.jobs.generate.TraceStyle.MODERN,
                            ranks,
                            1,
                            steps,
                            1,
                            false,
                            stragglerRank,
                            stragglerDelayUs * 1000,
                            5));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    /** The generated trace of one rank (see {@link #generated}). */
    public Path generatedTrace(String workload, int rank, int steps) {
        return archive.resolve(workload).resolve("profile_traces/iteration_" + steps + "/rank" + rank + "_trace.json");
    }

    public String table(String name) {
        return warehouse.resolve(name).toString();
    }
}
