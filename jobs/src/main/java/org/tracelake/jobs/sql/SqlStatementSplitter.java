package org.tracelake.jobs.sql;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits SQL text into statements at every {@code ;} that is outside a string literal, a quoted identifier or a
 * comment. Comments stay in the statement text (Spark's parser skips them, and {@code /*+ hints *}{@code /} must
 * survive); a piece that holds nothing but comments and blanks is no statement.
 */
public final class SqlStatementSplitter {
    private SqlStatementSplitter() {}

    /** The complete statements of {@code text} (each without its {@code ;}) and what follows the last one. */
    public record Scan(List<String> statements, String rest) {}

    /** Every statement of a file or a -e argument: the complete ones and a last one that lacks its {@code ;}. */
    public static List<String> split(String text) {
        Scan scan = scan(text);
        List<String> out = new ArrayList<>(scan.statements());
        if (!isBlank(scan.rest())) out.add(scan.rest().strip());
        return out;
    }

    public static Scan scan(String text) {
        List<String> statements = new ArrayList<>();
        int start = 0;
        int i = 0;
        int n = text.length();
        while (i < n) {
            char c = text.charAt(i);
            if (c == '\'' || c == '"' || c == '`') {
                i = skipQuoted(text, i, c);
            } else if (c == '-' && i + 1 < n && text.charAt(i + 1) == '-') {
                int nl = text.indexOf('\n', i);
                i = nl < 0 ? n : nl + 1;
            } else if (c == '/' && i + 1 < n && text.charAt(i + 1) == '*') {
                int end = text.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
            } else if (c == ';') {
                String s = text.substring(start, i);
                if (!isBlank(s)) statements.add(s.strip());
                start = i + 1;
                i++;
            } else {
                i++;
            }
        }
        return new Scan(statements, text.substring(Math.min(start, n)));
    }

    /** Index just past the closing quote (or the end of the text when it is unterminated). */
    private static int skipQuoted(String text, int open, char quote) {
        int i = open + 1;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c == '\\' && quote != '`') {
                i += 2;
            } else if (c == quote) {
                return i + 1;
            } else {
                i++;
            }
        }
        return text.length();
    }

    /** True when the text holds no SQL: only blanks and comments. */
    public static boolean isBlank(String text) {
        int i = 0;
        int n = text.length();
        while (i < n) {
            char c = text.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '-' && i + 1 < n && text.charAt(i + 1) == '-') {
                int nl = text.indexOf('\n', i);
                i = nl < 0 ? n : nl + 1;
            } else if (c == '/' && i + 1 < n && text.charAt(i + 1) == '*') {
                int end = text.indexOf("*/", i + 2);
                i = end < 0 ? n : end + 2;
            } else {
                return false;
            }
        }
        return true;
    }
}
