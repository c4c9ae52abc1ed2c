package dev.fastpipe.streaming.pipeline;

import dev.fastpipe.streaming.makeexamples.MakeExamplesStats;

/**
 * The realigner's counters summed over a run's shards ({@link MakeExamplesStats}): windows realigned,
 * windows fallen back over a cap, reads realigned, and seconds spent realigning.
 */
public record RealignTotals(long windows, long fallbacks, long reads, double seconds) {
  public static final RealignTotals NONE = new RealignTotals(0, 0, 0, 0);

  public static RealignTotals of(MakeExamplesStats s) {
    return new RealignTotals(s.realignedWindows, s.realignFallbackWindows, s.realignedReads, s.realignNanos / 1e9);
  }

  public RealignTotals plus(RealignTotals o) {
    return new RealignTotals(windows + o.windows, fallbacks + o.fallbacks, reads + o.reads, seconds + o.seconds);
  }
}
