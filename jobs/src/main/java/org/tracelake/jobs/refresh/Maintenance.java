package org.tracelake.jobs.refresh;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ReachableFileUtil;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.actions.RewriteDataFiles;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.spark.actions.SparkActions;
import org.apache.iceberg.util.SnapshotUtil;
import org.tracelake.jobs.console.Progress;
import org.tracelake.jobs.spark.Settings;
import org.tracelake.jobs.warehouse.FileCompaction;
import org.tracelake.jobs.warehouse.FileTree;
import org.tracelake.jobs.warehouse.Warehouse;
import org.tracelake.jobs.warehouse.WarehouseCatalog;
import org.tracelake.jobs.warehouse.WarehouseTables;
import org.tracelake.schemas.Tables;

/**
 * The warehouse's upkeep ({@code tracelake maintain}, and the nightly refresh when it is due): per table, the small
 * data files of a partition compacted into one (Iceberg's bin-pack rewrite), the manifests rewritten when there are
 * many, snapshots older than the retention expired (always keeping the snapshot the latest run left, so {@code sql
 * --as-of} of that run and of every run within the retention works), and orphan files removed: files in the table's
 * folder that no kept snapshot references and that are older than a day (a killed run's data files, the files the
 * expired snapshots left). Every step is an Iceberg commit, atomic: maintenance killed midway leaves each table as one
 * of its commits left it, and the next maintenance finishes the work.
 *
 * <p>Called under the warehouse lock only: no run writes meanwhile, so the only uncommitted data files that must stay
 * are those of the lock's own run and of a killed run whose journal the next refresh replays.
 */
public final class Maintenance {
    /** The table property of {@code runs} that records when maintenance last ran (epoch milliseconds). */
    public static final String LAST_MAINTENANCE = "tracelake.last-maintenance";

    /** A file smaller than this is small: a partition with two or more of them is compacted. */
    static final long SMALL_FILE_BYTES = FileCompaction.SMALL_FILE_BYTES;
    /** The snapshot summary property that names maintenance's commits. */
    static final String MAINTENANCE_PROPERTY = "tracelake.maintenance";
    /**
     * The folder under a table's {@code data/} that one maintenance's compacted files go to, with its run id: not the
     * run's own folder, whose files a run's commit (or its replay) lists and commits.
     */
    static final String COMPACTION_FOLDER = "compaction-";
    /** More manifests than this in a table's current snapshot are rewritten into few. */
    static final int MANY_MANIFESTS = 16;
    /** A file no snapshot references is removed only when older than this (a writer may be about to commit it). */
    static final Duration ORPHAN_AGE = Duration.ofDays(1);
    /** A nightly run that starts a little earlier than yesterday's still finds maintenance due. */
    static final Duration DUE_SLACK = Duration.ofHours(1);

    /** What maintenance did to one table. */
    public record TableResult(String table, long filesBefore, long filesAfter, int snapshotsExpired, int orphans) {
        String line() {
            return String.format(
                    Locale.ROOT,
                    "maintain %s: %d -> %d data files, %d snapshots expired, %d orphan files removed",
                    table,
                    filesBefore,
                    filesAfter,
                    snapshotsExpired,
                    orphans);
        }
    }

    /** What maintenance did to every table. */
    public record Summary(List<TableResult> tables) {
        public long filesBefore() {
            return tables.stream().mapToLong(TableResult::filesBefore).sum();
        }

        public long filesAfter() {
            return tables.stream().mapToLong(TableResult::filesAfter).sum();
        }

        public int snapshotsExpired() {
            return tables.stream().mapToInt(TableResult::snapshotsExpired).sum();
        }

        public int orphans() {
            return tables.stream().mapToInt(TableResult::orphans).sum();
        }

        public String line() {
            return String.format(
                    Locale.ROOT,
                    "maintained %s: %d -> %d data files, %d snapshots expired, %d orphan files removed",
                    Progress.count(tables.size(), "table"),
                    filesBefore(),
                    filesAfter(),
                    snapshotsExpired(),
                    orphans());
        }
    }

    private final WarehouseTables tables;
    private final Warehouse warehouse;
    private final String runId;

    /** Maintenance by the holder of the warehouse lock for run {@code runId} (its own files are never orphans). */
    public Maintenance(WarehouseTables tables, String runId) {
        this.tables = tables;
        this.warehouse = tables.warehouse();
        this.runId = runId;
    }

    /**
     * Whether maintenance is due: its last run (or, before the first, the warehouse's first run) is at least {@code
     * spark.tracelake.maintenance.everyDays} old. Reads one table's metadata, no Spark job.
     */
    public boolean due() {
        Table runs = warehouse.catalog().loadOrNull(Tables.RUNS);
        if (runs == null || runs.currentSnapshot() == null) return false;
        String last = runs.properties().get(LAST_MAINTENANCE);
        long since;
        if (last != null) {
            since = Long.parseLong(last);
        } else {
            since = Long.MAX_VALUE;
            for (Snapshot s : runs.snapshots()) since = Math.min(since, s.timestampMillis());
        }
        long every = Duration.ofDays(Settings.of(tables.spark()).get(Settings.MAINTENANCE_EVERY_DAYS))
                .toMillis();
        long elapsed = System.currentTimeMillis() - since;
        return every == 0 || elapsed >= every - DUE_SLACK.toMillis();
    }

    /**
     * Runs maintenance because the caller found it {@link #due}, saying so. A refresh decides once, at its start: the
     * check it makes first and the maintenance it ends with belong to the same day.
     */
    Summary runAsDue() throws IOException {
        Progress.info("maintenance is due (every "
                + Settings.of(tables.spark()).get(Settings.MAINTENANCE_EVERY_DAYS) + " days): compacting, expiring "
                + "old snapshots, removing orphan files");
        return run();
    }

    /** Maintains every table, one progress line each, and records when it ran. */
    public Summary run() throws IOException {
        long retentionDays = Settings.of(tables.spark()).get(Settings.MAINTENANCE_RETENTION_DAYS);
        long now = System.currentTimeMillis();
        return run(now, now - Duration.ofDays(retentionDays).toMillis());
    }

    /**
     * Maintains every table as at time {@code now}, expiring the snapshots made before {@code expireBefore} (both
     * epoch milliseconds). {@link #run()} passes the clock and the retention; a simulation of many nights in one hour
     * passes the time its night of a week ago began.
     */
    public Summary run(long now, long expireBefore) throws IOException {
        Set<String> keepRuns = new HashSet<>();
        keepRuns.add(runId);
        for (RunJournal j : RunJournal.leftBehind(warehouse, runId)) keepRuns.add(j.runId());
        Map<String, Table> all = new LinkedHashMap<>();
        Map<String, Long> before = new HashMap<>();
        for (String name : warehouse.catalog().existing()) {
            Table table = warehouse.catalog().table(name);
            all.put(name, table);
            before.put(name, dataFiles(table));
        }
        // every table's small files in one Spark job, then one commit per table
        Map<String, List<Object>> unmergedByTable = FileCompaction.run(
                tables.spark(), all, COMPACTION_FOLDER + runId, Map.of(MAINTENANCE_PROPERTY, "compaction"));
        List<TableResult> results = new ArrayList<>();
        for (Map.Entry<String, Table> e : all.entrySet()) {
            String name = e.getKey();
            Table table = e.getValue();
            table.refresh();
            List<Object> unmerged = unmergedByTable.getOrDefault(name, List.of());
            if (!unmerged.isEmpty()) rewriteRows(name, table, unmerged);
            rewriteManifests(table);
            int expired = expire(table, expireBefore);
            int orphans = removeOrphans(table, now - ORPHAN_AGE.toMillis(), keepRuns);
            table.refresh();
            TableResult r = new TableResult(name, before.get(name), dataFiles(table), expired, orphans);
            Progress.info(r.line());
            results.add(r);
        }
        Table runs = warehouse.catalog().loadOrNull(Tables.RUNS);
        if (runs != null)
            runs.updateProperties().set(LAST_MAINTENANCE, Long.toString(now)).commit();
        return new Summary(results);
    }

    /** The data files of the table's current snapshot, from its summary (no manifest read). */
    static long dataFiles(Table table) {
        Snapshot s = table.currentSnapshot();
        if (s == null) return 0;
        String n = s.summary().get("total-data-files");
        return n == null ? 0 : Long.parseLong(n);
    }

    /**
     * Compacts partitions whose small files {@link FileCompaction} could not concatenate (their schemas differ) by
     * reading and writing their rows: Iceberg's bin-pack rewrite, one commit for the table.
     */
    private void rewriteRows(String name, Table table, List<Object> partitions) {
        tables.spark().sparkContext().setJobDescription("maintain: compact " + name);
        try {
            RewriteDataFiles rewrite = SparkActions.get(tables.spark())
                    .rewriteDataFiles(table)
                    .binPack()
                    .option("min-input-files", "2")
                    .option(RewriteDataFiles.TARGET_FILE_SIZE_BYTES, Long.toString(4 * SMALL_FILE_BYTES))
                    .option(RewriteDataFiles.MAX_CONCURRENT_FILE_GROUP_REWRITES, "4")
                    .snapshotProperty(MAINTENANCE_PROPERTY, "compaction");
            if (table.spec().isPartitioned())
                rewrite = rewrite.filter(Expressions.in(Tables.PARTITION_COLUMN, partitions.toArray()));
            rewrite.execute();
        } finally {
            tables.spark().sparkContext().setJobDescription(null);
        }
        table.refresh();
    }

    /** Rewrites the current snapshot's manifests into as few as their size allows, when there are many. */
    private static void rewriteManifests(Table table) {
        Snapshot s = table.currentSnapshot();
        if (s == null || s.allManifests(table.io()).size() <= MANY_MANIFESTS) return;
        table.rewriteManifests()
                .clusterBy(f -> "")
                .set(MAINTENANCE_PROPERTY, "manifests")
                .commit();
        table.refresh();
    }

    /**
     * Expires the snapshots older than {@code cutoff}, but never the newest one a run made (after a compaction the
     * current snapshot is maintenance's; the run's is what {@code --as-of} of the latest run reads) nor anything newer.
     * Also bounds the table's old metadata files, which the expired snapshots no longer need. Returns how many.
     */
    private static int expire(Table table, long cutoff) {
        if (!"true".equals(table.properties().get(TableProperties.METADATA_DELETE_AFTER_COMMIT_ENABLED))) {
            table.updateProperties()
                    .set(TableProperties.METADATA_DELETE_AFTER_COMMIT_ENABLED, "true")
                    .set(TableProperties.METADATA_PREVIOUS_VERSIONS_MAX, "20")
                    .commit();
        }
        Snapshot current = table.currentSnapshot();
        if (current == null) return 0;
        long keepFrom = cutoff;
        for (Snapshot s : SnapshotUtil.ancestorsOf(current.snapshotId(), table::snapshot)) {
            if (s.summary().get(WarehouseCatalog.RUN_ID) != null) {
                keepFrom = Math.min(cutoff, s.timestampMillis());
                break;
            }
        }
        int before = sizeOf(table.snapshots());
        table.expireSnapshots()
                .expireOlderThan(keepFrom)
                .retainLast(1)
                .cleanExpiredFiles(true)
                .commit();
        table.refresh();
        return before - sizeOf(table.snapshots());
    }

    /**
     * Removes the files in the table's folder that no snapshot, manifest or metadata file of it references, older than
     * {@code olderThan}; the data files of the lock's run and of journaled runs stay (they are about to be committed).
     * One recursive listing of the table's folder (a paged listing on object stores), the references read from its
     * manifests on the driver.
     */
    private int removeOrphans(Table table, long olderThan, Set<String> keepRuns) throws IOException {
        Set<String> referenced = new HashSet<>();
        for (String m : ReachableFileUtil.metadataFileLocations(table, false)) referenced.add(pathOf(m));
        referenced.add(pathOf(ReachableFileUtil.versionHintLocation(table)));
        for (String s : ReachableFileUtil.statisticsFilesLocations(table)) referenced.add(pathOf(s));
        Set<String> manifests = new HashSet<>();
        for (Snapshot s : table.snapshots()) {
            if (s.manifestListLocation() != null) referenced.add(pathOf(s.manifestListLocation()));
            for (ManifestFile m : s.allManifests(table.io())) {
                if (!manifests.add(m.path())) continue;
                referenced.add(pathOf(m.path()));
                try (CloseableIterable<String> paths = ManifestFiles.readPaths(m, table.io(), table.specs())) {
                    for (String p : paths) referenced.add(pathOf(p));
                }
            }
        }
        Path location = new Path(table.location());
        // a catalog of the user's may keep a table elsewhere than the warehouse root: its own file system
        FileSystem fs = location.getFileSystem(warehouse.fs().getConf());
        List<Path> orphans = new ArrayList<>();
        for (FileTree.Entry f : FileTree.files(fs, location)) {
            if (f.name().startsWith("."))
                continue; // a checksum beside its file (deleted with it) or a writer's unfinished file
            if (f.modificationTime() >= olderThan) continue;
            if (referenced.contains(pathOf(f.path().toString()))) continue;
            if (ofKeptRun(location, f.path(), keepRuns)) continue;
            orphans.add(f.path());
        }
        int removed = 0;
        for (Path p : orphans) {
            if (fs.delete(p, false)) removed++;
        }
        return removed;
    }

    /** Whether a file lies in the data folder of one of these runs ({@code <table>/data/<run>/…}). */
    private static boolean ofKeptRun(Path location, Path file, Set<String> keepRuns) {
        String data = pathOf(location.toString()) + "/" + Warehouse.DATA + "/";
        String p = pathOf(file.toString());
        if (!p.startsWith(data)) return false;
        String rest = p.substring(data.length());
        int slash = rest.indexOf('/');
        return slash > 0 && keepRuns.contains(rest.substring(0, slash));
    }

    /** A file's path without scheme and authority: Iceberg's locations and the listing's spell them differently. */
    private static String pathOf(String location) {
        try {
            return new Path(location).toUri().getPath();
        } catch (IllegalArgumentException e) {
            throw new UncheckedIOException(new IOException("not a path: " + location, e));
        }
    }

    private static int sizeOf(Iterable<?> items) {
        int n = 0;
        for (Object ignored : items) n++;
        return n;
    }
}
