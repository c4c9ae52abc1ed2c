package dev.fastpipe.shm.example;

import dev.fastpipe.shm.ExampleConsumer;
import dev.fastpipe.shm.ExampleProducer;
import dev.fastpipe.shm.ExampleTransport;
import dev.fastpipe.shm.RecordHandler;
import dev.fastpipe.shm.TransportConfig;
import dev.fastpipe.shm.TransportOptions;
import dev.fastpipe.shm.TransportProvider;
import dev.fastpipe.shm.TransportStats;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.atomic.AtomicLong;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The example plug-in of docs/tools.md ("Writing a transport"): {@code --transport example-queue},
 * one {@link ArrayBlockingQueue} of copied records per shard (threads only). Small on purpose: it
 * shows the whole SPI (a provider with an option, a transport, its producer and consumer) and passes
 * the conformance kit ({@code ExampleQueueConformanceTest}). Not fast: every record is copied into a
 * new array.
 */
public final class QueueTransport implements ExampleTransport {

  /** The provider, registered in META-INF/services/dev.fastpipe.shm.TransportProvider. */
  public static final class Provider implements TransportProvider {
    @Override public String name() { return "example-queue"; }
    @Override public String description() { return "example plug-in: an ArrayBlockingQueue of copied records per shard (threads)"; }
    @Override public Map<String, String> options() { return Map.of("capacity", "records per queue (default: ring bytes / record bytes)"); }

    @Override
    public void validate(TransportOptions o) {
      TransportProvider.super.validate(o);
      o.number(name(), "capacity", 1, 1, 1 << 24);
    }

    @Override
    public ExampleTransport create(TransportConfig cfg, TransportOptions o) {
      int dflt = Math.max(1, cfg.ringBytes() / cfg.maxRecordBytes());
      return new QueueTransport(cfg.shards(), (int) o.number(name(), "capacity", dflt, 1, 1 << 24), maxRecordBytes(cfg.ringBytes()));
    }
  }

  private final Shard[] shards;

  QueueTransport(int shards, int capacity, int maxRecord) {
    this.shards = new Shard[shards];
    for (int s = 0; s < shards; s++) this.shards[s] = new Shard(s, capacity, maxRecord);
  }

  @Override public String name() { return "example-queue"; }
  @Override public int shards() { return shards.length; }
  @Override public ExampleProducer producer(int shard) { return shards[shard]; }
  @Override public boolean ended(int shard) { return shards[shard].ended; }

  @Override
  public ExampleConsumer consumer(int... ids) {
    Shard[] mine = new Shard[ids.length];
    for (int i = 0; i < ids.length; i++) mine[i] = shards[ids[i]];
    return new Consumer(mine);
  }

  @Override
  public TransportStats stats(int shard) {
    Shard s = shards[shard];
    return new TransportStats(shard, s.capacityBytes, s.fillBytes.get(), s.maxFill.get(), s.committed.get(), s.consumed.get(),
        s.stallNanos.get(), s.idleNanos.get());
  }

  @Override public void close() { }

  /** One shard's queue; also its producer (one thread). */
  private static final class Shard implements ExampleProducer {
    final int id;
    final ArrayBlockingQueue<byte[]> queue;
    final long capacityBytes;
    final UnsafeBuffer staging;
    final AtomicLong committed = new AtomicLong(), consumed = new AtomicLong(), stallNanos = new AtomicLong(),
        idleNanos = new AtomicLong(), fillBytes = new AtomicLong(), maxFill = new AtomicLong();
    volatile boolean ended;
    int claimed = -1;

    Shard(int id, int capacity, int maxRecord) {
      this.id = id;
      this.queue = new ArrayBlockingQueue<>(capacity);
      this.capacityBytes = (long) capacity * maxRecord;
      this.staging = new UnsafeBuffer(new byte[maxRecord]);
    }

    @Override public int maxRecordLength() { return staging.capacity(); }

    @Override
    public int claim(int length) {
      if (length < 0 || length > staging.capacity()) {
        throw new IllegalArgumentException("record of " + length + " bytes exceeds the largest record " + staging.capacity());
      }
      if (ended) throw new IllegalStateException("claim() after endOfStream()");
      claimed = length;
      return 0;
    }

    @Override public MutableDirectBuffer buffer() { return staging; }

    @Override
    public void commit() {
      if (claimed < 0) throw new IllegalStateException("commit() without claim()");
      byte[] copy = new byte[claimed];
      staging.getBytes(0, copy);
      claimed = -1;
      if (!queue.offer(copy)) {
        long t0 = System.nanoTime();
        try {
          queue.put(copy); // back-pressure: wait for the consumer
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException("interrupted while the queue was full", e);
        }
        stallNanos.addAndGet(System.nanoTime() - t0);
      }
      maxFill.accumulateAndGet(fillBytes.addAndGet(copy.length), Math::max);
      committed.incrementAndGet();
    }

    @Override public void abort() { claimed = -1; }

    @Override public void endOfStream() { ended = true; }

    @Override public void close() { endOfStream(); }
  }

  private static final class Consumer implements ExampleConsumer {
    private final Shard[] shards;
    private final UnsafeBuffer view = new UnsafeBuffer(new byte[0]);

    Consumer(Shard[] shards) { this.shards = shards; }

    @Override
    public int poll(RecordHandler handler, int limit) {
      int total = 0;
      for (Shard s : shards) {
        byte[] r;
        while (total < limit && (r = s.queue.poll()) != null) {
          view.wrap(r);
          handler.onRecord(s.id, view, 0, r.length);
          s.fillBytes.addAndGet(-r.length);
          s.consumed.incrementAndGet();
          total++;
        }
      }
      return total;
    }

    /** The idle time its {@code ConsumerLoop} measured, published in every shard's stats. */
    @Override
    public void idled(long nanos) {
      for (Shard s : shards) s.idleNanos.addAndGet(nanos);
    }

    @Override
    public boolean finished() {
      for (Shard s : shards) if (!s.ended || !s.queue.isEmpty()) return false; // flag first, then emptiness
      return true;
    }

    @Override public void close() { }
  }
}
