package org.tracelake.udfs;

import java.util.ArrayList;
import java.util.List;

/**
 * A tiny reader for JSON text made only of nested arrays of integers, such as Kineto's {@code Input Dims}
 * ({@code [[[4,2048,4096]],[],[]]}). Hand-written so the module needs no JSON library. Returns nested
 * {@code List<Object>} with {@code Long} leaves, or null for anything else (strings, fractions, objects,
 * truncated text, absurd nesting), because a metric must treat a malformed arg as unknown, not crash.
 */
final class JsonIntArrays {

    /** Input Dims nest three deep (inputs, TensorList, dims); anything far deeper is not ours. */
    private static final int MAX_DEPTH = 16;

    private final String text;
    private int pos;

    private JsonIntArrays(String text) {
        this.text = text;
    }

    /** The parsed top-level array, or null when the text is not exactly one array of arrays/integers. */
    static List<Object> parse(String text) {
        if (text == null) {
            return null;
        }
        JsonIntArrays reader = new JsonIntArrays(text);
        reader.skipSpaces();
        if (!reader.peek('[')) {
            return null;
        }
        List<Object> result = reader.array(0);
        reader.skipSpaces();
        return result != null && reader.pos == text.length() ? result : null;
    }

    private List<Object> array(int depth) {
        if (depth >= MAX_DEPTH) {
            return null;
        }
        pos++; // '['
        List<Object> items = new ArrayList<>();
        skipSpaces();
        if (peek(']')) {
            pos++;
            return items;
        }
        while (true) {
            skipSpaces();
            Object item = peek('[') ? array(depth + 1) : integer();
            if (item == null) {
                return null;
            }
            items.add(item);
            skipSpaces();
            if (peek(',')) {
                pos++;
            } else if (peek(']')) {
                pos++;
                return items;
            } else {
                return null;
            }
        }
    }

    private Long integer() {
        int start = pos;
        if (peek('-')) {
            pos++;
        }
        int digitsStart = pos;
        while (pos < text.length() && Character.isDigit(text.charAt(pos)) && text.charAt(pos) < 128) {
            pos++;
        }
        int digits = pos - digitsStart;
        if (digits == 0 || digits > 18) {
            return null; // not an integer, or beyond what a dimension could be
        }
        return Long.parseLong(text.substring(start, pos));
    }

    private boolean peek(char c) {
        return pos < text.length() && text.charAt(pos) == c;
    }

    private void skipSpaces() {
        while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
            pos++;
        }
    }
}
