package org.tracelake.jobs.readers.rocprof;

/**
 * AMD kernel symbols name the kernel descriptor: {@code foo.kd}, or demangled {@code foo(args) [clone .kd]}. The
 * suffix says nothing about the kernel and would keep one kernel's name from matching across formats, so rocprof
 * and XSpace rows drop it.
 */
public final class AmdKernelNames {
    private AmdKernelNames() {}

    public static String withoutDescriptorSuffix(String name) {
        if (name == null) return null;
        String n = name.strip();
        if (n.endsWith("[clone .kd]"))
            return n.substring(0, n.length() - "[clone .kd]".length()).strip();
        if (n.endsWith(".kd")) return n.substring(0, n.length() - 3);
        return n;
    }
}
