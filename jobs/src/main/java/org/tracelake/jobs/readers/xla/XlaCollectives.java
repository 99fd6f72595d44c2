package org.tracelake.jobs.readers.xla;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.tracelake.jobs.readers.common.EventRow;
import org.tracelake.udfs.CollectiveKind;
import org.tracelake.udfs.DtypeSize;
import org.tracelake.udfs.MessageBytes;
import org.tracelake.udfs.Numbers;
import org.tracelake.udfs.XlaOpName;

/**
 * The collective columns of an XLA op that the udfs classed as communication (METRICS.md §2): its kind from the op
 * name and {@code hlo_category}, its message size from {@code raw_bytes_accessed}, else {@code bytes_accessed}, and
 * the group size from the {@code replica_groups} in its HLO text ({@code long_name}). Shared by the XLA JSON and
 * XSpace readers, whose ops carry the same stats.
 */
public final class XlaCollectives {
    private XlaCollectives() {}

    public static final String HLO_CATEGORY = "hlo_category";
    public static final String RAW_BYTES_ACCESSED = "raw_bytes_accessed";
    public static final String BYTES_ACCESSED = "bytes_accessed";
    public static final String LONG_NAME = "long_name";
    public static final String SHAPE_WITH_LAYOUT = "shape_with_layout";

    /**
     * Iota form {@code replica_groups=[G,S]<=[dims]T(perm)}: G groups of S devices, e.g. {@code [4,2]<=[2,4]T(1,0)}
     * (spaces allowed after the commas, as some printers write them).
     */
    private static final Pattern IOTA_GROUPS =
            Pattern.compile("replica_groups=\\[\\s*(\\d{1,9})\\s*,\\s*(\\d{1,9})\\s*\\]\\s*<=");
    /** Explicit form {@code replica_groups={{0,1,2,3},{4,5,6,7}}}: the size of the first group. */
    private static final Pattern LISTED_GROUPS = Pattern.compile("replica_groups=\\{\\{([0-9,\\s]*)\\}");
    /** Element type of an array shape ({@code f32[5,1024]{1,0}}); tuples have none. */
    private static final Pattern ELEMENT_TYPE = Pattern.compile("^([a-z][a-z0-9]*)\\[");

    /** Fills kind, bytes, dtype and group size of a communication row; leaves other rows alone. */
    public static void fill(EventRow row, Map<String, String> stats) {
        if (!row.isComm()) return;
        String hloCategory = stats.get(HLO_CATEGORY);
        String op = XlaOpName.of(row.name); // the op, not the operands of its HLO text (METRICS.md §2)
        String kind = CollectiveKind.of(null, op, hloCategory != null ? hloCategory : op);
        if (kind == null) kind = CollectiveKind.fromHloCategory(hloCategory); // e.g. "fusion.7" of category all-reduce
        row.collective = kind;
        // the HLO text: long_name, or the event's own name when the profiler named the event by its instruction
        String hlo = stats.get(LONG_NAME);
        row.groupSize = groupSize(hlo != null ? hlo : row.name);
        row.dtype = elementType(stats.get(SHAPE_WITH_LAYOUT));
        Long bytes = Numbers.wholeNumber(stats.get(RAW_BYTES_ACCESSED));
        if (bytes == null) bytes = Numbers.wholeNumber(stats.get(BYTES_ACCESSED));
        if (bytes == null) return;
        Long[] sides = MessageBytes.completeSides(kind, bytes, null, row.groupSize);
        row.inBytes = sides[0];
        row.outBytes = sides[1];
        row.bytesSource = MessageBytes.XLA_ARGS;
    }

    /** Devices per replica group in an HLO instruction's text, or null when it names none (or all devices, {}). */
    public static Integer groupSize(String hloText) {
        if (hloText == null) return null;
        Matcher iota = IOTA_GROUPS.matcher(hloText);
        if (iota.find()) return Integer.valueOf(iota.group(2));
        Matcher listed = LISTED_GROUPS.matcher(hloText);
        if (listed.find()) {
            String members = listed.group(1).trim();
            return members.isEmpty() ? null : members.split(",").length;
        }
        return null;
    }

    private static String elementType(String shape) {
        if (shape == null) return null;
        Matcher m = ELEMENT_TYPE.matcher(shape.trim());
        return m.find() && DtypeSize.bytes(m.group(1)) != null ? m.group(1) : null;
    }
}
