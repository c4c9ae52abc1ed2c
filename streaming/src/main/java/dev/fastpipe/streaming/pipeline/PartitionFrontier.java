package dev.fastpipe.streaming.pipeline;

import java.util.BitSet;

/**
 * Tracks which partitions every shard has finished and how far the contiguous prefix of
 * finished partitions reaches. Shards take partitions round-robin, so partition {@code p} is
 * done when its shard says so; everything before the first unfinished partition is final and
 * can be written to the VCF in order. Each partition may carry a weight, its estimated share of
 * the run's work ({@link dev.fastpipe.streaming.plan.PartitionWork}), so that progress counts work done
 * rather than partitions. Thread-safe.
 */
public final class PartitionFrontier {
  private final int partitions;
  private final double[] work; // null: every partition weighs 1
  private final double totalWork;
  private final BitSet done = new BitSet();
  private int frontier; // first partition not yet known to be done
  private double workDone;

  public PartitionFrontier(int partitions) {
    this.partitions = partitions;
    this.work = null;
    this.totalWork = partitions;
  }

  /** Partitions weighing {@code work[i]} each (non-negative; all zero counts them equally). */
  public PartitionFrontier(double[] work) {
    double sum = 0;
    for (double w : work) {
      if (!(w >= 0)) throw new IllegalArgumentException("partition work must be >= 0, got " + w);
      sum += w;
    }
    this.partitions = work.length;
    this.work = sum > 0 ? work.clone() : null;
    this.totalWork = sum > 0 ? sum : work.length;
  }

  /** Marks one partition done; returns the new frontier (count of leading finished partitions). */
  public synchronized int markDone(int partition) {
    if (partition < 0 || partition >= partitions) {
      throw new IllegalArgumentException("partition " + partition + " outside 0.." + (partitions - 1));
    }
    if (!done.get(partition)) workDone += work == null ? 1 : work[partition];
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

  /** The weight of the partitions done so far (their count when unweighted). */
  public synchronized double workDone() {
    return workDone;
  }

  /** The weight of all partitions. */
  public double totalWork() {
    return totalWork;
  }

  public int partitions() {
    return partitions;
  }

  public synchronized boolean complete() {
    return frontier == partitions;
  }
}
