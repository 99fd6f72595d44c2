package org.tracelake.jobs.serve;

import java.util.Set;
import org.apache.spark.sql.catalyst.analysis.LocalTempView$;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.PlanExpression;
import org.apache.spark.sql.catalyst.plans.logical.Command;
import org.apache.spark.sql.catalyst.plans.logical.InsertIntoStatement;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.View;
import org.apache.spark.sql.execution.command.CreateViewCommand;
import org.apache.spark.sql.execution.command.DropTableCommand;
import org.apache.spark.sql.execution.command.SetCommand;
import org.apache.spark.sql.execution.datasources.LogicalRelation;
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2Relation;
import scala.Option;
import scala.Tuple2;
import scala.collection.Iterator;

/**
 * The check every served session runs on each statement's analysed plan, before anything of it runs (Spark runs a
 * command only once its plan has been analysed and checked). It is about what a plan does, not about how the tables
 * are registered: it lets through reads of catalog tables, of views, and of the warehouse's own table folders (what
 * tracelake's folder views read: Spark checks a view's body on its own, without the view around it, as it resolves
 * the view), and refuses, each with one line:
 *
 * <ul>
 *   <li>a read of files by path ({@code text.`/etc/passwd`}, a Parquet or JSON file by its path, any file relation that is neither
 *       a catalog table nor inside a view) and streams;
 *   <li>code from the client: {@code ADD JAR}/{@code FILE}/{@code ARCHIVE}, {@code CREATE FUNCTION} (with or without
 *       {@code USING JAR}), {@code reflect}/{@code java_method};
 *   <li>a change to what another client sees: persistent or global views, the shared cache;
 *   <li>a setting outside {@link ServePolicy#SETTABLE};
 *   <li>and, unless serve runs with {@code --allow-writes}, every other command: writes (INSERT, INSERT OVERWRITE
 *       DIRECTORY, CTAS, DELETE/UPDATE/MERGE), DDL (CREATE/DROP/ALTER/TRUNCATE), LOAD DATA.
 * </ul>
 *
 * Commands that only show or describe something, {@code USE}, session variables and the client's own temporary views
 * pass.
 */
final class PlanCheck {
    private PlanCheck() {}

    /** Commands that change nothing outside the client's session. */
    private static final Set<String> HARMLESS = Set.of(
            "ResetCommand",
            "ShowTablesCommand",
            "ShowTables",
            "ShowTablesExtended",
            "ShowViews",
            "ShowViewsCommand",
            "ShowNamespaces",
            "ShowNamespacesCommand",
            "ShowColumns",
            "ShowColumnsCommand",
            "ShowFunctions",
            "ShowFunctionsCommand",
            "ShowCreateTable",
            "ShowCreateTableCommand",
            "ShowCreateTableAsSerdeCommand",
            "ShowTableProperties",
            "ShowTablePropertiesCommand",
            "ShowPartitions",
            "ShowPartitionsCommand",
            "ShowCatalogs",
            "ShowCatalogsCommand",
            "ShowCurrentNamespace",
            "ShowCurrentNamespaceCommand",
            "DescribeTableCommand",
            "DescribeRelation",
            "DescribeRelationJsonCommand",
            "DescribeColumn",
            "DescribeColumnCommand",
            "DescribeFunction",
            "DescribeFunctionCommand",
            "DescribeNamespace",
            "DescribeDatabaseCommand",
            "DescribeQueryCommand",
            "ExplainCommand",
            "SetCatalogAndNamespace",
            "SetCatalogCommand",
            "SetNamespaceCommand",
            "CreateVariable",
            "SetVariable",
            "DropVariable",
            "DropTempViewCommand",
            "RefreshTableCommand",
            "RefreshTable");

    /** Commands refused even with --allow-writes: they load code, read by path or change what every client sees. */
    private static final Set<String> NEVER = Set.of(
            "AddJarsCommand",
            "AddFilesCommand",
            "AddArchivesCommand",
            "CreateFunction",
            "CreateFunctionCommand",
            "CreateSQLFunctionCommand",
            "CreateUserDefinedFunctionCommand",
            "DropFunction",
            "DropFunctionCommand",
            "RefreshFunctionCommand",
            "CreateTempViewUsing",
            "LoadDataCommand",
            "CacheTable",
            "CacheTableAsSelect",
            "UncacheTable",
            "ClearCacheCommand",
            "CreateView",
            "AlterViewAs",
            "AlterViewAsCommand",
            "AlterViewSchemaBinding",
            "AlterViewSchemaBindingCommand",
            "SetViewProperties",
            "UnsetViewProperties",
            "StreamingExplainCommand");

    /** Throws {@link Refused} if a served session may not run {@code plan}. */
    static void check(org.apache.spark.sql.classic.SparkSession session, LogicalPlan plan) {
        CURRENT.set(session);
        try {
            walk(plan, false);
        } finally {
            CURRENT.remove();
        }
    }

    /** The session whose statement is being checked (for its temporary views). */
    private static final ThreadLocal<org.apache.spark.sql.classic.SparkSession> CURRENT = new ThreadLocal<>();

    private static void walk(LogicalPlan plan, boolean inView) {
        boolean viewed = inView || plan instanceof View;
        node(plan, viewed);
        Iterator<Expression> expressions = plan.expressions().iterator();
        while (expressions.hasNext()) expression(expressions.next(), viewed);
        Iterator<LogicalPlan> children = plan.children().iterator();
        while (children.hasNext()) walk(children.next(), viewed);
    }

    private static void expression(Expression e, boolean inView) {
        String name = e.getClass().getSimpleName();
        if (name.equals("CallMethodViaReflection")) {
            throw new Refused("reflect/java_method call Java methods of the server");
        }
        if (name.equals("PythonUDF") || name.equals("PythonUDAF") || name.equals("PythonUDTF")) {
            throw new Refused("a function defined by the client runs its code in the server");
        }
        if (e instanceof PlanExpression<?> p && p.plan() instanceof LogicalPlan sub) walk(sub, inView);
        Iterator<Expression> children = e.children().iterator();
        while (children.hasNext()) expression(children.next(), inView);
    }

    private static void node(LogicalPlan plan, boolean inView) {
        String name = plan.getClass().getSimpleName();
        if (plan instanceof LogicalRelation r) {
            if (!inView && r.catalogTable().isEmpty() && !ServePolicy.isTableFolder(r.relation()))
                throw new Refused(pathRead(plan));
            return;
        }
        if (plan instanceof DataSourceV2Relation r) {
            boolean catalogTable = r.catalog().isDefined()
                    && r.identifier().isDefined()
                    && !r.identifier().get().name().contains("/");
            if (!inView && !catalogTable) throw new Refused(pathRead(plan));
            return;
        }
        if (name.startsWith("Streaming") && name.contains("Relation")) {
            throw new Refused("a served session reads tables, not streams");
        }
        if (plan instanceof SetCommand set) {
            setting(set);
            return;
        }
        if (plan instanceof CreateViewCommand view) {
            if (view.viewType() != LocalTempView$.MODULE$) {
                throw new Refused("views every client sees are the server's; a client may make TEMPORARY views of"
                        + " its own session (CREATE TEMPORARY VIEW)");
            }
            walk(view.plan(), inView);
            return;
        }
        if (plan instanceof DropTableCommand drop && drop.isView()) {
            org.apache.spark.sql.classic.SparkSession session = CURRENT.get();
            if (session != null && session.sessionState().catalog().isTempView(drop.tableName())) return;
            throw new Refused("views every client sees are the server's (DROP VIEW " + drop.tableName() + ")");
        }
        if (NEVER.contains(name)) throw new Refused(never(name));
        if (HARMLESS.contains(name)) return;
        if ((plan instanceof Command || plan instanceof InsertIntoStatement) && !ServePolicy.writesAllowed()) {
            throw new Refused("a served session only reads (" + words(name) + "); " + ServePolicy.READ_ONLY);
        }
    }

    private static void setting(SetCommand set) {
        Option<Tuple2<String, Option<String>>> kv = set.kv();
        if (kv.isEmpty() || kv.get()._2().isEmpty()) return; // SET, SET -v, SET key: show
        String key = kv.get()._1();
        if (!ServePolicy.settable(key))
            throw new Refused(ServePolicy.settingRefused(key).substring(PREFIX));
    }

    private static final int PREFIX = ServePolicy.refusal("").length();

    private static String pathRead(LogicalPlan relation) {
        return "a served session reads the warehouse's tables and views, not files by path ("
                + truncate(relation.simpleString(200)) + ")";
    }

    private static String never(String command) {
        if (command.startsWith("Add")) return "a served session loads no jar, file or archive";
        if (command.contains("Function")) return "a served session defines no function (its udfs are there already)";
        if (command.equals("CreateTempViewUsing") || command.equals("LoadDataCommand")) {
            return "a served session reads the warehouse's tables and views, not files by path";
        }
        if (command.contains("Cache")) return "the cache is shared by every client of serve";
        return "views every client sees are the server's; a client may make TEMPORARY views of its own session";
    }

    /** A command's class name as words a client recognises: InsertIntoHadoopFsRelationCommand → insert into … */
    private static String words(String className) {
        String base = className.replaceAll("(Command|Exec|Statement)$", "");
        return base.replaceAll("([a-z])([A-Z])", "$1 $2").toLowerCase(java.util.Locale.ROOT);
    }

    private static String truncate(String s) {
        String one = s.replace('\n', ' ');
        return one.length() > 160 ? one.substring(0, 157) + "..." : one;
    }

    /** A refused statement: its message is the one line the client prints. */
    static final class Refused extends SecurityException {
        private static final long serialVersionUID = 1L;

        Refused(String why) {
            super(ServePolicy.refusal(why));
        }
    }
}
