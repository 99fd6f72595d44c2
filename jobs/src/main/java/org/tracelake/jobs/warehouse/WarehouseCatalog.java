package org.tracelake.jobs.warehouse;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.mapping.MappingUtil;
import org.apache.iceberg.mapping.NameMappingParser;
import org.apache.iceberg.spark.SparkSchemaUtil;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.SnapshotUtil;
import org.tracelake.schemas.TableCatalog;
import org.tracelake.schemas.Tables;

/**
 * The warehouse's tables as Apache Iceberg tables, through an Iceberg catalog: by default a Hadoop catalog whose
 * warehouse is the warehouse root, so a table {@code events} is {@code <root>/events} (its {@code metadata/} and its
 * data files) and nothing needs installing. The Hadoop catalog rather than a JDBC catalog on an SQLite file: it is
 * plain files on the warehouse's own file system (local disk, HDFS, S3A alike, where an SQLite file cannot live on an
 * object store), a reader only reads files (it never waits on a database lock), and a table can be read by its path
 * alone by any Iceberg reader. Its one weakness, concurrent committers, cannot arise: every writer holds the
 * warehouse lock. A catalog of one's own (Hive, REST, JDBC, Glue) is used instead when {@code
 * spark.tracelake.catalog} names a Spark catalog configured through {@code spark.sql.catalog.*} ({@link
 * WarehouseTables}).
 *
 * <p>Every table is created on first use from {@link TableCatalog} (so a table added there just works), the
 * per-workload ones partitioned by identity of {@code workload}, with a name mapping so that the Parquet files the
 * executors write (which carry no Iceberg field ids) are read by column name.
 */
public final class WarehouseCatalog {
    /** The snapshot summary property that names the tracelake run that made a commit. */
    public static final String RUN_ID = "tracelake.run-id";

    /** The snapshot summary property of a {@code runs} commit that names the archive the run read. */
    public static final String ARCHIVE = "tracelake.archive";

    private final Catalog catalog;
    private final Namespace namespace;

    /** The default: a Hadoop catalog at the warehouse root, tables in its top level. */
    public WarehouseCatalog(String root, Configuration conf) {
        HadoopCatalog hadoop = new HadoopCatalog();
        hadoop.setConf(conf);
        hadoop.initialize("tracelake", Map.of("warehouse", root));
        this.catalog = hadoop;
        this.namespace = Namespace.empty();
    }

    /** A catalog configured elsewhere (a Spark catalog's), its tables in {@code namespace}. */
    public WarehouseCatalog(Catalog catalog, Namespace namespace) {
        this.catalog = catalog;
        this.namespace = namespace;
    }

    public Catalog catalog() {
        return catalog;
    }

    public Namespace namespace() {
        return namespace;
    }

    /** Whether the default catalog (tables addressed by the warehouse root) is in use. */
    public boolean isDefault() {
        return catalog instanceof HadoopCatalog && namespace.isEmpty();
    }

    public TableIdentifier id(String table) {
        return TableIdentifier.of(namespace, table);
    }

    /** The table, or null when it has not been created. */
    public Table loadOrNull(String table) {
        try {
            return catalog.loadTable(id(table));
        } catch (NoSuchTableException e) {
            return null;
        }
    }

    /** Whether the table exists and has been committed to at least once. */
    public boolean exists(String table) {
        Table t = loadOrNull(table);
        return t != null && t.currentSnapshot() != null;
    }

    /** The table, created empty from the table catalog when it does not exist yet. */
    public synchronized Table table(String name) {
        Table t = loadOrNull(name);
        if (t != null) return withNewColumns(t, name);
        TableCatalog.Table def = TableCatalog.of(name);
        if (def == null) throw new IllegalArgumentException("no table " + name + " in the catalog");
        Schema schema = SparkSchemaUtil.convert(def.schema());
        // metrics_history too, though it is appended to rather than replaced: the regression check reads a workload's
        // previous run by partition
        PartitionSpec spec = def.perWorkload() || name.equals(Tables.METRICS_HISTORY)
                ? PartitionSpec.builderFor(schema)
                        .identity(Tables.PARTITION_COLUMN)
                        .build()
                : PartitionSpec.unpartitioned();
        Map<String, String> props = new HashMap<>();
        props.put(TableProperties.FORMAT_VERSION, "2");
        // the executors' files are named by the run, never overwritten: the table's own writes need no hash prefix
        props.put(TableProperties.OBJECT_STORE_ENABLED, "false");
        // the few rows a run appends (history) go in one file per partition, without a shuffle to cluster them
        props.put(TableProperties.WRITE_DISTRIBUTION_MODE, TableProperties.WRITE_DISTRIBUTION_MODE_NONE);
        props.put(TableProperties.SPARK_WRITE_PARTITIONED_FANOUT_ENABLED, "true");
        if (namespace.levels().length > 0 && catalog instanceof org.apache.iceberg.catalog.SupportsNamespaces ns) {
            if (!ns.namespaceExists(namespace)) ns.createNamespace(namespace);
        }
        // the name mapping goes in with the table, one metadata write: made from the ids that creating the table
        // assigns (afresh, in order from 1), and set again after it only when the catalog gave other ids
        String mapping = nameMapping(TypeUtil.assignFreshIds(schema, new AtomicInteger()::incrementAndGet));
        props.put(TableProperties.DEFAULT_NAME_MAPPING, mapping);
        Table created = catalog.createTable(id(name), schema, spec, props);
        String actual = nameMapping(created.schema());
        if (!actual.equals(mapping))
            created.updateProperties()
                    .set(TableProperties.DEFAULT_NAME_MAPPING, actual)
                    .commit();
        return created;
    }

    /**
     * The table with the columns a newer release added to its definition (a writer's first commit adds them, as
     * optional columns: rows written before read them as null), and the name mapping that reads them from the files.
     * Column docs (the schemas' comments, which {@code DESCRIBE} shows) are brought up to the definition's the same
     * way: a metadata-only change, so a table made before a column had its doc gets it at the next writer's commit.
     */
    private Table withNewColumns(Table t, String name) {
        TableCatalog.Table def = TableCatalog.of(name);
        if (def == null) return t;
        Schema wanted = SparkSchemaUtil.convert(def.schema());
        boolean behind = false;
        for (Types.NestedField c : wanted.columns()) {
            Types.NestedField have = t.schema().findField(c.name());
            behind |= have == null || (c.doc() != null && !c.doc().equals(have.doc()));
        }
        if (!behind) return t;
        t.updateSchema().unionByNameWith(wanted).commit();
        t.refresh();
        t.updateProperties()
                .set(TableProperties.DEFAULT_NAME_MAPPING, nameMapping(t.schema()))
                .commit();
        return t;
    }

    /** The name mapping that reads the executors' files (no field ids) into a table of this schema by column name. */
    private static String nameMapping(Schema schema) {
        return NameMappingParser.toJson(MappingUtil.create(schema));
    }

    /**
     * Whether a run committed to the table already: its id is in the summary of the current snapshot or of an
     * ancestor made after the previous run's commit (maintenance commits, which carry no run id, are passed over).
     */
    public static boolean committedBy(Table table, String runId) {
        for (Snapshot s : history(table)) {
            String run = s.summary().get(RUN_ID);
            if (runId.equals(run)) return true;
            if (run != null && run.compareTo(runId) < 0) return false;
        }
        return false;
    }

    /**
     * The snapshot of the table as a run left it: the newest snapshot of its history made by that run or an earlier
     * one (maintenance commits, which name no run and change no row, are passed over). Null when the table has no
     * such snapshot: it did not exist then, or its snapshots of that time have expired.
     */
    public Long snapshotAsOf(String table, String runId) {
        for (Snapshot s : history(loadOrNull(table))) {
            String run = s.summary().get(RUN_ID);
            if (run != null && run.compareTo(runId) <= 0) return s.snapshotId();
        }
        return null;
    }

    /**
     * The summary of the newest snapshot of the table's history that has {@code key} in it (a property a commit set),
     * or null when none has: read from the table's metadata, no data file.
     */
    public Map<String, String> lastSummaryWith(String table, String key) {
        for (Snapshot s : history(loadOrNull(table))) if (s.summary().containsKey(key)) return s.summary();
        return null;
    }

    /** Whether the runs table still has the snapshot this run's own commit made (a run it recorded, not expired). */
    public boolean keepsRun(String runId) {
        for (Snapshot s : history(loadOrNull(Tables.RUNS)))
            if (runId.equals(s.summary().get(RUN_ID))) return true;
        return false;
    }

    /** The oldest run any table still has a snapshot of: how far back {@code --as-of} reaches. */
    public String oldestRunKept() {
        String oldest = null;
        for (String name : Tables.ALL) {
            for (Snapshot s : history(loadOrNull(name))) {
                String run = s.summary().get(RUN_ID);
                if (run != null && (oldest == null || run.compareTo(oldest) < 0)) oldest = run;
            }
        }
        return oldest;
    }

    /**
     * The snapshots of a table's history from the current one back to the oldest kept, newest first; none for a table
     * that does not exist (null) or was never committed to.
     */
    private static Iterable<Snapshot> history(Table t) {
        if (t == null || t.currentSnapshot() == null) return List.of();
        return SnapshotUtil.ancestorsOf(t.currentSnapshot().snapshotId(), t::snapshot);
    }

    /** The workloads a per-workload table has rows of, from its metadata (its manifests), no Spark job. */
    public Set<String> workloads(String table) {
        Set<String> out = new TreeSet<>();
        Table t = loadOrNull(table);
        if (t == null || t.currentSnapshot() == null) return out;
        try (CloseableIterable<FileScanTask> tasks = t.newScan().planFiles()) {
            for (FileScanTask task : tasks) out.add(task.file().partition().get(0, String.class));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return out;
    }

    /**
     * Per workload of a per-workload table, the value a long column holds in every row of the workload, from the
     * manifests' column bounds alone (no data file is read, no Spark job): a workload is left out when its files'
     * bounds differ or are missing (a null in the column, a file written without statistics).
     */
    public Map<String, Long> constantPerWorkload(String table, String column) {
        Map<String, Long> out = new HashMap<>();
        Set<String> mixed = new TreeSet<>();
        Table t = loadOrNull(table);
        if (t == null || t.currentSnapshot() == null) return out;
        Types.NestedField field = t.schema().findField(column);
        if (field == null) return out; // a table written before the column existed: every workload is compared
        int id = field.fieldId();
        try (CloseableIterable<FileScanTask> tasks =
                t.newScan().includeColumnStats().planFiles()) {
            for (FileScanTask task : tasks) {
                String workload = task.file().partition().get(0, String.class);
                if (mixed.contains(workload)) continue;
                Long value = constant(task.file(), id);
                Long before = value == null ? null : out.putIfAbsent(workload, value);
                if (value == null || (before != null && !before.equals(value))) {
                    mixed.add(workload);
                    out.remove(workload);
                }
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return out;
    }

    /** The one value a long column has in a data file (its lower and upper bounds equal, no null), or null. */
    private static Long constant(DataFile file, int fieldId) {
        Long nulls =
                file.nullValueCounts() == null ? null : file.nullValueCounts().get(fieldId);
        if (nulls == null || nulls != 0) return null;
        if (file.lowerBounds() == null || file.upperBounds() == null) return null;
        java.nio.ByteBuffer lower = file.lowerBounds().get(fieldId);
        java.nio.ByteBuffer upper = file.upperBounds().get(fieldId);
        if (lower == null || !lower.equals(upper)) return null;
        return Conversions.fromByteBuffer(Types.LongType.get(), lower);
    }

    /** The snapshot id of every table that has one, by table name. */
    public Map<String, Long> currentSnapshots(List<String> tables) {
        Map<String, Long> out = new HashMap<>();
        for (String name : tables) {
            Table t = loadOrNull(name);
            if (t != null && t.currentSnapshot() != null)
                out.put(name, t.currentSnapshot().snapshotId());
        }
        return out;
    }

    /** Every table of the table catalog that exists in this catalog. */
    public List<String> existing() {
        List<String> out = new ArrayList<>();
        for (String t : Tables.ALL) if (exists(t)) out.add(t);
        return out;
    }
}
