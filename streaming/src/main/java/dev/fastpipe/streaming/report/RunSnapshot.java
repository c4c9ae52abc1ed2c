package dev.fastpipe.streaming.report;

import java.util.ArrayList;
import java.util.List;

/**
 * The live figures of one {@code call} run at one moment, as the run's sampler reads them: every
 * counter is cumulative since the run started (rates and time shares come from two snapshots,
 * {@link RunSeries}); ring fill is the level at that moment.
 *
 * @param nanos time since the run started
 * @param examplesMade examples the make_examples shards have written
 * @param examplesCalled examples call_variants has classified
 * @param sitesWritten VCF records the postprocess has written
 * @param partitionsDone partitions every example of which has been called
 * @param partitions partitions in the run
 * @param shards one entry per make_examples shard, in shard order
 * @param consumerIdleNanos per call_variants consumer, time its rings were empty
 * @param stageCpuNanos CPU time per stage, in the order of {@link #STAGES}
 */
public record RunSnapshot(long nanos, long examplesMade, long examplesCalled, long sitesWritten, int partitionsDone,
    int partitions, List<Shard> shards, long[] consumerIdleNanos, long[] stageCpuNanos) {

  /** The stages whose CPU time a snapshot carries, in order. */
  public static final List<String> STAGES = List.of("make_examples", "call_variants", "postprocess");

  /**
   * One shard's figures.
   *
   * @param examplesMade examples this shard has written
   * @param fillBytes bytes waiting in its ring now
   * @param capacityBytes its ring's capacity; 0 when the transport has no bound (disk)
   * @param producerStallNanos time the shard waited on a full ring
   * @param cpuNanos CPU time the shard (a process or a thread) has used
   */
  public record Shard(long examplesMade, long fillBytes, long capacityBytes, long producerStallNanos, long cpuNanos) {

    /** Fill as a fraction of the capacity; NaN for a transport without a bound. */
    public double fillFraction() {
      return capacityBytes <= 0 || capacityBytes == Long.MAX_VALUE ? Double.NaN : (double) fillBytes / capacityBytes;
    }
  }

  public RunSnapshot {
    shards = List.copyOf(shards);
    consumerIdleNanos = consumerIdleNanos.clone();
    stageCpuNanos = stageCpuNanos.clone();
    if (stageCpuNanos.length != STAGES.size()) {
      throw new IllegalArgumentException("expected CPU of " + STAGES.size() + " stages, got " + stageCpuNanos.length);
    }
  }

  /** CPU nanoseconds of stage {@code i} ({@link #STAGES}). */
  public long stageCpuNanos(int i) {
    return stageCpuNanos[i];
  }

  /** Idle nanoseconds of consumer {@code c}. */
  public long consumerIdleNanos(int c) {
    return consumerIdleNanos[c];
  }

  /** Number of consumers. */
  public int consumers() {
    return consumerIdleNanos.length;
  }

  /**
   * This snapshot standing for itself and the {@code earlier} one (when a long series is thinned):
   * counters as of this one, ring fill the mean of the two.
   */
  RunSnapshot mergedWith(RunSnapshot earlier) {
    List<Shard> merged = new ArrayList<>(shards.size());
    for (int i = 0; i < shards.size(); i++) {
      Shard s = shards.get(i);
      long before = i < earlier.shards.size() ? earlier.shards.get(i).fillBytes() : s.fillBytes();
      merged.add(new Shard(s.examplesMade(), (s.fillBytes() + before) / 2, s.capacityBytes(), s.producerStallNanos(),
          s.cpuNanos()));
    }
    return new RunSnapshot(nanos, examplesMade, examplesCalled, sitesWritten, partitionsDone, partitions, merged,
        consumerIdleNanos, stageCpuNanos);
  }
}
