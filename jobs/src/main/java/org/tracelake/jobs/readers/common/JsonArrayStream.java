package org.tracelake.jobs.readers.common;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import org.tracelake.jobs.readers.FileReport;
import org.tracelake.jobs.readers.FileTask;

/**
 * Rows from the objects of one JSON array (Chrome trace events, execution-trace nodes), walked with Jackson's
 * streaming parser: the walk, the elements' positions and what is dropped on the way are shared; a format only
 * turns the object the parser stands on into its row.
 */
public abstract class JsonArrayStream extends RowStream {
    protected final JsonInput input;
    protected final JsonParser p;
    private final String array;
    private long ordinal;
    private long position;

    /** @param input positioned inside the array (after its START_ARRAY) */
    protected JsonArrayStream(FileTask task, FileReport report, JsonInput input, String array) {
        super(task, report);
        this.input = input;
        this.p = input.p();
        this.array = array;
    }

    /**
     * Moves to the array's next object: true when the parser stands on its START_OBJECT ({@link #position()} is its
     * index in the array), false at the end of the array. Elements that are not objects are dropped with a reason;
     * a file that ends inside the array is an error.
     */
    protected final boolean nextObject() throws IOException {
        while (true) {
            JsonToken t = p.nextToken();
            if (t == null) throw new IOException("file ends inside " + array);
            if (t == JsonToken.END_ARRAY) return false;
            position = ordinal++;
            if (t == JsonToken.START_OBJECT) return true;
            p.skipChildren();
            report.drops.drop(array + " entry is not an object");
        }
    }

    /** Index in the array of the object {@link #nextObject()} found. */
    protected final long position() {
        return position;
    }

    /** Elements walked so far. */
    protected final long walked() {
        return ordinal;
    }

    @Override
    protected void release() throws IOException {
        input.close();
    }
}
