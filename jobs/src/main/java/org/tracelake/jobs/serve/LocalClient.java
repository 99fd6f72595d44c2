package org.tracelake.jobs.serve;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import org.tracelake.jobs.sql.SqlStatementSplitter;

/**
 * {@code sql} answered by the local endpoint of a running {@code serve} ({@link LocalEndpoint}): the statements and the
 * token go over one loopback connection, serve runs them as a local {@code sql} would (its SqlRunner, in a session of
 * its own behind serve's checks) and sends back what that would print, and the exit code.
 *
 * <p>Why: a Spark Connect client is a JVM with gRPC, Netty, Arrow and picocli to load and warm, about 1.6 CPU-seconds
 * on this project's 2-core machine, more than serve's answer. This class needs only the JDK: {@link #main} is what
 * {@code bin/tracelake sql} starts when a serve of the warehouse is running, with nothing else on the class path.
 */
public final class LocalClient {
    private LocalClient() {}

    /**
     * {@link #main}'s exit code when it did not answer (the arguments are more than it reads, no serve announces a
     * local endpoint, the connection was refused): nothing has been printed, and the launcher runs {@code sql} the
     * usual way. No answer of {@code sql} has this code (0, 1 or 2), nor any other tracelake command (75 is a
     * busy warehouse).
     */
    public static final int NOT_SERVED = 97;

    /** How long a connection to this machine may take before serve is taken as gone. */
    private static final int CONNECT_MILLIS = 2000;

    /**
     * {@code sql [-w WAREHOUSE] [--format F] [--limit N] (QUERY | -e QUERY)} (the first argument {@code sql}), the form
     * of {@code sql} this client answers; anything else ({@code --file}, {@code --remote}, the prompt, help, a usage
     * error) is {@link #NOT_SERVED}, so that picocli and the usual path say what they say.
     */
    public static void main(String[] args) {
        System.exit(launch(args, System.out, System.err));
    }

    static int launch(String[] args, PrintStream out, PrintStream err) {
        Args a = Args.parse(args);
        if (a == null) return NOT_SERVED;
        RunningServe running = RunningServe.find(a.warehouse);
        if (running == null || running.localPort() <= 0) return NOT_SERVED;
        String token = token(a.warehouse);
        if (token == null) return NOT_SERVED;
        List<String> statements = SqlStatementSplitter.split(a.query);
        if (statements.isEmpty()) return NOT_SERVED;
        return run(running.localPort(), token, statements, a.format, a.limit, out, err);
    }

    /** The token as {@code sql --remote} finds it ({@link ServeToken#forClients}); null when it cannot be read. */
    private static String token(String warehouse) {
        try {
            return ServeToken.forClients(warehouse);
        } catch (IOException e) {
            return null; // the full command says why
        }
    }

    /**
     * Asks the endpoint on this machine's {@code port}. Returns the answer's exit code (0, or 1 when a statement
     * failed), or {@link #NOT_SERVED} when no connection could be made (nothing printed then).
     */
    public static int run(
            int port,
            String token,
            List<String> statements,
            String format,
            int limit,
            PrintStream out,
            PrintStream err) {
        if (LocalWire.Request.textBytes(statements) > LocalWire.MAX_TEXT_BYTES) return NOT_SERVED;
        Socket socket = new Socket();
        try {
            socket.setTcpNoDelay(true);
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), CONNECT_MILLIS);
        } catch (IOException e) {
            close(socket);
            return NOT_SERVED;
        }
        try (socket) {
            DataOutputStream wire = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream()));
            LocalWire.writeRequest(wire, new LocalWire.Request(token, format, limit, statements));
            return answer(new DataInputStream(new BufferedInputStream(socket.getInputStream())), out, err);
        } catch (IOException e) {
            err.println("error: serve ended the answer early (" + e.getMessage() + "); is it still running?");
            return 1;
        } finally {
            out.flush();
            err.flush();
        }
    }

    /** Copies the frames to standard output and error; returns the exit code the last frame carries. */
    private static int answer(DataInputStream in, PrintStream out, PrintStream err) throws IOException {
        Text stdout = new Text(out);
        Text stderr = new Text(err);
        byte[] buffer = new byte[64 * 1024];
        while (true) {
            int kind;
            try {
                kind = in.readByte();
            } catch (EOFException e) {
                throw new IOException("the connection closed before the exit code", e);
            }
            int len = in.readInt();
            if (kind == LocalWire.EXIT) return len == 0 || len == 2 ? len : 1; // sql's codes only
            if ((kind != LocalWire.OUT && kind != LocalWire.ERR) || len < 0)
                throw new IOException("not a tracelake answer");
            Text to = kind == LocalWire.OUT ? stdout : stderr;
            (kind == LocalWire.OUT ? stderr : stdout).end();
            while (len > 0) {
                int n = Math.min(len, buffer.length);
                in.readFully(buffer, 0, n);
                to.write(buffer, n);
                len -= n;
            }
        }
    }

    /**
     * UTF-8 from serve, printed as text: the JVM's standard streams then encode it as a local {@code sql} would. A
     * character split between two frames is kept until its last byte comes.
     */
    private static final class Text {
        private final PrintStream to;
        private final CharsetDecoder decoder = StandardCharsets.UTF_8
                .newDecoder()
                .onMalformedInput(CodingErrorAction.REPLACE)
                .onUnmappableCharacter(CodingErrorAction.REPLACE);
        private final ByteBuffer carry = ByteBuffer.allocate(64 * 1024 + 8);
        private final CharBuffer chars = CharBuffer.allocate(64 * 1024 + 8);

        Text(PrintStream to) {
            this.to = to;
        }

        void write(byte[] b, int n) {
            carry.put(b, 0, n).flip();
            decoder.decode(carry, chars, false);
            carry.compact();
            chars.flip();
            to.append(chars);
            chars.clear();
        }

        /** The other stream is about to print: nothing of this one is held back (a split character cannot be). */
        void end() {
            to.flush();
        }
    }

    private static void close(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // nothing was sent
        }
    }

    /** The arguments this client answers; null for any other. */
    private record Args(String warehouse, String format, int limit, String query) {
        static Args parse(String[] args) {
            if (args.length == 0 || !args[0].equals("sql")) return null;
            String warehouse = "warehouse";
            String format = "table";
            String limit = "1000";
            String query = null;
            for (int i = 1; i < args.length; i++) {
                String a = args[i];
                String name = a;
                String value = null;
                int eq = a.indexOf('=');
                if (a.startsWith("--") && eq > 0) {
                    name = a.substring(0, eq);
                    value = a.substring(eq + 1);
                }
                boolean takesValue =
                        switch (name) {
                            case "-w", "--warehouse", "--format", "--limit", "-e", "--execute" -> true;
                            default -> false;
                        };
                if (takesValue && value == null) {
                    if (++i == args.length) return null;
                    value = args[i];
                }
                switch (name) {
                    case "-w", "--warehouse" -> warehouse = value;
                    case "--format" -> format = value.toLowerCase(Locale.ROOT);
                    case "--limit" -> limit = value;
                    case "-e", "--execute" -> {
                        if (query != null) return null;
                        query = value;
                    }
                    default -> {
                        if (a.startsWith("-") || query != null) return null; // an option of the full client, or two
                        query = a;
                    }
                }
            }
            if (query == null || !List.of("table", "json", "csv").contains(format)) return null;
            try {
                return new Args(warehouse, format, Integer.parseInt(limit), query);
            } catch (NumberFormatException e) {
                return null;
            }
        }
    }
}
