package dev.fastpipe.streaming.tune;

import dev.fastpipe.streaming.bench.BenchRun;
import dev.fastpipe.streaming.pipeline.MetricsFile;
import java.util.List;
import java.util.Locale;

/**
 * Who waits on whom in a configuration's runs, from the rings' final counters in {@code --metrics}:
 * the share of make_examples' wall time the producers spent stalled on a full ring, the share of
 * call_variants' wall time the consumers spent idle on empty rings, and how full the rings were
 * on average. Averaged over the runs given.
 *
 * @param producerStallPct sum of the rings' producer stall over (rings × make_examples wall), in %
 * @param consumerIdlePct mean of the rings' consumer idle over call_variants wall, in %
 * @param fillPct mean of the rings' mean fill over their capacity, in %
 */
public record RingDiagnosis(double producerStallPct, double consumerIdlePct, double fillPct) {

  /** Producers stalled at least this share of the time with rings at least half full: consumer-bound. */
  static final double STALL_BOUND_PCT = 20;
  /** Consumers idle at least this share of the time with rings under half full: producer-bound. */
  static final double IDLE_BOUND_PCT = 20;
  static final double FULL_PCT = 50;

  public enum Bound { CONSUMER, PRODUCER, BALANCED, UNKNOWN }

  public static RingDiagnosis of(List<BenchRun> runs) {
    double stall = 0;
    double idle = 0;
    double fill = 0;
    int n = 0;
    for (BenchRun r : runs) {
      List<MetricsFile.Ring> rings = r.rings();
      double me = r.stageWall("make_examples") * 1000;
      double cv = r.stageWall("call_variants") * 1000;
      if (rings.isEmpty() || !(me > 0) || !(cv > 0)) continue;
      double s = 0;
      double i = 0;
      double f = 0;
      for (MetricsFile.Ring ring : rings) {
        s += ring.producerStallMs();
        i += ring.consumerIdleMs();
        double cap = ring.capacityBytes();
        f += cap > 0 ? ring.meanFillBytes() / cap : 0;
      }
      stall += s / (rings.size() * me) * 100;
      idle += i / rings.size() / cv * 100;
      fill += f / rings.size() * 100;
      n++;
    }
    return n == 0 ? new RingDiagnosis(Double.NaN, Double.NaN, Double.NaN) : new RingDiagnosis(stall / n, idle / n, fill / n);
  }

  public Bound bound() {
    if (Double.isNaN(producerStallPct)) return Bound.UNKNOWN;
    if (producerStallPct >= STALL_BOUND_PCT && fillPct >= FULL_PCT) return Bound.CONSUMER;
    if (consumerIdlePct >= IDLE_BOUND_PCT && fillPct < FULL_PCT) return Bound.PRODUCER;
    return Bound.BALANCED;
  }

  /** "producers stall 38 % of the time with rings 92 % full on average; consumers idle 3 %". */
  public String figures() {
    if (Double.isNaN(producerStallPct)) return "no ring figures (this transport reports none)";
    return String.format(Locale.ROOT, "producers stall %.0f %% of the time with rings %.0f %% full on average; consumers idle %.0f %%",
        producerStallPct, fillPct, consumerIdlePct);
  }

  /** What the figures say: which side holds the run back. */
  public String verdict() {
    return switch (bound()) {
      case CONSUMER -> "consumer-bound (call_variants cannot keep up with make_examples)";
      case PRODUCER -> "producer-bound (make_examples cannot keep call_variants busy)";
      case BALANCED -> "balanced (neither side waits much on the other)";
      case UNKNOWN -> "not known";
    };
  }
}
