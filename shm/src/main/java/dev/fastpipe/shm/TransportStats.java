package dev.fastpipe.shm;

/**
 * A snapshot of one shard's ring: how full it is, who waited on whom, and (where the transport
 * measures it, else -1) the CPU its producer's thread burnt while stalled on a full ring.
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
