package org.tracelake.jobs.serve;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.net.MalformedURLException;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The Spark Connect JVM client in a class loader of its own. The client jar carries its own copy of Spark's SQL API
 * and of the Connect protocol classes, the latter shaded differently from the server's ({@code spark-connect}, on the
 * classpath for {@code serve}): on one classpath, whichever comes first breaks the other. So the client stays out of
 * the classpath (Maven copies it to {@code jobs/target/connect-client/}) and this loader loads, child first, the
 * client's classes and tracelake's {@code org.tracelake.jobs.sql} classes (which then link against the client's
 * SparkSession, Dataset and Row); everything else (the JDK, Scala, Jackson, Spark's utility jars, at the same
 * versions the client was built with) comes from the application class loader, except the classic Spark SQL
 * classes, which must never meet the client's.
 */
public final class ClientLoader extends URLClassLoader {
    static {
        registerAsParallelCapable();
    }

    /** Where Maven puts the client (beside the jar or classes folder of this class); -Dtracelake.connectClient=DIR overrides. */
    public static Path clientDirectory() {
        String dir = System.getProperty("tracelake.connectClient");
        if (dir != null) return Path.of(dir);
        try {
            Path code = Path.of(ClientLoader.class
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI());
            return code.getParent().resolve("connect-client");
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A loader over the client's jars in {@code dir} and tracelake's own code. */
    public static ClientLoader create(Path dir) throws IOException {
        List<URL> urls = new ArrayList<>();
        if (Files.isDirectory(dir)) {
            try (Stream<Path> jars = Files.list(dir)) {
                for (Path jar :
                        jars.filter(p -> p.toString().endsWith(".jar")).sorted().toList()) urls.add(url(jar));
            }
        }
        if (urls.stream().noneMatch(u -> u.getPath().contains("spark-connect-client-jvm"))) {
            throw new IOException("the Spark Connect JVM client is not in " + dir + " (bin/tracelake builds it there;"
                    + " elsewhere put spark-connect-client-jvm_2.13 and spark-connect-shims_2.13 of this Spark version"
                    + " in a folder and pass -Dtracelake.connectClient=DIR)");
        }
        urls.add(ClientLoader.class.getProtectionDomain().getCodeSource().getLocation());
        return new ClientLoader(urls.toArray(URL[]::new), ClientLoader.class.getClassLoader());
    }

    private ClientLoader(URL[] urls, ClassLoader parent) {
        super("tracelake-connect-client", urls, parent);
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        synchronized (getClassLoadingLock(name)) {
            Class<?> c = findLoadedClass(name);
            if (c == null) {
                String resource = name.replace('.', '/') + ".class";
                if (name.startsWith("org.tracelake.jobs.sql.")
                        || (!name.startsWith("org.tracelake.")
                                && !name.startsWith("java.")
                                && findResource(resource) != null)) {
                    c = findClass(name);
                } else {
                    URL inParent = getParent().getResource(resource);
                    if (inParent != null && isClassicSparkSql(inParent)) {
                        throw new ClassNotFoundException(
                                name + " (classic Spark SQL, kept apart from the Connect client)");
                    }
                    c = getParent().loadClass(name);
                }
            }
            if (resolve) resolveClass(c);
            return c;
        }
    }

    /** Whether a class file comes from one of classic Spark SQL's jars (a jar: URL, {@code …/spark-sql_2.13-4.1.3.jar!/…}). */
    private static boolean isClassicSparkSql(URL resource) {
        String path = resource.getPath();
        int bang = path.indexOf("!/");
        if (bang < 0) return false;
        String jar = path.substring(path.lastIndexOf('/', bang) + 1, bang);
        return jar.startsWith("spark-sql_")
                || jar.startsWith("spark-catalyst_")
                || jar.startsWith("spark-sql-api_")
                || jar.startsWith("spark-connect_");
    }

    /** Runs {@code sql --remote} (org.tracelake.jobs.sql.RemoteSql) inside a new client loader; returns its exit code. */
    public static int runSql(
            String url,
            List<String> statements,
            String format,
            int limit,
            BufferedReader in,
            boolean prompts,
            PrintStream out,
            PrintStream err)
            throws Exception {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        ReleaseNoise.drop();
        // Never closed: the client's gRPC threads may still load classes while the JVM exits.
        ClientLoader loader = create(clientDirectory());
        try {
            thread.setContextClassLoader(loader);
            try {
                return (Integer) loader.loadClass("org.tracelake.jobs.sql.RemoteSql")
                        .getMethod(
                                "run",
                                String.class,
                                List.class,
                                String.class,
                                int.class,
                                BufferedReader.class,
                                boolean.class,
                                PrintStream.class,
                                PrintStream.class)
                        .invoke(null, url, statements, format, limit, in, prompts, out, err);
            } catch (InvocationTargetException e) {
                throw e.getCause() instanceof Exception ex ? ex : e;
            }
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    private static URL url(Path p) throws MalformedURLException {
        return p.toUri().toURL();
    }
}
