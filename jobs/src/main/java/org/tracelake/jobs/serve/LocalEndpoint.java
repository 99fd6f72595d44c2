package org.tracelake.jobs.serve;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.Logger;
import org.apache.spark.sql.SparkSession;
import org.tracelake.jobs.sql.ResultPrinter;
import org.tracelake.jobs.sql.SqlRunner;

/**
 * serve's local endpoint: {@code sql} statements from this machine ({@link LocalClient}), answered with what a local
 * {@code sql} would print. It listens on the loopback address only, and takes a request only with serve's token
 * (compared in constant time); each request's statements run in a new session of serve's application, which has
 * every check a Spark Connect client's session has ({@link PlanCheck} on each analysed plan, {@link PathReadParser},
 * serve's udfs and views): what comes in is SQL text only, so {@link RequestGate}'s part (Connect messages) has
 * nothing to look at. A request must arrive whole within {@link #REQUEST_MILLIS}; a client that goes away stops its
 * query's jobs.
 */
final class LocalEndpoint implements AutoCloseable {
    private static final Logger LOG = LogManager.getLogger(LocalEndpoint.class);
    static final int REQUEST_MILLIS = 10_000;
    /** Requests answered at once; more wait in a short queue, and beyond it a connection is closed unanswered. */
    private static final int WORKERS = 4;

    private static final int QUEUED = 64;

    private final SparkSession spark;
    private final byte[] token;
    private final ServerSocket listener;
    private final ThreadPoolExecutor workers;
    private final Thread acceptor;

    private LocalEndpoint(SparkSession spark, String token, ServerSocket listener) {
        this.spark = spark;
        this.token = token.getBytes(StandardCharsets.UTF_8);
        this.listener = listener;
        AtomicInteger n = new AtomicInteger();
        this.workers =
                new ThreadPoolExecutor(WORKERS, WORKERS, 60, TimeUnit.SECONDS, new ArrayBlockingQueue<>(QUEUED), r -> {
                    Thread t = new Thread(r, "tracelake-serve-local-" + n.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                });
        this.acceptor = new Thread(this::accept, "tracelake-serve-local-accept");
        acceptor.setDaemon(true);
    }

    /** Listens on a free port of the loopback address; the caller announces {@link #port()}. */
    static LocalEndpoint start(SparkSession spark, String token) throws IOException {
        ServerSocket listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        LocalEndpoint e = new LocalEndpoint(spark, token, listener);
        e.acceptor.start();
        return e;
    }

    int port() {
        return listener.getLocalPort();
    }

    private void accept() {
        while (!listener.isClosed()) {
            Socket s;
            try {
                s = listener.accept();
            } catch (IOException e) {
                if (!listener.isClosed()) LOG.debug("local endpoint: accept failed", e);
                continue;
            }
            try {
                workers.execute(() -> answer(s));
            } catch (RejectedExecutionException busy) {
                closeQuietly(s);
            }
        }
    }

    /** One connection: a request, its answer, closed. */
    private void answer(Socket s) {
        try (s) {
            s.setTcpNoDelay(true);
            s.setSoTimeout(REQUEST_MILLIS);
            DataInputStream in = new DataInputStream(new BufferedInputStream(s.getInputStream()));
            DataOutputStream wire = new DataOutputStream(new BufferedOutputStream(s.getOutputStream(), 64 * 1024));
            LocalWire.Request request;
            try {
                request = LocalWire.readRequest(in);
            } catch (SocketTimeoutException | LocalWire.BadRequest e) {
                LOG.debug("local endpoint: request refused: {}", e.getMessage());
                return; // not a client of ours: nothing to tell it
            }
            LocalWire.Frames frames = new LocalWire.Frames(wire);
            PrintStream err = new PrintStream(frames.err(), false, StandardCharsets.UTF_8);
            if (!MessageDigest.isEqual(token, request.token().getBytes(StandardCharsets.UTF_8))) {
                err.println("serve refused the token (the serve running for this warehouse made another one;"
                        + " `tracelake serve --stop` and start it again if its file was replaced)");
                err.flush();
                frames.exit(1);
                return;
            }
            ResultPrinter.Format format;
            try {
                format = ResultPrinter.Format.valueOf(request.format().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                err.println("--format must be table, json or csv, not " + request.format());
                err.flush();
                frames.exit(2);
                return;
            }
            s.setSoTimeout(0); // the statements may run for as long as they need
            PrintStream out = new PrintStream(frames.out(), false, StandardCharsets.UTF_8);
            boolean ok = run(request, format, out, err, s.getInputStream());
            out.flush();
            err.flush();
            frames.exit(ok ? 0 : 1);
        } catch (SocketException gone) {
            LOG.debug("local endpoint: the client went away: {}", gone.getMessage());
        } catch (IOException | RuntimeException e) {
            LOG.warn("local endpoint: a request failed: " + e);
        }
    }

    /**
     * Runs the statements as {@code sql} does, in a session of their own, under a job group that is cancelled when the
     * client closes its end.
     */
    private boolean run(
            LocalWire.Request request,
            ResultPrinter.Format format,
            PrintStream out,
            PrintStream err,
            InputStream fromClient) {
        SparkSession session = spark.newSession();
        String group = "tracelake-sql-" + UUID.randomUUID();
        java.util.concurrent.atomic.AtomicBoolean answering = new java.util.concurrent.atomic.AtomicBoolean(true);
        Thread watcher = new Thread(
                () -> {
                    try {
                        // the client sends nothing after its request: a read returns only when it closes, which
                        // before the answer is done means it went away (after it, that it read the answer)
                        if (fromClient.read() < 0 && answering.get())
                            session.sparkContext().cancelJobGroup(group);
                    } catch (IOException closed) {
                        // the answer is done and the socket closed, or the client reset it
                    } catch (IllegalStateException stopped) {
                        // serve is stopping: its context, and every job of it, is gone already
                    }
                },
                "tracelake-serve-local-watch");
        watcher.setDaemon(true);
        SparkSession.setActiveSession(session);
        session.sparkContext().setJobGroup(group, "tracelake sql (local client)", true);
        try {
            watcher.start();
            return new SqlRunner(session, format, request.limit(), out, err).runAll(request.statements());
        } finally {
            answering.set(false);
            session.sparkContext().clearJobGroup();
            SparkSession.clearActiveSession();
        }
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // refused anyway
        }
    }

    @Override
    public void close() {
        try {
            listener.close();
        } catch (IOException ignored) {
            // stopping
        }
        workers.shutdownNow();
    }
}
