package dev.fastpipe.shm;

/**
 * One run's example streams: one producer per shard, consumed by one or more consumers, each
 * owning a subset of the shards. Implementations: shm (Agrona over /dev/shm, cross-process),
 * disruptor, chronicle, mutex (DeepVariant-shaped baseline) and disk (TFRecord-style files).
 */
public interface ExampleTransport extends AutoCloseable {

  /** The name used by {@code --transport}. */
  String name();

  /** Number of shards (producers). */
  int shards();

  /** The producer of {@code shard}, for a producer in this JVM. */
  ExampleProducer producer(int shard);

  /** A consumer of the given shards. Shards are partitioned among consumers by the caller. */
  ExampleConsumer consumer(int... shards);

  /** Live statistics for one shard. */
  TransportStats stats(int shard);

  /** Releases everything (shared-memory files, queues, temp files). Idempotent. */
  @Override
  void close();
}
