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
        // case-sensitive: "MEMCPY" is not in the list
        assertFalse(KernelNameRules.isCopyKernel("MEMCPY"));
        assertFalse(KernelNameRules.isCopyKernel(null));
    }

    @Test
    void moeKernelsCaseInsensitive() {
        assertTrue(KernelNameRules.isMoeKernel("fused_moe_kernel"));
        assertTrue(KernelNameRules.isMoeKernel("void vllm::moe::topkGatingSoftmax<8>(...)"));
        assertTrue(KernelNameRules.isMoeKernel("dpsk::ep::internode::DispatchKernel"));
        assertFalse(KernelNameRules.isMoeKernel("volta_sgemm_128x64_nn"));
    }
}
