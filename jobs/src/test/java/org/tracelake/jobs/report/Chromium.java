package org.tracelake.jobs.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Debian's headless Chromium, for tests: the DOM after the page's scripts ran, and screenshots. */
public final class Chromium {
    static final Path BINARY = Path.of("/usr/bin/chromium");

    private Chromium() {}

    public static boolean available() {
        return Files.isExecutable(BINARY);
    }

    private static List<String> command(Path profile) {
        return new ArrayList<>(List.of(
                BINARY.toString(),
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-dev-shm-usage",
                "--user-data-dir=" + profile,
                "--virtual-time-budget=15000"));
    }

    /** The serialized DOM of a local page once it has loaded and its timers ran (virtual time). */
    public static String dumpDom(Path page, Path profile) throws IOException, InterruptedException {
        List<String> cmd = command(profile);
        cmd.add("--dump-dom");
        cmd.add(page.toUri().toString());
        return run(cmd, profile.resolveSibling(profile.getFileName() + "-dom.html"));
    }

    public static void screenshot(Path page, Path png, Path profile) throws IOException, InterruptedException {
        screenshot(page, png, profile, 2400);
    }

    /** A screenshot of the page's first {@code height} pixels (tall enough to reach a section near the end). */
    public static void screenshot(Path page, Path png, Path profile, int height)
            throws IOException, InterruptedException {
        Files.createDirectories(png.getParent());
        List<String> cmd = command(profile);
        cmd.add("--hide-scrollbars");
        cmd.add("--screenshot=" + png.toAbsolutePath());
        cmd.add("--window-size=1400," + height);
        cmd.add(page.toUri().toString());
        run(cmd, profile.resolveSibling(profile.getFileName() + "-shot.log"));
    }

    private static String run(List<String> cmd, Path stdout) throws IOException, InterruptedException {
        Path stderr = stdout.resolveSibling(stdout.getFileName() + ".err");
        Process p = new ProcessBuilder(cmd)
                .redirectOutput(stdout.toFile())
                .redirectError(stderr.toFile())
                .start();
        if (!p.waitFor(180, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("chromium did not finish in 180 s: " + cmd);
        }
        if (p.exitValue() != 0) {
            throw new IllegalStateException("chromium exited with " + p.exitValue() + ": " + Files.readString(stderr));
        }
        return Files.readString(stdout, StandardCharsets.UTF_8);
    }
}
