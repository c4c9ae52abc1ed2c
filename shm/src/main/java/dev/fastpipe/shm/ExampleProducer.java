package dev.fastpipe.shm;

import org.agrona.MutableDirectBuffer;

/**
 * The writing end of one shard's example stream. Single-threaded: one producer per shard.
 *
 * <p>Protocol: {@code int at = claim(n)} reserves {@code n} bytes (waiting through the idle
 * strategy while the ring is full: never dropping); the caller writes the record in place into
 * {@link #buffer()} at {@code [at, at + n)}; then {@link #commit()} publishes it, or
 * {@link #abort()} gives the space back. {@link #endOfStream()} tells consumers this shard is done.
 */
public interface ExampleProducer extends AutoCloseable {

  /** The largest record this producer accepts; a larger claim throws IllegalArgumentException. */
  int maxRecordLength();

  /** Reserves {@code length} bytes and returns their offset in {@link #buffer()}. */
  int claim(int length);

  /** The buffer the claimed bytes live in (ring memory for in-place transports). */
  MutableDirectBuffer buffer();

  /** Publishes the record claimed last. */
  void commit();

  /** Abandons the record claimed last. */
  void abort();

  /**
   * Publishes a running count of the work this producer has done (fastpipe's shards: examples made),
   * for live metrics read from any process ({@link ShmTransport#progress}). Optional: the default
   * publishes nothing; a call costs one ordered store where it is implemented.
   */
  default void progress(long units) {}

  /** No more records from this producer. Idempotent. */
  void endOfStream();

  /** Releases local resources (not the stream itself); calls endOfStream() if not yet done. */
  @Override
  void close();
}
