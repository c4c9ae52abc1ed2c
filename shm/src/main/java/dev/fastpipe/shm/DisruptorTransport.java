package dev.fastpipe.shm;

import com.lmax.disruptor.BlockingWaitStrategy;
import com.lmax.disruptor.EventPoller;
import com.lmax.disruptor.RingBuffer;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.agrona.BitUtil;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The {@code disruptor} transport (in-process, threads): one LMAX single-producer ring per shard
 * whose slots are pre-allocated regions of one direct buffer, each the size of the largest
 * record; the consumer drains with an {@link EventPoller}. Slots per shard =
 * ringBytes / slot size, rounded down to a power of two.
 */
public final class DisruptorTransport implements ExampleTransport {
  /** A pre-allocated slot: a view of the shard's slab, plus the committed length (-1 = aborted). */
  static final class Slot {
    final UnsafeBuffer buffer = new UnsafeBuffer(0, 0);
    int length;
  }

  private final Shard[] shards;
  private final int slotBytes;

  public DisruptorTransport(TransportConfig cfg) {
    Transports.checkRecordFits("disruptor", cfg.ringBytes(), cfg.maxRecordBytes());
    this.slotBytes = BitUtil.align(cfg.maxRecordBytes(), 64);
    int slots = Math.max(2, Integer.highestOneBit(Math.max(1, cfg.ringBytes() / slotBytes)));
    this.shards = new Shard[cfg.shards()];
    for (int s = 0; s < shards.length; s++) shards[s] = new Shard(s, slots, slotBytes, cfg.maxRecordBytes(), cfg.idle());
  }

  @Override public String name() { return "disruptor"; }
  @Override public int shards() { return shards.length; }
  @Override public ExampleProducer producer(int shard) { return shards[shard].producer; }

  @Override
  public ExampleConsumer consumer(int... ids) {
    Shard[] mine = new Shard[ids.length];
    for (int i = 0; i < ids.length; i++) mine[i] = shards[ids[i]];
    return new Consumer(mine);
  }

  @Override public TransportStats stats(int shard) { return shards[shard].stats(); }
  @Override public boolean ended(int shard) { return shards[shard].ended; }
  @Override public void close() { }

  private static final class Shard {
    final int id;
    final RingBuffer<Slot> ring;
    final EventPoller<Slot> poller;
    final Producer producer;
    final long capacityBytes;
    volatile boolean ended;
    final AtomicLong committed = new AtomicLong(), consumed = new AtomicLong(), stallNanos = new AtomicLong(),
        idleNanos = new AtomicLong(), maxFill = new AtomicLong();

    Shard(int id, int slots, int slotBytes, int maxRecord, Supplier<IdleStrategy> idle) {
      this.id = id;
      ByteBuffer slab = ByteBuffer.allocateDirect(slots * slotBytes);
      int[] next = {0};
      this.ring = RingBuffer.createSingleProducer(() -> {
        Slot s = new Slot();
        s.buffer.wrap(slab, next[0]++ * slotBytes, slotBytes);
        return s;
      }, slots, new BlockingWaitStrategy());
      this.poller = ring.newPoller();
      ring.addGatingSequences(poller.getSequence());
      this.capacityBytes = (long) slots * slotBytes;
      this.producer = new Producer(this, maxRecord, idle.get());
    }

    long fillSlots() { return ring.getCursor() - poller.getSequence().get(); }

    TransportStats stats() {
      long fill = fillSlots() * (capacityBytes / ring.getBufferSize());
      return new TransportStats(id, capacityBytes, fill, Math.max(fill, maxFill.get()), committed.get(), consumed.get(),
          stallNanos.get(), idleNanos.get());
    }
  }

  private static final class Producer implements ExampleProducer {
    private final Shard shard;
    private final int maxRecord;
    private final IdleStrategy idle;
    private long seq = -1;
    private Slot slot;
    private long committed, stall, maxFill;

    Producer(Shard shard, int maxRecord, IdleStrategy idle) {
      this.shard = shard;
      this.maxRecord = maxRecord;
      this.idle = idle;
    }

    @Override public int maxRecordLength() { return maxRecord; }

    @Override
    public int claim(int length) {
      if (length > maxRecord || length < 0) {
        throw new IllegalArgumentException("record of " + length + " bytes exceeds the disruptor slot of " + maxRecord
            + " bytes: raise the configured record size");
      }
      if (seq >= 0) throw new IllegalStateException("claim() before the previous record was committed or aborted");
      if (shard.ended) throw new IllegalStateException("claim() after endOfStream()");
      if (!shard.ring.hasAvailableCapacity(1)) {
        long t0 = System.nanoTime();
        idle.reset();
        while (!shard.ring.hasAvailableCapacity(1)) idle.idle();
        stall += System.nanoTime() - t0;
        shard.stallNanos.lazySet(stall);
      }
      seq = shard.ring.next();
      slot = shard.ring.get(seq);
      slot.length = length;
      return 0;
    }

    @Override public MutableDirectBuffer buffer() { return slot.buffer; }

    @Override
    public void commit() {
      publish();
      shard.committed.lazySet(++committed);
      long fill = shard.fillSlots();
      if (fill > maxFill) {
        maxFill = fill;
        shard.maxFill.lazySet(fill * (shard.capacityBytes / shard.ring.getBufferSize()));
      }
    }

    @Override
    public void abort() {
      slot.length = -1; // a sequence cannot be handed back: publish it as a hole the consumer skips
      publish();
    }

    private void publish() {
      if (seq < 0) throw new IllegalStateException("commit()/abort() without claim()");
      shard.ring.publish(seq);
      seq = -1;
    }

    @Override
    public void endOfStream() {
      if (seq >= 0) abort();
      shard.ended = true;
    }

    @Override public void close() { endOfStream(); }
  }

  private static final class Consumer implements ExampleConsumer, EventPoller.Handler<Slot> {
    private final Shard[] shards;
    private RecordHandler handler;
    private int shardId, delivered, limit;

    Consumer(Shard[] shards) { this.shards = shards; }

    @Override
    public boolean onEvent(Slot slot, long sequence, boolean endOfBatch) {
      if (slot.length >= 0) {
        handler.onRecord(shardId, slot.buffer, 0, slot.length);
        delivered++;
      }
      return delivered < limit;
    }

    @Override
    public int poll(RecordHandler h, int limit) {
      this.handler = h;
      this.limit = limit;
      this.delivered = 0;
      for (Shard s : shards) {
        if (delivered >= limit) break;
        int before = delivered;
        shardId = s.id;
        try {
          s.poller.poll(this);
        } catch (Exception e) {
          throw e instanceof RuntimeException re ? re : new IllegalStateException(e);
        }
        if (delivered > before) s.consumed.lazySet(s.consumed.get() + delivered - before);
      }
      return delivered;
    }

    @Override
    public void idled(long nanos) {
      for (Shard s : shards) s.idleNanos.addAndGet(nanos);
    }

    @Override
    public boolean finished() {
      for (Shard s : shards) {
        if (!s.ended || s.fillSlots() != 0) return false;
      }
      return true;
    }

    @Override public void close() { }
  }
}
