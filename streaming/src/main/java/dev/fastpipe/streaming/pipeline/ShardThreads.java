package dev.fastpipe.streaming.pipeline;

import dev.fastpipe.shm.ExampleProducer;
import dev.fastpipe.shm.ExampleTransport;
import dev.fastpipe.streaming.ShardFailedException;
import dev.fastpipe.streaming.makeexamples.MakeExamples;
import dev.fastpipe.streaming.makeexamples.MakeExamplesStats;
import dev.fastpipe.streaming.makeexamples.RunPlan;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;

/** The shards of a run as daemon threads of this JVM (disruptor, chronicle, mutex and disk transports). */
public final class ShardThreads implements Shards {
  private final List<Thread> threads = new ArrayList<>();
  private final AtomicReference<ShardFailedException> failure = new AtomicReference<>();
  private final AtomicLong examples = new AtomicLong();
  private final AtomicLong readsSeen = new AtomicLong();
  private final AtomicLong cpuNanos = new AtomicLong();
  private final AtomicLong endNanos = new AtomicLong();
  private final AtomicReference<RealignTotals> realignment = new AtomicReference<>(RealignTotals.NONE);
  private final ThreadMXBean jvmThreads = ManagementFactory.getThreadMXBean();
  private AtomicLongArray progress = new AtomicLongArray(0);
  private AtomicLongArray shardCpuNanos = new AtomicLongArray(0);

  @Override
  public void start(RunPlan plan, ExampleTransport transport) {
    progress = new AtomicLongArray(plan.shards());
    shardCpuNanos = new AtomicLongArray(plan.shards());
    for (int i = 0; i < plan.shards(); i++) {
      int shard = i;
      var producer = new ProgressKeeper(transport.producer(shard), progress, shard);
      Thread t = new Thread(() -> {
        MakeExamplesStats st = MakeExamples.run(plan, shard, producer);
        examples.addAndGet(st.examples + st.smallCalls); // every example: CNN images and small-model calls
        readsSeen.addAndGet(st.readsSeen());
        realignment.accumulateAndGet(RealignTotals.of(st), RealignTotals::plus);
        long cpu = jvmThreads.getCurrentThreadCpuTime();
        shardCpuNanos.set(shard, cpu);
        cpuNanos.addAndGet(cpu);
        endNanos.accumulateAndGet(System.nanoTime(), Math::max);
      }, "fastpipe-shard-" + shard);
      t.setUncaughtExceptionHandler((th, e) -> failure.compareAndSet(null, new ShardFailedException(
          "shard " + shard + " failed: " + (e.getMessage() == null ? e.toString() : e.getMessage()), e)));
      t.setDaemon(true);
      threads.add(t);
      t.start();
    }
  }

  @Override
  public ShardFailedException failure() {
    return failure.get();
  }

  @Override
  public boolean allEnded() {
    return threads.stream().noneMatch(Thread::isAlive);
  }

  @Override
  public long endNanos() {
    return allEnded() ? endNanos.get() : 0;
  }

  @Override
  public ShardFailedException await(long timeout, TimeUnit unit) throws InterruptedException {
    long deadline = System.nanoTime() + unit.toNanos(timeout);
    for (Thread t : threads) {
      long left = deadline - System.nanoTime();
      if (left <= 0) break;
      t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
    }
    return failure();
  }

  @Override
  public long examples() {
    return examples.get();
  }

  @Override
  public long readsSeen() {
    return readsSeen.get();
  }

  @Override
  public RealignTotals realignment() {
    return realignment.get();
  }

  @Override
  public double cpuSeconds() {
    return cpuNanos.get() / 1e9;
  }

  @Override
  public long examplesMade(int shard) {
    return shard < progress.length() ? progress.get(shard) : 0;
  }

  /** The thread's CPU time while it runs (the JVM answers -1 once it has ended: then its last figure). */
  @Override
  public long cpuNanos(int shard) {
    if (shard >= threads.size()) return 0;
    long now = jvmThreads.getThreadCpuTime(threads.get(shard).getId());
    return now >= 0 ? Math.max(now, shardCpuNanos.get(shard)) : shardCpuNanos.get(shard);
  }

  @Override
  public boolean inProcesses() {
    return false;
  }

  /** Hands every call to the transport's producer and keeps the progress it is told, for {@link #examplesMade}. */
  private record ProgressKeeper(ExampleProducer producer, AtomicLongArray progress, int shard) implements ExampleProducer {
    @Override public int maxRecordLength() { return producer.maxRecordLength(); }
    @Override public int claim(int length) { return producer.claim(length); }
    @Override public org.agrona.MutableDirectBuffer buffer() { return producer.buffer(); }
    @Override public void commit() { producer.commit(); }
    @Override public void abort() { producer.abort(); }
    @Override public void progress(long units) { progress.lazySet(shard, units); }
    @Override public void endOfStream() { producer.endOfStream(); }
    @Override public void close() { producer.close(); }
  }

  /** Interrupts shards still running (a thread blocked on a full ring sees the interrupt). */
  @Override
  public void close() {
    for (Thread t : threads) t.interrupt();
  }
}
