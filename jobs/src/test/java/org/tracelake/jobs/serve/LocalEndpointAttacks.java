package org.tracelake.jobs.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;

/**
 * What a process of this machine that is not tracelake's client can do to serve's local endpoint: talk another
 * protocol, announce a token or statements too large to hold, open a connection and say nothing, look for it on
 * another address of the machine. Each is closed without an answer, and serve answers its client afterwards.
 */
final class LocalEndpointAttacks {
    private LocalEndpointAttacks() {}

    static void strangers(int port, String token, String query) throws Exception {
        // another protocol: closed, no byte back
        assertEquals(
                -1, exchange(port, "GET / HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(StandardCharsets.US_ASCII)));
        // a token of 2 GiB announced: refused before anything is allocated for it
        assertEquals(-1, exchange(port, header(Integer.MAX_VALUE)));
        // statements beyond the limit, a negative length
        assertEquals(-1, exchange(port, request(token, LocalWire.MAX_STATEMENTS + 1, 0)));
        assertEquals(-1, exchange(port, request(token, 1, -5)));
        // statements of more than 16 MiB announced
        assertEquals(-1, exchange(port, request(token, 1, LocalWire.MAX_TEXT_BYTES + 1)));
        // a connection that never sends its request: closed once the request's time is up
        long started = System.nanoTime();
        try (Socket idle = new Socket(InetAddress.getLoopbackAddress(), port)) {
            idle.setSoTimeout(60_000);
            assertEquals(-1, idle.getInputStream().read(), "an idle connection is closed");
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        assertTrue(seconds >= LocalEndpoint.REQUEST_MILLIS / 1000.0 - 1, seconds + " s");
        // not on another address of this machine
        for (InetAddress other : otherAddresses()) {
            try (Socket s = new Socket()) {
                assertThrows(
                        IOException.class,
                        () -> s.connect(new InetSocketAddress(other, port), 2000),
                        "the endpoint answers on " + other);
            }
        }
        // a client that goes away mid-query takes its query with it: on serve's one core (local[1]) a hash of each of
        // 10^11 rows left running would hold back every later query for a quarter of an hour or more
        try (Socket gone = new Socket(InetAddress.getLoopbackAddress(), port)) {
            LocalWire.writeRequest(
                    new DataOutputStream(gone.getOutputStream()),
                    new LocalWire.Request(
                            token, "csv", 10, List.of("SELECT sum(hash(id)) AS s FROM range(0, 100000000000, 1, 1)")));
            Thread.sleep(3000);
        }
        java.util.concurrent.ExecutorService one = java.util.concurrent.Executors.newSingleThreadExecutor();
        try {
            java.util.concurrent.Future<Integer> next = one.submit(() -> LocalClient.run(
                    port,
                    token,
                    List.of("SELECT 1 AS one"),
                    "csv",
                    10,
                    new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                    new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8)));
            assertEquals(
                    0, next.get(90, java.util.concurrent.TimeUnit.SECONDS), "answered once the left query stopped");
        } finally {
            one.shutdownNow();
        }
        // and its client is still answered
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = LocalClient.run(
                port,
                token,
                List.of(query),
                "csv",
                10,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, code, err.toString(StandardCharsets.UTF_8));
        assertTrue(
                out.toString(StandardCharsets.UTF_8).startsWith("workload,n\n"), out.toString(StandardCharsets.UTF_8));
    }

    /** Sends the bytes, half-closes, returns the first byte that comes back (-1: closed without an answer). */
    private static int exchange(int port, byte[] bytes) throws IOException {
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
            s.setSoTimeout(30_000);
            s.getOutputStream().write(bytes);
            s.getOutputStream().flush();
            s.shutdownOutput();
            InputStream in = s.getInputStream();
            return in.read();
        }
    }

    /** The wire's first words, then a token length. */
    private static byte[] header(int tokenLength) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        DataOutputStream d = new DataOutputStream(b);
        d.writeInt(LocalWire.MAGIC);
        d.writeInt(LocalWire.VERSION);
        d.writeInt(tokenLength);
        return b.toByteArray();
    }

    /** A request with the right token announcing {@code statements} statements, the first of {@code length} bytes. */
    private static byte[] request(String token, int statements, int length) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        DataOutputStream d = new DataOutputStream(b);
        d.writeInt(LocalWire.MAGIC);
        d.writeInt(LocalWire.VERSION);
        byte[] t = token.getBytes(StandardCharsets.UTF_8);
        d.writeInt(t.length);
        d.write(t);
        d.writeInt(3);
        d.write("csv".getBytes(StandardCharsets.US_ASCII));
        d.writeInt(10);
        d.writeInt(statements);
        d.writeInt(length);
        return b.toByteArray();
    }

    /** This machine's IPv4 addresses other than loopback (none on a machine with no network). */
    private static List<InetAddress> otherAddresses() throws IOException {
        return Collections.list(NetworkInterface.getNetworkInterfaces()).stream()
                .flatMap(i -> Collections.list(i.getInetAddresses()).stream())
                .filter(a -> a instanceof Inet4Address && !a.isLoopbackAddress())
                .toList();
    }
}
