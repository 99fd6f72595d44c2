package org.tracelake.udfs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.tracelake.udfs.CommOpNames.Form;

class CommOpNamesTest {

    @Test
    void theListOfMetrics2() {
        // names as the real traces spell them (dlrm-8rank-v100, hta-nccl-args-rank0of2)
        assertEquals(Form.RECORD_PARAM_COMMS, CommOpNames.form("record_param_comms"));
        assertEquals(Form.C10D, CommOpNames.form("c10d::allreduce_"));
        assertEquals(Form.C10D, CommOpNames.form("c10d::alltoall_base_"));
        assertEquals(Form.NCCL_ANNOTATION, CommOpNames.form("nccl:all_reduce"));
        assertEquals(Form.NCCL_ANNOTATION, CommOpNames.form("nccl:_all_gather_base"));
        assertEquals(Form.SYMM_MEM, CommOpNames.form("symm_mem::one_shot_all_reduce"));
        // case and surrounding blanks do not matter
        assertEquals(Form.RECORD_PARAM_COMMS, CommOpNames.form(" Record_Param_Comms "));
        assertEquals(Form.NCCL_ANNOTATION, CommOpNames.form("NCCL:all_reduce"));
    }

    @Test
    void otherNamesAreNotCommOps() {
        assertNull(CommOpNames.form(null));
        assertFalse(CommOpNames.isCommOp("record_param_comms_extra")); // the exact name only
        assertFalse(CommOpNames.isCommOp("aten::copy_"));
        assertFalse(CommOpNames.isCommOp("ncclDevKernel_AllReduce_Sum_f32_RING_LL")); // a kernel, not an op
        assertFalse(CommOpNames.isCommOp("my_c10d::op")); // the prefix starts the name
        assertTrue(CommOpNames.isCommOp("c10d::barrier"));
    }

    @Test
    void onlyTheOpsThatRecordTheMessageAreDecodedFromExecutionTraces() {
        assertTrue(Form.RECORD_PARAM_COMMS.carriesMessage());
        assertTrue(Form.NCCL_ANNOTATION.carriesMessage());
        assertFalse(Form.C10D.carriesMessage()); // wraps a record_param_comms: decoding both counts twice
        assertFalse(Form.SYMM_MEM.carriesMessage());
    }

    @Test
    void collectiveKindReadsTheSameList() {
        // a launching op of the list names the kind when the kernel cannot (METRICS.md §2)
        assertEquals("broadcast", CollectiveKind.of(null, null, "c10d::broadcast_"));
        assertEquals("all_reduce", CollectiveKind.of(null, null, "symm_mem::one_shot_all_reduce"));
        assertEquals("other", CollectiveKind.of(null, null, "record_param_comms"));
        assertNull(CollectiveKind.of(null, null, "aten::copy_"));
    }
}
