package org.tracelake.jobs.generate;

import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The ranks of a generated run meeting at every collective, as NCCL makes them: each rank says when its kernel
 * starts, and learns the latest start, where every rank's kernel then ends together (the early ones wait inside).
 * Used when faults are injected: a late rank's lateness then reaches the others as waiting, not as drift. Each rank
 * runs on its own thread; the barrier orders the reads after every write.
 */
final class Rendezvous {
    private final CyclicBarrier barrier;
    private final long[] starts;

    Rendezvous(int ranks) {
        this.barrier = new CyclicBarrier(ranks);
        this.starts = new long[ranks];
    }

    /** The latest start of the collective every rank is entering now. */
    long latestStart(int rank, long start) {
        starts[rank] = start;
        await();
        long max = Long.MIN_VALUE;
        for (long s : starts) max = Math.max(max, s);
        await(); // every rank has read before any writes the next collective's start
        return max;
    }

    /** Lets the other ranks' threads go when one rank failed (they then fail too, instead of waiting forever). */
    void abandon() {
        barrier.reset();
    }

    private void await() {
        try {
            barrier.await(10, TimeUnit.MINUTES);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("generation interrupted", e);
        } catch (BrokenBarrierException | TimeoutException e) {
            throw new IllegalStateException("another rank's generation failed", e);
        }
    }
}
