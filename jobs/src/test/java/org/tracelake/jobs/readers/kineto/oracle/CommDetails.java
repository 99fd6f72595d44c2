package org.tracelake.jobs.readers.kineto.oracle;

import java.util.List;
import java.util.Map;
import org.tracelake.jobs.readers.et.EtSizes;
import org.tracelake.udfs.DtypeSize;
import org.tracelake.udfs.MessageBytes;
import org.tracelake.udfs.Numbers;

/**
 * The collective a communication event belongs to, and its message: METRICS.md §2 "collective kind" and
 * "message size", with the fallbacks in their order — the kernel's own args, the CPU op with its External id,
 * then (older traces) the innermost comm op enclosing the launching runtime call on the same thread.
 */
final class CommDetails {
    String kind;
    Long inNelems;
    Long outNelems;
    String dtype;
    Long inBytes;
    Long outBytes;
    String bytesSource;
    Integer groupSize;
    String pgName;
    String pgRanks;
    Long seq;

    static final String COLLECTIVE_NAME = "Collective name";
    static final String IN_NELEMS = "In msg nelems";
    static final String OUT_NELEMS = "Out msg nelems";
    static final String DTYPE = "dtype";
    static final String GROUP_SIZE = "Group size";
    static final String PG_NAME = "Process Group Name";
    static final String PG_RANKS = "Process Group Ranks";
    static final String SEQ = "Seq";
    static final String INPUT_DIMS = "Input Dims";
    static final String INPUT_TYPE = "Input type";
    static final String CONCRETE_INPUTS = "Concrete Inputs";
    static final String RECORD_FUNCTION_ID = EtSizes.RF_ID_ARG;

    /** Args that have their own columns on a communication row; they are not repeated in its args map. */
    static final List<String> COMM_ARGS =
            List.of(COLLECTIVE_NAME, IN_NELEMS, OUT_NELEMS, DTYPE, GROUP_SIZE, PG_NAME, PG_RANKS, SEQ);

    /** Every arg this class reads from a CPU comm op: all that KinetoIndex keeps of one. */
    static final List<String> OP_ARGS = List.of(
            COLLECTIVE_NAME,
            IN_NELEMS,
            OUT_NELEMS,
            DTYPE,
            GROUP_SIZE,
            PG_NAME,
            PG_RANKS,
            SEQ,
            INPUT_DIMS,
            INPUT_TYPE,
            CONCRETE_INPUTS,
            RECORD_FUNCTION_ID);

    /** A GPU communication activity: its own args first, then the CPU ops it links to. */
    static CommDetails forKernel(
            String kernelName, Map<String, String> kernelArgs, List<CommOp> linkedOps, KinetoIndex index) {
        CommDetails d = new CommDetails();
        String collectiveName = kernelArgs.get(COLLECTIVE_NAME);
        StringBuilder opNames = new StringBuilder();
        for (CommOp op : linkedOps) {
            if (collectiveName == null) collectiveName = op.args().get(COLLECTIVE_NAME);
            opNames.append(op.name()).append(' ');
        }
        d.kind = index.collectiveKind(collectiveName, kernelName, opNames.toString());

        if (d.takeNamedSizes(kernelArgs)) {
            d.bytesSource = MessageBytes.KERNEL_ARGS;
        } else {
            for (CommOp op : linkedOps) {
                if (d.takeNamedSizes(op.args())) {
                    d.bytesSource = MessageBytes.CPU_OP_ARGS;
                    break;
                }
                if (d.takeInputDims(op.args(), kernelName)) {
                    d.bytesSource = MessageBytes.INPUT_DIMS;
                    break;
                }
            }
        }
        d.takeGroup(kernelArgs);
        for (CommOp op : linkedOps) {
            d.takeGroup(op.args());
            if (d.seq == null && "record_param_comms".equals(op.name())) d.seq = concreteInputSeq(op.args());
        }
        d.fillFromProcessGroups(index);
        d.completeBytes();
        return d;
    }

    /** A CPU op that describes a collective itself (record_param_comms with named args, nccl:* annotations). */
    static CommDetails forCpuOp(String opName, Map<String, String> args, KinetoIndex index) {
        CommDetails d = new CommDetails();
        d.kind = index.collectiveKind(args.get(COLLECTIVE_NAME), opName, opName);
        if (d.takeNamedSizes(args)) d.bytesSource = MessageBytes.CPU_OP_ARGS;
        d.takeGroup(args);
        if (d.seq == null && "record_param_comms".equals(opName)) d.seq = concreteInputSeq(args);
        d.fillFromProcessGroups(index);
        d.completeBytes();
        return d;
    }

    /**
     * A kernel that got no size from Kineto takes the one of the execution-trace node its CPU op's
     * {@code Record function id} names; what the kernel already knew of its collective and group stays.
     */
    void takeEtNode(EtSizes.Node node) {
        if (kind == null) kind = node.collective();
        inNelems = node.inNelems();
        outNelems = node.outNelems();
        dtype = node.dtype();
        inBytes = node.inBytes();
        outBytes = node.outBytes();
        bytesSource = MessageBytes.ET;
        if (groupSize == null) groupSize = node.groupSize();
        if (pgName == null) pgName = node.pgName();
        if (seq == null) seq = node.seq();
    }

    private boolean takeNamedSizes(Map<String, String> args) {
        Long in = Numbers.wholeNumber(args.get(IN_NELEMS));
        Long out = Numbers.wholeNumber(args.get(OUT_NELEMS));
        if (in == null && out == null) return false;
        inNelems = in;
        outNelems = out;
        dtype = args.get(DTYPE);
        return true;
    }

    private boolean takeInputDims(Map<String, String> args, String kernelName) {
        Long nelems = MessageBytes.productOfFirstTensorDims(args.get(INPUT_DIMS));
        if (nelems == null) return false;
        inNelems = nelems;
        String type = firstString(args.get(INPUT_TYPE));
        dtype = DtypeSize.bytes(type) != null ? type : DtypeSize.fromKernelName(kernelName);
        return true;
    }

    private void takeGroup(Map<String, String> args) {
        if (groupSize == null) {
            Long n = Numbers.wholeNumber(args.get(GROUP_SIZE));
            if (n != null) groupSize = n.intValue();
        }
        if (pgName == null) pgName = args.get(PG_NAME);
        if (pgRanks == null) pgRanks = TruncatedRanks.expand(args.get(PG_RANKS), groupSize);
        if (seq == null) seq = Numbers.wholeNumber(args.get(SEQ));
    }

    /** Group size: the event's arg, else its process group in pg_config, else the world size (§2 bus bandwidth). */
    private void fillFromProcessGroups(KinetoIndex index) {
        KinetoIndex.ProcessGroup pg = pgName == null ? null : index.processGroups.get(pgName);
        if (pg != null) {
            if (groupSize == null) groupSize = pg.size();
            if (pgRanks == null) pgRanks = pg.ranks();
        }
        if (groupSize == null) groupSize = index.worldSize;
    }

    private void completeBytes() {
        if (inNelems != null || outNelems != null) {
            Long[] nelems = MessageBytes.completeSides(kind, inNelems, outNelems, groupSize);
            inNelems = nelems[0];
            outNelems = nelems[1];
        }
        inBytes = MessageBytes.bytes(inNelems, dtype);
        outBytes = MessageBytes.bytes(outNelems, dtype);
        if (inBytes == null && outBytes == null) bytesSource = null;
    }

    /** Older traces keep the per-group sequence number as the second of record_param_comms' Concrete Inputs. */
    private static Long concreteInputSeq(Map<String, String> args) {
        String concrete = args.get(CONCRETE_INPUTS);
        if (concrete == null) return null;
        List<String> values = JsonStrings.elements(concrete);
        return values.size() > 1 ? Numbers.wholeNumber(values.get(1)) : null;
    }

    private static String firstString(String jsonArray) {
        List<String> values = JsonStrings.elements(jsonArray);
        return values.isEmpty() ? null : values.get(0);
    }
}
