package org.tracelake.jobs.generate.formats;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.tracelake.jobs.readers.xplane.proto.XEvent;
import org.tracelake.jobs.readers.xplane.proto.XEventMetadata;
import org.tracelake.jobs.readers.xplane.proto.XLine;
import org.tracelake.jobs.readers.xplane.proto.XPlane;
import org.tracelake.jobs.readers.xplane.proto.XSpace;
import org.tracelake.jobs.readers.xplane.proto.XStat;
import org.tracelake.jobs.readers.xplane.proto.XStatMetadata;

/**
 * An XLA profiler XSpace ({@code <host>.xplane.pb}, FORMATS.md §6) of one host with two GPUs: the
 * {@code Task Environment} plane's {@code profile_start_time} (the epoch anchor, {@link FormatSamples#START_NS}), and
 * per GPU plane one {@code Stream #17(Kernel)} line at 1,000 ns holding a fusion kernel (300 µs from offset 0) and an
 * NCCL all-reduce kernel (50 µs from offset 400 µs).
 */
final class XSpaceSample {
    static final String FILE = "host0.xplane.pb";

    private XSpaceSample() {}

    static void write(Path dir) throws IOException {
        XSpace.Builder space = XSpace.newBuilder().addHostnames("host0");
        XPlane.Builder env = XPlane.newBuilder()
                .setId(0)
                .setName("Task Environment")
                .putStatMetadata(
                        1,
                        XStatMetadata.newBuilder()
                                .setId(1)
                                .setName("profile_start_time")
                                .build())
                .putStatMetadata(
                        2,
                        XStatMetadata.newBuilder()
                                .setId(2)
                                .setName("profile_stop_time")
                                .build())
                .addStats(XStat.newBuilder().setMetadataId(1).setUint64Value(FormatSamples.START_NS))
                .addStats(XStat.newBuilder().setMetadataId(2).setUint64Value(FormatSamples.START_NS + 1_000_000_000L));
        space.addPlanes(env);
        for (int d = 0; d < 2; d++) {
            XPlane.Builder gpu = XPlane.newBuilder()
                    .setId(d + 1)
                    .setName("/device:GPU:" + d)
                    .putEventMetadata(
                            1,
                            XEventMetadata.newBuilder()
                                    .setId(1)
                                    .setName("loop_multiply_fusion")
                                    .build())
                    .putEventMetadata(
                            2,
                            XEventMetadata.newBuilder()
                                    .setId(2)
                                    .setName("ncclDevKernel_AllReduce_Sum_f32_RING_LL")
                                    .build());
            gpu.addLines(XLine.newBuilder()
                    .setId(1)
                    .setDisplayId(1)
                    .setName("Stream #17(Kernel)")
                    .setTimestampNs(1_000)
                    .addEvents(
                            XEvent.newBuilder().setMetadataId(1).setOffsetPs(0).setDurationPs(300_000_000L))
                    .addEvents(XEvent.newBuilder()
                            .setMetadataId(2)
                            .setOffsetPs(400_000_000L)
                            .setDurationPs(50_000_000L)));
            space.addPlanes(gpu);
        }
        Files.write(dir.resolve(FILE), space.build().toByteArray());
    }
}
