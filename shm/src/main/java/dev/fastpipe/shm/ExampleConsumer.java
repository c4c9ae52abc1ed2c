package dev.fastpipe.shm;

/** The reading end of one or more shards' streams. Single-threaded: one consumer thread each. */
public interface ExampleConsumer extends AutoCloseable {

  /** Delivers up to {@code limit} committed records to {@code handler}; returns how many. Non-blocking. */
  int poll(RecordHandler handler, int limit);

  /** True once every producer of this consumer's shards has ended and every record was delivered. */
  boolean finished();

  @Override
  void close();
}
