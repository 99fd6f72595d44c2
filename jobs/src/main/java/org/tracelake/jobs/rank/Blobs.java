package org.tracelake.jobs.rank;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.io.UncheckedIOException;

/**
 * Java serialisation of what the per-rank pass hands to the workload step (a few objects per rank, never per event):
 * the summaries are plain Java values the families read as they are, with no schema to keep in step with them.
 */
public final class Blobs {
    private Blobs() {}

    public static byte[] write(Serializable value) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(4096);
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    public static Object read(byte[] blob) {
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(blob))) {
            return in.readObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
    }
}
