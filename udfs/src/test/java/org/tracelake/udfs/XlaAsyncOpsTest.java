package org.tracelake.udfs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** Names as the XLA profiler writes them on a TPU's "Async XLA Ops" line (FORMATS.md §6). */
class XlaAsyncOpsTest {

    @Test
    void startAndDoneHalvesShareTheirInstruction() {
        assertEquals("start", XlaAsyncOps.half("all-reduce-start.3"));
        assertEquals("done", XlaAsyncOps.half("all-reduce-done.3"));
        assertEquals("all-reduce.3", XlaAsyncOps.instruction("all-reduce-start.3"));
        assertEquals("all-reduce.3", XlaAsyncOps.instruction("all-reduce-done.3"));
        assertEquals("collective-permute", XlaAsyncOps.instruction("collective-permute-done")); // no suffix
        assertEquals("all-gather.1", XlaAsyncOps.instruction("all-gather-start.1"));
    }

    @Test
    void sendAndRecvStartWithoutASuffix() {
        assertEquals("start", XlaAsyncOps.half("send.2"));
        assertEquals("done", XlaAsyncOps.half("send-done.2"));
        assertEquals("send.2", XlaAsyncOps.instruction("send.2"));
        assertEquals("send.2", XlaAsyncOps.instruction("send-done.2"));
        assertEquals("start", XlaAsyncOps.half("recv"));
        assertEquals("recv", XlaAsyncOps.instruction("recv-done"));
    }

    @Test
    void everythingElseIsNotAHalf() {
        assertEquals("", XlaAsyncOps.half("all-reduce.5")); // synchronous
        assertEquals("all-reduce.5", XlaAsyncOps.instruction("all-reduce.5"));
        assertEquals("", XlaAsyncOps.half("ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)"));
        assertEquals("", XlaAsyncOps.half("sendrecv_kernel"));
        assertNull(XlaAsyncOps.half(null));
        assertNull(XlaAsyncOps.instruction(null));
    }
}
