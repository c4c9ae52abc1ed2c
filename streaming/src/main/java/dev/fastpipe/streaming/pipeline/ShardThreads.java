package dev.fastpipe.streaming.pipeline;

import dev.fastpipe.shm.ExampleTransport;
import dev.fastpipe.streaming.ShardFailedException;
import dev.fastpipe.streaming.makeexamples.MakeExamples;
import dev.fastpipe.streaming.makeexamples.MakeExamplesStats;
import dev.fastpipe.streaming.makeexamples.RunPlan;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/** The shards of a run as daemon threads of this JVM (disruptor, chronicle, mutex and disk transports). */
public final class ShardThreads implements Shards {
  private final List<Thread> threads = new ArrayList<>();
  private final AtomicReference<ShardFailedException> failure = new AtomicReference<>();
  private final AtomicLong examples = new AtomicLong();
  private final AtomicLong readsSeen = new AtomicLong();
  private final AtomicLong cpuNanos = new AtomicLong();
  private final AtomicLong endNanos = new AtomicLong();

  @Override
  public void start(RunPlan plan, ExampleTransport transport) {
    for (int i = 0; i < plan.shards(); i++) {
      int shard = i;
      var producer = transport.producer(shard);
      Thread t = new Thread(() -> {
        MakeExamplesStats st = MakeExamples.run(plan, shard, producer);
        examples.addAndGet(st.examples);
        readsSeen.addAndGet(st.readsSeen());
        cpuNanos.addAndGet(ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime());
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
  public double cpuSeconds() {
    return cpuNanos.get() / 1e9;
  }

  @Override
  public boolean inProcesses() {
    return false;
  }

  /** Interrupts shards still running (a thread blocked on a full ring sees the interrupt). */
  @Override
  public void close() {
    for (Thread t : threads) t.interrupt();
  }
}
