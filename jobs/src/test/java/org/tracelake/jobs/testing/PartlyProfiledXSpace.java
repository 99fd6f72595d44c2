package org.tracelake.jobs.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.tracelake.jobs.readers.xplane.proto.XEvent;
import org.tracelake.jobs.readers.xplane.proto.XEventMetadata;
import org.tracelake.jobs.readers.xplane.proto.XLine;
import org.tracelake.jobs.readers.xplane.proto.XPlane;
import org.tracelake.jobs.readers.xplane.proto.XSpace;

/**
 * The XSpace shape of issue 32 item 6: eight {@code /device:GPU:N} planes, of which only GPU:4 and GPU:6 hold events
 * (one {@code Stream #17(Kernel)} line with two compute kernels each: 1 µs at 0 and 2 µs at 5 µs after the line's
 * timestamp of 1,000 ns); the other six planes are listed by the profiler with no line at all (GPU:1 with an empty
 * line). No collective anywhere.
 */
public final class PartlyProfiledXSpace {
    private PartlyProfiledXSpace() {}

    public static byte[] bytes() {
        XSpace.Builder space = XSpace.newBuilder().addHostnames("host0");
        for (int d = 0; d < 8; d++) {
            XPlane.Builder gpu = XPlane.newBuilder().setId(d + 1).setName("/device:GPU:" + d);
            gpu.putEventMetadata(
                    1,
                    XEventMetadata.newBuilder()
                            .setId(1)
                            .setName("loop_fusion_1")
                            .build());
            if (d == 4 || d == 6) {
                gpu.addLines(XLine.newBuilder()
                        .setId(1)
                        .setName("Stream #17(Kernel)")
                        .setTimestampNs(1_000)
                        .addEvents(XEvent.newBuilder()
                                .setMetadataId(1)
                                .setOffsetPs(0)
                                .setDurationPs(1_000_000))
                        .addEvents(XEvent.newBuilder()
                                .setMetadataId(1)
                                .setOffsetPs(5_000_000)
                                .setDurationPs(2_000_000)));
            } else if (d == 1) {
                gpu.addLines(XLine.newBuilder()
                        .setId(1)
                        .setName("Stream #17(Kernel)")
                        .setTimestampNs(1_000));
            }
            space.addPlanes(gpu);
        }
        return space.build().toByteArray();
    }

    public static Path write(Path file) throws IOException {
        Files.createDirectories(file.getParent());
        return Files.write(file, bytes());
    }
}
