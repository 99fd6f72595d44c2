package org.tracelake.jobs.readers;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.io.JsonEOFException;
import java.io.CharConversionException;
import java.io.EOFException;
import java.io.UncheckedIOException;
import java.util.NoSuchElementException;
import java.util.zip.ZipException;
import org.tracelake.jobs.readers.common.json.JsonSyntaxException;

/** Turns what a reader threw into a sentence that says what is wrong with the file and what to do about it. */
public final class ReadErrors {
    private ReadErrors() {}

    public static String describe(Throwable t) {
        Throwable e = unwrap(t);
        if (e instanceof InputRefusedException) return e.getMessage();
        if (e instanceof JsonSyntaxException j) return describe(j);
        if (e instanceof JsonEOFException j) {
            return "truncated JSON: the file ends " + where(j.getLocation())
                    + " before the document is complete (was the profiler stopped while writing, or the copy cut short?)";
        }
        if (e instanceof CharConversionException
                || (e instanceof JsonProcessingException
                        && String.valueOf(e.getMessage()).contains("Invalid UTF-8"))) {
            String where = e instanceof JsonProcessingException j ? " " + where(j.getLocation()) : "";
            String what = e instanceof JsonProcessingException j ? j.getOriginalMessage() : e.getMessage();
            return "not UTF-8 text" + where + ": " + firstLine(what)
                    + " (the file is binary or in another encoding; traces must be UTF-8 JSON)";
        }
        if (e instanceof StreamConstraintsException) {
            return "refused: " + firstLine(e.getMessage()) + " (nesting or sizes beyond any real trace)";
        }
        if (e instanceof JsonProcessingException j) {
            return "malformed JSON " + where(j.getLocation()) + ": " + firstLine(j.getOriginalMessage());
        }
        if (e instanceof ZipException
                || (e instanceof EOFException && String.valueOf(e.getMessage()).contains("ZLIB"))) {
            return "corrupt gzip: " + firstLine(e.getMessage()) + " (re-copy the file or re-compress it with gzip)";
        }
        if (e instanceof EOFException) {
            return "unexpected end of file: " + firstLine(e.getMessage()) + " (the file looks truncated)";
        }
        if (readerBug(t) != null) {
            return "tracelake could not read this file: its reader failed (" + readerBug(t)
                    + "). The file may be damaged," + " but this is a tracelake bug: please report it with the file";
        }
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : firstLine(e.getMessage());
        return message;
    }

    /** The byte scanner's findings, in the sentences Jackson's have (a file reads the same whichever parser read it). */
    private static String describe(JsonSyntaxException j) {
        if (j.truncated()) {
            return "truncated JSON: the file ends " + j.where()
                    + " before the document is complete (was the profiler stopped while writing, or the copy cut short?)";
        }
        if (j.problem().contains("Invalid UTF-8")) {
            return "not UTF-8 text " + j.where() + ": " + j.problem()
                    + " (the file is binary or in another encoding; traces must be UTF-8 JSON)";
        }
        return "malformed JSON " + j.where() + ": " + j.problem();
    }

    /**
     * What a reader threw that says nothing about the file but about the reader (a null dereference, an index past an
     * end, a bad cast, a recursion too deep): "NullPointerException at KinetoRows.java:123", or null for the errors a
     * bad file legitimately raises (IOException, malformed JSON, refusals). The fuzz tests hold every reader to none.
     */
    public static String readerBug(Throwable t) {
        Throwable e = unwrap(t);
        boolean bug = e instanceof NullPointerException
                || e instanceof IndexOutOfBoundsException
                || e instanceof ClassCastException
                || e instanceof ArithmeticException
                || e instanceof NegativeArraySizeException
                || e instanceof StackOverflowError
                || e instanceof NoSuchElementException
                || e instanceof ArrayStoreException;
        if (!bug) return null;
        return e.getClass().getSimpleName() + where(e.getStackTrace());
    }

    /** " at File.java:line" of the first frame outside the JDK (an index check's own frame says nothing), or "". */
    private static String where(StackTraceElement[] stack) {
        for (StackTraceElement at : stack) {
            String c = at.getClassName();
            if (!c.startsWith("java.") && !c.startsWith("jdk.") && !c.startsWith("sun.")) {
                return " at " + at.getFileName() + ":" + at.getLineNumber();
            }
        }
        return stack.length == 0 ? "" : " at " + stack[0].getFileName() + ":" + stack[0].getLineNumber();
    }

    private static Throwable unwrap(Throwable t) {
        Throwable e = t;
        while ((e instanceof UncheckedIOException
                        || (e instanceof RuntimeException
                                && e.getCause() != null
                                && !(e instanceof IllegalArgumentException)))
                && e.getCause() != null) {
            e = e.getCause();
        }
        return e;
    }

    private static String where(JsonLocation loc) {
        if (loc == null) return "";
        return "at line " + loc.getLineNr() + ", column " + loc.getColumnNr()
                + (loc.getByteOffset() >= 0 ? " (byte " + loc.getByteOffset() + ")" : "");
    }

    private static String firstLine(String s) {
        if (s == null) return "";
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
