package dev.fastpipe.shm;

import java.util.function.BooleanSupplier;
import org.agrona.concurrent.IdleStrategy;

/**
 * The one poll loop of every consumer ({@code call}'s call_variants threads, {@code bench-transport}
 * and the tests): poll up to {@code batch} records into a handler, idle through an
 * {@link IdleStrategy} while the stream is empty, and stop when the consumer's shards have all
 * ended and been delivered, or when {@code stop} says so.
 *
 * <p>While the stream is empty the loop can act once per dry spell ({@link #onDry}): the
 * call_variants consumer classifies a partial batch there rather than sit on it. It also measures
 * the time spent waiting between the first record and the end ({@link #idleNanos()}), and what
 * every wait cost (wall and this thread's CPU, {@link #waits()}), so that an idle consumer's CPU is
 * a figure rather than a guess.
 *
 * <p>Single-threaded, like the {@link ExampleConsumer} it drives.
 */
public final class ConsumerLoop {
  private static final BooleanSupplier NEVER = () -> false;

  private final int batch;
  private final IdleStrategy idle;
  private BooleanSupplier stop = NEVER;
  private long dryAfterNanos = Long.MAX_VALUE;
  private Runnable onDry = () -> {};
  private long records;
  private long idleNanos;
  private final WaitClock waits = new WaitClock();

  /** Polls up to {@code batch} records at a time, idling through {@code idle} on empty polls. */
  public ConsumerLoop(int batch, IdleStrategy idle) {
    if (batch < 1) throw new IllegalArgumentException("batch must be >= 1, got " + batch);
    this.batch = batch;
    this.idle = idle;
  }

  /** Stops the loop (without reaching the end) as soon as {@code stop} is true; checked every poll. */
  public ConsumerLoop stopWhen(BooleanSupplier stop) {
    this.stop = stop;
    return this;
  }

  /** Runs {@code action} once each time the stream has been empty for {@code afterNanos}. */
  public ConsumerLoop onDry(long afterNanos, Runnable action) {
    this.dryAfterNanos = afterNanos;
    this.onDry = action;
    return this;
  }

  /**
   * Delivers records to {@code handler} until {@code consumer} is {@link ExampleConsumer#finished()}
   * (returns true) or {@code stop} is true (returns false).
   */
  public boolean run(ExampleConsumer consumer, RecordHandler handler) {
    long drySince = 0;
    boolean dryActed = false;
    while (!stop.getAsBoolean()) {
      int n = consumer.poll(handler, batch);
      if (n > 0) {
        waits.end();
        records += n;
        if (drySince != 0 && records > n) idleNanos += System.nanoTime() - drySince;
        drySince = 0;
        dryActed = false;
        idle.reset();
        continue;
      }
      if (consumer.finished()) {
        waits.end();
        return true;
      }
      long now = System.nanoTime();
      if (drySince == 0) drySince = now;
      waits.begin();
      if (!dryActed && now - drySince >= dryAfterNanos) {
        dryActed = true;
        waits.end(); // the action is work, not waiting
        onDry.run();
        waits.begin();
      }
      idle.idle();
    }
    waits.end();
    return false;
  }

  /** Records delivered so far. */
  public long records() {
    return records;
  }

  /** Every wait of this loop (empty polls until the next record or the end, from the start). */
  public WaitClock waits() {
    return waits;
  }

  /** Nanoseconds the stream was empty after the first record, up to the last record delivered. */
  public long idleNanos() {
    return idleNanos;
  }
}
