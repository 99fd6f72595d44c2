package org.tracelake.jobs.serve;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The wire between {@code sql} and the local endpoint of a running {@code serve} ({@link LocalEndpoint}), both sides
 * in one place. A request is the token, the output format, the row limit and the statements; the answer is a sequence
 * of frames: bytes of standard output, bytes of standard error, and last the exit code. Every length is checked
 * before anything is allocated for it: the endpoint reads requests from any process of this machine.
 */
final class LocalWire {
    private LocalWire() {}

    /** "TLSQ" then a version: a stray connection (a port scanner, an HTTP client) is told apart at once. */
    static final int MAGIC = 0x544c5351;

    static final int VERSION = 1;
    static final int MAX_TOKEN_BYTES = 4096;
    static final int MAX_STATEMENTS = 10_000;
    /** The statements of one request at most, in UTF-8 bytes: a file of statements larger than this goes by gRPC. */
    static final int MAX_TEXT_BYTES = 16 << 20;

    static final byte OUT = 1;
    static final byte ERR = 2;
    static final byte EXIT = 3;

    /** What a client asks. */
    record Request(String token, String format, int limit, List<String> statements) {
        /** The statements' size on the wire, in bytes. */
        static long textBytes(List<String> statements) {
            long n = 0;
            for (String s : statements) n += s.getBytes(StandardCharsets.UTF_8).length;
            return n;
        }
    }

    /** A request that breaks the wire's rules; its message says which, for the log. */
    static final class BadRequest extends IOException {
        private static final long serialVersionUID = 1L;

        BadRequest(String message) {
            super(message);
        }
    }

    static void writeRequest(DataOutputStream out, Request r) throws IOException {
        out.writeInt(MAGIC);
        out.writeInt(VERSION);
        bytes(out, r.token().getBytes(StandardCharsets.UTF_8));
        bytes(out, r.format().getBytes(StandardCharsets.UTF_8));
        out.writeInt(r.limit());
        out.writeInt(r.statements().size());
        for (String s : r.statements()) bytes(out, s.getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    static Request readRequest(DataInputStream in) throws IOException {
        if (in.readInt() != MAGIC) throw new BadRequest("not a tracelake sql request");
        int version = in.readInt();
        if (version != VERSION) throw new BadRequest("wire version " + version + ", this serve speaks " + VERSION);
        String token = string(in, MAX_TOKEN_BYTES, "token");
        String format = string(in, 16, "format");
        int limit = in.readInt();
        int n = in.readInt();
        if (n < 0 || n > MAX_STATEMENTS) throw new BadRequest(n + " statements (at most " + MAX_STATEMENTS + ")");
        List<String> statements = new ArrayList<>(n);
        int left = MAX_TEXT_BYTES;
        for (int i = 0; i < n; i++) {
            byte[] b = bytes(in, left, "statements");
            left -= b.length;
            statements.add(new String(b, StandardCharsets.UTF_8));
        }
        return new Request(token, format, limit, statements);
    }

    private static void bytes(DataOutputStream out, byte[] b) throws IOException {
        out.writeInt(b.length);
        out.write(b);
    }

    private static String string(DataInputStream in, int max, String what) throws IOException {
        return new String(bytes(in, max, what), StandardCharsets.UTF_8);
    }

    private static byte[] bytes(DataInputStream in, int max, String what) throws IOException {
        int len = in.readInt();
        if (len < 0 || len > max) throw new BadRequest(what + " of " + len + " bytes (at most " + max + " left)");
        byte[] b = new byte[len];
        in.readFully(b);
        return b;
    }

    /** One frame of output ({@link #OUT} or {@link #ERR}). */
    static void writeFrame(DataOutputStream out, byte kind, byte[] b, int off, int len) throws IOException {
        out.writeByte(kind);
        out.writeInt(len);
        out.write(b, off, len);
    }

    static void writeExit(DataOutputStream out, int code) throws IOException {
        out.writeByte(EXIT);
        out.writeInt(code);
        out.flush();
    }

    /**
     * The endpoint's two output streams over one connection. Each buffers what is printed to it and sends it as
     * frames; printing to one first sends what the other holds, so that the client sees results and errors in the
     * order they were printed.
     */
    static final class Frames {
        private final DataOutputStream wire;
        private final Stream out = new Stream(OUT);
        private final Stream err = new Stream(ERR);

        Frames(DataOutputStream wire) {
            this.wire = wire;
        }

        OutputStream out() {
            return out;
        }

        OutputStream err() {
            return err;
        }

        /** Sends what is buffered, then the exit code. */
        synchronized void exit(int code) throws IOException {
            out.send();
            err.send();
            writeExit(wire, code);
        }

        private final class Stream extends OutputStream {
            private final byte kind;
            private final byte[] buffer = new byte[32 * 1024];
            private int used;

            Stream(byte kind) {
                this.kind = kind;
            }

            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                synchronized (Frames.this) {
                    (this == out ? err : out).send();
                    if (used + len > buffer.length) send();
                    if (len > buffer.length) {
                        writeFrame(wire, kind, b, off, len);
                        return;
                    }
                    System.arraycopy(b, off, buffer, used, len);
                    used += len;
                }
            }

            /** The client sees output as it comes only when asked to (a prompt would); a batch answer needs no flush. */
            @Override
            public void flush() {}

            void send() throws IOException {
                synchronized (Frames.this) {
                    if (used == 0) return;
                    writeFrame(wire, kind, buffer, 0, used);
                    used = 0;
                }
            }
        }
    }
}
