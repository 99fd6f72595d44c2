package org.tracelake.jobs.serve;

import java.io.IOException;
import java.net.URI;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Set;

/**
 * The token a {@code serve} client must present (Spark Connect's own pre-shared token: the client sends it as
 * {@code Authorization: Bearer TOKEN}, the server refuses every call without it). Unless the user gives one, each
 * start makes a new random one and writes it to {@code <warehouse>/_serve/token}, a file only the server's user can
 * read (folder 0700, file 0600): whoever can read it may query, which on a shared login node is the warehouse's owner.
 * {@code sql --remote} reads it from there.
 */
public final class ServeToken {
    /** The folder of the warehouse where serve leaves what its clients need. */
    public static final String FOLDER = "_serve";
    /** The token's file name in {@link #FOLDER}. */
    public static final String FILE = "token";
    /** Spark Connect's own variable for the token (server and clients read it). */
    public static final String ENV = "SPARK_CONNECT_AUTHENTICATE_TOKEN";

    private ServeToken() {}

    /** A new random token: 32 bytes from a strong generator, in hex. */
    public static String generate() {
        byte[] b = new byte[32];
        new SecureRandom().nextBytes(b);
        return HexFormat.of().formatHex(b);
    }

    /**
     * The local folder of a warehouse URI (no scheme or {@code file:}), or null for a warehouse on another file system
     * (HDFS, S3), where a file's owner-only mode cannot be relied on.
     */
    public static Path localFolder(String warehouse) {
        try {
            URI uri = new URI(warehouse);
            if (uri.getScheme() == null) return Path.of(warehouse).toAbsolutePath();
            if ("file".equals(uri.getScheme())) return Path.of(uri.getPath()).toAbsolutePath();
            return null;
        } catch (Exception e) {
            return Path.of(warehouse).toAbsolutePath();
        }
    }

    /** Where a local warehouse keeps the token. */
    public static Path file(Path warehouse) {
        return warehouse.resolve(FOLDER).resolve(FILE);
    }

    /**
     * Writes the token to {@code <warehouse>/_serve/token}, readable by its owner only. The file is made under a random
     * name, created exclusively (never through a link someone left there), then renamed over the old one, so a client
     * never reads half a token.
     */
    public static Path write(Path warehouse, String token) throws IOException {
        Path dir = ownFolder(warehouse.resolve(FOLDER));
        Path tmp = Files.createTempFile(dir, ".token-", ".tmp", PosixFilePermissions.asFileAttribute(OWNER_ONLY));
        try {
            Files.writeString(tmp, token + "\n", StandardCharsets.UTF_8, StandardOpenOption.WRITE);
            Files.setPosixFilePermissions(tmp, OWNER_ONLY);
            Path target = dir.resolve(FILE);
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            return target;
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /**
     * The token a client of the serve of {@code warehouse} presents, as every client of tracelake looks for it:
     * Spark Connect's variable, else the file serve wrote in a local warehouse; null when neither is there.
     */
    public static String forClients(String warehouse) throws IOException {
        String env = System.getenv(ENV);
        if (env != null && !env.isBlank()) return env.strip();
        Path local = localFolder(warehouse);
        if (local == null) return null;
        Path file = file(local);
        return Files.exists(file, LinkOption.NOFOLLOW_LINKS) ? read(file) : null;
    }

    /** Reads a token from a file (its one line, trimmed), refusing a link. */
    public static String read(Path file) throws IOException {
        if (Files.isSymbolicLink(file)) throw new IOException(file + " is a link; a token file must be a plain file");
        try (SeekableByteChannel ch = Files.newByteChannel(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
            if (ch.size() > 4096) throw new IOException(file + " is too long to be a token (over 4 KiB)");
        }
        String text = Files.readString(file, StandardCharsets.UTF_8).strip();
        if (text.isEmpty() || text.lines().count() != 1) throw new IOException(file + " holds no token (one line)");
        return text;
    }

    /** Removes the token file if it still holds {@code token} (a later serve of the same warehouse may have replaced it). */
    public static void remove(Path warehouse, String token) {
        Path f = file(warehouse);
        try {
            if (Files.isRegularFile(f, LinkOption.NOFOLLOW_LINKS) && read(f).equals(token)) Files.delete(f);
        } catch (IOException e) {
            // left behind: harmless, the next start replaces it, and it opens nothing once this server has stopped
        }
    }

    /** The folder, made 0700 if new; an existing one must be a real folder of this user. */
    private static Path ownFolder(Path dir) throws IOException {
        try {
            Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(OWNER_ONLY_DIR));
        } catch (FileAlreadyExistsException e) {
            if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
                throw new IOException(dir + " is not a folder (a link or a file): remove it and start serve again");
            }
            Files.setPosixFilePermissions(dir, OWNER_ONLY_DIR);
        }
        return dir;
    }

    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");
    private static final Set<PosixFilePermission> OWNER_ONLY_DIR = PosixFilePermissions.fromString("rwx------");
}
