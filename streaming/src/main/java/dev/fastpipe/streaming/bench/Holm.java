package dev.fastpipe.streaming.bench;

import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.IntStream;

/**
 * Holm's step-down correction of a family of p-values (Holm 1979): the i-th smallest of m
 * p-values is multiplied by m - i (i from 0), then made monotone and capped at 1. Controls the
 * family-wise error rate like Bonferroni, never less powerful. NaN (a test that did not run) stays
 * NaN and is not counted in m.
 */
public final class Holm {
  private Holm() {}

  /** The adjusted p-values, in the order given. */
  public static double[] adjust(double[] p) {
    Integer[] order = IntStream.range(0, p.length).filter(i -> !Double.isNaN(p[i])).boxed()
        .sorted(Comparator.comparingDouble(i -> p[i])).toArray(Integer[]::new);
    double[] out = new double[p.length];
    Arrays.fill(out, Double.NaN);
    int m = order.length;
    double running = 0;
    for (int i = 0; i < m; i++) {
      running = Math.max(running, Math.min(1, (m - i) * p[order[i]]));
      out[order[i]] = running;
    }
    return out;
  }
}
