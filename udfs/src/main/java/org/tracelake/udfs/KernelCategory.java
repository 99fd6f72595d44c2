package org.tracelake.udfs;

import java.util.List;
import java.util.regex.Pattern;

/**
 * Kernel category for time breakdowns (METRICS.md section 2), first match wins. Name patterns are matched
 * case-insensitively (anywhere in the name) because library names mix cases: PyTorch's
 * {@code LayerNormForwardCUDAKernel} must land in normalization just like {@code rms_norm_kernel}.
 */
public final class KernelCategory {

    public static final String COMM = "comm";
    public static final String MEMORY = "memory";
    public static final String GEMM = "gemm";
    public static final String ATTENTION = "attention";
    public static final String SOFTMAX = "softmax";
    public static final String NORMALIZATION = "normalization";
    public static final String ELEMENTWISE = "elementwise";
    public static final String REDUCTION = "reduction";
    public static final String OTHER = "other";

    private record Rule(String category, Pattern pattern) {}

    /** Name rules after the class-based ones, in METRICS.md's order. */
    private static final List<Rule> NAME_RULES = List.of(
            rule(MEMORY, "copy_kernel"),
            // Before gemm: FlashAttention kernels carry cutlass in their template arguments
            // (flash_fwd_kernel<Flash_fwd_kernel_traits<…, cutlass::bfloat16_t, …>>).
            rule(ATTENTION, "flash|fmha|attention|sdpa|paged"),
            // ROCm's Tensile/hipBLASLt GEMMs are named by their index layout: Cijk_Ailk_Bljk_…; Inductor's templated
            // GEMMs are triton_tem_fused_….
            rule(GEMM, "gemm|cutlass|cublas|matmul|triton_mm|triton_tem|nvjet|wgmma|^Cijk_"),
            rule(SOFTMAX, "softmax"),
            rule(NORMALIZATION, "layer_?norm|rms_?norm|batch_?norm|group_?norm"),
            // Inductor names its Triton kernels triton_<kind>_fused_<ops>: poi = pointwise, red/per = reductions.
            rule(ELEMENTWISE, "elementwise|pointwise|vectorized|unrolled_elementwise|^triton_poi"),
            // reduce_scatter is a collective, not a reduction kernel.
            rule(REDUCTION, "reduce(?!_?scatter)|sum_kernel|mean_kernel|^triton_red|^triton_per"));

    private KernelCategory() {}

    /**
     * @param activityClass the {@link ActivityClass} of the activity; null gives null
     * @param name kernel name; null falls through to "other" unless the class decides
     */
    public static String of(String activityClass, String name) {
        if (activityClass == null) {
            return null;
        }
        if (ActivityClass.COMM.equals(activityClass)) {
            return COMM;
        }
        if (ActivityClass.MEMCPY.equals(activityClass) || ActivityClass.MEMSET.equals(activityClass)) {
            return MEMORY;
        }
        if (name != null) {
            String opName = XlaOpName.of(name); // an XLA op by its name, never by the operands of its HLO text
            for (Rule r : NAME_RULES) {
                if (r.pattern().matcher(opName).find()) {
                    return r.category();
                }
            }
        }
        return OTHER;
    }

    private static Rule rule(String category, String regex) {
        return new Rule(category, Pattern.compile(regex, Pattern.CASE_INSENSITIVE));
    }
}
