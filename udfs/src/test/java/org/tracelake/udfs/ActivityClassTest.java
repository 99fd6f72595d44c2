package org.tracelake.udfs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.tracelake.udfs.RealKernelNames.*;

import org.junit.jupiter.api.Test;

class ActivityClassTest {

    @Test
    void onlyKernelMemcpyAndMemsetCategoriesAreGpuActivity() {
        assertTrue(ActivityClass.isGpuActivity("kernel"));
        assertTrue(ActivityClass.isGpuActivity("gpu_memcpy"));
        assertTrue(ActivityClass.isGpuActivity("gpu_memset"));
        assertFalse(ActivityClass.isGpuActivity("cuda_runtime"));
        assertFalse(ActivityClass.isGpuActivity("gpu_user_annotation")); // nccl:all_reduce on the GPU row
        assertFalse(ActivityClass.isGpuActivity(null));
    }

    @Test
    void nonGpuActivityHasNoClass() {
        // cudaStreamSynchronize is a CPU runtime call in the dlrm traces, not a GPU activity.
        assertNull(ActivityClass.of("cuda_runtime", "cudaStreamSynchronize", null));
        assertNull(ActivityClass.of("user_annotation", "nccl:all_reduce", null));
        assertNull(ActivityClass.of(null, LEGACY_ALLREDUCE_FLOAT, null));
    }

    @Test
    void ncclAndRcclKernelsAreComm() {
        // ^nccl / nccl(Dev)?Kernel
        assertEquals("comm", ActivityClass.of("kernel", LEGACY_SENDRECV, null));
        assertEquals("comm", ActivityClass.of("kernel", LEGACY_ALLREDUCE_FLOAT, null));
        assertEquals("comm", ActivityClass.of("kernel", LEGACY_BROADCAST, null));
        assertEquals("comm", ActivityClass.of("kernel", DEV_ALLREDUCE_F16, null));
        assertEquals("comm", ActivityClass.of("kernel", DEV_ALLGATHER, null));
        assertEquals("comm", ActivityClass.of("kernel", RCCL_GENERIC, null));
        assertEquals("comm", ActivityClass.of("kernel", RCCL_GENERIC_MANGLED, null)); // nccl(Dev)?Kernel anywhere
        assertEquals("comm", ActivityClass.of("kernel", RCCL_GENERIC_DEBUG, null)); // ^nccl
        assertEquals("comm", ActivityClass.of("kernel", RCCL_MSCCL, null)); // ^msccl
    }

    @Test
    void commNameRegexIsCaseInsensitiveAndCoversOtherLibraries() {
        assertEquals("comm", ActivityClass.of("kernel", "mscclpp::AllReduce8Kernel", null)); // mscclpp
        assertEquals("comm", ActivityClass.of("kernel", "cross_device_reduce_1stage<half, 8>", null));
        assertEquals("comm", ActivityClass.of("kernel", "RCCL_kernel", null)); // ^rccl, any case
    }

    @Test
    void deepEpDispatchCombineNotifyAreComm() {
        assertEquals("comm", ActivityClass.of("kernel", "void dpsk::ep::internode::dispatch<true, 8>(int*)", null));
        assertEquals("comm", ActivityClass.of("kernel", "void deep_ep::intranode::combine<float>(void*)", null));
        assertEquals("comm", ActivityClass.of("kernel", "void deep_ep::internode::notify_dispatch(int const*)", null));
        assertEquals(
                "comm",
                ActivityClass.of("kernel", "void deep_ep::intranode::cached_notify_combine(void**, int)", null));
        // DeepEP's layout kernel computes, on one rank, where each token goes: compute (METRICS.md §2, DeepEP)
        assertEquals(
                "compute",
                ActivityClass.of(
                        "kernel",
                        "void deep_ep::internode::get_dispatch_layout<256, 32, 8>(long const*, int*, int*, int*, bool*, int, int, int, int)",
                        null));
        assertEquals("compute", ActivityClass.of("kernel", "void dpsk::ep::get_dispatch_layout(long const*)", null));
        // ep:: must begin a namespace component: step::dispatch is not DeepEP
        assertEquals("compute", ActivityClass.of("kernel", "void step::dispatch_kernel(int)", null));
    }

    @Test
    void xlaCollectivesAreCommByHloCategoryButBroadcastIsNot() {
        assertEquals("comm", ActivityClass.of("kernel", "all-reduce.1", "all-reduce"));
        assertEquals("comm", ActivityClass.of("kernel", "fusion.12", "all-gather fusion"));
        assertEquals("comm", ActivityClass.of("kernel", "all-gather-start.3", "all-gather-start"));
        assertEquals("comm", ActivityClass.of("kernel", "collective-permute-done", "collective-permute-done"));
        assertEquals("comm", ActivityClass.of("kernel", "recv-done.2", "recv-done"));
        assertEquals("comm", ActivityClass.of("kernel", "collective-permute.1", null)); // name regex has it
        assertEquals("compute", ActivityClass.of("kernel", "broadcast.7", "broadcast"));
        assertEquals("compute", ActivityClass.of("kernel", "fusion.3", "loop fusion"));
    }

    @Test
    void copiesAndFillsAreMemcpyAndMemset() {
        assertEquals("memcpy", ActivityClass.of("gpu_memcpy", MEMCPY_HTOD, null));
        assertEquals("memcpy", ActivityClass.of("gpu_memcpy", MEMCPY_DTOD, null));
        assertEquals("memset", ActivityClass.of("gpu_memset", MEMSET_DEVICE, null));
        assertEquals("memcpy", ActivityClass.of("gpu_memcpy", null, null)); // the category alone decides
        // names decide for rows a reader normalised to "kernel"
        assertEquals("memcpy", ActivityClass.of("kernel", "copy-start.2", "async-copy"));
        assertEquals("memcpy", ActivityClass.of("kernel", "copy-done.2", "async-copy"));
        assertEquals("memcpy", ActivityClass.of("kernel", "host dma transfer", null)); // \bdma\b
        assertEquals("memset", ActivityClass.of("kernel", "Memset (Device)", null));
    }

    @Test
    void deviceSyncEventsAreSync() {
        assertEquals("sync", ActivityClass.of("kernel", "Stream Sync", null));
        assertEquals("sync", ActivityClass.of("kernel", "Event Sync", null));
        assertEquals("sync", ActivityClass.of("kernel", "Stream Wait Event", null));
        assertEquals("sync", ActivityClass.of("kernel", "cudaStreamWaitEvent", null));
        assertEquals("sync", ActivityClass.of("kernel", "cudaStreamSynchronize", null));
        // "Async" in a kernel name is not a sync event
        assertEquals("compute", ActivityClass.of("kernel", "void cutlass::AsyncCopyKernel<float>()", null));
    }

    @Test
    void everythingElseOnTheGpuIsCompute() {
        assertEquals("compute", ActivityClass.of("kernel", VOLTA_SGEMM, null));
        assertEquals("compute", ActivityClass.of("kernel", CUTLASS_GEMM, null));
        assertEquals("compute", ActivityClass.of("kernel", TENSILE_GEMM, null));
        assertEquals("compute", ActivityClass.of("kernel", DLRM_FILL, null));
        assertEquals("compute", ActivityClass.of("kernel", ROCM_SUM_REDUCE, null)); // reduce alone is not all_?reduce
        assertEquals("compute", ActivityClass.of("kernel", null, null));
    }

    @Test
    void rocmRuntimeBlitKernelsAreMemcpyAndMemset() {
        // METRICS.md §2: rocprof lists the runtime's blit kernels as dispatches (cat kernel); by name they copy or fill
        assertEquals("memcpy", ActivityClass.of("kernel", ROCM_COPY_BUFFER, null));
        assertEquals("memcpy", ActivityClass.of("kernel", "__amd_rocclr_copyBufferRectAligned", null));
        assertEquals("memcpy", ActivityClass.of("kernel", "__amd_rocclr_copyImage1DA", null));
        assertEquals("memset", ActivityClass.of("kernel", ROCM_FILL_BUFFER, null));
        assertEquals("memset", ActivityClass.of("kernel", "__amd_rocclr_fillBufferAligned2D", null));
        assertEquals("memset", ActivityClass.of("kernel", "__amd_rocclr_fillImage", null));
        // the runtime's other helpers (also in 908_results.json.gz) move no data
        assertEquals("compute", ActivityClass.of("kernel", "__amd_rocclr_streamOpsWrite", null));
        assertEquals("compute", ActivityClass.of("kernel", "__amd_rocclr_initHeap", null));
    }
}
