package org.tracelake.udfs;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class KernelNameRulesTest {
    @Test
    void copyKernelsAsTheContractWritesThem() {
        assertTrue(KernelNameRules.isCopyKernel("Memcpy HtoD (Pinned -> Device)"));
        assertTrue(KernelNameRules.isCopyKernel("Memset (Device)"));
        assertTrue(KernelNameRules.isCopyKernel("copy-start.3"));
        assertTrue(KernelNameRules.isCopyKernel("void at::native::(anonymous namespace)::copy_kernel<float>(...)"));
        assertFalse(KernelNameRules.isCopyKernel("volta_sgemm_128x64_nn"));
        // case-insensitive since METRICS.md §4's amendment, as CCL-Bench's _MEMCPY_RE (re.IGNORECASE)
        assertTrue(KernelNameRules.isCopyKernel("MEMCPY"));
        assertTrue(KernelNameRules.isCopyKernel("DMA transfer"));
        assertFalse(KernelNameRules.isCopyKernel("dmask_kernel"));
        assertFalse(KernelNameRules.isCopyKernel(null));
    }

    @Test
    void cclBenchCommNamesEventCategoriesAndNcclDevKernels() {
        // _COMM_RE of CCL-Bench's trace_metric_utils.py, case-insensitive
        assertTrue(KernelNameRules.isCclBenchCommName("ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclWorkElem)"));
        assertTrue(KernelNameRules.isCclBenchCommName("cross_device_reduce_1stage"));
        assertTrue(KernelNameRules.isCclBenchCommName("Cross-Device copy"));
        assertFalse(KernelNameRules.isCclBenchCommName("volta_sgemm_128x64_nn"));
        assertFalse(KernelNameRules.isCclBenchCommName(null));
        // memory_transfer_overhead reads kernel, Op, gpu_op, device_op and events without a cat; not gpu_memcpy
        assertTrue(KernelNameRules.isCclBenchEventCat("kernel"));
        assertTrue(KernelNameRules.isCclBenchEventCat(null));
        assertFalse(KernelNameRules.isCclBenchEventCat("gpu_memcpy"));
        assertFalse(KernelNameRules.isCclBenchEventCat("gpu_memset"));
        // straggler: names starting with ncclDevKernel_, any case; legacy ncclKernel_ is not one
        assertTrue(KernelNameRules.isNcclDevKernel(
                "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)"));
        assertTrue(KernelNameRules.isNcclDevKernel("NCCLDEVKERNEL_SendRecv"));
        assertFalse(KernelNameRules.isNcclDevKernel("ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)"));
        assertFalse(KernelNameRules.isNcclDevKernel("void ncclDevKernel_x"));
        assertFalse(KernelNameRules.isNcclDevKernel(null));
    }

    @Test
    void moeKernelsCaseInsensitive() {
        assertTrue(KernelNameRules.isMoeKernel("fused_moe_kernel"));
        assertTrue(KernelNameRules.isMoeKernel("void vllm::moe::topkGatingSoftmax<8>(...)"));
        assertTrue(KernelNameRules.isMoeKernel("dpsk::ep::internode::DispatchKernel"));
        assertFalse(KernelNameRules.isMoeKernel("volta_sgemm_128x64_nn"));
    }

    /** Issue 46: the runtime and driver calls that launch a kernel, as CUDA, HIP and Nsight name them. */
    @Test
    void kernelLaunchCalls() {
        for (String n : new String[] {
            "cudaLaunchKernel",
            "cudaLaunchKernelExC",
            "cuLaunchKernel",
            "cuLaunchKernelEx",
            "cudaLaunchCooperativeKernel",
            "cudaGraphLaunch",
            "hipLaunchKernel",
            "hipExtLaunchKernel",
            "hipModuleLaunchKernel",
            "hipExtModuleLaunchKernel",
            "hipGraphLaunch",
            "cudaLaunchKernel_v7000"
        }) {
            assertTrue(KernelNameRules.isKernelLaunch(n), n);
        }
        for (String n : new String[] {
            "cudaMemcpyAsync",
            "cudaStreamSynchronize",
            "cudaEventRecord",
            "cudaMemsetAsync",
            "hipMemcpyWithStream",
            null
        }) {
            assertFalse(KernelNameRules.isKernelLaunch(n), String.valueOf(n));
        }
    }
}
