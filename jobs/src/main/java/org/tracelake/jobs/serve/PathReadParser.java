package org.tracelake.jobs.serve;

import org.apache.spark.sql.catalyst.FunctionIdentifier;
import org.apache.spark.sql.catalyst.TableIdentifier;
import org.apache.spark.sql.catalyst.analysis.UnresolvedRelation;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.PlanExpression;
import org.apache.spark.sql.catalyst.parser.ParameterContext;
import org.apache.spark.sql.catalyst.parser.ParseException;
import org.apache.spark.sql.catalyst.parser.ParserInterface;
import org.apache.spark.sql.catalyst.plans.QueryPlan;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructType;
import scala.collection.Iterator;
import scala.collection.immutable.Seq;

/**
 * A served session's SQL parser: Spark's, plus one look at each parsed statement for a query of files by path
 * ({@code csv.`/etc/passwd`}), refused before analysis. {@link PlanCheck} refuses such a read too, but only after
 * analysis, and analysis already opens the file to infer a CSV or JSON schema; here nothing is opened. The warehouse's
 * own table folders, which tracelake's folder views name this way, pass.
 */
final class PathReadParser implements ParserInterface {
    private final ParserInterface spark;

    PathReadParser(ParserInterface spark) {
        this.spark = spark;
    }

    @Override
    public LogicalPlan parsePlan(String sql) throws ParseException {
        return checked(spark.parsePlan(sql));
    }

    @Override
    public LogicalPlan parsePlanWithParameters(String sql, ParameterContext parameters) throws ParseException {
        return checked(spark.parsePlanWithParameters(sql, parameters));
    }

    @Override
    public LogicalPlan parseQuery(String sql) throws ParseException {
        return checked(spark.parseQuery(sql));
    }

    @Override
    public Expression parseExpression(String sql) throws ParseException {
        return spark.parseExpression(sql);
    }

    @Override
    public TableIdentifier parseTableIdentifier(String sql) throws ParseException {
        return spark.parseTableIdentifier(sql);
    }

    @Override
    public FunctionIdentifier parseFunctionIdentifier(String sql) throws ParseException {
        return spark.parseFunctionIdentifier(sql);
    }

    @Override
    public Seq<String> parseMultipartIdentifier(String sql) throws ParseException {
        return spark.parseMultipartIdentifier(sql);
    }

    @Override
    public StructType parseRoutineParam(String sql) throws ParseException {
        return spark.parseRoutineParam(sql);
    }

    @Override
    public StructType parseTableSchema(String sql) throws ParseException {
        return spark.parseTableSchema(sql);
    }

    @Override
    public DataType parseDataType(String sql) throws ParseException {
        return spark.parseDataType(sql);
    }

    private static LogicalPlan checked(LogicalPlan plan) {
        walk(plan);
        return plan;
    }

    private static void walk(QueryPlan<?> plan) {
        if (plan instanceof UnresolvedRelation u && u.multipartIdentifier().size() == 2) {
            String path = u.multipartIdentifier().last();
            if (looksLikePath(path) && !ServePolicy.isTableFolder(path)) {
                throw new PlanCheck.Refused(
                        "a served session reads the warehouse's tables and views, not files by path ("
                                + u.multipartIdentifier().head() + ".`" + path + "`)");
            }
        }
        Iterator<?> children = plan.children().iterator();
        while (children.hasNext()) walk((QueryPlan<?>) children.next());
        Iterator<QueryPlan<?>> inner = plan.innerChildren().iterator();
        while (inner.hasNext()) walk(inner.next());
        Iterator<Expression> expressions = plan.expressions().iterator();
        while (expressions.hasNext()) expression(expressions.next());
    }

    private static void expression(Expression e) {
        if (e instanceof PlanExpression<?> p) walk(p.plan());
        Iterator<Expression> children = e.children().iterator();
        while (children.hasNext()) expression(children.next());
    }

    private static boolean looksLikePath(String name) {
        return name.contains("/") || name.contains("\\") || name.contains(":");
    }
}
