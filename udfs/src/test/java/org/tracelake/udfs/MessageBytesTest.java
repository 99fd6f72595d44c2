package org.tracelake.udfs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

class MessageBytesTest {

    @Test
    void bytesAreNelemsTimesElementSize() {
        // hta-nccl-args AllReduce kernel: In msg nelems 6637568, dtype Float (4 B)
        assertEquals(26_550_272L, MessageBytes.bytes(6_637_568L, "Float"));
        // hta-nccl-args Broadcast kernel: 53 elements of Long (8 B)
        assertEquals(424L, MessageBytes.bytes(53L, "Long"));
        // FORMATS.md all-gather: 25136 BFloat16 elements
        assertEquals(50_272L, MessageBytes.bytes(25_136L, "BFloat16"));
        assertEquals(0L, MessageBytes.bytes(0L, "Float"));
    }

    @Test
    void unknownInputsGiveNull() {
        assertNull(MessageBytes.bytes(null, "Float"));
        assertNull(MessageBytes.bytes(10L, null));
        assertNull(MessageBytes.bytes(10L, "TensorList"));
        assertNull(MessageBytes.bytes(-1L, "Float"));
        assertNull(MessageBytes.bytes(Long.MAX_VALUE, "Double")); // overflow is unknown, not a wrapped number
    }

    @Test
    void completeSidesOfAllGatherAndReduceScatter() {
        // FORMATS.md: all-gather In 25136 x 8 ranks = Out 201088 elements; in bytes (BFloat16) 50272 -> 402176
        assertArrayEquals(new Long[] {50_272L, 402_176L}, MessageBytes.completeSides("all_gather", 50_272L, null, 8));
        assertArrayEquals(new Long[] {50_272L, 402_176L}, MessageBytes.completeSides("all_gather", null, 402_176L, 8));
        // reduce_scatter is the mirror image: out = in / n
        assertArrayEquals(
                new Long[] {402_176L, 50_272L}, MessageBytes.completeSides("reduce_scatter", 402_176L, null, 8));
        assertArrayEquals(
                new Long[] {402_176L, 50_272L}, MessageBytes.completeSides("reduce_scatter", null, 50_272L, 8));
    }

    @Test
    void completeSidesOfOtherKindsCopiesTheKnownSide() {
        assertArrayEquals(new Long[] {424L, 424L}, MessageBytes.completeSides("broadcast", 424L, null, 2));
        assertArrayEquals(new Long[] {100L, 100L}, MessageBytes.completeSides("all_reduce", null, 100L, null));
        assertArrayEquals(new Long[] {100L, 100L}, MessageBytes.completeSides("all_to_all", 100L, null, 8));
    }

    @Test
    void completeSidesLeavesWhatCannotBeKnown() {
        // group size unknown: gather/scatter stay half-known rather than guessed
        assertArrayEquals(new Long[] {100L, null}, MessageBytes.completeSides("all_gather", 100L, null, null));
        assertArrayEquals(new Long[] {null, 100L}, MessageBytes.completeSides("reduce_scatter", null, 100L, 0));
        // both known: untouched, even if inconsistent
        assertArrayEquals(new Long[] {1L, 2L}, MessageBytes.completeSides("all_reduce", 1L, 2L, 2));
        assertArrayEquals(new Long[] {null, null}, MessageBytes.completeSides("all_reduce", null, null, 2));
        // no kind: nothing inferred
        assertArrayEquals(new Long[] {5L, null}, MessageBytes.completeSides(null, 5L, null, 2));
    }

    @Test
    void productOfFirstTensorDimsFromRealInputDims() {
        // Megatron record_param_comms (FORMATS.md): TensorList whose first tensor is [4,2048,4096]
        assertEquals(33_554_432L, MessageBytes.productOfFirstTensorDims("[[[4,2048,4096]],[],[],[],[],[],[],[]]"));
        // dlrm-8rank-v100 record_param_comms of an all_to_all: plain tensor [6144]
        assertEquals(6144L, MessageBytes.productOfFirstTensorDims("[[6144], [], [], [], [], [], []]"));
        // hta-sampled nccl:_all_gather_base annotation
        assertEquals(16_777_216L, MessageBytes.productOfFirstTensorDims("[[16777216]]"));
        assertEquals(1_048_576L, MessageBytes.productOfFirstTensorDims("[[1024, 1024], [], []]"));
    }

    @Test
    void productOfFirstTensorDimsEdgeCases() {
        // dlrm-8rank-v100 record_param_comms of an all_reduce: the TensorList was not recorded
        assertNull(MessageBytes.productOfFirstTensorDims("[[], [], [], [], [], [], []]"));
        // a 0-dim tensor inside a TensorList is clearly a tensor of one element
        assertEquals(1L, MessageBytes.productOfFirstTensorDims("[[[]], []]"));
        assertEquals(0L, MessageBytes.productOfFirstTensorDims("[[0, 16]]"));
        assertNull(MessageBytes.productOfFirstTensorDims("[]"));
        assertNull(MessageBytes.productOfFirstTensorDims("[[]]"));
        assertNull(MessageBytes.productOfFirstTensorDims(""));
        assertNull(MessageBytes.productOfFirstTensorDims(null));
        assertNull(MessageBytes.productOfFirstTensorDims("[[4.5]]"));
        assertNull(MessageBytes.productOfFirstTensorDims("[[-1, 4]]"));
        assertNull(MessageBytes.productOfFirstTensorDims("[[4, 2048]"));
        assertNull(MessageBytes.productOfFirstTensorDims("[[\"4\"]]"));
        assertNull(MessageBytes.productOfFirstTensorDims(
                "[[4096, 4096, 4096, 4096, 4096, 4096]]")); // 2^72 overflows a long
        assertNull(MessageBytes.productOfFirstTensorDims("[".repeat(10_000) + "]".repeat(10_000)));
    }

    @Test
    void bytesSourceValues() {
        assertEquals("kernel_args", MessageBytes.KERNEL_ARGS);
        assertEquals("cpu_op_args", MessageBytes.CPU_OP_ARGS);
        assertEquals("input_dims", MessageBytes.INPUT_DIMS);
        assertEquals("et", MessageBytes.ET);
    }
}
