package org.tracelake.udfs;

/**
 * Coercion of numeric SQL arguments. Spark hands a Java UDF whatever the column holds (Integer for an
 * int literal, Long for bigint, BigDecimal for a decimal, String for an untyped JSON field) without
 * casting to the declared type, so a {@code Long} parameter would throw ClassCastException on
 * {@code busbw_factor('all_reduce', 8)}. The numeric UDF parameters are therefore {@code Object}, and
 * only whole numbers are accepted: a fractional element count or group size is nonsense, hence null.
 */
final class SqlArgs {

    private SqlArgs() {}

    static Long toLong(Object value) {
        return Numbers.wholeNumber(value);
    }

    static Integer toInteger(Object value) {
        return Numbers.wholeInt(value);
    }
}
