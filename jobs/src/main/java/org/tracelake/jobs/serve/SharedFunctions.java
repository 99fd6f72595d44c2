package org.tracelake.jobs.serve;

import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.FunctionIdentifier;
import org.apache.spark.sql.catalyst.analysis.FunctionRegistry;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.ExpressionInfo;
import org.tracelake.udfs.UdfRegistry;
import scala.Function1;
import scala.Tuple3;
import scala.collection.immutable.Seq;

/**
 * tracelake's udfs in every session of the application, not only the one that registered them. A Spark Connect
 * server gives each client a session of its own ({@code newSession()} of the default one), and a new session starts
 * from Spark's built-in functions plus those its {@code SparkSessionExtensions} inject; the extensions object is
 * shared by every session of the application. So each udf, as registered in the default session (name, description,
 * builder), is injected there once, before the server accepts a client.
 */
final class SharedFunctions {
    private SharedFunctions() {}

    /** Returns how many functions every new session gets. */
    static int shareWithNewSessions(SparkSession session) {
        org.apache.spark.sql.classic.SparkSession spark = (org.apache.spark.sql.classic.SparkSession) session;
        FunctionRegistry registry = spark.sessionState().functionRegistry();
        int n = 0;
        for (String name : UdfRegistry.names()) {
            FunctionIdentifier id = new FunctionIdentifier(name);
            ExpressionInfo info = registry.lookupFunction(id).get();
            Function1<Seq<Expression>, Expression> builder =
                    registry.lookupFunctionBuilder(id).get();
            spark.extensions().injectFunction(new Tuple3<>(id, info, builder));
            n++;
        }
        return n;
    }
}
