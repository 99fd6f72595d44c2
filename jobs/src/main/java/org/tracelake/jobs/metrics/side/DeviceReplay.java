package org.tracelake.jobs.metrics.side;

import java.util.HashMap;
import java.util.Map;

/**
 * The replay of one device's CUDA allocator trace (METRICS.md §4 "Memory"), fed its {@code memory_events} in
 * {@code ordinal} order, then its {@code memory_segments} rows; {@link #result()} gives the device's figures. It keeps
 * one entry per address, not the trace: the start state (initially allocated and reserved bytes) is only known once
 * the whole trace and the final segments are seen, and every replayed value is that start plus a running sum, so the
 * running sums are tracked and the start is added at the end.
 *
 * <p>Nulls are treated as Spark SQL's {@code sum}/{@code max} treat them (skipped; a sum of nothing but nulls is null),
 * so that a malformed row gives the figures a query of the table would.
 */
public final class DeviceReplay {
    /** One {@code memory_events} row of the device. */
    public record Event(long ordinal, String action, Long address, Long size, Long timeUs) {}

    /** One {@code memory_segments} row of the device. */
    public record SegmentRow(String rowKind, Long address, Long size, Long requestedSize, String state) {}

    /** The device's figures, before they become metric rows. */
    public record Result(
            long peakAllocated,
            long peakReserved,
            Double memoryEfficiency,
            long allocCount,
            long freeCount,
            long oomCount,
            Long largestAlloc,
            Double allocRatePerS,
            double fragmentation,
            long internalWaste) {}

    /**
     * Per address, whether the last alloc / free_completed on it is an alloc: a free_completed matches a traced alloc
     * exactly when it is (MemoryViz's addr_to_alloc), and an address whose last such event is an alloc is live at the
     * end of the trace. The null address is a key of its own, as Spark's window partition makes it.
     */
    private final Map<Long, Boolean> lastIsAlloc = new HashMap<>();

    private long unmatchedFreeBytes;
    private long grown;
    private long shrunk;

    /** Σ alloc − free_completed sizes so far (null until a non-null size), likewise Σ segment growth − shrinkage. */
    private Long allocatedSoFar;

    private Long reservedSoFar;
    /** The highest running allocated sum, 0 being the start state's, and the running reserved sum when first reached. */
    private long peakAllocatedSoFar;

    private boolean peakIsStart = true;
    private Long reservedAtPeakSoFar;
    private long peakReservedSoFar;

    private long allocCount;
    private long freeCount;
    private long oomCount;
    private Long largestAlloc;
    private Long firstTimeUs;
    private Long lastTimeUs;

    private long segmentBytes;
    private long initiallyActiveBytes;
    private long inactiveBytes;
    private Long largestInactive;
    private long internalWaste;
    private boolean segmentsStarted;

    /** The next trace entry, in ordinal order. */
    public void event(Event e) {
        if (segmentsStarted) throw new IllegalStateException("trace entries after the final segments");
        String action = e.action();
        Long size = e.size();
        Long allocatedDelta = null;
        Long reservedDelta = 0L;
        if ("alloc".equals(action)) {
            allocatedDelta = size;
            allocCount++;
            if (size != null && (largestAlloc == null || size > largestAlloc)) largestAlloc = size;
            lastIsAlloc.put(e.address(), Boolean.TRUE);
        } else if ("free_completed".equals(action)) {
            allocatedDelta = size == null ? null : -size;
            freeCount++;
            // an unmatched free: its block was allocated before the ring buffer starts, so it counts as initially
            // allocated
            if (!Boolean.TRUE.equals(lastIsAlloc.get(e.address())) && size != null) unmatchedFreeBytes += size;
            lastIsAlloc.put(e.address(), Boolean.FALSE);
        } else {
            allocatedDelta = 0L;
            if ("oom".equals(action)) oomCount++;
            if ("segment_alloc".equals(action) || "segment_map".equals(action)) {
                reservedDelta = size;
                if (size != null) grown += size;
            } else if ("segment_free".equals(action) || "segment_unmap".equals(action)) {
                reservedDelta = size == null ? null : -size;
                if (size != null) shrunk += size;
            }
        }
        if (allocatedDelta != null) allocatedSoFar = (allocatedSoFar == null ? 0L : allocatedSoFar) + allocatedDelta;
        if (reservedDelta != null) reservedSoFar = (reservedSoFar == null ? 0L : reservedSoFar) + reservedDelta;
        if (reservedSoFar != null && reservedSoFar > peakReservedSoFar) peakReservedSoFar = reservedSoFar;
        // strictly higher: memory_efficiency is read at the FIRST moment allocated reached its peak
        if (allocatedSoFar != null && allocatedSoFar > peakAllocatedSoFar) {
            peakAllocatedSoFar = allocatedSoFar;
            peakIsStart = false;
            reservedAtPeakSoFar = reservedSoFar;
        }
        Long t = e.timeUs();
        if (t != null) {
            if (firstTimeUs == null || t < firstTimeUs) firstTimeUs = t;
            if (lastTimeUs == null || t > lastTimeUs) lastTimeUs = t;
        }
    }

    /** A row of the final segments (after every trace entry). */
    public void segmentRow(SegmentRow s) {
        segmentsStarted = true;
        Long size = s.size();
        if ("segment".equals(s.rowKind())) {
            if (size != null) segmentBytes += size;
            return;
        }
        if (!"block".equals(s.rowKind())) return;
        String state = s.state();
        if (state != null && state.startsWith("active")) {
            // a final active block without a live traced alloc at its address was allocated before the trace
            boolean live = s.address() != null && Boolean.TRUE.equals(lastIsAlloc.get(s.address()));
            if (!live && size != null) initiallyActiveBytes += size;
            if (size != null && s.requestedSize() != null) internalWaste += size - s.requestedSize();
        } else if ("inactive".equals(state) && size != null) {
            inactiveBytes += size;
            if (largestInactive == null || size > largestInactive) largestInactive = size;
        }
    }

    public Result result() {
        long initialAllocated = unmatchedFreeBytes + initiallyActiveBytes;
        long initialReserved = segmentBytes - grown + shrunk;
        long peakAllocated = initialAllocated + peakAllocatedSoFar;
        long peakReserved = initialReserved + peakReservedSoFar;
        Long reservedAtPeak = peakIsStart
                ? Long.valueOf(initialReserved)
                : reservedAtPeakSoFar == null ? null : initialReserved + reservedAtPeakSoFar;
        Double efficiency =
                reservedAtPeak != null && reservedAtPeak > 0 ? (double) peakAllocated / (double) reservedAtPeak : null;
        Long spanUs = firstTimeUs == null ? null : lastTimeUs - firstTimeUs;
        Double rate = spanUs != null && spanUs > 0 ? (double) allocCount / ((double) spanUs / 1e6) : null;
        double fragmentation = inactiveBytes == 0 ? 0.0 : 1 - (double) largestInactive / (double) inactiveBytes;
        return new Result(
                peakAllocated,
                peakReserved,
                efficiency,
                allocCount,
                freeCount,
                oomCount,
                largestAlloc,
                rate,
                fragmentation,
                internalWaste);
    }
}
