package org.tracelake.schemas.card;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Plain-data helpers shared by the card model and its loader: turning what the YAML constructor built into an
 * immutable tree of {@code String}/{@code Long}/{@code BigInteger}/{@code Double}/{@code Boolean}/{@code null}/
 * {@code List}/{@code Map<String,Object>}, flattening it to dotted paths, reading typed field values, writing JSON.
 */
final class PlainData {
    /** Most values (scalars plus collections) a card may expand to; a real card has a few hundred. */
    static final int MAX_VALUES = 100_000;

    private static final int MAX_SHOWN_CHARS = 100;

    private PlainData() {}

    /**
     * A scalar the YAML constructor resolved to a non-string type (int, float, bool, null), kept together with the
     * text it was written as, so that {@code version: 2.10} can still be read as the text "2.10".
     * Equality is by written text, the same as the key the scalar becomes in {@link WorkloadCard#raw()}: so the
     * constructor's duplicate-key check refuses {@code tp: 1} twice but keeps {@code on:} and {@code yes:} apart.
     */
    static final class Scalar {
        final String text;
        final Object value;

        Scalar(String text, Object value) {
            this.text = text;
            this.value = value;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Scalar && text.equals(((Scalar) o).text);
        }

        @Override
        public int hashCode() {
            return text.hashCode();
        }

        @Override
        public String toString() {
            return text;
        }
    }

    // ------------------------------------------------------------------ normalise + flatten

    /** Normalises the top-level mapping; fills {@code flat} with dotted path → scalar text (as written). */
    static Map<String, Object> normalizeRoot(Map<?, ?> root, String src, SortedMap<String, String> flat)
            throws CardException {
        @SuppressWarnings("unchecked")
        Map<String, Object> out = (Map<String, Object>) new Walk(src, flat).value(root, "");
        return out;
    }

    private static final class Walk {
        private final String src;
        private final SortedMap<String, String> flat;
        private final Map<Object, Boolean> onStack = new IdentityHashMap<>();
        private int count;

        Walk(String src, SortedMap<String, String> flat) {
            this.src = src;
            this.flat = flat;
        }

        Object value(Object v, String path) throws CardException {
            if (++count > MAX_VALUES) {
                throw new CardException(
                        src,
                        "the card expands to more than " + MAX_VALUES
                                + " values (YAML aliases repeating large parts?); a workload card is plain data of a few"
                                + " hundred values: write it out without anchors and aliases");
            }
            if (v instanceof Map) {
                Map<?, ?> m = (Map<?, ?>) v;
                enter(v, path);
                Map<String, Object> out = new LinkedHashMap<>();
                if (m.isEmpty() && !path.isEmpty()) {
                    flat.put(path, "{}");
                }
                for (Map.Entry<?, ?> e : m.entrySet()) {
                    String k = key(e.getKey(), path);
                    if (out.containsKey(k)) {
                        throw new CardException(
                                src,
                                at(path) + "duplicate key \"" + k
                                        + "\" (written two ways that mean the same key); each key may appear only once");
                    }
                    out.put(k, null); // reserve the slot so duplicates are caught before recursing
                    out.put(k, value(e.getValue(), join(path, k)));
                }
                onStack.remove(v);
                return Collections.unmodifiableMap(out);
            }
            if (v instanceof List) {
                List<?> l = (List<?>) v;
                enter(v, path);
                List<Object> out = new ArrayList<>(l.size());
                if (l.isEmpty()) {
                    flat.put(path, "[]");
                }
                for (int i = 0; i < l.size(); i++) {
                    out.add(value(l.get(i), path + "[" + i + "]"));
                }
                onStack.remove(v);
                return Collections.unmodifiableList(out);
            }
            Object plain;
            String text;
            if (v instanceof Scalar) {
                Scalar s = (Scalar) v;
                plain = plainScalar(s.value, path);
                text = plain instanceof Number ? s.text : canonicalText(plain);
            } else {
                plain = plainScalar(v, path);
                text = canonicalText(plain);
            }
            flat.put(path, text);
            return plain;
        }

        private void enter(Object collection, String path) throws CardException {
            if (onStack.put(collection, Boolean.TRUE) != null) {
                throw new CardException(
                        src,
                        at(path) + "the card contains a recursive YAML alias (a collection"
                                + " that contains itself); cards must be plain, finite data");
            }
        }

        private String key(Object k, String path) throws CardException {
            if (k instanceof String) {
                return (String) k;
            }
            if (k instanceof Scalar) {
                Scalar s = (Scalar) k;
                return s.text;
            }
            if (k instanceof Number || k instanceof Boolean) {
                return k.toString();
            }
            throw new CardException(src, at(path) + "mapping keys must be plain text, found " + describe(k, null));
        }

        private Object plainScalar(Object v, String path) throws CardException {
            if (v == null || v instanceof String || v instanceof Boolean || v instanceof Long || v instanceof Double) {
                return v;
            }
            if (v instanceof Integer || v instanceof Short || v instanceof Byte) {
                return ((Number) v).longValue();
            }
            if (v instanceof Float) {
                return ((Float) v).doubleValue();
            }
            if (v instanceof BigInteger) {
                BigInteger b = (BigInteger) v;
                return b.bitLength() < 64 ? (Object) b.longValue() : b;
            }
            if (v instanceof BigDecimal) {
                return ((BigDecimal) v).doubleValue();
            }
            throw new CardException(
                    src,
                    at(path) + "unsupported value of type " + v.getClass().getSimpleName()
                            + "; cards must be plain data (mappings, lists, text, numbers, booleans)");
        }
    }

    static String join(String path, String key) {
        return path.isEmpty() ? key : path + "." + key;
    }

    private static String at(String path) {
        return path.isEmpty() ? "" : path + ": ";
    }

    static String canonicalText(Object plain) {
        if (plain == null) {
            return null;
        }
        if (plain instanceof Map || plain instanceof Collection) {
            return toJson(plain);
        }
        return plain.toString();
    }

    // ------------------------------------------------------------------ typed values

    /**
     * Reads {@code v} (from the card at {@code path}, or a filled-in value) as the type {@code field} needs.
     * {@code flat} supplies scalars' written text (may be empty). Blank text counts as absent (null).
     */
    static Object convert(CardField field, Object v, Map<String, String> flat, String src, String path)
            throws CardException {
        if (v == null) {
            return null;
        }
        // A switch expression without default: a new kind that is not handled here does not compile.
        return switch (field.kind()) {
            case TEXT -> text(v, flat, src, path);
            case COUNT -> count(v, flat, src, path);
            case NUMBER_LIST -> numberList(v, flat, src, path);
            case TEXT_MAP -> textMap(v, flat, src, path);
            case TEXT_LIST -> textList(v, flat, src, path);
        };
    }

    private static String text(Object v, Map<String, String> flat, String src, String path) throws CardException {
        if (v instanceof Map || v instanceof Collection) {
            throw bad(src, path, "expected a text value", v, flat);
        }
        String s = scalarText(v, flat, path);
        return s == null || s.isBlank() ? null : s;
    }

    private static String scalarText(Object v, Map<String, String> flat, String path) {
        if (v == null) {
            return null;
        }
        if (v instanceof Number) {
            String written = flat.get(path);
            if (written != null) {
                return written;
            }
        }
        if (v instanceof CharSequence) {
            return v.toString();
        }
        return canonicalText(v);
    }

    private static Long count(Object v, Map<String, String> flat, String src, String path) throws CardException {
        try {
            if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
                return ((Number) v).longValue();
            }
            if (v instanceof BigInteger) {
                return ((BigInteger) v).longValueExact();
            }
            if (v instanceof BigDecimal) {
                return ((BigDecimal) v).longValueExact();
            }
            if (v instanceof Double || v instanceof Float) {
                double d = ((Number) v).doubleValue();
                if (Double.isFinite(d) && d == Math.rint(d) && Math.abs(d) < 0x1p63) {
                    return (long) d;
                }
                throw bad(src, path, "expected a whole number", v, flat);
            }
            if (v instanceof CharSequence) {
                String s = v.toString().trim().replace("_", "");
                if (s.isEmpty()) {
                    return null;
                }
                try {
                    return Long.parseLong(s);
                } catch (NumberFormatException notPlain) {
                    return new BigDecimal(s).longValueExact();
                }
            }
        } catch (NumberFormatException | ArithmeticException e) {
            throw bad(src, path, "expected a whole number", v, flat);
        }
        throw bad(src, path, "expected a whole number", v, flat);
    }

    private static Double number(Object v, Map<String, String> flat, String src, String path) throws CardException {
        double d;
        if (v instanceof Number) {
            d = ((Number) v).doubleValue();
        } else if (v instanceof CharSequence) {
            String s = v.toString().trim().replace("_", "");
            if (s.isEmpty()) {
                return null;
            }
            try {
                d = Double.parseDouble(s);
            } catch (NumberFormatException e) {
                throw bad(src, path, "expected a number", v, flat);
            }
        } else {
            throw bad(src, path, "expected a number", v, flat);
        }
        if (!Double.isFinite(d)) {
            throw bad(src, path, "expected a finite number", v, flat);
        }
        return d;
    }

    private static List<Double> numberList(Object v, Map<String, String> flat, String src, String path)
            throws CardException {
        if (v instanceof Collection) {
            List<Double> out = new ArrayList<>();
            int i = 0;
            for (Object e : (Collection<?>) v) {
                String p = path + "[" + i++ + "]";
                if (e instanceof Map || e instanceof Collection) {
                    throw bad(src, p, "expected a number", e, flat);
                }
                Double d = e == null ? null : number(e, flat, src, p);
                if (d != null) {
                    out.add(d);
                }
            }
            return Collections.unmodifiableList(out);
        }
        if (v instanceof Map) {
            throw bad(src, path, "expected a number or a list of numbers", v, flat);
        }
        Double d = number(v, flat, src, path);
        return d == null ? null : List.of(d);
    }

    private static Map<String, String> textMap(Object v, Map<String, String> flat, String src, String path)
            throws CardException {
        Map<String, String> out = new LinkedHashMap<>();
        if (v instanceof Map) {
            for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                String k = String.valueOf(e.getKey());
                String p = join(path, k);
                Object x = e.getValue();
                if (x instanceof Map || x instanceof Collection) {
                    throw bad(src, p, "expected a text value", x, flat);
                }
                String s = scalarText(x, flat, p);
                out.put(k, s == null ? "" : s);
            }
        } else if (v instanceof Collection) {
            int i = 0;
            for (Object x : (Collection<?>) v) {
                String p = path + "[" + i++ + "]";
                String s = x instanceof CharSequence ? x.toString() : null;
                int eq = s == null ? -1 : s.indexOf('=');
                if (eq <= 0) {
                    throw bad(src, p, "expected NAME=VALUE", x, flat);
                }
                out.put(s.substring(0, eq).trim(), s.substring(eq + 1));
            }
        } else if (v instanceof CharSequence && v.toString().isBlank()) {
            return null;
        } else {
            throw bad(src, path, "expected a mapping of NAME: VALUE (or a list of NAME=VALUE)", v, flat);
        }
        return Collections.unmodifiableMap(out);
    }

    private static List<String> textList(Object v, Map<String, String> flat, String src, String path)
            throws CardException {
        if (v instanceof Map) {
            throw bad(src, path, "expected a list of text values", v, flat);
        }
        if (!(v instanceof Collection)) {
            String s = text(v, flat, src, path);
            return s == null ? null : List.of(s);
        }
        List<String> out = new ArrayList<>();
        int i = 0;
        for (Object x : (Collection<?>) v) {
            String p = path + "[" + i++ + "]";
            if (x instanceof Map || x instanceof Collection) {
                throw bad(src, p, "expected a text value", x, flat);
            }
            String s = scalarText(x, flat, p);
            if (s != null && !s.isBlank()) {
                out.add(s);
            }
        }
        return Collections.unmodifiableList(out);
    }

    private static CardException bad(String src, String path, String expected, Object v, Map<String, String> flat) {
        return new CardException(src, path + ": " + expected + ", found " + describe(v, flat.get(path)));
    }

    /** A short description of a value for error messages: strings quoted and cut, collections named. */
    static String describe(Object v, String writtenText) {
        if (v == null) {
            return "nothing (null)";
        }
        if (v instanceof Map) {
            return "a mapping";
        }
        if (v instanceof Collection) {
            return "a list";
        }
        if (v instanceof CharSequence) {
            String s = v.toString();
            if (s.length() > MAX_SHOWN_CHARS) {
                s = s.substring(0, MAX_SHOWN_CHARS) + "…";
            }
            return quote(s);
        }
        if (v instanceof Number || v instanceof Boolean) {
            return writtenText != null ? writtenText : v.toString();
        }
        return "a " + v.getClass().getSimpleName();
    }

    // ------------------------------------------------------------------ JSON

    /** Compact, deterministic JSON: mapping keys sorted, non-finite doubles as strings. */
    static String toJson(Object v) {
        StringBuilder sb = new StringBuilder();
        writeJson(sb, v);
        return sb.toString();
    }

    private static void writeJson(StringBuilder sb, Object v) {
        if (v == null) {
            sb.append("null");
        } else if (v instanceof Map) {
            SortedMap<String, Object> sorted = new TreeMap<>();
            for (Map.Entry<?, ?> e : ((Map<?, ?>) v).entrySet()) {
                sorted.put(String.valueOf(e.getKey()), e.getValue());
            }
            sb.append('{');
            boolean first = true;
            for (Map.Entry<String, Object> e : sorted.entrySet()) {
                if (!first) {
                    sb.append(',');
                }
                first = false;
                sb.append(quote(e.getKey())).append(':');
                writeJson(sb, e.getValue());
            }
            sb.append('}');
        } else if (v instanceof Collection) {
            sb.append('[');
            boolean first = true;
            for (Object x : (Collection<?>) v) {
                if (!first) {
                    sb.append(',');
                }
                first = false;
                writeJson(sb, x);
            }
            sb.append(']');
        } else if (v instanceof Boolean
                || v instanceof Long
                || v instanceof Integer
                || v instanceof BigInteger
                || v instanceof Short
                || v instanceof Byte) {
            sb.append(v);
        } else if (v instanceof Double || v instanceof Float) {
            double d = ((Number) v).doubleValue();
            sb.append(Double.isFinite(d) ? Double.toString(d) : quote(Double.toString(d)));
        } else if (v instanceof BigDecimal) {
            sb.append(((BigDecimal) v).toString());
        } else {
            sb.append(quote(v.toString()));
        }
    }

    /** A JSON string literal; also escapes {@code < > &} and U+2028/2029 so the JSON is safe inside HTML. */
    static String quote(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"':
                    sb.append("\\\"");
                    break;
                case '\\':
                    sb.append("\\\\");
                    break;
                case '\n':
                    sb.append("\\n");
                    break;
                case '\r':
                    sb.append("\\r");
                    break;
                case '\t':
                    sb.append("\\t");
                    break;
                case '\b':
                    sb.append("\\b");
                    break;
                case '\f':
                    sb.append("\\f");
                    break;
                default:
                    boolean loneSurrogate = Character.isSurrogate(c)
                            && !(Character.isHighSurrogate(c)
                                    && i + 1 < s.length()
                                    && Character.isLowSurrogate(s.charAt(i + 1)));
                    if (Character.isLowSurrogate(c) && i > 0 && Character.isHighSurrogate(s.charAt(i - 1))) {
                        loneSurrogate = false;
                    }
                    if (c < 0x20
                            || c == '<'
                            || c == '>'
                            || c == '&'
                            || c == '\u2028'
                            || c == '\u2029'
                            || c == 0x7f
                            || loneSurrogate) {
                        sb.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
            }
        }
        return sb.append('"').toString();
    }
}
