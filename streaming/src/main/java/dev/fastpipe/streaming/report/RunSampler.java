package dev.fastpipe.streaming.report;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The one thread that samples a run's live figures every interval into a {@link RunSeries}, and
 * hands each sample to a listener (the live metrics endpoint). It only reads counters the run keeps
 * anyway; it writes nothing the run reads, so the run's output cannot depend on it.
 *
 * <p>{@link #stop()} takes one last sample (the run's final figures), ends the thread and waits for
 * it. A sample that fails (a figure that cannot be read) is skipped; the first such error is kept
 * for {@link #error()}.
 */
public final class RunSampler implements AutoCloseable {
  /** The shortest and longest sampling intervals accepted. */
  public static final Duration MIN_INTERVAL = Duration.ofMillis(10);
  public static final Duration MAX_INTERVAL = Duration.ofMinutes(1);

  private final Supplier<RunSnapshot> source;
  private final long intervalNanos;
  private final Consumer<RunSnapshot> listener;
  private final RunSeries series;
  private final AtomicReference<RuntimeException> error = new AtomicReference<>();
  private final CountDownLatch stopRequested = new CountDownLatch(1);
  private final Thread thread;
  private volatile RunSnapshot latest;
  private boolean stopped;

  /**
   * @param source reads the figures now (called from the sampler thread only)
   * @param every the sampling interval, {@link #MIN_INTERVAL} to {@link #MAX_INTERVAL}
   * @param listener told of every sample, from the sampler thread
   */
  public RunSampler(Supplier<RunSnapshot> source, Duration every, Consumer<RunSnapshot> listener) {
    if (every.compareTo(MIN_INTERVAL) < 0 || every.compareTo(MAX_INTERVAL) > 0) {
      throw new IllegalArgumentException("sampling interval must be between " + MIN_INTERVAL.toMillis() + " ms and "
          + MAX_INTERVAL.toSeconds() + " s, got " + every.toMillis() + " ms");
    }
    this.source = source;
    this.intervalNanos = every.toNanos();
    this.listener = listener;
    this.series = new RunSeries(intervalNanos);
    this.thread = new Thread(this::loop, "fastpipe-sampler");
    thread.setDaemon(true);
  }

  /** Starts sampling; the first sample is one interval from now. */
  public RunSampler start() {
    thread.start();
    return this;
  }

  private void loop() {
    long next = System.nanoTime() + intervalNanos;
    try {
      while (!stopRequested.await(Math.max(0, next - System.nanoTime()), TimeUnit.NANOSECONDS)) {
        sample();
        // Fixed rate; after a stall (a long GC pause), start again from now rather than catch up.
        next = Math.max(next + intervalNanos, System.nanoTime() + intervalNanos / 2);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      series.samplerCpuNanos(ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime());
    }
  }

  private void sample() {
    try {
      RunSnapshot s = source.get();
      series.add(s);
      latest = s;
      listener.accept(s);
    } catch (RuntimeException e) {
      error.compareAndSet(null, e);
    }
  }

  /** The newest sample, or null before the first. */
  public RunSnapshot latest() {
    return latest;
  }

  /** The first error a sample met, or null. */
  public RuntimeException error() {
    return error.get();
  }

  /** Ends the thread, then takes the final sample; returns the whole series. Idempotent. */
  public synchronized RunSeries stop() {
    if (stopped) return series;
    stopped = true;
    stopRequested.countDown();
    try {
      thread.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (thread.getState() != Thread.State.NEW) sample();
    return series;
  }

  public RunSeries series() {
    return series;
  }

  @Override
  public void close() {
    stop();
  }
}
