package org.tracelake.jobs.readers.common;

import com.fasterxml.jackson.databind.JsonNode;
import org.tracelake.udfs.Numbers;

/** {@link Numbers}' one reading of numbers, for values of a parsed JSON tree (a number node, or numeric text). */
public final class JsonNumbers {
    private JsonNumbers() {}

    public static Long whole(JsonNode v) {
        return Numbers.wholeNumber(scalar(v));
    }

    public static Integer wholeInt(JsonNode v) {
        return Numbers.wholeInt(scalar(v));
    }

    public static Double decimal(JsonNode v) {
        return Numbers.decimal(scalar(v));
    }

    private static Object scalar(JsonNode v) {
        if (v == null || v.isNull()) return null;
        if (v.isNumber()) return v.numberValue();
        return v.isTextual() ? v.textValue() : null;
    }
}
