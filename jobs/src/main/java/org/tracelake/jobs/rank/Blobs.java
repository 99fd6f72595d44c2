package org.tracelake.jobs.rank;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputFilter;
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

    /**
     * What a blob may hold: tracelake's own classes (summaries, cards, row chunks, the udfs' enums in them) and the JDK
     * values and collections they are made of; anything else is refused before it is created. The blobs are read
     * back from a shuffle and from rank summary files in the warehouse's staging area, and Java deserialisation of an
     * arbitrary class runs that class's code: a file planted there must not choose what the executor runs. No depth or
     * size limit: the graphs are shallow, and their size grows with the trace, which the readers' limits bound.
     */
    private static final ObjectInputFilter OWN_VALUES =
            ObjectInputFilter.Config.createFilter("org.tracelake.**;java.lang.*;java.util.*;!*");

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
            in.setObjectInputFilter(OWN_VALUES);
            return in.readObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
    }
}
