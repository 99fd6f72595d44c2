package org.tracelake.jobs.readers.common;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.tracelake.jobs.readers.FileReport;
import org.tracelake.jobs.readers.FileTask;
import org.tracelake.jobs.readers.TraceInput;

/** A JSON file opened for streaming: the decoded input and Jackson's parser over it, closed together. */
public record JsonInput(TraceInput.Opened in, JsonParser p) {
    /** Moves a fresh parser to where the reader's rows start (e.g. into the {@code traceEvents} array). */
    @FunctionalInterface
    public interface Seek {
        void to(JsonParser p) throws IOException;
    }

    /** Reads a whole file with a parser and returns what it learnt (a first pass). */
    @FunctionalInterface
    public interface Pass<T> {
        T read(JsonParser p) throws IOException;
    }

    /**
     * A first pass over the whole file, the content hash computed on the way: {@code pass} reads the file, the hash
     * of every byte (also those after the JSON) goes to the report.
     */
    public static <T> T firstPass(
            FileTask task, Configuration conf, JsonFactory factory, FileReport report, Pass<T> pass)
            throws IOException {
        try (TraceInput.Opened in = TraceInput.open(task.path(), conf, task.limits(), true);
                JsonParser p = factory.createParser(in)) {
            T learnt = pass.read(p);
            report.contentHash = in.drainAndHash();
            return learnt;
        }
    }

    /** Opens the file and seeks; when the seek fails, nothing is left open. */
    public static JsonInput open(FileTask task, Configuration conf, JsonFactory factory, boolean hash, Seek seek)
            throws IOException {
        TraceInput.Opened in = TraceInput.open(task.path(), conf, task.limits(), hash);
        JsonParser p = factory.createParser(in);
        try {
            seek.to(p);
        } catch (IOException | RuntimeException e) {
            close(p, in);
            throw e;
        }
        return new JsonInput(in, p);
    }

    public void close() throws IOException {
        close(p, in);
    }

    private static void close(JsonParser p, TraceInput.Opened in) throws IOException {
        try {
            p.close();
        } finally {
            in.close();
        }
    }
}
