package org.tracelake.jobs.readers.common.json;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * What the two Chrome trace-event readers (Kineto, XLA trace JSON) share of their scans: which of the eight fields
 * they read an event's current field name is, matched by its bytes, and the names Jackson gave the scanner's tokens,
 * for the messages those readers have always given ("this file starts with START_ARRAY").
 */
public final class EventFields {
    private EventFields() {}

    public static final int OTHER = 0;
    public static final int PH = 1;
    public static final int CAT = 2;
    public static final int NAME = 3;
    public static final int PID = 4;
    public static final int TID = 5;
    public static final int TS = 6;
    public static final int DUR = 7;
    public static final int ARGS = 8;

    private static final byte[] PH_BYTES = ascii("ph");
    private static final byte[] CAT_BYTES = ascii("cat");
    private static final byte[] NAME_BYTES = ascii("name");
    private static final byte[] PID_BYTES = ascii("pid");
    private static final byte[] TID_BYTES = ascii("tid");
    private static final byte[] TS_BYTES = ascii("ts");
    private static final byte[] DUR_BYTES = ascii("dur");
    private static final byte[] ARGS_BYTES = ascii("args");

    /** Which of the fields the scanner's current field name is ({@link #OTHER}: another one). */
    public static int of(JsonScanner scanner, ValueText values) throws IOException {
        if (scanner.escaped()) {
            return switch (values.string()) {
                case "ph" -> PH;
                case "cat" -> CAT;
                case "name" -> NAME;
                case "pid" -> PID;
                case "tid" -> TID;
                case "ts" -> TS;
                case "dur" -> DUR;
                case "args" -> ARGS;
                default -> OTHER;
            };
        }
        // by length, then bytes: two of the eight are looked at for most names
        return switch (scanner.end() - scanner.start()) {
            case 2 -> scanner.is(PH_BYTES) ? PH : scanner.is(TS_BYTES) ? TS : OTHER;
            case 3 ->
                scanner.is(CAT_BYTES)
                        ? CAT
                        : scanner.is(PID_BYTES)
                                ? PID
                                : scanner.is(TID_BYTES) ? TID : scanner.is(DUR_BYTES) ? DUR : OTHER;
            case 4 -> scanner.is(NAME_BYTES) ? NAME : scanner.is(ARGS_BYTES) ? ARGS : OTHER;
            default -> OTHER;
        };
    }

    /** The token as Jackson's parser names it ({@code null} at the end of the input, as Jackson's is). */
    public static String jacksonName(int token) {
        return switch (token) {
            case JsonScanner.START_OBJECT -> "START_OBJECT";
            case JsonScanner.START_ARRAY -> "START_ARRAY";
            case JsonScanner.STRING -> "VALUE_STRING";
            case JsonScanner.INT -> "VALUE_NUMBER_INT";
            case JsonScanner.FLOAT, JsonScanner.NON_FINITE -> "VALUE_NUMBER_FLOAT";
            case JsonScanner.TRUE -> "VALUE_TRUE";
            case JsonScanner.FALSE -> "VALUE_FALSE";
            case JsonScanner.NULL -> "VALUE_NULL";
            default -> "null";
        };
    }

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
