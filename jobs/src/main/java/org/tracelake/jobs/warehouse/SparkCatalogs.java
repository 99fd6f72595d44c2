package org.tracelake.jobs.warehouse;

import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.spark.SparkCatalog;
import org.apache.iceberg.spark.SparkSessionCatalog;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.catalog.CatalogPlugin;
import org.tracelake.jobs.spark.Settings;

/**
 * The Spark side of the tables' catalog: the Iceberg catalog a Spark catalog of one's own wraps ({@code
 * spark.tracelake.catalog}), and the Spark catalog that {@code sql} and {@code serve} name the default catalog's tables
 * by.
 */
public final class SparkCatalogs {
    /** The name of the Spark catalog that {@code sql} and {@code serve} register for the default catalog. */
    public static final String DEFAULT_NAME = "tracelake";

    private SparkCatalogs() {}

    /** The catalog {@code spark.tracelake.catalog} names, or null for the default (a Hadoop catalog at the root). */
    public static String configuredCatalog(SparkSession spark) {
        String name = Settings.of(spark).get(Settings.CATALOG);
        return name.isEmpty() ? null : name;
    }

    /** The Iceberg catalog behind a Spark catalog, with the tables in {@code spark.tracelake.namespace}. */
    public static WarehouseCatalog icebergCatalog(SparkSession spark, String name) {
        CatalogPlugin plugin = spark.sessionState().catalogManager().catalog(name);
        Namespace ns = Namespace.of(Settings.of(spark).get(Settings.NAMESPACE));
        if (plugin instanceof SparkCatalog c) return new WarehouseCatalog(c.icebergCatalog(), ns);
        if (plugin instanceof SparkSessionCatalog<?> c) return new WarehouseCatalog(c.icebergCatalog(), ns);
        throw new IllegalArgumentException("--conf spark.tracelake.catalog=" + name
                + ": not an Iceberg catalog (set spark.sql.catalog." + name
                + "=org.apache.iceberg.spark.SparkCatalog and its type, uri and warehouse)");
    }

    /**
     * Lets Spark's Iceberg source read and write tables by their path: it does so through a catalog of its own,
     * {@code default_iceberg}, which unless configured is a Hive catalog (and there is no Hive here). A Hadoop
     * catalog serves a path whatever its warehouse; this one's is the warehouse root.
     */
    public static void forPaths(SparkSession spark, Warehouse warehouse) {
        String key = "spark.sql.catalog.default_iceberg";
        if (spark.conf().getOption(key).isDefined()) return;
        spark.conf().set(key + ".type", "hadoop");
        spark.conf().set(key + ".warehouse", warehouse.root());
        spark.conf().set(key + ".cache-enabled", "false");
        spark.conf().set(key, SparkCatalog.class.getName());
    }

    /**
     * {@link #register}'s settings in an application's configuration, before its session starts, so that every
     * session of it (each Spark Connect client's) has the catalog. {@code warehouseRoot}: as the command got it.
     */
    public static void configure(org.apache.spark.SparkConf conf, String warehouseRoot) throws java.io.IOException {
        if (!Settings.of(conf).get(Settings.CATALOG).isEmpty()) return;
        org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(warehouseRoot);
        org.apache.hadoop.conf.Configuration hadoop =
                org.apache.spark.deploy.SparkHadoopUtil.get().newConfiguration(conf);
        String root = p.getFileSystem(hadoop).makeQualified(p).toString();
        String key = "spark.sql.catalog." + DEFAULT_NAME;
        conf.set(key, SparkCatalog.class.getName());
        conf.set(key + ".type", "hadoop");
        conf.set(key + ".warehouse", root);
        conf.set(key + ".default-namespace", "");
        conf.set(key + ".cache-enabled", "false");
    }

    /**
     * Names the default catalog's tables in the session: a Spark catalog over the warehouse's Hadoop catalog (its
     * tables at the top level, so {@code <name>.events}), whose tables are loaded afresh at every query (no cache:
     * a prompt open across a refresh sees its commit). Returns the catalog's name: {@link #DEFAULT_NAME}, or when the
     * session already has that name for another warehouse, a name of this warehouse's own.
     */
    public static String register(SparkSession spark, Warehouse warehouse) {
        String configured = configuredCatalog(spark);
        if (configured != null) return configured + "." + Settings.of(spark).get(Settings.NAMESPACE);
        String name = DEFAULT_NAME;
        String key = "spark.sql.catalog." + name;
        String current = spark.conf().getOption(key + ".warehouse").getOrElse(() -> null);
        if (current != null && !current.equals(warehouse.root())) {
            name = DEFAULT_NAME + "_" + Integer.toHexString(warehouse.root().hashCode() & 0x7fffffff);
            key = "spark.sql.catalog." + name;
        }
        spark.conf().set(key, SparkCatalog.class.getName());
        spark.conf().set(key + ".type", "hadoop");
        spark.conf().set(key + ".warehouse", warehouse.root());
        spark.conf().set(key + ".default-namespace", "");
        spark.conf().set(key + ".cache-enabled", "false");
        return name;
    }
}
