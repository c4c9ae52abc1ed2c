package dev.fastpipe.streaming.plan;

/**
 * One fixed-size piece of a region, the unit of sharding: partition {@code index} (global, in
 * reference order) of a {@link RunPlan}, which also says which shard runs it.
 */
public record Partition(long index, int contigIndex, String contig, int start, int end) {}
