package org.tracelake.jobs.readers.kineto.oracle;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import java.io.IOException;
import java.util.function.Supplier;
import org.apache.hadoop.conf.Configuration;
import org.tracelake.jobs.readers.FileReport;
import org.tracelake.jobs.readers.FileTask;
import org.tracelake.jobs.readers.TraceInput;

/**
 * The sieved passes of the two-pass Kineto reader as main had them before issue 43 (JsonInput's sieved first pass and
 * launch scan), frozen with the rest of that reader: the oracle of {@code KinetoReaderEqualityTest}.
 */
final class SievedInput {
    private SievedInput() {}

    /** Reads a whole file with a parser and returns what it learnt (a first pass). */
    interface Pass<T> {
        T read(JsonParser p) throws IOException;
    }

    /** A pass whose sieve asks what the pass has learnt so far; each attempt is a new one. */
    interface SievedPass<T> extends TraceEventsSieve.Filter, Pass<T> {}

    static <T> T firstPass(
            FileTask task,
            Configuration conf,
            JsonFactory factory,
            FileReport report,
            Supplier<? extends SievedPass<T>> attempt)
            throws IOException {
        SievedPass<T> sieved = attempt.get();
        try (TraceInput.Opened in = TraceInput.open(task.path(), conf, task.limits(), true);
                JsonParser p = factory.createParser(new TraceEventsSieve(in, sieved))) {
            T learnt = sieved.read(p);
            report.contentHash = in.drainAndHash();
            return learnt;
        } catch (IOException | RuntimeException failed) {
            // fall through: the whole file, for the error as the file has it
        }
        try (TraceInput.Opened in = TraceInput.open(task.path(), conf, task.limits(), true);
                JsonParser p = factory.createParser(in)) {
            T learnt = attempt.get().read(p);
            report.contentHash = in.drainAndHash();
            return learnt;
        }
    }

    static void scan(FileTask task, Configuration conf, JsonFactory factory, Supplier<? extends SievedPass<?>> attempt)
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
}
