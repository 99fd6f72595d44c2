package org.tracelake.udfs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class RankFromFileNameTest {

    /** For a file of several devices only "rank" names a rank; worker/host numbers name the host (DeviceRanks). */
    @Test
    void onlyRankItselfIsAnExplicitRank() {
        assertEquals(3, RankFromFileName.explicitRank("rank3_train.sqlite.gz"));
        assertEquals(1, RankFromFileName.explicitRank("sampled_rank-1.json.gz"));
        assertEquals(null, RankFromFileName.explicitRank("worker1.xplane.pb"));
        assertEquals(null, RankFromFileName.explicitRank("host_3.json"));
        assertEquals(1, RankFromFileName.rank("worker1.xplane.pb"));
    }

    @Test
    void explicitRankMarkers() {
        assertEquals(3, RankFromFileName.rank("rank3"));
        assertEquals(3, RankFromFileName.rank("rank-3"));
        assertEquals(3, RankFromFileName.rank("rank_3"));
        assertEquals(3, RankFromFileName.rank("rank_03_metrics.jsonl")); // AORTA zero-pads
        assertEquals(3, RankFromFileName.rank("rank3_trace.json"));
        assertEquals(3, RankFromFileName.rank("worker3"));
        assertEquals(
                3, RankFromFileName.rank("worker3_step_12.1694128201556.pt.trace.json.gz")); // not 12, not the epoch
        assertEquals(3, RankFromFileName.rank("kineto_trace_3.json"));
        assertEquals(3, RankFromFileName.rank("resnet_kineto_3.json"));
        assertEquals(3, RankFromFileName.rank("_3.json"));
        assertEquals(1, RankFromFileName.rank("sampled_rank-1.json.gz"));
        assertEquals(5, RankFromFileName.rank("dlrm_eg_5.json.gz"));
        assertEquals(3, RankFromFileName.rank("torch_et_3.json"));
    }

    @Test
    void directoriesAreIgnored() {
        assertEquals(2, RankFromFileName.rank("/data/run7/rank2.pt.trace.json"));
        assertEquals(2, RankFromFileName.rank("C:\\traces\\run7\\worker2_step_1.1.pt.trace.json"));
        assertNull(RankFromFileName.rank("/data/rank7/trace.json"));
    }

    @Test
    void pidsEpochsAndStepsAreNotRanks() {
        // kineto/aorta-rocm-mi350-tiny: <host>_<pid>.<epoch_ns>.pt.trace.json carries no rank
        assertNull(RankFromFileName.rank("smci350-zts-gtu-c6-25_200691.1758927066581847260.pt.trace.json.gz"));
        assertNull(RankFromFileName.rank("908_results.json.gz")); // rocprofv3: <pid>_results.json
        assertNull(RankFromFileName.rank("nccl_data.json.gz"));
        assertNull(RankFromFileName.rank("tw003.xplane.pb"));
        assertNull(RankFromFileName.rank("crank3.json")); // "rank" must not be the end of another word
        assertNull(RankFromFileName.rank("core_dump_3.txt")); // a dump's number must end the name (or .pkl/.pickle)
        assertNull(RankFromFileName.rank("rank12345678901.json")); // too long to be a rank
        assertNull(RankFromFileName.rank(""));
        assertNull(RankFromFileName.rank(null));
    }

    @Test
    void everyFileInTheSharedTraces() throws IOException {
        // The rule of jobs' SharedTraces (this module cannot see jobs' test classes): skip without the real traces,
        // fail under CI's -Dtracelake.requireSharedTraces=true.
        Path traces = Path.of(System.getProperty("tracelake.shared", "../shared"), "traces")
                .toAbsolutePath()
                .normalize();
        String missing = "real traces missing: put the project's shared traces in " + traces + " to run this test";
        if (Boolean.getBoolean("tracelake.requireSharedTraces")) assertTrue(Files.isDirectory(traces), missing);
        assumeTrue(Files.isDirectory(traces), missing);
        Map<String, Integer> expected = new TreeMap<>();
        for (int r = 0; r < 8; r++) {
            expected.put("dlrm_eg_" + r + ".json.gz", r);
        }
        List.of(
                        "worker0_step_12.1694128201545.pt.trace.json.gz",
                                "worker1_step_12.1694128201556.pt.trace.json.gz",
                        "worker2_step_12.1694128201554.pt.trace.json.gz",
                                "worker3_step_12.1694128201557.pt.trace.json.gz",
                        "worker4_step_12.1694128201547.pt.trace.json.gz",
                                "worker5_step_12.1694128201549.pt.trace.json.gz",
                        "worker6_step_12.1694128201553.pt.trace.json.gz",
                                "worker7_step_12.1694128201553.pt.trace.json.gz")
                .forEach(n -> expected.put(n, n.charAt("worker".length()) - '0'));
        expected.put("sampled_rank-0.json.gz", 0);
        expected.put("sampled_rank-1.json.gz", 1);
        // flight-recorder/nvrx-*: NVRx's NCCL Flight Recorder dumps, _dump_<rank> (FORMATS.md §9)
        for (int r = 0; r < 16; r++) expected.put("_dump_" + r, r);
        try (Stream<Path> files = Files.walk(traces)) {
            files.filter(Files::isRegularFile).forEach(f -> {
                String name = f.getFileName().toString();
                // every other shared file (aorta, nccl_data, rocprofv3, nsys, xplane, snapshots) has no rank
                assertEquals(expected.get(name), RankFromFileName.rank(name), name);
            });
        }
    }
}
