package dev.fastpipe.streaming.pipeline;

import dev.fastpipe.shm.ExampleProducer;
import dev.fastpipe.shm.ExampleTransport;
import dev.fastpipe.streaming.ExitStatus;
import dev.fastpipe.streaming.InputException;
import dev.fastpipe.streaming.ShardFailedException;
import dev.fastpipe.streaming.makeexamples.MakeExamples;
import dev.fastpipe.streaming.makeexamples.MakeExamplesStats;
import dev.fastpipe.streaming.plan.RunPlan;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;

/** The shards of a run as daemon threads of this JVM (disruptor, chronicle, mutex and disk transports). */
public final class ShardThreads implements Shards {
  private final List<Thread> threads = new ArrayList<>();
  private final AtomicReference<ShardFailedException> failure = new AtomicReference<>();
  private final List<ShardReport> reports = new CopyOnWriteArrayList<>();
  private final AtomicLong endNanos = new AtomicLong();
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
        long cpu = jvmThreads.getCurrentThreadCpuTime();
        shardCpuNanos.set(shard, cpu);
        reports.add(ShardReport.finished(shard, st, cpu / 1e9, null)); // its footprint is this process's
        endNanos.accumulateAndGet(System.nanoTime(), Math::max);
      }, "fastpipe-shard-" + shard);
      t.setUncaughtExceptionHandler((th, e) -> {
        String message = e.getMessage() == null ? e.toString() : e.getMessage();
        reports.add(ShardReport.failed(shard, e instanceof InputException ? ExitStatus.BAD_INPUT : ExitStatus.FAILED,
            message, null));
        failure.compareAndSet(null, new ShardFailedException("shard " + shard + " failed: " + message, e));
      });
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
  public List<ShardReport> reports() {
    List<ShardReport> inOrder = new ArrayList<>(reports);
    inOrder.sort(java.util.Comparator.comparingInt(ShardReport::shard));
    return inOrder;
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
