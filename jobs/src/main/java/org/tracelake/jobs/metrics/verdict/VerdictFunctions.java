package org.tracelake.jobs.metrics.verdict;

import static org.apache.spark.sql.types.DataTypes.DoubleType;
import static org.apache.spark.sql.types.DataTypes.IntegerType;
import static org.apache.spark.sql.types.DataTypes.StringType;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.api.java.UDF2;
import org.apache.spark.sql.api.java.UDF3;
import org.apache.spark.sql.api.java.UDF4;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.tracelake.jobs.metrics.FigureReference.Direction;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The verdict rules as SQL functions, so that the refresh compares every workload with its previous run on the
 * executors (no step or kernel row comes to the driver). They only convert Spark's values and call {@link
 * StepComparison}, {@link KernelDeltas} and {@link RunVerdict}, which the compare report calls directly.
 */
public final class VerdictFunctions {
    private VerdictFunctions() {}

    /** compare_runs(steps A, steps B, kernels A, kernels B) → {@link #COMPARISON}. */
    public static final String COMPARE_RUNS = "tracelake_compare_runs";
    /** step_verdict(samples A, samples B, direction) → {@link #STEP_VERDICT}. */
    public static final String STEP_VERDICT_FN = "tracelake_step_verdict";
    /** judge(direction, change) → better, worse or null ({@link Direction#judge}). */
    public static final String JUDGE_FN = "tracelake_judge";

    public static final StructType KERNEL = new StructType()
            .add("position", IntegerType, false)
            .add("kernel", StringType, false)
            .add("previous_ms", DoubleType, false)
            .add("ms", DoubleType, false)
            .add("delta_ms", DoubleType, false);

    public static final StructType COMPARISON = new StructType()
            .add("verdict", StringType, false)
            .add("step_change", DoubleType, true)
            .add("noise", DoubleType, true)
            .add("delta_ms", DoubleType, true)
            .add("compute_delta_ms", DoubleType, true)
            .add("exposed_comm_delta_ms", DoubleType, true)
            .add("exposed_copy_delta_ms", DoubleType, true)
            .add("idle_delta_ms", DoubleType, true)
            .add("other_delta_ms", DoubleType, true)
            .add("kernels", DataTypes.createArrayType(KERNEL, false), false);

    public static final StructType STEP_VERDICT =
            new StructType().add("verdict", StringType, false).add("noise", DoubleType, true);

    /** Registers both functions in a session (idempotent). */
    public static void register(SparkSession spark) {
        spark.udf()
                .register(
                        COMPARE_RUNS,
                        (UDF4<Object, Object, Object, Object, Row>) VerdictFunctions::compare,
                        COMPARISON);
        spark.udf()
                .register(
                        STEP_VERDICT_FN,
                        (UDF3<Object, Object, String, Row>) VerdictFunctions::stepVerdict,
                        STEP_VERDICT);
        spark.udf().register(JUDGE_FN, (UDF2<String, Double, String>) VerdictFunctions::judge, StringType);
    }

    static String judge(String direction, Double change) {
        if (direction == null || change == null) return null;
        return Direction.valueOf(direction.toUpperCase(java.util.Locale.ROOT)).judge(change);
    }

    /** Steps are arrays of struct(rank, step, step_ms, compute_ms, exposed_comm_ms, exposed_copy_ms, idle_ms). */
    static Row compare(Object stepsA, Object stepsB, Object kernelsA, Object kernelsB) {
        StepComparison c = StepComparison.of(samples(stepsA), samples(stepsB));
        List<Row> kernels = new ArrayList<>();
        for (KernelDeltas.Moved m : KernelDeltas.top(kernels(kernelsA), kernels(kernelsB))) {
            kernels.add(RowFactory.create(m.position(), m.kernel(), m.previousMs(), m.ms(), m.deltaMs()));
        }
        Map<String, Double> p = c.parts();
        return RowFactory.create(
                c.verdict(),
                c.result().change(),
                c.result().noise(),
                c.deltaMs(),
                p.get("compute"),
                p.get("exposed_comm"),
                p.get("exposed_copy"),
                p.get("idle"),
                p.get("other"),
                kernels);
    }

    /** Samples are arrays of struct(rank, step, value): the figure's trimmed per-step values, judged by direction. */
    static Row stepVerdict(Object samplesA, Object samplesB, String direction) {
        RunVerdict.Result r = RunVerdict.of(values(samplesA), values(samplesB));
        Direction d =
                direction == null ? Direction.NONE : Direction.valueOf(direction.toUpperCase(java.util.Locale.ROOT));
        return RowFactory.create(r.verdict(d), r.noise());
    }

    private static List<Row> rows(Object seq) {
        if (seq == null) return List.of();
        @SuppressWarnings("unchecked")
        scala.collection.Iterable<Row> it = (scala.collection.Iterable<Row>) seq;
        return new ArrayList<>(CollectionConverters.asJavaCollection(it));
    }

    private static List<StepSample> samples(Object seq) {
        List<StepSample> out = new ArrayList<>();
        for (Row r : rows(seq)) {
            out.add(new StepSample(
                    r.getInt(0), r.getLong(1), r.getDouble(2), dbl(r, 3), dbl(r, 4), dbl(r, 5), dbl(r, 6)));
        }
        return out;
    }

    private static double[] values(Object seq) {
        List<StepSample> s = new ArrayList<>();
        for (Row r : rows(seq))
            s.add(new StepSample(r.getInt(0), r.getLong(1), r.getDouble(2), null, null, null, null));
        return StepSample.trimmed(s).stream().mapToDouble(StepSample::stepMs).toArray();
    }

    private static Map<String, Double> kernels(Object map) {
        Map<String, Double> out = new HashMap<>();
        if (map == null) return out;
        @SuppressWarnings("unchecked")
        scala.collection.Map<String, Double> m = (scala.collection.Map<String, Double>) map;
        CollectionConverters.asJava(m).forEach((k, v) -> {
            if (k != null && v != null) out.put(k, v);
        });
        return out;
    }

    private static Double dbl(Row r, int i) {
        return r.isNullAt(i) ? null : r.getDouble(i);
    }
}
