package org.tracelake.udfs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.tracelake.udfs.RealKernelNames.*;

import org.junit.jupiter.api.Test;

class DtypeSizeTest {

    private static void assertBytes(Integer expected, String... names) {
        for (String n : names) {
            assertEquals(expected, DtypeSize.bytes(n), n);
        }
    }

    @Test
    void c10ScalarTypeNames() {
        assertBytes(4, "Float", "Float32", "Int", "Int32");
        assertBytes(8, "Double", "Float64", "Long", "Int64");
        assertBytes(2, "Half", "Float16", "BFloat16", "Short", "Int16");
        assertBytes(1, "Byte", "Char", "Int8", "UInt8", "Bool", "Float8_e4m3fn", "Float8_e5m2", "Float8_e4m3fnuz");
        assertBytes(8, "ComplexFloat");
        assertBytes(16, "ComplexDouble");
    }

    @Test
    void inputTypeSpellingsFromRealTraces() {
        // Input type values seen in dlrm-8rank-v100 and hta-sampled-2rank: float, int, long int, long,
        // signed char, unsigned char; c10::Half / c10::BFloat16 in newer nccl:* annotations
        assertBytes(4, "float", "int");
        assertBytes(8, "long int", "long", "double", "int64_t");
        assertBytes(1, "signed char", "unsigned char", "int8_t", "uint8_t", "bool", "c10::Float8_e4m3fn");
        assertBytes(2, "c10::Half", "c10::BFloat16", "half");
    }

    @Test
    void xlaElementTypes() {
        assertBytes(4, "f32", "s32", "u32");
        assertBytes(2, "bf16", "f16");
        assertBytes(8, "f64", "s64");
        assertBytes(1, "s8", "u8", "pred", "f8e4m3fn");
    }

    @Test
    void unknownOrNonTensorTypesAreNull() {
        assertBytes(null, "TensorList", "Scalar", "", "  ", "float128", "GenericList");
        assertNull(DtypeSize.bytes(null));
    }

    @Test
    void dtypeFromNcclKernelNames() {
        assertEquals("Half", DtypeSize.fromKernelName(DEV_ALLREDUCE_F16)); // _f16_
        assertEquals(
                "Float", DtypeSize.fromKernelName(LEGACY_ALLREDUCE_FLOAT)); // _float, not the "unsigned long" param
        assertEquals("Int8", DtypeSize.fromKernelName(LEGACY_SENDRECV)); // ends in int8_t
        assertEquals("Int8", DtypeSize.fromKernelName(LEGACY_BROADCAST));
        assertEquals("BFloat16", DtypeSize.fromKernelName("ncclDevKernel_ReduceScatter_Sum_bf16_RING_LL(x)"));
        assertEquals("Float", DtypeSize.fromKernelName("ncclDevKernel_AllReduce_Sum_f32_RING_LL"));
        assertEquals("Double", DtypeSize.fromKernelName("ncclDevKernel_AllReduce_Sum_f64_TREE_LL"));
        assertEquals(
                "BFloat16", DtypeSize.fromKernelName("ncclKernel_AllReduce_RING_LL_Sum___nv_bfloat16(ncclDevComm*)"));
        assertEquals("Half", DtypeSize.fromKernelName("ncclKernel_AllReduce_RING_LL_Sum_half(ncclDevComm*)"));
        assertEquals("Byte", DtypeSize.fromKernelName("ncclKernel_AllReduce_RING_LL_Sum_uint8_t(ncclDevComm*)"));
        assertEquals("Int", DtypeSize.fromKernelName("ncclKernel_AllReduce_RING_LL_Sum_int32_t(ncclDevComm*)"));
        assertEquals("Long", DtypeSize.fromKernelName("ncclKernel_AllReduce_RING_LL_Sum_int64_t(ncclDevComm*)"));
        assertEquals("Double", DtypeSize.fromKernelName("ncclKernel_AllReduce_RING_LL_Sum_double(ncclDevComm*)"));
        // RCCL's MSCCL kernels in rocprofv3/aorta-mi350 kernel_symbols
        assertEquals(
                "BFloat16",
                DtypeSize.fromKernelName(
                        "mscclKernel_Sum_hip_bfloat16_LL_false(ncclDevComm*, mscclAlgo*, mscclWork*)"));
        assertEquals(
                "UInt64",
                DtypeSize.fromKernelName("mscclKernel_Sum_uint64_t_LL128_false(ncclDevComm*, mscclAlgo*, mscclWork*)"));
        assertEquals(
                1,
                DtypeSize.bytes(DtypeSize.fromKernelName(
                        "mscclKernel_Sum_rccl_float8_LL_false(ncclDevComm*, mscclAlgo*, mscclWork*)")));
        assertEquals(
                1,
                DtypeSize.bytes(DtypeSize.fromKernelName(
                        "mscclKernel_MinMax_rccl_bfloat8_Simple_false(ncclDevComm*, mscclAlgo*, mscclWork*)")));
    }

    @Test
    void kernelNamesWithoutATypeGiveNull() {
        assertNull(DtypeSize.fromKernelName(DEV_ALLGATHER));
        assertNull(DtypeSize.fromKernelName(RCCL_GENERIC));
        assertNull(DtypeSize.fromKernelName(RCCL_GENERIC_MANGLED));
        // a template argument "<float>" is not an NCCL type token
        assertNull(DtypeSize.fromKernelName(DLRM_FILL));
        assertNull(DtypeSize.fromKernelName(null));
    }
}
