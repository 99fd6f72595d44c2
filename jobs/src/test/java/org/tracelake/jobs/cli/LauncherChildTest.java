package org.tracelake.jobs.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bin/lib/run-child.sh, how bin/tracelake runs a JVM it cannot exec (the run that writes the class-data archive, the
 * first after every build; serve's local client): a kill of the launcher's pid reaches the JVM, and the JVM reads the
 * launcher's standard input. Before it, a scheduler's kill of the first refresh after a build left the JVM running
 * (seen: a serve outlived bench/sections/serve.sh), and a command started with & in a script reads /dev/null.
 */
class LauncherChildTest {
    @TempDir
    Path tmp;

    private static final Path SCRIPT =
            Path.of(System.getProperty("tracelake.home", "..")).resolve("bin/lib/run-child.sh");

    @Test
    void aKillOfTheLauncherStopsItsChild() throws Exception {
        Path pidFile = tmp.resolve("child.pid");
        Process launcher = new ProcessBuilder(
                        "bash",
                        "-c",
                        ". \"$1\"; run_child bash -c 'echo $$ > \"$0\"; exec sleep 600' \"$2\"; echo \"rc=$?\"",
                        "launcher",
                        SCRIPT.toString(),
                        pidFile.toString())
                .redirectErrorStream(true)
                .start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!(Files.exists(pidFile) && Files.size(pidFile) > 0) && System.nanoTime() < deadline) Thread.sleep(20);
        long child = Long.parseLong(Files.readString(pidFile).strip());
        ProcessHandle handle = ProcessHandle.of(child).orElseThrow();

        launcher.destroy(); // SIGTERM, as a scheduler sends it
        assertTrue(handle.onExit().get(30, TimeUnit.SECONDS) != null, "the child ended");
        assertTrue(launcher.waitFor(30, TimeUnit.SECONDS), "the launcher ended");
        assertFalse(handle.isAlive());
    }

    @Test
    void theChildReadsTheLaunchersInputAndItsCodeIsTheLaunchers() throws Exception {
        Process launcher = new ProcessBuilder(
                        "bash",
                        "-c",
                        ". \"$1\"; run_child bash -c 'cat; exit 3'; echo \"rc=$?\"",
                        "l",
                        SCRIPT.toString())
                .redirectErrorStream(true)
                .start();
        launcher.getOutputStream().write("SELECT 1;\n".getBytes(StandardCharsets.UTF_8));
        launcher.getOutputStream().close();
        assertTrue(launcher.waitFor(30, TimeUnit.SECONDS));
        assertEquals("SELECT 1;\nrc=3\n", new String(launcher.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
    }
}
