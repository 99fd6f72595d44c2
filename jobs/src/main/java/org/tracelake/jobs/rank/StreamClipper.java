package org.tracelake.jobs.rank;

import java.io.Serializable;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;
import org.tracelake.udfs.ActivityClass;

/**
 * Work on one stream runs one activity after another, so an activity whose recorded end lies past the start of the
 * next activity on its stream did not run that long: ROCm's profilers write such ends when the hardware flushes its
 * completion timestamps late (TraceLens issue 669: a 1.6 s FlashAttention kernel on a stream that was busy for
 * milliseconds), and programmatic dependent launch on NVIDIA lets the next kernel's blocks start while the previous
 * one drains. Each such activity's time is clipped to end where the next on its (device, stream) starts, as Perfetto
 * draws it, so that no rule counts the stream's time twice; the clipped time and the number of activities clipped
 * are kept for the rank ({@code stream_overrun_ms}). Activities with the same start do not clip each other (neither
 * says the other ran first), nor does a zero-length one (Kineto writes such markers inside a running kernel); device
 * syncs are not clipped, and XLA ops are left alone (their lines are not streams).
 *
 * <p>GPU activities arrive by start and leave by start: an activity is held until the next one on its stream arrives
 * or until an activity starting at or after its end does (nothing later can clip it), so only activities still in
 * flight are held.
 */
public final class StreamClipper {
    private record StreamKey(Integer device, long stream) {}

    private static final class Pending {
        final RankEvent e;
        boolean done;

        Pending(RankEvent e, boolean done) {
            this.e = e;
            this.done = done;
        }
    }

    private final Consumer<RankEvent> out;
    private final ArrayDeque<Pending> queue = new ArrayDeque<>();
    private final Map<StreamKey, Pending> lastOnStream = new HashMap<>();
    private long clippedNs;
    private long clippedActivities;

    StreamClipper(Consumer<RankEvent> out) {
        this.out = out;
    }

    /** The next GPU activity, in start order. */
    void accept(RankEvent e) {
        boolean clippable = e.ts != null
                && e.stream != null
                && !ActivityClass.SYNC.equals(e.activityClass)
                && !XlaOps.isXlaFormat(e);
        if (clippable) {
            StreamKey key = new StreamKey(e.device, e.stream);
            Pending previous = lastOnStream.put(key, new Pending(e, false));
            if (previous != null && !previous.done) {
                RankEvent p = previous.e;
                if (p.ts < e.ts && e.ts < p.end() && e.dur > 0) {
                    clippedNs += p.end() - e.ts;
                    clippedActivities++;
                    p.dur = e.ts - p.ts;
                }
                previous.done = true;
            }
            queue.add(lastOnStream.get(key));
        } else {
            queue.add(new Pending(e, true));
        }
        drain(e.ts);
    }

    /** Passes on, in start order, every activity nothing can clip any more now that an activity started at now. */
    private void drain(Long now) {
        while (!queue.isEmpty()) {
            Pending head = queue.peek();
            if (!head.done && now != null && head.e.end() <= now) head.done = true;
            if (!head.done) return;
            queue.poll();
            out.accept(head.e);
        }
    }

    /** Passes on every activity still held: no more will come. */
    void flush() {
        for (Pending p : queue) p.done = true;
        drain(null);
    }

    /** What the clip took, once flushed: it is the stream_overrun_ms family's, kept with the rank's parts. */
    Clipped clipped() {
        return new Clipped(clippedActivities, clippedNs);
    }

    /** GPU activities that ran past the start of the next one on their stream: how many, and the time clipped off (ns). */
    public record Clipped(long activities, long ns) implements Serializable {}
}
