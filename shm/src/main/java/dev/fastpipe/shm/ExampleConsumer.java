package dev.fastpipe.shm;

import org.agrona.concurrent.IdleStrategy;

/** The reading end of one or more shards' streams. Single-threaded: one consumer thread each. */
public interface ExampleConsumer extends AutoCloseable {

  /** Delivers up to {@code limit} committed records to {@code handler}; returns how many. Non-blocking. */
  int poll(RecordHandler handler, int limit);

  /** True once every producer of this consumer's shards has ended and every record was delivered. */
  boolean finished();

  /**
   * Told by the {@link ConsumerLoop} that drives this consumer that its polls found nothing for
   * {@code nanos} (a dry spell, or the part of a long one since the last report; on this consumer's
   * thread). The loop is the one place that measures consumer idle time: a transport that publishes
   * it ({@link TransportStats#consumerIdleNanos}) adds {@code nanos} to each of this consumer's
   * shards here and measures nothing itself. Nothing by default.
   */
  default void idled(long nanos) {}

  /**
   * Polls batches of up to {@code batch} records until {@link #finished()}, idling through
   * {@code idle} on empty polls ({@link ConsumerLoop}); returns the number of records delivered.
   */
  default long drain(RecordHandler handler, int batch, IdleStrategy idle) {
    ConsumerLoop loop = new ConsumerLoop(batch, idle);
    loop.run(this, handler);
    return loop.records();
  }

  @Override
  void close();
}
