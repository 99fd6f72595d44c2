package org.tracelake.jobs.serve;

import java.util.List;

/**
 * What a served session may do, in one place for both of serve's gates: {@link RequestGate} (the Spark Connect
 * requests, before Spark plans them) and {@link PlanCheck} (every statement's analysed plan). A served session reads
 * the warehouse's tables and views and calls the udfs; with {@code --allow-writes} it may also write and change
 * tables. Whatever the flag, it never reads a file by path, loads code (a jar, a file, a function of its own) or changes
 * a view every client sees.
 */
public final class ServePolicy {
    private static volatile boolean allowWrites;

    private ServePolicy() {}

    private static volatile java.util.Set<String> tableFolders = java.util.Set.of();

    /** Set once by {@link ConnectServer#start}, before the server accepts a client. */
    static void allowWrites(boolean allow) {
        allowWrites = allow;
    }

    /**
     * The warehouse's table folders ({@code <root>/<table>}, qualified), the only files a served session reads other
     * than through a catalog table. Set once by {@link ConnectServer#start}.
     */
    static void tableFolders(java.util.Set<String> folders) {
        tableFolders = java.util.Set.copyOf(folders);
    }

    /** Whether a path, as a statement names it, is one of the warehouse's table folders. */
    static boolean isTableFolder(String path) {
        try {
            return tableFolders.contains(new org.apache.hadoop.fs.Path(path).toString());
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** Whether a file relation reads only table folders of the warehouse (as tracelake's views do). */
    static boolean isTableFolder(org.apache.spark.sql.sources.BaseRelation relation) {
        if (!(relation instanceof org.apache.spark.sql.execution.datasources.HadoopFsRelation fs)) return false;
        scala.collection.Iterator<org.apache.hadoop.fs.Path> roots =
                fs.location().rootPaths().iterator();
        boolean any = false;
        while (roots.hasNext()) {
            if (!tableFolders.contains(roots.next().toString())) return false;
            any = true;
        }
        return any;
    }

    static boolean writesAllowed() {
        return allowWrites;
    }

    /**
     * Settings a client may change in its own session: how results look and how a query is planned. Every other key
     * (catalogs, data sources, Hadoop file systems, legacy behaviours) could open a way around the gates and is the
     * server's to set ({@code serve --conf}).
     */
    static final List<String> SETTABLE = List.of(
            "spark.sql.session.timeZone",
            "spark.sql.ansi.enabled",
            "spark.sql.caseSensitive",
            "spark.sql.shuffle.partitions",
            "spark.sql.autoBroadcastJoinThreshold",
            "spark.sql.adaptive.",
            "spark.sql.files.maxPartitionBytes",
            "spark.sql.timestampType",
            "spark.sql.datetime.java8API.enabled",
            "spark.sql.pivotMaxValues",
            "spark.sql.maxPlanStringLength",
            "spark.sql.maxMetadataStringLength",
            "spark.sql.ui.explainMode",
            "spark.sql.execution.arrow.",
            "spark.sql.execution.pandas.",
            "spark.sql.repl.eagerEval.");

    /** Whether a client may set {@code key} in its session. */
    static boolean settable(String key) {
        for (String k : SETTABLE) {
            if (k.endsWith(".") ? key.startsWith(k) : key.equals(k)) return true;
        }
        return false;
    }

    /** The one line a client gets for a setting it may not change. */
    static String settingRefused(String key) {
        return refusal("setting " + key + " is the server's (a served session may set only "
                + String.join(
                        ", ",
                        SETTABLE.stream()
                                .map(k -> k.endsWith(".") ? k + "*" : k)
                                .toList()) + ")");
    }

    /** The one line a client gets: what was refused and why, in serve's words. */
    static String refusal(String why) {
        return "tracelake serve refuses this: " + why;
    }

    /** The hint for a write refused because the server was started without {@code --allow-writes}. */
    static final String READ_ONLY =
            "serve is read-only (its owner can start it with --allow-writes on a host where every client is trusted)";
}
