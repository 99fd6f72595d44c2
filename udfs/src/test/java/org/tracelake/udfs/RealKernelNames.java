package org.tracelake.udfs;

/**
 * Kernel and activity names copied verbatim from the real traces in /work/shared/traces (and, where no
 * shared trace has one, from the observed samples quoted in FORMATS.md section 1), so the rules are
 * tested on what profilers actually write.
 */
final class RealKernelNames {

    private RealKernelNames() {}

    // kineto/dlrm-8rank-v100 (NCCL 2.x legacy names; all_to_all runs as SendRecv)
    static final String LEGACY_SENDRECV =
            "ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclDevComm*, unsigned long, ncclWork*)";
    static final String LEGACY_ALLREDUCE_FLOAT =
            "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)";
    static final String VOLTA_SGEMM = "volta_sgemm_128x32_nt";
    static final String MEMCPY_HTOD = "Memcpy HtoD (Pageable -> Device)";
    static final String MEMSET_DEVICE = "Memset (Device)";
    static final String DLRM_FILL = "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<int>, "
            + "at::detail::Array<char*, 1> >(int, at::native::FillFunctor<int>, at::detail::Array<char*, 1>)";
    static final String CUB_SCAN_INIT =
            "void cub::DeviceScanInitKernel<cub::ScanTileState<int, true> >(cub::ScanTileState<int, true>, int)";

    // kineto/hta-nccl-args-rank0of2 (collective args on the kernel)
    static final String LEGACY_BROADCAST =
            "ncclKernel_Broadcast_RING_LL_Sum_int8_t(ncclDevComm*, unsigned long, ncclWork*)";
    static final String CUTLASS_GEMM = "void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_256x64_16x4_nn_align4>"
            + "(cutlass_80_tensorop_s1688gemm_256x64_16x4_nn_align4::Params)";
    static final String SOFTMAX_WARP_FORWARD = "void (anonymous namespace)::softmax_warp_forward<float, float, float, "
            + "10, true, false>(float*, float const*, int, int, int, bool const*, int, bool)";
    static final String CUDNN_BN_FW =
            "void cudnn::bn_fw_tr_1C11_singleread<float, 512, true, 1, 2, 0>" + "(cudnn::bn_fw_tr_1C11_args<float>)";
    static final String MEAN_REDUCE = "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, "
            + "at::native::MeanOps<float, float, float, float>, unsigned int, float, 4> >(at::native::ReduceOp<float, "
            + "at::native::MeanOps<float, float, float, float>, unsigned int, float, 4>)";
    static final String MEMCPY_DTOD = "Memcpy DtoD (Device -> Device)";

    // kineto/hta-sampled-2rank
    static final String LAYER_NORM_FWD = "void at::native::(anonymous namespace)::LayerNormForwardCUDAKernel<float, "
            + "float>(long, float const*, float const*, float const*, float const*, float const*, float*)";
    static final String VECTORIZED_LAYER_NORM = "void at::native::(anonymous namespace)::vectorized_layer_norm_kernel"
            + "<float, float>(int, float, float const*, float const*, float const*, float*, float*, float*)";
    static final String SPLITK_REDUCE_CUBLASLT = "void cublasLt::splitKreduce_kernel<32, 16, int, float, float, float, "
            + "float, true, true, false>(cublasLt::cublasSplitKParams<float>, float const*, float const*, float*, "
            + "float const*, float const*, float const*, float const*, float*, void*, long, float*, int*)";

    // kineto/aorta-rocm-mi350-tiny (ROCm: names end in [clone .kd] / .kd)
    static final String TENSILE_GEMM = "Cijk_Ailk_Bljk_S_B_Bias_HA_S_SAV_UserArgs_MT64x64x64_MI16x16x1_SN_LDSB1_AFC1_"
            + "AFEM1_AFEM1_ASEM1_CLR1_CADS0_DTLA0_DTLB0_DTVA0_DTVB0_EPS0_FDSI0_GRPM1_GRVWA4_GRVWB4_GSU0_GSUAMB_GLS0_ISA950_"
            + "IU1_K1_LBSPPA1024_LBSPPB512_LBSPPM0_LPA0_LPB8_LPM0_LRVW4_LWPMn1_MIAV0_MIWT2_2_MO40_NTn1_NTA0_NTB0_NTC0_NTD0_"
            + "NTM0_NEPBS0_NLCA1_NLCB1_ONLL1_PGR2_PLR1_PKA1_SIA3_SS1_SPO0_SRVW0_SSO0_SVW2_SK3_SKXCCM8_TLDS1_ULSGRO0_USL1_"
            + "UIOFGRO0_USFGRO0_VSn1_VWA2_VWB2_WSGRA0_WSGRB0_WS64_WG32_8_1.kd";
    static final String ROCM_FILL_BUFFER = "__amd_rocclr_fillBufferAligned.kd";
    static final String ROCM_SUM_REDUCE = "void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, "
            + "at::native::func_wrapper_t<float, at::native::sum_functor<float, float, float>::operator()"
            + "(at::TensorIterator&)::{lambda(float, float)#2}>, unsigned int, float, 4, 4> >(at::native::ReduceOp<float, "
            + "at::native::func_wrapper_t<float, at::native::sum_functor<float, float, float>::operator()"
            + "(at::TensorIterator&)::{lambda(float, float)#2}>, unsigned int, float, 4, 4>) [clone .kd]";
    static final String ROCM_ADD =
            "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, "
                    + "std::array<char*, 3ul> >(int, at::native::CUDAFunctor_add<float>, std::array<char*, 3ul>) [clone .kd]";
    static final String ROCM_DIRECT_COPY = "void at::native::elementwise_kernel_manual_unroll<128, 4, "
            + "at::native::gpu_kernel_impl_nocast<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::"
            + "{lambda()#3}::operator()() const::{lambda()#7}::operator()() const::{lambda(float)#1}>"
            + "(at::TensorIteratorBase&, at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::"
            + "operator()() const::{lambda()#7}::operator()() const::{lambda(float)#1} const&)::{lambda(int, bool)#1}>"
            + "(int, at::native::gpu_kernel_impl_nocast<at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::"
            + "{lambda()#3}::operator()() const::{lambda()#7}::operator()() const::{lambda(float)#1}>"
            + "(at::TensorIteratorBase&, at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::{lambda()#3}::"
            + "operator()() const::{lambda()#7}::operator()() const::{lambda(float)#1} const&)::{lambda(int, bool)#1}) "
            + "[clone .kd]";

    // rocprofv3/aorta-mi350 (kernel_symbols: formatted and mangled names of the RCCL kernel, other kernels)
    static final String RCCL_GENERIC = "ncclDevKernel_Generic_1(ncclDevKernelArgsStorage<4096ul>)";
    static final String RCCL_GENERIC_MANGLED = "_Z23ncclDevKernel_Generic_124ncclDevKernelArgsStorageILm4096EE.kd";
    static final String RCCL_GENERIC_DEBUG = "ncclDevKernelDebug_Generic_4(ncclDevKernelArgsStorage<4096ul>)";
    static final String RCCL_MSCCL = "mscclKernel_Sum_hip_bfloat16_LL_false(ncclDevComm*, mscclAlgo*, mscclWork*)";
    static final String ROCM_ATTN_FWD = "attn_fwd.kd";
    static final String ROCM_COPY_BUFFER = "__amd_rocclr_copyBuffer.kd";

    // FORMATS.md section 1 (observed on HTA / B200 samples that are not in /work/shared/traces)
    static final String DEV_ALLREDUCE_F16 =
            "ncclDevKernel_AllReduce_Sum_f16_RING_LL(ncclDevComm*, unsigned long, ncclWork*)";
    static final String DEV_ALLGATHER = "ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)";
}
