package org.tracelake.udfs;

import java.math.BigDecimal;

/**
 * Coercion of numeric SQL arguments. Spark hands a Java UDF whatever the column holds (Integer for an
 * int literal, Long for bigint, BigDecimal for a decimal, String for an untyped JSON field) without
 * casting to the declared type, so a {@code Long} parameter would throw ClassCastException on
 * {@code busbw_factor('all_reduce', 8)}. The numeric UDF parameters are therefore {@code Object}, and
 * only whole numbers are accepted: a fractional element count or group size is nonsense, hence null.
 */
final class SqlArgs {

    private SqlArgs() {
    }

    static Long toLong(Object value) {
        if (value == null) {
            return null;
        }
        if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return ((Number) value).longValue();
        }
        try {
            BigDecimal d = value instanceof BigDecimal b ? b
                    : value instanceof Number n ? new BigDecimal(n.toString())
                    : value instanceof String s ? new BigDecimal(s.trim())
                    : null;
            return d == null ? null : d.longValueExact();
        } catch (ArithmeticException | NumberFormatException notAWholeLong) {
            return null;
        }
    }

    static Integer toInteger(Object value) {
        Long l = toLong(value);
        return l == null || l < Integer.MIN_VALUE || l > Integer.MAX_VALUE ? null : (int) (long) l;
    }
}
