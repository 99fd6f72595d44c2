package org.tracelake.jobs.readers.common;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import java.io.IOException;
import java.util.function.Supplier;
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
        return firstPass(task, conf, factory, report, () -> null, pass);
    }

    /**
     * As {@link #firstPass(FileTask, Configuration, JsonFactory, FileReport, Pass)}, the pass reading only the
     * {@code traceEvents} entries {@code needed} keeps ({@link TraceEventsSieve}). When that pass fails, it is run
     * again over the whole file, so that the error names the place in the file, not in what the sieve kept.
     */
    public static <T> T firstPass(
            FileTask task,
            Configuration conf,
            JsonFactory factory,
            FileReport report,
            TraceEventsSieve.Filter needed,
            Pass<T> pass)
            throws IOException {
        if (needed == null) return firstPass(task, conf, factory, report, () -> null, pass);
        return firstPass(task, conf, factory, report, () -> new SievedPass<T>() {
            @Override
            public boolean keep(TraceEventsSieve.Entry entry) {
                return needed.keep(entry);
            }

            @Override
            public T read(JsonParser p) throws IOException {
                return pass.read(p);
            }
        });
    }

    /**
     * A pass whose sieve asks what the pass has learnt so far (the entries it needs change as it reads): each attempt
     * is a new one, so that a whole-file retry does not start from what the failed sieved attempt learnt.
     */
    public interface SievedPass<T> extends TraceEventsSieve.Filter, Pass<T> {}

    /** As the sieved first pass above, with a new {@link SievedPass} for each attempt. */
    public static <T> T firstPass(
            FileTask task,
            Configuration conf,
            JsonFactory factory,
            FileReport report,
            Supplier<? extends SievedPass<T>> attempt)
            throws IOException {
        return firstPass(task, conf, factory, report, attempt, null);
    }

    private static <T> T firstPass(
            FileTask task,
            Configuration conf,
            JsonFactory factory,
            FileReport report,
            Supplier<? extends SievedPass<T>> attempt,
            Pass<T> whole)
            throws IOException {
        SievedPass<T> sieved = attempt.get();
        if (sieved != null) {
            try (TraceInput.Opened in = TraceInput.open(task.path(), conf, task.limits(), true);
                    JsonParser p = factory.createParser(new TraceEventsSieve(in, sieved))) {
                T learnt = sieved.read(p);
                report.contentHash = in.drainAndHash();
                return learnt;
            } catch (IOException | RuntimeException failed) {
                // fall through: the whole file, for the error as the file has it
            }
        }
        Pass<T> pass = whole != null ? whole : attempt.get();
        try (TraceInput.Opened in = TraceInput.open(task.path(), conf, task.limits(), true);
                JsonParser p = factory.createParser(in)) {
            T learnt = pass.read(p);
            report.contentHash = in.drainAndHash();
            return learnt;
        }
    }

    /**
     * One more read of the whole file for what a second pass found missing midway (no hash: the first pass gave it),
     * sieved as {@link #firstPass} is, and over the whole file when the sieved read fails.
     */
    public static void scan(
            FileTask task, Configuration conf, JsonFactory factory, Supplier<? extends SievedPass<?>> attempt)
            throws IOException {
        SievedPass<?> sieved = attempt.get();
        try (TraceInput.Opened in = TraceInput.open(task.path(), conf, task.limits(), false);
                JsonParser p = factory.createParser(new TraceEventsSieve(in, sieved))) {
            sieved.read(p);
            return;
        } catch (IOException | RuntimeException failed) {
            // fall through: the whole file, for the error as the file has it
        }
        try (TraceInput.Opened in = TraceInput.open(task.path(), conf, task.limits(), false);
                JsonParser p = factory.createParser(in)) {
            attempt.get().read(p);
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
