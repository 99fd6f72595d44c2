package org.tracelake.udfs;

import java.util.List;

/**
 * Message sizes of collectives (METRICS.md section 2, "message size"): element counts times element
 * size, one side inferred from the other when only one is known, and the element count recovered from a
 * CPU op's {@code Input Dims} in traces that predate the {@code In msg nelems} args.
 */
public final class MessageBytes {

    /** Values of the {@code bytes_source} column: where a collective's size came from. */
    public static final String KERNEL_ARGS = "kernel_args";

    public static final String CPU_OP_ARGS = "cpu_op_args";
    public static final String INPUT_DIMS = "input_dims";
    public static final String ET = "et";
    /** XLA ops: {@code raw_bytes_accessed}, else {@code bytes_accessed}, from the profiler's op stats. */
    public static final String XLA_ARGS = "xla_args";

    private MessageBytes() {}

    /** {@code nelems × size(dtype)}; null if either is unknown, nelems is negative, or it overflows. */
    public static Long bytes(Long nelems, String dtype) {
        Integer size = DtypeSize.bytes(dtype);
        if (nelems == null || size == null || nelems < 0) {
            return null;
        }
        return multiplyOrNull(nelems, size);
    }

    /**
     * Fills the unknown side of {in, out} from the known one. all_gather: out = in × n; reduce_scatter:
     * out = in ÷ n; any other kind: out = in (and the inverses). With n unknown (null or below 1), an
     * all_gather/reduce_scatter side stays null rather than being guessed. A null kind infers nothing.
     *
     * @return a new two-element array {in, out}
     */
    public static Long[] completeSides(String kind, Long inBytes, Long outBytes, Integer groupSize) {
        Long in = inBytes;
        Long out = outBytes;
        if (kind == null || (in == null) == (out == null)) {
            return new Long[] {in, out};
        }
        Integer n = groupSize != null && groupSize >= 1 ? groupSize : null;
        boolean gather = CollectiveKind.ALL_GATHER.equals(kind);
        boolean scatter = CollectiveKind.REDUCE_SCATTER.equals(kind);
        if (in != null) {
            if (gather) {
                out = n == null ? null : multiplyOrNull(in, n);
            } else if (scatter) {
                out = n == null ? null : in / n;
            } else {
                out = in;
            }
        } else {
            if (gather) {
                in = n == null ? null : out / n;
            } else if (scatter) {
                in = n == null ? null : multiplyOrNull(out, n);
            } else {
                in = out;
            }
        }
        return new Long[] {in, out};
    }

    /**
     * The element count of the first tensor in a Kineto {@code Input Dims} arg: the product of its dims.
     * {@code [[1024, 1024], [], []]} (first input a tensor) gives 1048576; {@code [[[4,2048,4096]],[],[]]}
     * (first input a TensorList) gives the product over its first tensor. A 0-dim tensor inside a
     * TensorList ({@code [[[]]]}) counts 1 element; a bare {@code []} first input is null, because Kineto
     * writes {@code []} for scalars and for TensorLists it did not record, so it is not clearly a tensor.
     */
    public static Long productOfFirstTensorDims(String inputDimsJson) {
        List<Object> inputs = JsonIntArrays.parse(inputDimsJson);
        if (inputs == null || inputs.isEmpty() || !(inputs.get(0) instanceof List<?> first) || first.isEmpty()) {
            return null;
        }
        if (first.get(0) instanceof List<?> firstTensor) {
            return product(firstTensor); // TensorList: [[d0, d1, …], …]
        }
        return product(first); // plain tensor: [d0, d1, …]
    }

    private static Long product(List<?> dims) {
        long p = 1;
        for (Object d : dims) {
            if (!(d instanceof Long dim) || dim < 0) {
                return null;
            }
            Long next = multiplyOrNull(p, dim);
            if (next == null) {
                return null;
            }
            p = next;
        }
        return p;
    }

    private static Long multiplyOrNull(long a, long b) {
        try {
            return Math.multiplyExact(a, b);
        } catch (ArithmeticException overflow) {
            return null;
        }
    }
}
