package org.tracelake.jobs.sql;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.apache.spark.sql.SparkSession;
import org.tracelake.jobs.refresh.Refresh;
import org.tracelake.jobs.testing.SharedSpark;
import org.tracelake.jobs.testing.TestArchive;
import org.tracelake.jobs.testing.TestFiles;
import org.tracelake.jobs.warehouse.Warehouse;

/**
 * The sample archive {@code data/} copied into a {@link TestArchive} and refreshed once per test JVM: the SQL
 * cookbook, report and export tests all read it (none of them writes to its tables). Deleted when the JVM exits.
 */
public final class SampleWarehouse {
    private static TestArchive archive;
    private static Refresh.Result firstRun;

    private SampleWarehouse() {}

    public static synchronized TestArchive get() {
        if (archive != null) return archive;
        try {
            Path tmp = Files.createTempDirectory("tracelake-sample-");
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    TestFiles.deleteTree(tmp);
                } catch (IOException ignored) {
                    // best effort
                }
            }));
            TestArchive a = new TestArchive(tmp);
            Path data = projectHome().resolve("data");
            try (Stream<Path> files = Files.walk(data)) {
                for (Path src : files.toList()) {
                    Path dst = a.archive.resolve(data.relativize(src).toString());
                    if (Files.isDirectory(src)) Files.createDirectories(dst);
                    else Files.copy(src, dst);
                }
            }
            Refresh.Result result = a.refresh(SharedSpark.get());
            if (!result.allOk()) throw new IllegalStateException("refresh of data/ did not succeed: " + result);
            archive = a;
            firstRun = result;
            return archive;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The refresh that made the warehouse (its run summary is the README's quick-start summary). */
    public static synchronized Refresh.Result firstRun() {
        get();
        return firstRun;
    }

    public static Warehouse warehouse(SparkSession spark) {
        try {
            return new Warehouse(
                    get().warehouse.toString(), spark.sparkContext().hadoopConfiguration());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The checkout's root (surefire sets tracelake.home; else the parent of the module directory). */
    public static Path projectHome() {
        String home = System.getProperty("tracelake.home");
        return home != null ? Path.of(home) : Path.of("..").toAbsolutePath().normalize();
    }
}
