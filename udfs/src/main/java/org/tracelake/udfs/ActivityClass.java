package org.tracelake.udfs;

import java.util.Set;
import java.util.regex.Pattern;

/**
 * The class of a GPU activity (METRICS.md section 2): comm, memcpy, memset, sync or compute, first match
 * wins. Every interval metric (comm time, overlap, utilisation) splits activities by this one function.
 */
public final class ActivityClass {

    public static final String COMM = "comm";
    public static final String MEMCPY = "memcpy";
    public static final String MEMSET = "memset";
    public static final String SYNC = "sync";
    public static final String COMPUTE = "compute";

    /** Kineto's GPU categories; readers of Nsight, rocprof and XLA traces normalise to these too. */
    public static final String CAT_KERNEL = "kernel";

    public static final String CAT_GPU_MEMCPY = "gpu_memcpy";
    public static final String CAT_GPU_MEMSET = "gpu_memset";

    private static final Set<String> GPU_CATS = Set.of(CAT_KERNEL, CAT_GPU_MEMCPY, CAT_GPU_MEMSET);

    /** Memset by name ("Memset (Device)", "hipMemsetAsync"-style device rows). */
    private static final Pattern MEMSET_NAME = Pattern.compile("memset", Pattern.CASE_INSENSITIVE);

    /**
     * Copies by name: CUDA "Memcpy HtoD (…)", XLA async "copy-start"/"copy-done", DMA engines. {@code dma}
     * must be a whole word so that names which merely contain the letters (e.g. "...admax...") do not count.
     */
    private static final Pattern MEMCPY_NAME =
            Pattern.compile("memcpy|copy-start|copy-done|\\bdma\\b", Pattern.CASE_INSENSITIVE);

    /**
     * Device-side synchronisation rows: kineto/CUPTI write "Stream Sync", "Event Sync", "Context Sync" and
     * "Stream Wait Event"; runtime-style names are cudaStreamWaitEvent, cudaStreamSynchronize. Case-sensitive
     * on purpose: a case-insensitive "sync" would catch every "...Async..." kernel.
     */
    /**
     * ROCm's runtime blit kernels (rocclr): {@code __amd_rocclr_copyBuffer*}/{@code copyImage*} move memory and
     * {@code __amd_rocclr_fillBuffer*}/{@code fillImage*} set it, though rocprof lists them as kernel dispatches.
     * Case-sensitive: the runtime writes exactly these names.
     */
    private static final Pattern ROCM_COPY_KERNEL = Pattern.compile("^__amd_rocclr_copy(Buffer|Image)");

    private static final Pattern ROCM_FILL_KERNEL = Pattern.compile("^__amd_rocclr_fill(Buffer|Image)");

    private static final Pattern SYNC_NAME = Pattern.compile("Sync\\b|Synchroniz|Wait ?Event");

    private ActivityClass() {}

    /** Whether a normalised category is GPU activity. Null is not. */
    public static boolean isGpuActivity(String cat) {
        return cat != null && GPU_CATS.contains(cat);
    }

    /**
     * The class of one activity, or null when it is not GPU activity.
     *
     * @param cat normalised category (kernel, gpu_memcpy, gpu_memset)
     * @param activityName activity name (kernel name, "Memcpy HtoD (…)", XLA op name or whole HLO instruction); may be null
     * @param hloCategory XLA {@code hlo_category}, null for non-XLA traces
     */
    public static String of(String cat, String activityName, String hloCategory) {
        if (!isGpuActivity(cat)) {
            return null;
        }
        String name =
                XlaOpName.of(activityName); // an XLA op named by its whole HLO instruction: its operands decide nothing
        if (CommunicationNames.isCommName(name) || CommunicationNames.isXlaCollective(hloCategory)) {
            return COMM;
        }
        if (CAT_GPU_MEMSET.equals(cat) || matches(MEMSET_NAME, name) || matches(ROCM_FILL_KERNEL, name)) {
            return MEMSET;
        }
        if (CAT_GPU_MEMCPY.equals(cat) || matches(MEMCPY_NAME, name) || matches(ROCM_COPY_KERNEL, name)) {
            return MEMCPY;
        }
        if (matches(SYNC_NAME, name)) {
            return SYNC;
        }
        return COMPUTE;
    }

    private static boolean matches(Pattern p, String s) {
        return s != null && p.matcher(s).find();
    }
}
