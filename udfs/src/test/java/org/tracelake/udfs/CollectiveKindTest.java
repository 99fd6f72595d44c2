package org.tracelake.udfs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.tracelake.udfs.RealKernelNames.*;

import org.junit.jupiter.api.Test;

class CollectiveKindTest {

    @Test
    void collectiveNameArgDecidesWhenPresent() {
        // hta-nccl-args: the AllReduce kernel carries "Collective name":"allreduce"
        assertEquals("all_reduce", CollectiveKind.of("allreduce", LEGACY_ALLREDUCE_FLOAT, null));
        // ... and the Broadcast kernels "broadcast"
        assertEquals("broadcast", CollectiveKind.of("broadcast", LEGACY_BROADCAST, null));
        // FORMATS.md B200 sample: "_allgather_base" on ncclDevKernel_AllGather
        assertEquals("all_gather", CollectiveKind.of("_allgather_base", DEV_ALLGATHER, null));
        assertEquals("all_gather", CollectiveKind.of("all_gather_into_tensor_coalesced", null, null));
        assertEquals("all_gather", CollectiveKind.of("allgather", null, null));
        assertEquals("reduce_scatter", CollectiveKind.of("_reduce_scatter_base", null, null));
        assertEquals("reduce_scatter", CollectiveKind.of("reduce_scatter_tensor_coalesced", null, null));
        assertEquals("all_to_all", CollectiveKind.of("all_to_all", LEGACY_SENDRECV, null));
        assertEquals("all_to_all", CollectiveKind.of("alltoall_base", LEGACY_SENDRECV, null));
        assertEquals("send_recv", CollectiveKind.of("send", LEGACY_SENDRECV, null));
        assertEquals("send_recv", CollectiveKind.of("recv", LEGACY_SENDRECV, null));
        assertEquals("reduce", CollectiveKind.of("reduce", null, null));
        assertEquals("barrier", CollectiveKind.of("barrier", null, null));
    }

    @Test
    void waitIsNotACollectiveSoTheNamesDecide() {
        assertEquals("broadcast", CollectiveKind.of("wait", LEGACY_BROADCAST, null));
        assertNull(CollectiveKind.of("wait", null, null));
        assertNull(CollectiveKind.of("", null, null));
    }

    @Test
    void anUnreadableCollectiveArgStillMeansCommunication() {
        assertEquals("other", CollectiveKind.of("some_future_collective", null, null));
        assertEquals("all_reduce", CollectiveKind.of("some_future_collective", DEV_ALLREDUCE_F16, null));
        assertEquals("other", CollectiveKind.of("gather", null, null)); // a collective with no kind of its own
    }

    @Test
    void kernelNamesWithoutArgs() {
        assertEquals("all_reduce", CollectiveKind.of(null, LEGACY_ALLREDUCE_FLOAT, null));
        assertEquals("all_reduce", CollectiveKind.of(null, DEV_ALLREDUCE_F16, null));
        assertEquals("all_gather", CollectiveKind.of(null, DEV_ALLGATHER, null));
        assertEquals("broadcast", CollectiveKind.of(null, LEGACY_BROADCAST, null));
        assertEquals(
                "reduce_scatter", CollectiveKind.of(null, "ncclDevKernel_ReduceScatter_Sum_bf16_RING_LL(x)", null));
        assertEquals("reduce", CollectiveKind.of(null, "ncclDevKernel_Reduce_Sum_f32_RING_LL(x)", null));
        assertEquals("all_to_all", CollectiveKind.of(null, "ncclDevKernel_AllToAllPivot_RING_SIMPLE(x)", null));
    }

    @Test
    void sendRecvKernelIsAllToAllWhenItsLaunchingOpSaysSo() {
        // dlrm-8rank-v100 / hta-sampled: ncclKernel_SendRecv under nccl:all_to_all and c10d::alltoall_base_
        assertEquals("all_to_all", CollectiveKind.of(null, LEGACY_SENDRECV, "nccl:all_to_all"));
        assertEquals("all_to_all", CollectiveKind.of(null, LEGACY_SENDRECV, "c10d::alltoall_base_"));
        assertEquals("send_recv", CollectiveKind.of(null, LEGACY_SENDRECV, "nccl:send"));
        assertEquals("send_recv", CollectiveKind.of(null, LEGACY_SENDRECV, null));
    }

    /**
     * METRICS.md §2: older NCCL runs every collective as ncclKernel_SendRecv_*; the launching op names the kind
     * (hta-sampled-2rank: SendRecv kernels under nccl:all_reduce, nccl:_all_gather_base, nccl:all_to_all). Only an op
     * that says send/recv, or names nothing, leaves it send_recv.
     */
    @Test
    void sendRecvKernelTakesTheKindOfItsLaunchingOp() {
        assertEquals("all_reduce", CollectiveKind.of(null, LEGACY_SENDRECV, "nccl:all_reduce"));
        assertEquals("all_reduce", CollectiveKind.of(null, LEGACY_SENDRECV, "c10d::allreduce_"));
        // the reader passes every linked op, blank-separated, outermost first
        assertEquals(
                "all_reduce",
                CollectiveKind.of(null, LEGACY_SENDRECV, "c10d::allreduce_ record_param_comms nccl:all_reduce "));
        assertEquals(
                "all_gather",
                CollectiveKind.of(null, LEGACY_SENDRECV, "c10d::_allgather_base_ nccl:_all_gather_base "));
        assertEquals("reduce_scatter", CollectiveKind.of(null, LEGACY_SENDRECV, "c10d::_reduce_scatter_base_"));
        assertEquals(
                "all_to_all",
                CollectiveKind.of(null, LEGACY_SENDRECV, "c10d::alltoall_base_ record_param_comms nccl:all_to_all "));
        assertEquals("broadcast", CollectiveKind.of(null, LEGACY_SENDRECV, "nccl:broadcast"));
        // record_param_comms with its Collective name arg: the arg decides
        assertEquals("all_reduce", CollectiveKind.of("allreduce", LEGACY_SENDRECV, "record_param_comms "));
        assertEquals("send_recv", CollectiveKind.of("send", LEGACY_SENDRECV, "record_param_comms "));
        // ops that say send/recv, or name nothing: send_recv
        assertEquals("send_recv", CollectiveKind.of(null, LEGACY_SENDRECV, "c10d::send nccl:send "));
        assertEquals("send_recv", CollectiveKind.of(null, LEGACY_SENDRECV, "nccl:recv"));
        assertEquals("send_recv", CollectiveKind.of(null, LEGACY_SENDRECV, "record_param_comms "));
        assertEquals("send_recv", CollectiveKind.of(null, LEGACY_SENDRECV, ""));
    }

    @Test
    void rcclGenericKernelIsOtherUnlessItsOpTellsTheKind() {
        assertEquals("other", CollectiveKind.of(null, RCCL_GENERIC, null));
        assertEquals("other", CollectiveKind.of(null, RCCL_GENERIC_MANGLED, null));
        assertEquals(
                "other", CollectiveKind.of(null, RCCL_MSCCL, null)); // MSCCL names say the op (Sum), not the collective
        assertEquals("other", CollectiveKind.of(null, RCCL_GENERIC, "record_param_comms"));
        assertEquals("all_reduce", CollectiveKind.of(null, RCCL_GENERIC, "nccl:all_reduce"));
    }

    @Test
    void annotationAndOpNamesAlone() {
        // user_annotation names seen in dlrm / hta-sampled
        assertEquals("all_reduce", CollectiveKind.of(null, null, "nccl:all_reduce"));
        assertEquals("all_gather", CollectiveKind.of(null, null, "nccl:_all_gather_base"));
        assertEquals("all_to_all", CollectiveKind.of(null, null, "nccl:all_to_all"));
        assertEquals("broadcast", CollectiveKind.of(null, null, "c10d::broadcast_"));
        assertEquals("send_recv", CollectiveKind.of(null, null, "c10d::recv_"));
        assertEquals("other", CollectiveKind.of(null, null, "c10d::gather_"));
    }

    @Test
    void xlaOpNamesAndHloCategories() {
        assertEquals("all_reduce", CollectiveKind.of(null, "all-reduce.1", null));
        assertEquals("all_gather", CollectiveKind.of(null, "all-gather-start.3", null));
        assertEquals("reduce_scatter", CollectiveKind.of(null, "reduce-scatter-done", null));
        assertEquals("all_to_all", CollectiveKind.of(null, "all-to-all.2", null));
        assertEquals("send_recv", CollectiveKind.of(null, "collective-permute-start.1", null));
        assertEquals("send_recv", CollectiveKind.of(null, "send-done.4", null));
        assertEquals("send_recv", CollectiveKind.of(null, "recv.4", null));
        assertNull(CollectiveKind.of(null, "broadcast.7", null)); // XLA broadcast is not communication

        assertEquals("all_reduce", CollectiveKind.fromHloCategory("all-reduce"));
        assertEquals("all_gather", CollectiveKind.fromHloCategory("all-gather fusion"));
        assertEquals("send_recv", CollectiveKind.fromHloCategory("collective-permute-done"));
        assertNull(CollectiveKind.fromHloCategory("broadcast"));
        assertNull(CollectiveKind.fromHloCategory("loop fusion"));
        assertNull(CollectiveKind.fromHloCategory(null));
    }

    @Test
    void deepEpKernelsAreAllToAll() {
        assertEquals("all_to_all", CollectiveKind.of(null, "void dpsk::ep::internode::dispatch<true>(int*)", null));
        assertEquals("all_to_all", CollectiveKind.of(null, "void deep_ep::intranode::combine<float>(void*)", null));
    }

    @Test
    void computeKernelsAreNotCollectivesEvenUnderACollectiveOp() {
        assertNull(CollectiveKind.of(null, VOLTA_SGEMM, null));
        assertNull(CollectiveKind.of(null, ROCM_SUM_REDUCE, null)); // reduce_kernel is not a Reduce collective
        // a copy kernel launched inside c10d::allreduce_ is still not a collective
        assertNull(CollectiveKind.of(null, DLRM_FILL, "c10d::allreduce_"));
        assertNull(CollectiveKind.of(null, null, "aten::broadcast_tensors"));
        assertNull(CollectiveKind.of(null, null, null));
    }
}
