package dev.fastpipe.shm;

import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;
import org.agrona.concurrent.IdleStrategy;

/**
 * The one poll loop of every consumer ({@code call}'s call_variants threads, {@code bench-transport}
 * and the tests): poll up to {@code batch} records into a handler, idle through an
 * {@link IdleStrategy} while the stream is empty, and stop when the consumer's shards have all
 * ended and been delivered, or when {@code stop} says so.
 *
 * <p>While the stream is empty the loop can act once per dry spell ({@link #onDry}): the
 * call_variants consumer classifies a partial batch there rather than sit on it.
 *
 * <p>It is the one place that measures a consumer's idle time. A dry spell runs from the first
 * empty poll to the next poll that delivers records, or to the end of the loop. The loop reports
 * every spell to the consumer it drives ({@link ExampleConsumer#idled}), which is where the
 * transports' consumer idle figure ({@link TransportStats#consumerIdleNanos}, the ring header's
 * consumer idle counter) comes from; during a long spell it reports the time so far every
 * {@link #REPORT_EVERY_NANOS}, so that live metrics see the wait while it lasts rather than all at
 * once when it ends. The total reported is {@link #drySpellNanos()}. From the same spells it keeps
 * {@link #idleNanos()}, the part between the first record and the last one. And it measures what
 * every wait cost (wall and this thread's CPU, {@link #waits()}), so that an idle consumer's CPU is
 * a figure rather than a guess. One clock read per empty poll (time spent waiting anyway) and one
 * when a spell ends; none while records flow.
 *
 * <p>Single-threaded, like the {@link ExampleConsumer} it drives.
 */
public final class ConsumerLoop {
  /** During a dry spell, its time so far is reported to the consumer at most this often. */
  static final long REPORT_EVERY_NANOS = 1_000_000L;

  private static final BooleanSupplier NEVER = () -> false;

  private final int batch;
  private final IdleStrategy idle;
  private final LongSupplier clock;
  private BooleanSupplier stop = NEVER;
  private long dryAfterNanos = Long.MAX_VALUE;
  private Runnable onDry = () -> {};
  private long records;
  private long idleNanos;
  private long drySpellNanos;
  private final WaitClock waits = new WaitClock();

  /** Polls up to {@code batch} records at a time, idling through {@code idle} on empty polls. */
  public ConsumerLoop(int batch, IdleStrategy idle) {
    this(batch, idle, System::nanoTime);
  }

  /** As above, with dry spells timed on {@code clock} (nanoseconds, never 0; tests drive a fake one). */
  ConsumerLoop(int batch, IdleStrategy idle, LongSupplier clock) {
    if (batch < 1) throw new IllegalArgumentException("batch must be >= 1, got " + batch);
    this.batch = batch;
    this.idle = idle;
    this.clock = clock;
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
   * (returns true) or {@code stop} is true (returns false). A dry spell still open then is reported
   * to the consumer up to that moment.
   */
  public boolean run(ExampleConsumer consumer, RecordHandler handler) {
    long drySince = 0; // start of the current dry spell; 0: records flow
    long unreported = 0; // start of the part of the current spell not yet reported to the consumer
    boolean dryActed = false;
    boolean finished = false;
    while (!stop.getAsBoolean()) {
      int n = consumer.poll(handler, batch);
      if (n > 0) {
        waits.end();
        records += n;
        if (drySince != 0) {
          long now = clock.getAsLong();
          report(consumer, now - unreported);
          if (records > n) idleNanos += now - drySince;
          drySince = 0;
        }
        dryActed = false;
        idle.reset();
        continue;
      }
      if (consumer.finished()) {
        finished = true;
        break;
      }
      long now = clock.getAsLong();
      if (drySince == 0) {
        drySince = unreported = now;
      } else if (now - unreported >= REPORT_EVERY_NANOS) {
        report(consumer, now - unreported);
        unreported = now;
      }
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
    if (drySince != 0) report(consumer, clock.getAsLong() - unreported);
    return finished;
  }

  private void report(ExampleConsumer consumer, long nanos) {
    if (nanos <= 0) return;
    drySpellNanos += nanos;
    consumer.idled(nanos);
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

  /**
   * Nanoseconds of every dry spell so far, from the first poll on (the wait for the first record and
   * the one before the end included): the sum of what this loop reported to its consumers through
   * {@link ExampleConsumer#idled}, so each shard's {@link TransportStats#consumerIdleNanos} grows by
   * exactly this much while one loop drives its only consumer.
   */
  public long drySpellNanos() {
    return drySpellNanos;
  }
}
