package dev.fastpipe.shm;

import static dev.fastpipe.shm.ShmRingDescriptor.*;

import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.ringbuffer.RingBuffer;

/**
 * Writes one shard's records in place into its shared-memory ring. Works in the process that
 * created the ring or in another one ({@link ShmTransport#attachProducer}). A full ring waits
 * through the idle strategy and counts the wait as producer stall; nothing is ever dropped. The
 * heartbeat in the header counts up on attach, on every claim and commit and on every idle turn
 * while the ring is full, so the consumer side can tell a stopped producer from a waiting one.
 * What a stall costs this thread in CPU (spins, yields, wake-ups) is published when it ends.
 */
public final class ShmProducer implements ExampleProducer, SpillableProducer {
  private final ShmRing ring;
  private final RingBuffer rb;
  private final IdleStrategy idle;
  private final int maxRecord;
  private int claimed = -1;
  private long committed;
  private long stallNanos;
  private final WaitClock stalls = new WaitClock();
  private final long stallCpuBefore; // stall CPU of earlier producers of this ring (a restarted shard)
  private long maxFill;
  private long beats;
  private boolean ended;

  ShmProducer(ShmRing ring, IdleStrategy idle) {
    ring.claimProducer();
    this.ring = ring;
    this.rb = ring.ring;
    this.idle = idle;
    this.maxRecord = rb.maxMsgLength();
    this.committed = ring.header.getLongVolatile(RECORDS_COMMITTED_OFFSET);
    this.stallNanos = ring.header.getLongVolatile(PRODUCER_STALL_NS_OFFSET);
    this.stallCpuBefore = ring.header.getLongVolatile(PRODUCER_STALL_CPU_NS_OFFSET);
    this.beats = ring.header.getLongVolatile(PRODUCER_HEARTBEAT_OFFSET);
    beat();
  }

  /** Advances the heartbeat (an ordered store to the producer's own header line). */
  private void beat() {
    ring.header.putLongOrdered(PRODUCER_HEARTBEAT_OFFSET, ++beats);
  }

  public int shard() { return ring.shard; }

  @Override public int maxRecordLength() { return maxRecord; }

  @Override
  public int claim(int length) {
    return claimWithin(length, Long.MAX_VALUE);
  }

  @Override public long committedRecords() { return committed; }

  @Override
  public int claimWithin(int length, long maxWaitNanos) {
    if (claimed >= 0) throw new IllegalStateException("shard " + ring.shard + ": claim() before the previous record was committed or aborted");
    if (ended) throw new IllegalStateException("shard " + ring.shard + ": claim() after endOfStream()");
    if (length > maxRecord || length < 0) {
      throw new IllegalArgumentException("record of " + length + " bytes exceeds the shm ring's largest record "
          + maxRecord + " bytes: raise --ring-size to at least " + Transports.ringSizeFor(length));
    }
    beat();
    int at = rb.tryClaim(ShmTransport.MSG_RECORD, length);
    if (at < 0) {
      long t0 = System.nanoTime();
      stalls.begin();
      idle.reset();
      while ((at = rb.tryClaim(ShmTransport.MSG_RECORD, length)) < 0) {
        if (System.nanoTime() - t0 >= maxWaitNanos) {
          stalled(t0);
          return -1;
        }
        idle.idle();
        beat(); // waiting for a slow consumer is healthy
        // the stall so far, so that a reader sees a long wait while it lasts (costs nothing: we wait)
        ring.header.putLongOrdered(PRODUCER_STALL_NS_OFFSET, stallNanos + System.nanoTime() - t0);
      }
      stalled(t0);
    }
    claimed = at;
    return at;
  }

  private void stalled(long t0) {
    stalls.end();
    stallNanos += System.nanoTime() - t0;
    ring.header.putLongOrdered(PRODUCER_STALL_NS_OFFSET, stallNanos);
    ring.header.putLongOrdered(PRODUCER_STALL_CPU_NS_OFFSET, stallCpuBefore + Math.max(0, stalls.waitCpuNanos()));
  }

  @Override public MutableDirectBuffer buffer() { return rb.buffer(); }

  @Override
  public void commit() {
    if (claimed < 0) throw new IllegalStateException("commit() without claim()");
    rb.commit(claimed);
    claimed = -1;
    ring.header.putLongOrdered(RECORDS_COMMITTED_OFFSET, ++committed);
    beat();
    long fill = rb.producerPosition() - rb.consumerPosition();
    if (fill > maxFill) {
      maxFill = fill;
      ring.header.putLongOrdered(MAX_FILL_OFFSET, fill);
    }
  }

  @Override
  public void progress(long units) {
    ring.header.putLongOrdered(PRODUCER_PROGRESS_OFFSET, units);
  }

  @Override
  public void abort() {
    if (claimed < 0) throw new IllegalStateException("abort() without claim()");
    rb.abort(claimed);
    claimed = -1;
  }

  @Override
  public void endOfStream() {
    if (ended) return;
    if (claimed >= 0) abort();
    ended = true;
    ring.header.putIntVolatile(END_OF_STREAM_OFFSET, 1); // after the last commit: consumers see all records first
  }

  @Override public void close() { endOfStream(); }
}
