package dev.fastpipe.shm;

import static dev.fastpipe.shm.ShmRingDescriptor.*;

import java.nio.file.Path;
import java.util.function.Supplier;
import org.agrona.BitUtil;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

/**
 * The {@code seqring} transport: the shm transport's ring files (same header, owner record, 0600,
 * stale sweep, removal on exit, producers in other processes) with a different ring inside, one
 * that never zeroes what it consumed. The data region is cut into fixed slots of
 * {@code align(16 + largest record, 64)} bytes; slot {@code seq mod slots} holds record {@code seq}
 * when its first long (the stamp) is {@code seq + 1}: the producer writes the record, its length,
 * then the stamp with an ordered store; the consumer delivers a slot only when its stamp is the one
 * it expects, and publishes its position after each batch. A stale stamp from an earlier lap (or the
 * zeros of a fresh file) never equals the expected one, so no pass clears consumed bytes, the third
 * pass over memory Agrona's one-to-one ring makes. A producer that dies mid-record leaves its slot
 * unstamped: nothing torn is ever delivered, and a restarted producer continues after the last
 * published record. Fixed slots cost space for small records (each takes a whole slot).
 *
 * <p>The producer's and consumer's positions live where Agrona keeps its tail and head (the ring
 * trailer, each on its own cache lines); the slot size sits in the trailer's correlation counter,
 * so a producer in another process finds it.
 */
public final class SeqRingTransport implements ExampleTransport {
  static final int SLOT_HEADER = 16; // [0,8) stamp, [8,12) length

  private final ShmRing[] rings;
  private final SeqProducer[] producers;
  private final Supplier<IdleStrategy> idle;
  private boolean closed;

  private SeqRingTransport(ShmRing[] rings, Supplier<IdleStrategy> idle) {
    this.rings = rings;
    this.producers = new SeqProducer[rings.length];
    this.idle = idle;
  }

  /** The slot size for records of up to {@code maxRecord} bytes. */
  static int slotBytes(int maxRecord) {
    return BitUtil.align(SLOT_HEADER + maxRecord, 64);
  }

  /** Creates the run's ring files, as {@link ShmTransport#create} does, with {@code maxRecordBytes} slots. */
  public static SeqRingTransport create(TransportConfig cfg) {
    checkCapacity(cfg.ringBytes());
    Transports.checkRecordFits("seqring", cfg.ringBytes(), cfg.maxRecordBytes());
    ShmTransport.removeStale(cfg.dir(), cfg.runId());
    ShmTransport.checkSpace(cfg.dir(), cfg.shards(), cfg.ringBytes());
    ShmRing[] rings = new ShmRing[cfg.shards()];
    try {
      for (int s = 0; s < rings.length; s++) {
        rings[s] = ShmRing.create(ShmTransport.path(cfg.dir(), cfg.runId(), s), s, cfg.ringBytes());
        rings[s].ring.buffer().putLongVolatile(cfg.ringBytes() + RingBufferDescriptor.CORRELATION_COUNTER_OFFSET,
            slotBytes(cfg.maxRecordBytes()));
      }
    } catch (RuntimeException e) {
      for (ShmRing r : rings) if (r != null) ShmFiles.delete(r.path);
      throw e;
    }
    return new SeqRingTransport(rings, cfg.idle());
  }

  /** Attaches a producer to an existing ring file, from any process. */
  public static ExampleProducer attachProducer(Path ringFile, IdleStrategy idle) {
    if (!java.nio.file.Files.exists(ringFile)) throw new IllegalStateException(ringFile + ": no such ring (has the consumer side created the run?)");
    return new SeqProducer(ShmRing.open(ringFile), idle);
  }

  @Override public String name() { return "seqring"; }
  @Override public int shards() { return rings.length; }

  @Override
  public synchronized ExampleProducer producer(int shard) {
    if (producers[shard] == null) producers[shard] = new SeqProducer(rings[shard], idle.get());
    return producers[shard];
  }

  @Override
  public ExampleConsumer consumer(int... shards) {
    Slots[] mine = new Slots[shards.length];
    for (int i = 0; i < shards.length; i++) mine[i] = new Slots(rings[shards[i]]);
    return new Consumer(mine);
  }

  @Override public boolean ended(int shard) { return rings[shard].endOfStream(); }
  @Override public String address(int shard) { return rings[shard].path.toString(); }

  @Override
  public TransportStats stats(int shard) {
    Slots s = new Slots(rings[shard]);
    long fill = (s.tail() - s.head()) * s.slotBytes;
    UnsafeHeader h = new UnsafeHeader(rings[shard]);
    return new TransportStats(shard, (long) s.slots * s.slotBytes, fill, Math.max(fill, h.get(MAX_FILL_OFFSET)),
        h.get(RECORDS_COMMITTED_OFFSET), h.get(RECORDS_CONSUMED_OFFSET), h.get(PRODUCER_STALL_NS_OFFSET),
        h.get(CONSUMER_IDLE_NS_OFFSET), h.get(PRODUCER_STALL_CPU_NS_OFFSET));
  }

  @Override
  public synchronized void close() {
    if (closed) return;
    closed = true;
    for (ShmRing r : rings) ShmFiles.delete(r.path);
  }

  /** Reads header counters. */
  private record UnsafeHeader(ShmRing r) {
    long get(int offset) { return r.header.getLongVolatile(offset); }
  }

  /** One ring's slot geometry and positions. */
  static final class Slots {
    final ShmRing ring;
    final AtomicBuffer buffer;
    final int slotBytes, slots, tailAt, headAt;

    Slots(ShmRing ring) {
      this.ring = ring;
      this.buffer = ring.ring.buffer();
      int capacity = ring.capacity();
      this.slotBytes = (int) buffer.getLongVolatile(capacity + RingBufferDescriptor.CORRELATION_COUNTER_OFFSET);
      if (slotBytes < SLOT_HEADER + 1 || slotBytes > capacity / 2) {
        throw new IllegalStateException(ring.path + ": not a seqring ring (slot size " + slotBytes + ")");
      }
      this.slots = capacity / slotBytes;
      this.tailAt = capacity + RingBufferDescriptor.TAIL_POSITION_OFFSET;
      this.headAt = capacity + RingBufferDescriptor.HEAD_POSITION_OFFSET;
    }

    long tail() { return buffer.getLongVolatile(tailAt); }
    long head() { return buffer.getLongVolatile(headAt); }
    int slot(long seq) { return (int) (seq % slots) * slotBytes; }
  }

  /** Writes one shard's records into stamped slots, in this process or another. */
  static final class SeqProducer implements ExampleProducer, SpillableProducer {
    private final Slots s;
    private final ShmRing ring;
    private final IdleStrategy idle;
    private final int maxRecord;
    private final WaitClock stalls = new WaitClock();
    private final long stallCpuBefore;
    private long seq, headCache, committed, stallNanos, maxFill, beats;
    private int claimedAt = -1, claimedLen;
    private boolean ended;

    SeqProducer(ShmRing ring, IdleStrategy idle) {
      ring.claimProducer();
      this.ring = ring;
      this.s = new Slots(ring);
      this.idle = idle;
      this.maxRecord = s.slotBytes - SLOT_HEADER;
      this.seq = s.tail(); // a restarted producer continues after the last published record
      this.headCache = s.head();
      this.committed = ring.header.getLongVolatile(RECORDS_COMMITTED_OFFSET);
      this.stallNanos = ring.header.getLongVolatile(PRODUCER_STALL_NS_OFFSET);
      this.stallCpuBefore = ring.header.getLongVolatile(PRODUCER_STALL_CPU_NS_OFFSET);
      this.beats = ring.header.getLongVolatile(PRODUCER_HEARTBEAT_OFFSET);
      beat();
    }

    private void beat() {
      ring.header.putLongOrdered(PRODUCER_HEARTBEAT_OFFSET, ++beats);
    }

    @Override public int maxRecordLength() { return maxRecord; }

    @Override
    public int claim(int length) {
      return claimWithin(length, Long.MAX_VALUE);
    }

    @Override public long committedRecords() { return committed; }

    @Override
    public int claimWithin(int length, long maxWaitNanos) {
      if (claimedAt >= 0) throw new IllegalStateException("shard " + ring.shard + ": claim() before the previous record was committed or aborted");
      if (ended) throw new IllegalStateException("shard " + ring.shard + ": claim() after endOfStream()");
      if (length > maxRecord || length < 0) {
        throw new IllegalArgumentException("record of " + length + " bytes exceeds the seqring slot's largest record "
            + maxRecord + " bytes: raise the record size the run is configured for");
      }
      beat();
      if (seq - headCache >= s.slots && seq - (headCache = s.head()) >= s.slots) {
        long t0 = System.nanoTime();
        stalls.begin();
        idle.reset();
        while (seq - (headCache = s.head()) >= s.slots) {
          if (System.nanoTime() - t0 >= maxWaitNanos) {
            stalled(t0);
            return -1;
          }
          idle.idle();
          beat();
          ring.header.putLongOrdered(PRODUCER_STALL_NS_OFFSET, stallNanos + System.nanoTime() - t0);
        }
        stalled(t0);
      }
      claimedAt = s.slot(seq);
      claimedLen = length;
      return claimedAt + SLOT_HEADER;
    }

    private void stalled(long t0) {
      stalls.end();
      stallNanos += System.nanoTime() - t0;
      ring.header.putLongOrdered(PRODUCER_STALL_NS_OFFSET, stallNanos);
      ring.header.putLongOrdered(PRODUCER_STALL_CPU_NS_OFFSET, stallCpuBefore + Math.max(0, stalls.waitCpuNanos()));
    }

    @Override public MutableDirectBuffer buffer() { return s.buffer; }

    @Override
    public void commit() {
      if (claimedAt < 0) throw new IllegalStateException("commit() without claim()");
      s.buffer.putInt(claimedAt + 8, claimedLen);
      s.buffer.putLongOrdered(claimedAt, seq + 1); // the stamp, last: the record is complete before it is seen
      claimedAt = -1;
      seq++;
      s.buffer.putLongOrdered(s.tailAt, seq);
      ring.header.putLongOrdered(RECORDS_COMMITTED_OFFSET, ++committed);
      beat();
      long fill = (seq - headCache) * s.slotBytes;
      if (fill > maxFill) {
        maxFill = fill;
        ring.header.putLongOrdered(MAX_FILL_OFFSET, fill);
      }
    }

    @Override
    public void abort() {
      if (claimedAt < 0) throw new IllegalStateException("abort() without claim()");
      claimedAt = -1; // the slot stays unstamped; the next claim reuses it
    }

    @Override
    public void progress(long units) {
      ring.header.putLongOrdered(PRODUCER_PROGRESS_OFFSET, units);
    }

    @Override
    public void endOfStream() {
      if (ended) return;
      if (claimedAt >= 0) abort();
      ended = true;
      ring.header.putIntVolatile(END_OF_STREAM_OFFSET, 1);
    }

    @Override public void close() { endOfStream(); }
  }

  /** Polls its shards round-robin; slots are handed out in place and released after each batch. */
  private static final class Consumer implements ExampleConsumer {
    private final Slots[] rings;
    private final long[] head, consumed;
    private int next;

    Consumer(Slots[] rings) {
      this.rings = rings;
      this.head = new long[rings.length];
      this.consumed = new long[rings.length];
      for (int i = 0; i < rings.length; i++) {
        head[i] = rings[i].head();
        consumed[i] = rings[i].ring.header.getLongVolatile(RECORDS_CONSUMED_OFFSET);
      }
    }

    @Override
    public int poll(RecordHandler handler, int limit) {
      int total = 0;
      for (int k = 0; k < rings.length && total < limit; k++) {
        int i = (next + k) % rings.length;
        Slots s = rings[i];
        long h = head[i];
        int n = 0;
        while (total + n < limit) {
          int at = s.slot(h);
          if (s.buffer.getLongVolatile(at) != h + 1) break;
          handler.onRecord(s.ring.shard, s.buffer, at + SLOT_HEADER, s.buffer.getInt(at + 8));
          h++;
          n++;
        }
        if (n > 0) {
          head[i] = h;
          s.buffer.putLongOrdered(s.headAt, h); // after the batch: the producer may now reuse these slots
          consumed[i] += n;
          s.ring.header.putLongOrdered(RECORDS_CONSUMED_OFFSET, consumed[i]);
          total += n;
        }
      }
      next = (next + 1) % rings.length;
      return total;
    }

    /** The loop's idle time goes into every ring's header, as shm's does. */
    @Override
    public void idled(long nanos) {
      for (Slots s : rings) s.ring.header.getAndAddLong(CONSUMER_IDLE_NS_OFFSET, nanos);
    }

    @Override
    public boolean finished() {
      for (int i = 0; i < rings.length; i++) {
        if (!rings[i].ring.endOfStream() || rings[i].tail() != head[i]) return false; // flag first, then emptiness
      }
      return true;
    }

    @Override public void close() { }
  }
}
