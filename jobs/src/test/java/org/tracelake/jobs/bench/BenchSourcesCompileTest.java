package org.tracelake.jobs.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The programs of {@code bench/java} (WriteProfile, ScanProfile) compile against this build's classes. The bench
 * scripts compile them with javac at run time ({@code bench/sections/write_profile.sh}), outside Maven, so without
 * this a change to a class they use (RowFile, the readers, the archive scan) would break them unnoticed until the
 * next benchmark.
 */
class BenchSourcesCompileTest {
    @Test
    void benchProgramsCompile(@TempDir Path out) throws IOException {
        Path home = Path.of(System.getProperty("tracelake.home", "..")).toAbsolutePath();
        List<String> sources = new ArrayList<>();
        try (Stream<Path> s = Files.list(home.resolve("bench/java"))) {
            s.filter(p -> p.toString().endsWith(".java")).sorted().forEach(p -> sources.add(p.toString()));
        }
        assertFalse(sources.isEmpty(), "bench/java has programs");
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assertNotNull(javac, "a JDK, not a JRE");
        // surefire names the test classpath here (java.class.path may be its one manifest jar)
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> args = new ArrayList<>(List.of("-nowarn", "-proc:none", "-d", out.toString(), "-cp", classpath));
        args.addAll(sources);
        ByteArrayOutputStream errors = new ByteArrayOutputStream();
        int rc = javac.run(null, errors, errors, args.toArray(String[]::new));
        assertEquals(0, rc, "javac bench/java:\n" + errors.toString(StandardCharsets.UTF_8));
    }
}
