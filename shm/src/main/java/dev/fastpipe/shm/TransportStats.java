package dev.fastpipe.shm;

/**
 * A snapshot of one shard's ring: how full it is, who waited on whom, and (where the transport
 * measures it, else -1) the CPU its producer's thread burnt while stalled on a full ring.
 *
 * @param producerStallNanos time the shard's producer waited on a full ring (measured by the transport)
 * @param consumerIdleNanos time the consumer reading this shard found all of its shards empty: the dry
 *     spells its {@link ConsumerLoop} measured and reported ({@link ExampleConsumer#idled}), from its
 *     first poll (the wait for the first record counts) to its end, a long spell counted while it
 *     lasts (at most about 1 ms late); every shard of one consumer has
 *     that consumer's figure; 0 while no loop drives a consumer of the shard
 */
public record TransportStats(
    int shard,
    long capacityBytes,
    long fillBytes,
    long maxFillBytes,
    long recordsCommitted,
    long recordsConsumed,
    long producerStallNanos,
    long consumerIdleNanos,
    long producerStallCpuNanos) {
  /** For transports that do not measure what a stall costs in CPU: {@link #producerStallCpuNanos} is -1. */
  public TransportStats(int shard, long capacityBytes, long fillBytes, long maxFillBytes, long recordsCommitted,
      long recordsConsumed, long producerStallNanos, long consumerIdleNanos) {
    this(shard, capacityBytes, fillBytes, maxFillBytes, recordsCommitted, recordsConsumed, producerStallNanos,
        consumerIdleNanos, -1);
  }
}
