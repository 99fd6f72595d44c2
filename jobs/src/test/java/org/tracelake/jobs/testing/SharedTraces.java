package org.tracelake.jobs.testing;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Where the tests find the real traces: {@code <shared>/traces}, with {@code <shared>} the system property
 * {@code tracelake.shared} (the build sets it to {@code ../shared} beside the checkout). A clone without them still
 * runs every other test: a test that needs a missing trace is skipped and prints one line saying where to put it.
 * CI sets {@code -Dtracelake.requireSharedTraces=true} (.ci/run), and there a missing trace fails the test instead,
 * so a moved or renamed file cannot silently turn real-trace tests into skips.
 */
public final class SharedTraces {
    /** The switch CI sets: a missing trace is a failure, not a skip. */
    public static final String REQUIRE = "tracelake.requireSharedTraces";

    private SharedTraces() {}

    /** The traces folder, whether or not it exists. */
    public static Path root() {
        return Path.of(System.getProperty("tracelake.shared", "../shared"), "traces")
                .toAbsolutePath()
                .normalize();
    }

    /** A file or folder under the traces folder; skips the calling test (fails it under CI's switch) when absent. */
    public static Path path(String relative) {
        Optional<String> missing = missing(relative);
        if (missing.isPresent()) Assumptions.abort(skipOrFail(missing.get(), callingTest()));
        return root().resolve(relative);
    }

    /**
     * A file or folder of the real captures made for the project ({@code <shared>/captures}, beside traces/); skips
     * the calling test (fails it under CI's switch) when absent, as {@link #path} does.
     */
    public static Path capture(String relative) {
        Path p = root().resolveSibling("captures").resolve(relative);
        if (!Files.exists(p)) {
            Assumptions.abort(skipOrFail(
                    "real capture " + p + " is missing: put the project's shared captures in " + p.getParent()
                            + " (../shared/captures beside the checkout, or -Dtracelake.shared=DIR holding captures/)",
                    callingTest()));
        }
        return p;
    }

    /** The test method that asked (the outermost frame of one of our *Test classes), for the skip line. */
    private static String callingTest() {
        return StackWalker.getInstance().walk(frames -> frames.filter(
                        f -> f.getClassName().startsWith("org.tracelake.")
                                && f.getClassName().endsWith("Test"))
                .reduce((inner, outer) -> outer)
                .map(f -> f.getClassName().substring(f.getClassName().lastIndexOf('.') + 1) + "." + f.getMethodName())
                .orElse("a test"));
    }

    /** What is missing, said in one line, or empty when the trace is there. */
    private static Optional<String> missing(String relative) {
        Path p = root().resolve(relative);
        if (Files.exists(p)) return Optional.empty();
        return Optional.of("real trace " + p + " is missing: put the project's shared traces in " + root()
                + " (../shared/traces beside the checkout, or -Dtracelake.shared=DIR holding traces/)");
    }

    /** Fails under CI's switch; otherwise prints the one line (surefire shows test output) and returns it. */
    private static String skipOrFail(String line, String what) {
        if (Boolean.getBoolean(REQUIRE)) throw new AssertionError(line + " (" + REQUIRE + " is set, as in CI)");
        String skipped = "skipped " + what + ": " + line;
        System.out.println(skipped);
        return skipped;
    }

    /** {@link RealTraces}: a class whose fixture needs real traces runs only where they are. */
    static final class Condition implements ExecutionCondition {
        @Override
        public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
            if (context.getTestMethod().isPresent()) return ConditionEvaluationResult.enabled("decided for the class");
            RealTraces needs = context.getRequiredTestClass().getAnnotation(RealTraces.class);
            for (String relative : needs.value()) {
                Optional<String> missing = missing(relative);
                if (missing.isPresent()) {
                    return ConditionEvaluationResult.disabled(skipOrFail(
                            missing.get(), context.getRequiredTestClass().getSimpleName()));
                }
            }
            return ConditionEvaluationResult.enabled("real traces present");
        }
    }
}
