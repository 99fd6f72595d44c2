package org.tracelake.jobs.readers.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.EOFException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.junit.jupiter.api.Test;
import org.tracelake.jobs.readers.FileReport;
import org.tracelake.jobs.readers.FileTask;
import org.tracelake.jobs.readers.InputLimits;
import org.tracelake.jobs.readers.TraceFormat;

/** The stream base every reader stands on, without Spark: look-ahead, counting, the end of a file, errors. */
class RowStreamTest {
    /** Rows 0..n-1, dropping the odd ones; optionally failing after some rows; records what the base called. */
    private static final class Counting extends RowStream {
        final List<String> calls = new ArrayList<>();
        private final int n;
        private final int failAfter;
        private int i;

        Counting(int n, int failAfter, FileReport report) {
            super(report.task, report);
            this.n = n;
            this.failAfter = failAfter;
        }

        @Override
        protected InternalRow advance() throws IOException {
            while (i < n) {
                int v = i++;
                if (v == failAfter) throw new EOFException("cut short");
                if (v % 2 == 1) {
                    report.drops.drop("odd");
                    continue;
                }
                return new GenericInternalRow(new Object[] {v});
            }
            return null;
        }

        @Override
        protected void finish() {
            calls.add("finish");
        }

        @Override
        protected void release() {
            calls.add("release");
        }
    }

    private static FileReport report() {
        return new FileReport(new FileTask(
                "w", "file:/x/rank0_trace.json", 10, 0, TraceFormat.KINETO, 0, InputLimits.defaults(), "r"));
    }

    @Test
    void rowsDropsAndOneEnd() {
        Counting s = new Counting(5, -1, report());
        assertTrue(s.hasNext());
        assertTrue(s.hasNext(), "look-ahead: asking twice reads one row");
        List<Integer> rows = new ArrayList<>();
        while (s.hasNext()) rows.add(s.next().getInt(0));
        assertEquals(List.of(0, 2, 4), rows);
        assertFalse(s.hasNext());
        assertThrows(NoSuchElementException.class, s::next);
        s.close();
        assertEquals(List.of("finish", "release"), s.calls, "finish once, then release once");
        assertEquals(3, s.report().eventsRead);
        assertEquals(2, s.report().drops.total());
        assertTrue(s.report().isError(), "dropped events are reported");
        assertFalse(s.report().fatal, "but the rows read are kept");
        assertTrue(s.ended());
    }

    @Test
    void aFailureEndsTheFileWithItsReason() {
        Counting s = new Counting(10, 4, report());
        List<Integer> rows = new ArrayList<>();
        while (s.hasNext()) rows.add(s.next().getInt(0));
        assertEquals(List.of(0, 2), rows, "rows before the failure stay");
        assertEquals(List.of("release"), s.calls, "no finish after a failure; released once");
        assertTrue(s.report().fatal);
        assertTrue(s.report().error.startsWith("unexpected end of file: cut short"), s.report().error);
    }

    @Test
    void closingEarlyReleasesOnce() {
        Counting s = new Counting(10, -1, report());
        s.next();
        s.close();
        s.close();
        assertEquals(List.of("release"), s.calls);
    }
}
