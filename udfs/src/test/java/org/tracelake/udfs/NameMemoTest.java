package org.tracelake.udfs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class NameMemoTest {

    @Test
    void eachDistinctNameIsMatchedOnceAndNullResultsAreRemembered() {
        AtomicInteger calls = new AtomicInteger();
        NameMemo<String> memo = new NameMemo<>(n -> {
            calls.incrementAndGet();
            return n != null && n.startsWith("execute_context_") ? "vllm" : null;
        });
        assertEquals("vllm", memo.apply("execute_context_0"));
        assertEquals("vllm", memo.apply("execute_context_0"));
        assertNull(memo.apply("ampere_sgemm_128x64_nn"));
        assertNull(memo.apply("ampere_sgemm_128x64_nn"));
        assertEquals(2, calls.get());
        assertNull(memo.apply(null), "null names go to the rule itself");
        assertEquals(3, calls.get());
    }

    @Test
    void staysBoundedOnUniqueNamesAndKeepsAnsweringRight() {
        NameMemo<Boolean> memo = new NameMemo<>(n -> n.endsWith("7"));
        for (int i = 0; i < NameMemo.MAX_NAMES * 3; i++) {
            assertEquals(i % 10 == 7, memo.apply("kernel_" + i));
        }
    }

    @Test
    void theRulesGiveTheSameAnswersTwice() {
        for (int round = 0; round < 2; round++) {
            assertEquals(true, KernelNameRules.isCopyKernel("Memcpy HtoD (Pinned -> Device)"));
            assertEquals(false, KernelNameRules.isCopyKernel("ampere_sgemm_128x64_nn"));
            assertEquals(true, KernelNameRules.isMoeKernel("fused_moe_kernel"));
            assertEquals("sglang", StepNames.inferenceStepKind("scheduler: run_batch"));
            assertNull(StepNames.inferenceStepKind("ProfilerStep#3"));
        }
    }
}
