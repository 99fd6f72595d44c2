package org.tracelake.udfs;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The op name of an XLA device event (METRICS.md §2, "XLA op names"): an XSpace/xprof event may be named by its whole
 * HLO instruction ({@code %fusion.2 = f32[8,128]{1,0} fusion(f32[8,128]{1,0} %copy-done.1), kind=kLoop, …}), and the
 * rules match only the op name, the text before {@code " = "} without {@code %}: the operand list names what the op
 * consumes, so a fusion that reads a {@code copy-done} or an {@code all-reduce} result is compute, not a copy or a
 * collective. Any other name is its own op name.
 */
public final class XlaOpName {
    private XlaOpName() {}

    private static final Pattern INSTRUCTION = Pattern.compile("^\\s*%?([A-Za-z0-9_.\\-]+) = ");

    /** The op name of an HLO instruction's text; the name itself when it is not one (null for null). */
    public static String of(String name) {
        if (name == null || name.indexOf(" = ") < 0) return name;
        Matcher m = INSTRUCTION.matcher(name);
        return m.find() ? m.group(1) : name;
    }
}
