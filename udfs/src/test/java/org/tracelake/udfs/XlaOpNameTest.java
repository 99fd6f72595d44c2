package org.tracelake.udfs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/**
 * METRICS.md §2 "XLA op names": an XSpace device event named by its whole HLO instruction is classified by its op name
 * and hlo_category, never by its operand list (issue 46: every loop fusion that consumed %copy-done was a copy, and
 * a v6e file's compute time came out as 0.0044 s where it is 9.62 s).
 */
class XlaOpNameTest {
    /** The shape of the v6e file's instructions (operands abridged). */
    static final String FUSION_OF_COPY_DONE = "%fusion.2 = f32[8,128]{1,0:T(8,128)} fusion(f32[8,128]{1,0:T(8,128)}"
            + " %copy-done.1, f32[128]{0} %param.3), kind=kLoop, calls=%fused_computation.2";

    static final String FUSION_OF_ALL_REDUCE =
            "%add_fusion = bf16[1024]{0} fusion(bf16[1024]{0} %all-reduce.4)," + " kind=kLoop, calls=%fused_add";
    static final String COPY_DONE =
            "%copy-done.1 = f32[8,128]{1,0:T(8,128)} copy-done((f32[8,128]{1,0}, u32[])" + " %copy-start.1)";
    static final String ALL_REDUCE_START = "%all-reduce-start.3 = f32[5,1024]{1,0} all-reduce-start(f32[5,1024]{1,0}"
            + " %bitcast), channel_id=1, replica_groups=[4,2]<=[2,4]T(1,0), use_global_device_ids=true";

    @Test
    void theOpNameIsTheTextBeforeTheEqualsSign() {
        assertEquals("fusion.2", XlaOpName.of(FUSION_OF_COPY_DONE));
        assertEquals("copy-done.1", XlaOpName.of(COPY_DONE));
        assertEquals("fusion.7", XlaOpName.of("fusion.7"));
        assertEquals(
                "ncclDevKernel_AllReduce_Sum_f32_RING_LL", XlaOpName.of("ncclDevKernel_AllReduce_Sum_f32_RING_LL"));
        assertNull(XlaOpName.of(null));
    }

    @Test
    void aFusionThatConsumesACopyOrACollectiveIsCompute() {
        assertEquals("compute", ActivityClass.of("kernel", FUSION_OF_COPY_DONE, "loop fusion"));
        assertEquals("compute", ActivityClass.of("kernel", FUSION_OF_ALL_REDUCE, "loop fusion"));
        assertEquals("other", KernelCategory.of("compute", FUSION_OF_COPY_DONE));
        // the copy and the collective themselves keep their class
        assertEquals("memcpy", ActivityClass.of("kernel", COPY_DONE, "async-copy"));
        assertEquals("comm", ActivityClass.of("kernel", ALL_REDUCE_START, "all-reduce"));
        assertEquals("start", XlaAsyncOps.half(ALL_REDUCE_START));
        assertEquals("all-reduce.3", XlaAsyncOps.instruction(ALL_REDUCE_START));
    }
}
