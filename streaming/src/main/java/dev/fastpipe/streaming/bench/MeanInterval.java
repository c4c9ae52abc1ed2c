package dev.fastpipe.streaming.bench;

import java.util.Arrays;
import org.apache.commons.math3.distribution.TDistribution;

/**
 * The mean of one figure over repeated runs with its two-sided confidence interval from Student's
 * t distribution (Commons Math): mean &plusmn; t(1 - alpha/2, n - 1) &middot; sd / &radic;n. NaN
 * bounds below two values.
 */
public record MeanInterval(int n, double mean, double low, double high, double level) {

  /** The 95 % interval of {@code values} (NaN left out). */
  public static MeanInterval of95(double[] values) {
    return of(values, 0.95);
  }

  public static MeanInterval of(double[] values, double level) {
    if (!(level > 0 && level < 1)) throw new IllegalArgumentException("confidence level must be in (0, 1), got " + level);
    double[] v = Arrays.stream(values).filter(d -> !Double.isNaN(d)).toArray();
    Summary s = Summary.of(v);
    if (v.length < 2) return new MeanInterval(v.length, s.mean(), Double.NaN, Double.NaN, level);
    double t = new TDistribution(v.length - 1).inverseCumulativeProbability(1 - (1 - level) / 2);
    double half = t * s.sd() / Math.sqrt(v.length);
    return new MeanInterval(v.length, s.mean(), s.mean() - half, s.mean() + half, level);
  }

  /** Half the width of the interval. */
  public double halfWidth() {
    return (high - low) / 2;
  }
}
