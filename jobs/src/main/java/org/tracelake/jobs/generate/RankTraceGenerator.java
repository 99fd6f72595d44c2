package org.tracelake.jobs.generate;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import org.tracelake.udfs.ActivityClass;
import org.tracelake.udfs.KernelCategory;

/**
 * Simulates one rank of a data-parallel training job and writes its Kineto trace: a CPU thread that launches
 * kernels (cpu_op ⊃ cudaLaunchKernel, linked by correlation id) onto a compute stream and an NCCL stream, with
 * ProfilerStep#N annotations around each step. MODERN imitates FSDP on H100 (all_gather per layer forward and
 * backward, reduce_scatter of gradients, bf16); LEGACY imitates DDP on V100 (an embedding all_to_all, all_reduce
 * buckets, fp32). Everything is deterministic for a given seed.
 */
final class RankTraceGenerator {
    private static final long US = 1_000;
    static final int COMPUTE_STREAM = 7;

    private final WorkloadSpec spec;
    private final int rank;
    private final KinetoTraceWriter out;
    private final Random jitter;
    private final int cpuPid;
    private final int cpuTid;
    private final int device;
    private final int commStream;
    private final boolean modern;

    private long cpu;
    private long computeFree;
    private long commFree;
    private long nextExternalId = 1;
    private long nextCorrelation = 1;
    private long nextSeq = 1;

    /** Where the ranks meet at each collective, when faults are injected; else null (ranks simulated alone). */
    private final Rendezvous rendezvous;

    RankTraceGenerator(WorkloadSpec spec, int rank, KinetoTraceWriter out, long startNs) {
        this(spec, rank, out, startNs, null);
    }

    RankTraceGenerator(WorkloadSpec spec, int rank, KinetoTraceWriter out, long startNs, Rendezvous rendezvous) {
        this.rendezvous = rendezvous;
        this.spec = spec;
        this.rank = rank;
        this.out = out;
        // The same jitter on every rank: ranks run the same program in lockstep, and only the straggler differs.
        this.jitter = new Random(spec.seed());
        this.cpuPid = 41_000 + rank;
        this.cpuTid = 41_000 + rank;
        this.device = rank % 8;
        this.modern = spec.style() == TraceStyle.MODERN;
        this.commStream = modern ? 24 : 20;
        this.cpu = startNs;
        this.computeFree = startNs;
        this.commFree = startNs;
    }

    void run() throws IOException {
        out.metadata("process_name", cpuPid, 0, "name", "python3");
        out.metadata("process_labels", cpuPid, 0, "labels", "CPU");
        out.metadata("process_name", device, 0, "name", "python3");
        out.metadata("process_labels", device, 0, "labels", "GPU " + device);
        out.metadata("thread_name", device, COMPUTE_STREAM, "name", "stream " + COMPUTE_STREAM + " ");
        out.metadata("thread_name", device, commStream, "name", "stream " + commStream + " ");
        out.metadata("thread_name", cpuPid, cpuTid, "name", "thread " + cpuTid + " (python3)");
        for (int s = 0; s < spec.steps(); s++) step(spec.firstStep() + s);
    }

    private void step(int number) throws IOException {
        long stepStart = cpu;
        cpu += 5 * US;
        memcpy("Memcpy HtoD (Pinned -> Device)", 4L << 20, 40 * US);
        long fwdStart = cpu;
        if (!modern) allToAll(6144, "float");
        for (int l = 0; l < spec.layers(); l++) {
            long paramsReady = modern ? allGather(13_631_488L, 280 * US) : 0;
            waitCompute(paramsReady);
            forwardLayer();
        }
        annotate("## forward ##", fwdStart, cpu - fwdStart);
        long bwdStart = cpu;
        for (int l = spec.layers() - 1; l >= 0; l--) {
            if (modern) waitCompute(allGather(13_631_488L, 280 * US));
            for (Fault f : spec.faults()) if (f.hits(rank, Fault.Kind.CPU_STALL, l)) cpu += f.amountNs();
            backwardLayer(l);
            if (modern) {
                reduceScatter(54_525_952L, 300 * US);
            } else if (l % 2 == 0) {
                allReduce(6_553_600L, "float", 390 * US);
            }
        }
        annotate("## backward ##", bwdStart, cpu - bwdStart);
        long optStart = cpu;
        waitCompute(commFree);
        if (modern) allReduce(1, "Float", 20 * US);
        kernel(
                "aten::_foreach_add_",
                "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::"
                        + "(anonymous namespace)::TensorListMetadata<2>, at::native::(anonymous namespace)::BinaryOpListAlphaFunctor"
                        + "<float, 2, 2, 0>, std::plus<float>, float>(...)",
                150 * US);
        annotate("Optimizer.step#AdamW.step", optStart, cpu - optStart);
        long gpuDone = Math.max(computeFree, commFree);
        long syncStart = cpu;
        long syncEnd = Math.max(cpu + 8 * US, gpuDone + 5 * US);
        runtime("cudaDeviceSynchronize", syncStart, syncEnd - syncStart, null);
        cpu = syncEnd + 2 * US;
        annotate("ProfilerStep#" + number, stepStart, cpu - stepStart);
        cpu += 30 * US;
    }

    private void forwardLayer() throws IOException {
        if (modern) {
            kernel(
                    "aten::layer_norm",
                    "void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<c10::BFloat16, float>(int, float, c10::BFloat16 const*, c10::BFloat16 const*, c10::BFloat16 const*, float*, float*, c10::BFloat16*)",
                    12 * US);
            kernel(
                    "aten::mm",
                    "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas",
                    180 * US);
            kernel(
                    "aten::_flash_attention_forward",
                    "void pytorch_flash::flash_fwd_kernel<Flash_fwd_kernel_traits<128, 128, 64, 4, false, false, cutlass::bfloat16_t, Flash_kernel_traits<128, 128, 64, 4, cutlass::bfloat16_t> >, false, true, false, false, true, true, false, false>(pytorch_flash::Flash_fwd_params)",
                    220 * US);
            kernel(
                    "aten::mm",
                    "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize64x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas",
                    70 * US);
            kernel(
                    "aten::add",
                    "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<c10::BFloat16>, at::detail::Array<char*, 3> >(int, at::native::CUDAFunctor_add<c10::BFloat16>, at::detail::Array<char*, 3>)",
                    15 * US);
            kernel(
                    "aten::mm",
                    "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize256x128x64_warpgroupsize2x1x1_execute_segment_k_off_kernel__5x_cublas",
                    260 * US);
            kernel(
                    "aten::silu",
                    "void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::silu_kernel(at::TensorIteratorBase&)::{lambda()#1}::operator()() const::{lambda()#4}::operator()() const::{lambda(c10::BFloat16)#1}, at::detail::Array<char*, 2> >(...)",
                    30 * US);
            kernel(
                    "aten::mm",
                    "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize256x128x64_warpgroupsize2x1x1_execute_segment_k_off_kernel__5x_cublas",
                    250 * US);
        } else {
            kernel("aten::addmm", "volta_sgemm_128x64_nn", 120 * US);
            kernel(
                    "aten::relu",
                    "void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::launch_clamp_scalar(at::TensorIteratorBase&, c10::Scalar, c10::Scalar, at::native::detail::ClampLimits)::{lambda()#1}::operator()() const::{lambda()#7}::operator()() const::{lambda(float)#1}, at::detail::Array<char*, 2> >(...)",
                    20 * US);
        }
    }

    private void backwardLayer(int layer) throws IOException {
        long slower = 0;
        for (Fault f : spec.faults()) if (f.hits(rank, Fault.Kind.SLOW_GEMM, layer)) slower += f.amountNs();
        if (modern) {
            kernel(
                    "aten::mm",
                    "sm90_xmma_gemm_bf16bf16_bf16f32_f32_nn_n_tilesize256x128x64_warpgroupsize2x1x1_execute_segment_k_off_kernel__5x_cublas",
                    500 * US,
                    slower);
            kernel(
                    "aten::silu_backward",
                    "void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::silu_backward_kernel(at::TensorIteratorBase&)::{lambda()#1}::operator()() const::{lambda()#4}::operator()() const::{lambda(c10::BFloat16, c10::BFloat16)#1}, at::detail::Array<char*, 3> >(...)",
                    45 * US);
            kernel(
                    "aten::mm",
                    "sm90_xmma_gemm_bf16bf16_bf16f32_f32_nn_n_tilesize256x128x64_warpgroupsize2x1x1_execute_segment_k_off_kernel__5x_cublas",
                    520 * US);
            kernel(
                    "aten::_flash_attention_backward",
                    "void pytorch_flash::flash_bwd_dq_dk_dv_loop_seqk_parallel_kernel<Flash_bwd_kernel_traits<128, 64, 128, 8, 2, 4, 2, false, false, cutlass::bfloat16_t, Flash_kernel_traits<128, 64, 128, 8, cutlass::bfloat16_t> >, false, false, false, false, false, true, false>(pytorch_flash::Flash_bwd_params)",
                    480 * US);
            kernel(
                    "aten::mm",
                    "sm90_xmma_gemm_bf16bf16_bf16f32_f32_nn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas",
                    360 * US);
            kernel(
                    "aten::native_layer_norm_backward",
                    "void at::native::(anonymous namespace)::layer_norm_grad_input_kernel_vectorized<c10::BFloat16, float>(...)",
                    25 * US);
        } else {
            kernel("aten::mm", "volta_sgemm_128x64_nt", 240 * US, slower);
            kernel(
                    "aten::threshold_backward",
                    "void at::native::vectorized_elementwise_kernel<4, at::native::(anonymous namespace)::threshold_kernel_impl<float>(at::TensorIteratorBase&, float, float)::{lambda(float, float)#1}, at::detail::Array<char*, 3> >(...)",
                    25 * US);
        }
    }

    /** cpu_op ⊃ cudaLaunchKernel on the CPU; the kernel on the compute stream once the stream is free. */
    private void kernel(String op, String kernelName, long nominalDurNs) throws IOException {
        kernel(op, kernelName, nominalDurNs, 0);
    }

    /** A kernel that takes {@code extraNs} longer than its jittered time (an injected slow GEMM). */
    private void kernel(String op, String kernelName, long nominalDurNs, long extraNs) throws IOException {
        long dur = jittered(nominalDurNs);
        if (spec.gemmScale() != 1.0 && KernelCategory.GEMM.equals(KernelCategory.of(ActivityClass.COMPUTE, kernelName)))
            dur = Math.round(dur * spec.gemmScale());
        dur += extraNs;
        long opStart = cpu;
        long externalId = nextExternalId++;
        long correlation = nextCorrelation++;
        long launch = opStart + 3 * US;
        runtime("cudaLaunchKernel", launch, 4 * US, correlation, externalId);
        long start = Math.max(computeFree, launch + 6 * US);
        computeFree = start + dur;
        Map<String, Object> args = kernelArgs(externalId, correlation, COMPUTE_STREAM, 0.8);
        out.complete("kernel", kernelName, device, COMPUTE_STREAM, start, dur, args);
        out.flow("f", correlation, device, COMPUTE_STREAM, start);
        out.complete("cpu_op", op, cpuPid, cpuTid, opStart, 9 * US, Map.of("External id", externalId));
        cpu = opStart + 10 * US;
    }

    private void memcpy(String name, long bytes, long nominalDurNs) throws IOException {
        long dur = jittered(nominalDurNs);
        long correlation = nextCorrelation++;
        long externalId = nextExternalId++;
        long launch = cpu + 2 * US;
        runtime("cudaMemcpyAsync", launch, 6 * US, correlation, externalId);
        long start = Math.max(computeFree, launch + 8 * US);
        computeFree = start + dur;
        Map<String, Object> args = new LinkedHashMap<>();
        args.put("External id", externalId);
        args.put("device", device);
        args.put("context", 1);
        args.put("stream", COMPUTE_STREAM);
        args.put("correlation", correlation);
        args.put("bytes", bytes);
        args.put("memory bandwidth (GB/s)", bytes / (double) dur);
        out.complete("gpu_memcpy", name, device, COMPUTE_STREAM, start, dur, args);
        out.complete("cpu_op", "aten::copy_", cpuPid, cpuTid, cpu, 10 * US, Map.of("External id", externalId));
        cpu += 11 * US;
    }

    private long allGather(long inNelems, long nominalDurNs) throws IOException {
        return collective(
                "c10d::_allgather_base_",
                "_allgather_base",
                "nccl:_all_gather_base",
                "ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
                inNelems,
                inNelems * spec.ranks(),
                "BFloat16",
                nominalDurNs,
                0);
    }

    private void reduceScatter(long inNelems, long nominalDurNs) throws IOException {
        collective(
                "c10d::_reduce_scatter_base_",
                "_reduce_scatter_base",
                "nccl:_reduce_scatter_base",
                "ncclDevKernel_ReduceScatter_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
                inNelems,
                inNelems / spec.ranks(),
                "BFloat16",
                nominalDurNs,
                computeFree);
    }

    private void allReduce(long nelems, String dtype, long nominalDurNs) throws IOException {
        String kernelName = modern
                ? "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)"
                : "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)";
        collective(
                "c10d::allreduce_",
                "allreduce",
                "nccl:all_reduce",
                kernelName,
                nelems,
                nelems,
                dtype,
                nominalDurNs,
                computeFree);
    }

    private void allToAll(long nelems, String dtype) throws IOException {
        collective(
                "c10d::alltoall_base_",
                "all_to_all",
                "nccl:all_to_all",
                "ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclDevComm*, unsigned long, ncclWork*)",
                nelems,
                nelems,
                dtype,
                180 * US,
                0);
    }

    /**
     * c10d op ⊃ record_param_comms ⊃ nccl:* annotation ⊃ cudaLaunchKernel; the NCCL kernel starts when the
     * NCCL stream is free and its input is ready. The straggler rank starts every collective late; the others
     * wait for it inside the kernel, as NCCL does, so the collective ends at the same moment on every rank.
     */
    private long collective(
            String c10dOp,
            String collectiveName,
            String annotation,
            String kernelName,
            long inNelems,
            long outNelems,
            String dtype,
            long nominalDurNs,
            long inputReady)
            throws IOException {
        long dur = jittered(nominalDurNs);
        long opStart = cpu;
        long seq = nextSeq++;
        long rpcExternalId = nextExternalId++;
        long annotationExternalId = nextExternalId++;
        long c10dExternalId = nextExternalId++;
        long correlation = nextCorrelation++;
        long launch = opStart + 12 * US;
        runtime("cudaLaunchKernel", launch, 5 * US, correlation, modern ? rpcExternalId : correlation);
        long start = Math.max(Math.max(commFree, launch + 8 * US), inputReady);
        boolean straggling = spec.stragglerRank() >= 0 && spec.stragglerRank() < spec.ranks();
        if (rank == spec.stragglerRank()) start += spec.stragglerDelayNs();
        else if (straggling) dur += spec.stragglerDelayNs();
        if (rendezvous != null) dur += rendezvous.latestStart(rank, start) - start; // the early ones wait inside
        commFree = start + dur;

        Map<String, Object> kargs = kernelArgs(modern ? rpcExternalId : correlation, correlation, commStream, 0.1);
        Map<String, Object> rpc = new LinkedHashMap<>();
        rpc.put("External id", rpcExternalId);
        if (modern) {
            Map<String, Object> comm = new LinkedHashMap<>();
            comm.put("Collective name", collectiveName);
            comm.put("In msg nelems", inNelems);
            comm.put("Out msg nelems", outNelems);
            comm.put("Group size", spec.ranks());
            comm.put("dtype", dtype);
            comm.put("In split size", "[]");
            comm.put("Out split size", "[]");
            comm.put("Process Group Name", "0");
            comm.put("Process Group Description", "default_pg");
            comm.put("Process Group Ranks", ranksText());
            comm.put("Seq", seq);
            kargs.putAll(comm);
            rpc.putAll(comm);
            rpc.put("Global rank start", 0);
            rpc.put("Global rank stride", 1);
        } else {
            rpc.put("Input Dims", new Object[] {
                new long[] {inNelems}, new int[0], new int[0], new int[0], new int[0], new int[0], new int[0]
            });
            rpc.put("Input type", new Object[] {dtype, "Scalar", "Scalar", "Scalar", "", "", ""});
        }
        out.complete("kernel", kernelName, device, commStream, start, dur, kargs);
        out.flow("f", correlation, device, commStream, start);
        out.complete("cpu_op", c10dOp, cpuPid, cpuTid, opStart, 22 * US, Map.of("External id", c10dExternalId));
        out.complete("cpu_op", "record_param_comms", cpuPid, cpuTid, opStart + 2 * US, 19 * US, rpc);
        Map<String, Object> ann = new LinkedHashMap<>();
        ann.put("External id", annotationExternalId);
        if (!modern) {
            ann.put("Input Dims", new Object[] {new long[] {inNelems}});
            ann.put("Input type", new Object[] {dtype});
        }
        out.complete("user_annotation", annotation, cpuPid, cpuTid, opStart + 10 * US, 9 * US, ann);
        cpu = opStart + 24 * US;
        return commFree;
    }

    private void runtime(String name, long ts, long dur, Long correlation) throws IOException {
        Map<String, Object> args = new LinkedHashMap<>();
        if (correlation != null) args.put("correlation", correlation);
        args.put("cbid", name.equals("cudaDeviceSynchronize") ? 165 : 211);
        out.complete("cuda_runtime", name, cpuPid, cpuTid, ts, dur, args);
    }

    private void runtime(String name, long ts, long dur, long correlation, long externalId) throws IOException {
        Map<String, Object> args = new LinkedHashMap<>();
        args.put("External id", externalId);
        args.put("cbid", 211);
        args.put("correlation", correlation);
        out.complete("cuda_runtime", name, cpuPid, cpuTid, ts, dur, args);
        out.flow("s", correlation, cpuPid, cpuTid, ts);
    }

    private void annotate(String name, long ts, long dur) throws IOException {
        out.complete("user_annotation", name, cpuPid, cpuTid, ts, dur, Map.of("External id", nextExternalId++));
    }

    private void waitCompute(long readyNs) {
        computeFree = Math.max(computeFree, readyNs);
    }

    private Map<String, Object> kernelArgs(long externalId, long correlation, int stream, double blocksPerSm) {
        Map<String, Object> args = new LinkedHashMap<>();
        args.put("External id", externalId);
        args.put("queued", 0);
        args.put("device", device);
        args.put("context", 1);
        args.put("stream", stream);
        args.put("correlation", correlation);
        args.put("registers per thread", 96);
        args.put("shared memory", 41_760);
        args.put("blocks per SM", blocksPerSm);
        args.put("warps per SM", 2.0);
        args.put("grid", new int[] {132, 1, 1});
        args.put("block", new int[] {256, 1, 1});
        args.put("est. achieved occupancy %", 12);
        return args;
    }

    private String ranksText() {
        StringBuilder sb = new StringBuilder("[");
        for (int r = 0; r < spec.ranks(); r++) sb.append(r == 0 ? "" : ", ").append(r);
        return sb.append(']').toString();
    }

    /** ±4% of the nominal time, in whole µs for the legacy style (its files carry integer µs). */
    private long jittered(long nominalNs) {
        double f = 1.0 + (jitter.nextDouble() - 0.5) * 0.08;
        long ns = Math.round(nominalNs * f);
        return modern ? ns : Math.max(US, Math.round(ns / 1000.0) * US);
    }
}
