package org.tracelake.udfs;

import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.SparkSessionExtensions;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import scala.Function1;
import scala.runtime.AbstractFunction1;
import scala.runtime.BoxedUnit;

/**
 * tracelake's udfs in a Spark session that runs no tracelake code of its own — {@code spark-sql}, {@code pyspark},
 * {@code spark-shell}, a Thrift server — named by one setting:
 * {@code --jars tracelake-jobs-…-app.jar --conf spark.sql.extensions=org.tracelake.udfs.TracelakeSqlExtensions}.
 * {@code spark-sql} has no statement that runs Java, so {@link UdfRegistry#registerAll} cannot be called from it; a
 * session extension is Spark's own hook for code a session runs as it is built.
 *
 * <p>The hook used is the analyzer's check rules: Spark builds them once per session, with that session, when its
 * analyzer is first needed (before the first statement is resolved), so every session — the first, and each
 * {@code newSession()} — registers the udfs into its own function registry, exactly as {@code registerAll} does. The
 * check itself does nothing.
 */
public final class TracelakeSqlExtensions extends AbstractFunction1<SparkSessionExtensions, BoxedUnit> {
    @Override
    public BoxedUnit apply(SparkSessionExtensions extensions) {
        extensions.injectCheckRule(new RegisterOnBuild());
        return BoxedUnit.UNIT;
    }

    /** Registers the udfs into the session whose analyzer is being built; returns a check that passes every plan. */
    private static final class RegisterOnBuild
            extends AbstractFunction1<SparkSession, Function1<LogicalPlan, BoxedUnit>> {
        @Override
        public Function1<LogicalPlan, BoxedUnit> apply(SparkSession session) {
            UdfRegistry.registerAll(session);
            return new AbstractFunction1<LogicalPlan, BoxedUnit>() {
                @Override
                public BoxedUnit apply(LogicalPlan plan) {
                    return BoxedUnit.UNIT;
                }
            };
        }
    }
}
