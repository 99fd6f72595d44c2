package org.tracelake.jobs.generate;

/** Which generation of PyTorch profiler output to imitate (FORMATS.md §1). */
public enum TraceStyle {
    /**
     * PyTorch ≥ 2.3 on H100, FSDP: collective args on kernels and record_param_comms (Collective name, msg
     * nelems, dtype, Group size, Process Group *, Seq), baseTimeNanoseconds after traceEvents, relative µs times
     * with nanosecond digits, pg_config in distributedInfo.
     */
    MODERN,
    /**
     * PyTorch ~2.0 on V100, DDP: no collective args; sizes only as Input Dims on record_param_comms / nccl:*;
     * absolute epoch µs integer times; distributedInfo with rank and world_size only.
     */
    LEGACY
}
