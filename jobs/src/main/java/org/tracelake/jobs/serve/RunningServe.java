package org.tracelake.jobs.serve;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Properties;

/**
 * A {@code serve} running for a warehouse, as it announces itself in {@code <warehouse>/_serve/server} (its address and
 * process id, beside the token, in the folder only its owner can read): {@code sql} uses it instead of starting a Spark
 * of its own, and {@code serve --stop} stops it. serve removes the file as it stops; a file left by a process that is
 * gone (killed) is ignored.
 */
public record RunningServe(String address, long pid, int localPort) {
    /** The property that holds the port of serve's {@link LocalEndpoint} (absent: a serve without one). */
    private static final String LOCAL_PORT = "local.port";

    /** The file's name in {@link ServeToken#FOLDER}. */
    public static final String FILE = "server";

    /** Announces this process's server, and its local endpoint's port (0: none). */
    public static void write(Path warehouse, String address, int localPort) throws IOException {
        Path dir = warehouse.resolve(ServeToken.FOLDER);
        Path tmp = Files.createTempFile(
                dir,
                ".server-",
                ".tmp",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        try {
            Properties p = new Properties();
            p.setProperty("address", address);
            p.setProperty("pid", Long.toString(ProcessHandle.current().pid()));
            if (localPort > 0) p.setProperty(LOCAL_PORT, Integer.toString(localPort));
            try (var out = Files.newBufferedWriter(
                    tmp, StandardCharsets.UTF_8, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS)) {
                p.store(out, "tracelake serve");
            }
            Files.move(tmp, dir.resolve(FILE), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /** The serve running for a local warehouse, or null: none announced, or its process is gone. */
    public static RunningServe find(String warehouse) {
        Path local = ServeToken.localFolder(warehouse);
        if (local == null) return null;
        Path file = local.resolve(ServeToken.FOLDER).resolve(FILE);
        try {
            if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS) || Files.size(file) > 4096) return null;
            Properties p = new Properties();
            p.load(new StringReader(Files.readString(file, StandardCharsets.UTF_8)));
            String address = p.getProperty("address");
            long pid = Long.parseLong(p.getProperty("pid", "-1"));
            int localPort = Integer.parseInt(p.getProperty(LOCAL_PORT, "0"));
            if (address == null || !address.startsWith("sc://") || localPort < 0 || localPort > 65535) return null;
            boolean alive = ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
            return alive ? new RunningServe(address, pid, localPort) : null;
        } catch (IOException | RuntimeException e) {
            return null; // unreadable: as if none ran
        }
    }

    /** Removes the announcement if it is this process's. */
    public static void remove(Path warehouse) {
        Path file = warehouse.resolve(ServeToken.FOLDER).resolve(FILE);
        try {
            Properties p = new Properties();
            p.load(new StringReader(Files.readString(file, StandardCharsets.UTF_8)));
            if (Long.toString(ProcessHandle.current().pid()).equals(p.getProperty("pid"))) Files.delete(file);
        } catch (IOException | RuntimeException e) {
            // gone already, or another serve's: leave it
        }
    }
}
