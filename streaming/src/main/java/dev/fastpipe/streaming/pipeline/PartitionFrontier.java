package dev.fastpipe.streaming.pipeline;

import java.util.BitSet;

/**
 * Tracks which partitions every shard has finished and how far the contiguous prefix of
 * finished partitions reaches. Shards take partitions round-robin, so partition {@code p} is
 * done when its shard says so; everything before the first unfinished partition is final and
 * can be written to the VCF in order. Thread-safe.
 */
public final class PartitionFrontier {
  private final int partitions;
  private final BitSet done = new BitSet();
  private int frontier; // first partition not yet known to be done

  public PartitionFrontier(int partitions) {
    this.partitions = partitions;
  }

  /** Marks one partition done; returns the new frontier (count of leading finished partitions). */
  public synchronized int markDone(int partition) {
    if (partition < 0 || partition >= partitions) {
      throw new IllegalArgumentException("partition " + partition + " outside 0.." + (partitions - 1));
    }
    done.set(partition);
    while (frontier < partitions && done.get(frontier)) frontier++;
    return frontier;
  }

  /** The number of leading partitions that are all done. */
  public synchronized int frontier() {
    return frontier;
  }

  public synchronized int doneCount() {
    return done.cardinality();
  }

  public int partitions() {
    return partitions;
  }

  public synchronized boolean complete() {
    return frontier == partitions;
  }
}
