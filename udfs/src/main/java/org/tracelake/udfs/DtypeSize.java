package org.tracelake.udfs;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Element sizes for message-size arithmetic. Traces name one type many ways: c10 ScalarType names in
 * collective args ("BFloat16"), C/Python names in {@code Input type} ("long int", "c10::Half",
 * "unsigned char"), XLA element types ("bf16", "pred") and type tokens inside NCCL kernel names.
 * All of them are folded to lower case and looked up in one table; the spellings never collide
 * (c10 "Long" and C "long" are both 8 bytes on the LP64 systems GPUs run on).
 */
public final class DtypeSize {

    private static final Map<String, Integer> BYTES = new HashMap<>();

    static {
        sizes(
                1,
                "byte",
                "char",
                "int8",
                "uint8",
                "bool",
                "signed char",
                "unsigned char",
                "int8_t",
                "uint8_t",
                "s8",
                "u8",
                "pred",
                "qint8",
                "quint8",
                "quint4x2",
                "quint2x4",
                "float4_e2m1fn_x2");
        sizes(
                2,
                "half",
                "float16",
                "bfloat16",
                "short",
                "int16",
                "uint16",
                "short int",
                "unsigned short",
                "int16_t",
                "uint16_t",
                "__half",
                "__nv_bfloat16",
                "f16",
                "bf16",
                "s16",
                "u16");
        sizes(
                4,
                "float",
                "float32",
                "int",
                "int32",
                "uint32",
                "unsigned int",
                "int32_t",
                "uint32_t",
                "f32",
                "s32",
                "u32",
                "qint32",
                "complexhalf");
        sizes(
                8,
                "double",
                "float64",
                "long",
                "int64",
                "uint64",
                "long int",
                "long long",
                "long long int",
                "unsigned long",
                "unsigned long int",
                "int64_t",
                "uint64_t",
                "f64",
                "s64",
                "u64",
                "complexfloat",
                "c64");
        sizes(16, "complexdouble", "c128");
    }

    /** Every 8-bit float format: c10 Float8_e4m3fn, Float8_e5m2fnuz, Float8_e8m0fnu; XLA f8e4m3fn, … */
    private static final Pattern FLOAT8 = Pattern.compile("^(?:float8_|f8e)[0-9a-z_]*$");

    /** Namespaces that prefix a type name without changing it. */
    private static final Pattern NAMESPACE = Pattern.compile("^(?:c10::|at::|torch\\.|std::)");

    private static final Pattern SPACES = Pattern.compile("\\s+");

    /**
     * A type token inside an NCCL kernel name. New NCCL puts it mid-name
     * ({@code ncclDevKernel_AllReduce_Sum_f16_RING_LL}), old NCCL last ({@code …_Sum_int8_t}); either way
     * it is a whole {@code _}-separated token of the name before its parameter list. RCCL's MSCCL kernels
     * use the same tokens plus {@code hip_bfloat16}, {@code rccl_float8}, {@code rccl_bfloat8} (mapped to
     * the OCP fp8 names; only their 1-byte size matters here). Legacy kernels for broadcast and send/recv
     * always say int8_t because NCCL moves them as bytes.
     */
    private static final Pattern KERNEL_TYPE_TOKEN = Pattern.compile(
            "(?:^|_)(bf16|f16|f32|f64|f8e4m3|f8e5m2|i8|u8|i32|u32|i64|u64|__nv_bfloat16|bfloat16|half|float"
                    + "|double|uint8_t|int8_t|uint32_t|int32_t|uint64_t|int64_t|int|float8|bfloat8)(?=_|$)");

    private static final Map<String, String> KERNEL_TYPE_TO_DTYPE = Map.ofEntries(
            Map.entry("f16", "Half"),
            Map.entry("half", "Half"),
            Map.entry("bf16", "BFloat16"),
            Map.entry("bfloat16", "BFloat16"),
            Map.entry("__nv_bfloat16", "BFloat16"),
            Map.entry("f32", "Float"),
            Map.entry("float", "Float"),
            Map.entry("f64", "Double"),
            Map.entry("double", "Double"),
            Map.entry("f8e4m3", "Float8_e4m3fn"),
            Map.entry("f8e5m2", "Float8_e5m2"),
            Map.entry("float8", "Float8_e4m3fn"),
            Map.entry("bfloat8", "Float8_e5m2"),
            Map.entry("i8", "Int8"),
            Map.entry("int8_t", "Int8"),
            Map.entry("u8", "Byte"),
            Map.entry("uint8_t", "Byte"),
            Map.entry("i32", "Int"),
            Map.entry("int32_t", "Int"),
            Map.entry("int", "Int"),
            Map.entry("u32", "UInt32"),
            Map.entry("uint32_t", "UInt32"),
            Map.entry("i64", "Long"),
            Map.entry("int64_t", "Long"),
            Map.entry("u64", "UInt64"),
            Map.entry("uint64_t", "UInt64"));

    private DtypeSize() {}

    /** Bytes per element, or null for an unknown or non-tensor type ("Scalar", "TensorList", ""). */
    public static Integer bytes(String dtype) {
        return BYTES_BY_NAME.apply(dtype);
    }

    /** Asked for every communication event a reader meets (a few dtype names in all): each name matched once. */
    private static final NameMemo<Integer> BYTES_BY_NAME = new NameMemo<>(DtypeSize::matchBytes);

    private static Integer matchBytes(String dtype) {
        if (dtype == null) {
            return null;
        }
        String key = SPACES.matcher(dtype.trim()).replaceAll(" ").toLowerCase(Locale.ROOT);
        key = NAMESPACE.matcher(key).replaceFirst("");
        Integer size = BYTES.get(key);
        if (size == null && FLOAT8.matcher(key).matches()) {
            size = 1;
        }
        return size;
    }

    /** The c10 dtype an NCCL kernel name encodes, or null when it names none (e.g. ncclDevKernel_AllGather_RING_LL). */
    public static String fromKernelName(String kernelName) {
        if (kernelName == null) {
            return null;
        }
        int paren = kernelName.indexOf('(');
        String head = paren >= 0 ? kernelName.substring(0, paren) : kernelName;
        Matcher m = KERNEL_TYPE_TOKEN.matcher(head.trim());
        return m.find() ? KERNEL_TYPE_TO_DTYPE.get(m.group(1)) : null;
    }

    private static void sizes(int bytes, String... names) {
        for (String n : names) {
            BYTES.put(n, bytes);
        }
    }
}
