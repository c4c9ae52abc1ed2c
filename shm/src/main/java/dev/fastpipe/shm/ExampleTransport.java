package dev.fastpipe.shm;

/**
 * One run's example streams: one producer per shard, consumed by one or more consumers, each
 * owning a subset of the shards. Built-ins: shm (Agrona over /dev/shm, cross-process),
 * disruptor, chronicle, mutex (DeepVariant-shaped baseline), disk (TFRecord-style files) and seqring (sequence-stamped
 * slots, cross-process); more
 * arrive as plug-ins ({@link TransportProvider}).
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

  /**
   * True once the producer of {@code shard} has ended its stream ({@link ExampleProducer#endOfStream}).
   * A shard that never ends while the others have is how a producer that died mid-stream shows.
   */
  boolean ended(int shard);

  /**
   * Where a producer in another process finds {@code shard} (for {@link TransportProvider#attachProducer});
   * only for transports whose provider claims {@link TransportProvider.Capabilities#crossProcess()}.
   */
  default String address(int shard) {
    throw new UnsupportedOperationException("transport " + name() + " has no producers in other processes");
  }

  /** Live statistics for one shard. */
  TransportStats stats(int shard);

  /** Releases everything (shared-memory files, queues, temp files). Idempotent. */
  @Override
  void close();
}
