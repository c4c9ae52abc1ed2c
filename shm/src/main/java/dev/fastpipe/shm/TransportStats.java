package dev.fastpipe.shm;

/** A snapshot of one shard's ring: how full it is and who waited on whom. */
public record TransportStats(
    int shard,
    long capacityBytes,
    long fillBytes,
    long maxFillBytes,
    long recordsCommitted,
    long recordsConsumed,
    long producerStallNanos,
    long consumerIdleNanos) {}
