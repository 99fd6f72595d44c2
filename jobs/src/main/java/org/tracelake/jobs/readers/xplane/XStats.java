package org.tracelake.jobs.readers.xplane;

import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import org.tracelake.jobs.readers.xplane.proto.XPlane;
import org.tracelake.jobs.readers.xplane.proto.XStat;
import org.tracelake.jobs.readers.xplane.proto.XStatMetadata;

/** XStats as named text values: names from the plane's stat metadata, ref values resolved to the name they point at. */
final class XStats {
    private XStats() {}

    /** Bytes values beyond this (serialized protos such as core_details) are summarised, not copied into args. */
    private static final int MAX_BYTES_VALUE = 1024;

    /** Adds the stats to the map under their names; later calls override earlier ones (event over metadata). */
    static void putAll(XPlane plane, Iterable<XStat> stats, Map<String, String> into) {
        for (XStat s : stats) {
            String name = statName(plane, s.getMetadataId());
            String value = value(plane, s);
            if (value != null) into.put(name, value);
        }
    }

    static Map<String, String> of(XPlane plane, Iterable<XStat> stats) {
        Map<String, String> m = new LinkedHashMap<>();
        putAll(plane, stats, m);
        return m;
    }

    static String statName(XPlane plane, long metadataId) {
        XStatMetadata m = plane.getStatMetadataMap().get(metadataId);
        return m == null || m.getName().isEmpty() ? "stat_" + metadataId : m.getName();
    }

    static String value(XPlane plane, XStat s) {
        return switch (s.getValueCase()) {
            case DOUBLE_VALUE -> Double.toString(s.getDoubleValue());
            case UINT64_VALUE -> Long.toUnsignedString(s.getUint64Value());
            case INT64_VALUE -> Long.toString(s.getInt64Value());
            case STR_VALUE -> s.getStrValue();
            case BYTES_VALUE ->
                s.getBytesValue().size() <= MAX_BYTES_VALUE
                        ? "base64:"
                                + Base64.getEncoder()
                                        .encodeToString(s.getBytesValue().toByteArray())
                        : "(" + s.getBytesValue().size() + " bytes)";
            case REF_VALUE -> {
                XStatMetadata ref = plane.getStatMetadataMap().get(s.getRefValue());
                yield ref == null ? null : ref.getName();
            }
            case VALUE_NOT_SET -> null;
        };
    }

    /** A stat read as a whole number (uint64 above 2^63 excepted), or null. */
    static Long longValue(XStat s) {
        return switch (s.getValueCase()) {
            case UINT64_VALUE -> s.getUint64Value() >= 0 ? s.getUint64Value() : null;
            case INT64_VALUE -> s.getInt64Value();
            case DOUBLE_VALUE -> s.getDoubleValue() == Math.rint(s.getDoubleValue()) ? (long) s.getDoubleValue() : null;
            default -> null;
        };
    }
}
