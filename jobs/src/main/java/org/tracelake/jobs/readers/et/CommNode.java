package org.tracelake.jobs.readers.et;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import org.tracelake.jobs.readers.common.JsonNumbers;
import org.tracelake.udfs.CollectiveKind;
import org.tracelake.udfs.CommOpNames;
import org.tracelake.udfs.DtypeSize;
import org.tracelake.udfs.MessageBytes;

/**
 * The collective an execution-trace node records (FORMATS.md §7), decoded from that node alone:
 * <ul>
 *   <li>{@code record_param_comms} (1.0.x): inputs {@code [tensor(s), comm seq, pg, rank, coll_name, in_split,
 *       out_split, (global_start, stride,) world_size]} — older builds stop after out_split; {@code pg} is a pointer
 *       (not comparable across ranks) in 1.0.x and {@code ["0","default_pg"]} in 1.1.x. A {@code wait} record is
 *       not a collective.</li>
 *   <li>{@code nccl:*} annotations: the collective from the name, sizes from their one tensor.</li>
 *   <li>chakra nodes: the {@code attrs} collective_name, dtype, in/out_msg_nelems, split sizes, pg_name, pg_size.</li>
 * </ul>
 * Sizes are those of the first input tensor and the first output tensor: {@code numel × itemsize} as the tensor
 * value {@code [id, storage, offset, numel, itemsize, device]} records; the missing side follows
 * MessageBytes.completeSides.
 */
final class CommNode {
    boolean isComm;
    String kind;
    String collectiveName;
    Long inNelems;
    Long outNelems;
    String dtype;
    Long inBytes;
    Long outBytes;
    String inSplits;
    String outSplits;
    Integer groupSize;
    String pgName;
    Long seq;

    static CommNode decode(
            String name, JsonNode inputs, JsonNode inputTypes, JsonNode outputs, Map<String, JsonNode> attrs) {
        CommNode c = new CommNode();
        if (name == null) return c;
        CommOpNames.Form form = CommOpNames.form(name);
        if (form == null || !form.carriesMessage()) return c;
        boolean rpc = form == CommOpNames.Form.RECORD_PARAM_COMMS;
        boolean nccl = form == CommOpNames.Form.NCCL_ANNOTATION;

        String collName = text(attrs.get("collective_name"));
        if (rpc && collName == null && inputs != null && inputs.isArray()) {
            // The name is the first string among the positional inputs (position 4, or 3 in wait records).
            for (int i = 0; i < Math.min(inputs.size(), 6) && collName == null; i++) {
                if (inputs.get(i).isTextual()) collName = inputs.get(i).textValue();
            }
        }
        if (rpc && (collName == null || collName.isBlank() || collName.equalsIgnoreCase("wait"))) return c;
        c.isComm = true;
        c.collectiveName = nccl && collName == null ? name.substring(name.indexOf(':') + 1) : collName;
        c.kind = CollectiveKind.of(c.collectiveName, name, name);
        if (c.kind == null) c.kind = CollectiveKind.OTHER;

        JsonNode inTensor = firstTensor(inputs);
        JsonNode outTensor = firstTensor(outputs);
        Long inItem = null;
        if (inTensor != null) {
            c.inNelems = JsonNumbers.whole(inTensor.get(3));
            inItem = JsonNumbers.whole(inTensor.get(4));
        }
        Long outItem = null;
        if (outTensor != null) {
            c.outNelems = JsonNumbers.whole(outTensor.get(3));
            outItem = JsonNumbers.whole(outTensor.get(4));
        }
        c.dtype = dtypeOf(inputTypes);
        if (c.inNelems == null) c.inNelems = JsonNumbers.whole(attrs.get("in_msg_nelems"));
        if (c.outNelems == null) c.outNelems = JsonNumbers.whole(attrs.get("out_msg_nelems"));
        if (text(attrs.get("dtype")) != null) c.dtype = text(attrs.get("dtype"));

        if (rpc && inputs != null && inputs.isArray()) {
            int n = inputs.size();
            if (n > 1) c.seq = JsonNumbers.whole(inputs.get(1));
            if (n > 2) c.pgName = pgName(inputs.get(2));
            if (n > 6) {
                c.inSplits = splits(inputs.get(5));
                c.outSplits = splits(inputs.get(6));
            }
            if (n == 8 || n == 10) c.groupSize = JsonNumbers.wholeInt(inputs.get(n - 1));
        }
        if (c.inSplits == null) c.inSplits = splits(attrs.get("in_split_size"));
        if (c.outSplits == null) c.outSplits = splits(attrs.get("out_split_size"));
        if (c.pgName == null) c.pgName = text(attrs.get("pg_name"));
        if (c.groupSize == null) c.groupSize = JsonNumbers.wholeInt(attrs.get("pg_size"));
        if (c.groupSize == null && c.inSplits != null) {
            // all_to_allv: one split per rank of the group, so their count is the group size.
            JsonNode split = rpc && inputs != null && inputs.size() > 5 ? inputs.get(5) : attrs.get("in_split_size");
            if (split != null && split.isArray() && split.size() > 0) c.groupSize = split.size();
        }

        Long[] nelems = MessageBytes.completeSides(c.kind, c.inNelems, c.outNelems, c.groupSize);
        c.inNelems = nelems[0];
        c.outNelems = nelems[1];
        Integer dtypeSize = DtypeSize.bytes(c.dtype);
        Long inSize = inItem != null ? inItem : dtypeSize == null ? null : dtypeSize.longValue();
        Long outSize = outItem != null ? outItem : inSize;
        c.inBytes = times(c.inNelems, inSize);
        c.outBytes = times(c.outNelems, outSize);
        return c;
    }

    /** The first tensor value: {@code [id, storage, offset, numel, itemsize, device]}, or the first of a list of them. */
    private static JsonNode firstTensor(JsonNode values) {
        if (values == null || !values.isArray() || values.isEmpty()) return null;
        JsonNode first = values.get(0);
        if (first.isArray() && !first.isEmpty() && first.get(0).isArray()) first = first.get(0);
        if (first.isArray()
                && first.size() >= 5
                && first.get(3).isIntegralNumber()
                && first.get(4).isIntegralNumber()) {
            return first;
        }
        return null;
    }

    /** "Tensor(float)" → "float", "GenericList[Tensor(c10::Half)]" → "c10::Half". */
    private static String dtypeOf(JsonNode types) {
        if (types == null
                || !types.isArray()
                || types.isEmpty()
                || !types.get(0).isTextual()) return null;
        String t = types.get(0).textValue();
        int open = t.indexOf("Tensor(");
        if (open < 0) return null;
        int close = t.indexOf(')', open);
        return close < 0 ? null : t.substring(open + 7, close);
    }

    private static String pgName(JsonNode v) {
        if (v == null) return null;
        if (v.isTextual()) return v.textValue();
        if (v.isArray() && !v.isEmpty() && v.get(0).isTextual()) return v.get(0).textValue(); // ["0", "default_pg"]
        return null; // 1.0.x: a pointer, meaningless on another rank
    }

    private static String splits(JsonNode v) {
        if (v == null || v.isNull()) return null;
        if (v.isTextual()) return v.textValue();
        return v.isArray() ? v.toString() : null;
    }

    static String text(JsonNode v) {
        return v == null || v.isNull() ? null : v.isTextual() ? v.textValue() : v.toString();
    }

    private static Long times(Long n, Long size) {
        if (n == null || size == null || n < 0 || size <= 0) return null;
        try {
            return Math.multiplyExact(n, size);
        } catch (ArithmeticException e) {
            return null;
        }
    }
}
