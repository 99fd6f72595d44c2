package org.tracelake.jobs.readers.common.json;

import java.io.IOException;

/**
 * Malformed or cut-short JSON found by {@link JsonScanner}, with where it was found (line, column and byte offset,
 * counted as Jackson counts them for byte input), so that {@code ReadErrors} tells the person the same sentence
 * whichever parser read the file.
 */
public final class JsonSyntaxException extends IOException {
    private static final long serialVersionUID = 1L;

    private final boolean truncated;
    private final String problem;
    private final int line;
    private final long column;
    private final long byteOffset;

    JsonSyntaxException(boolean truncated, String problem, int line, long column, long byteOffset) {
        super(problem + " at line " + line + ", column " + column + " (byte " + byteOffset + ")");
        this.truncated = truncated;
        this.problem = problem;
        this.line = line;
        this.column = column;
        this.byteOffset = byteOffset;
    }

    /** The input ended before the document was complete. */
    public boolean truncated() {
        return truncated;
    }

    /** What is wrong, without the place. */
    public String problem() {
        return problem;
    }

    /** "at line L, column C (byte B)". */
    public String where() {
        return "at line " + line + ", column " + column + " (byte " + byteOffset + ")";
    }
}
