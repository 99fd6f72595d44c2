package org.tracelake.udfs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.tracelake.udfs.RealKernelNames.*;

import org.junit.jupiter.api.Test;

class KernelCategoryTest {

    private static String categoryOf(String cat, String name) {
        return KernelCategory.of(ActivityClass.of(cat, name, null), name);
    }

    @Test
    void nullClassHasNoCategory() {
        assertNull(KernelCategory.of(null, VOLTA_SGEMM));
    }

    @Test
    void commAndMemoryComeFromTheClass() {
        assertEquals("comm", categoryOf("kernel", LEGACY_ALLREDUCE_FLOAT));
        assertEquals("comm", categoryOf("kernel", RCCL_GENERIC));
        assertEquals("memory", categoryOf("gpu_memcpy", MEMCPY_HTOD));
        assertEquals("memory", categoryOf("gpu_memset", MEMSET_DEVICE));
    }

    @Test
    void copyKernelIsMemoryBeforeElementwise() {
        // direct_copy_kernel_cuda inside an elementwise kernel: memory (copy_kernel) is listed first
        assertEquals("memory", categoryOf("kernel", ROCM_DIRECT_COPY));
    }

    @Test
    void gemmKernels() {
        assertEquals("gemm", categoryOf("kernel", VOLTA_SGEMM)); // gemm
        assertEquals("gemm", categoryOf("kernel", CUTLASS_GEMM)); // cutlass
        // splitKreduce is cuBLASLt's GEMM epilogue: cublas comes before reduce in the list
        assertEquals("gemm", categoryOf("kernel", SPLITK_REDUCE_CUBLASLT));
        assertEquals("gemm", categoryOf("kernel", "nvjet_tst_128x256_64x4_2x1_v_bz_coopA_NTT"));
    }

    @Test
    void rocmTensileGemmsAreGemm() {
        // METRICS.md §2 (amended): Tensile/hipBLASLt kernels named ^Cijk_ are gemm (the real name of 908_results,
        // and the one of tw003.xplane.pb); only at the start of the name
        assertEquals("gemm", categoryOf("kernel", TENSILE_GEMM));
        assertEquals("gemm", categoryOf("kernel", "Cijk_Ailk_Bljk_BBS_BH_MT256x128x64_MI16x16x16"));
        assertEquals("other", categoryOf("kernel", "my_Cijk_helper"));
        // the runtime's blit kernels are memory, by their class
        assertEquals("memory", categoryOf("kernel", ROCM_COPY_BUFFER));
        assertEquals("memory", categoryOf("kernel", ROCM_FILL_BUFFER));
    }

    @Test
    void attentionSoftmaxAndNormalization() {
        assertEquals("attention", categoryOf("kernel", "flash_fwd_kernel<Flash_fwd_kernel_traits<128, 64>>"));
        assertEquals("attention", categoryOf("kernel", "void vllm::paged_attention_v2_kernel<float>()"));
        assertEquals("softmax", categoryOf("kernel", SOFTMAX_WARP_FORWARD));
        // matched case-insensitively: LayerNorm
        assertEquals("normalization", categoryOf("kernel", LAYER_NORM_FWD));
        // layer_norm is listed before vectorized (elementwise)
        assertEquals("normalization", categoryOf("kernel", VECTORIZED_LAYER_NORM));
        // cudnn's bn_ kernels are batch norm, but the rule asks for batch_?norm: other
        assertEquals("other", categoryOf("kernel", CUDNN_BN_FW));
        // ROCm's attn_fwd matches none of flash|fmha|attention|sdpa|paged
        assertEquals("other", categoryOf("kernel", ROCM_ATTN_FWD));
    }

    @Test
    void flashAttentionIsAttentionThoughItsTemplateArgumentsSayCutlass() {
        // METRICS.md §2 (amended turn 4): attention is matched before gemm. The real names of data/'s Llama trace
        // and of the H200 torch.compile capture (cuDNN's fused SDPA, whose name also says wgmma).
        assertEquals(
                "attention",
                categoryOf(
                        "kernel",
                        "void pytorch_flash::flash_fwd_kernel<Flash_fwd_kernel_traits<128, 128, 64, 4, false, false,"
                                + " cutlass::bfloat16_t, Flash_kernel_traits<128, 128, 64, 4, cutlass::bfloat16_t> >,"
                                + " false, true, false, false, true, true, false, false>(pytorch_flash::Flash_fwd_params)"));
        assertEquals(
                "attention",
                categoryOf(
                        "kernel",
                        "cudnn_generated_fort_native_sdpa_sm90_flash_bprop_wgmma_f16_knob_26_64x64x64_1x4x1_cga1x1x1_kernel0_0"));
        // a plain cutlass GEMM stays gemm
        assertEquals("gemm", categoryOf("kernel", CUTLASS_GEMM));
    }

    @Test
    void inductorTritonKernelsByTheirKind() {
        // Real names from the H200 torch.compile capture: triton_<kind>_fused_<ops>
        assertEquals("elementwise", categoryOf("kernel", "triton_poi_fused_relu_threshold_backward_view_11"));
        assertEquals("elementwise", categoryOf("kernel", "triton_poi_fused__to_copy_9"));
        assertEquals("reduction", categoryOf("kernel", "triton_red_fused_sum_threshold_backward_view_5"));
        assertEquals("reduction", categoryOf("kernel", "triton_per_fused_sum_2"));
        assertEquals("gemm", categoryOf("kernel", "triton_tem_fused_addmm_relu_0"));
        // first match wins: a persistent reduction fused with a layer norm is normalization, listed before reduction
        assertEquals(
                "normalization",
                categoryOf("kernel", "triton_per_fused__to_copy_add_native_layer_norm_backward_transpose_view_13"));
        // only at the start of the name
        assertEquals("other", categoryOf("kernel", "my_triton_poi_helper"));
    }

    @Test
    void elementwiseAndReduction() {
        assertEquals("elementwise", categoryOf("kernel", DLRM_FILL));
        assertEquals("elementwise", categoryOf("kernel", ROCM_ADD));
        assertEquals("reduction", categoryOf("kernel", ROCM_SUM_REDUCE)); // reduce_kernel
        assertEquals("reduction", categoryOf("kernel", MEAN_REDUCE));
    }

    @Test
    void reduceScatterNamedComputeKernelIsNotAReduction() {
        // reduce(?!_?scatter): a compute-class kernel with reduce_scatter in its name is not a reduction
        assertEquals("other", KernelCategory.of("compute", "fused_reduce_scatter_prep"));
        assertEquals("reduction", KernelCategory.of("compute", "fused_reduce_prep"));
    }

    @Test
    void unmatchedNamesAndSyncAreOther() {
        assertEquals("other", categoryOf("kernel", CUB_SCAN_INIT));
        assertEquals("other", categoryOf("kernel", "Stream Sync"));
        assertEquals("other", KernelCategory.of("compute", null));
    }
}
