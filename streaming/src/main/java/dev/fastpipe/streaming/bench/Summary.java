package dev.fastpipe.streaming.bench;

import java.util.Arrays;
import org.apache.commons.math3.stat.descriptive.DescriptiveStatistics;
import org.apache.commons.math3.stat.descriptive.rank.Median;

/** Mean, sample standard deviation (n − 1), min, median and max of one figure over a configuration's runs. */
public record Summary(int n, double mean, double sd, double min, double median, double max) {

  /** The summary of {@code values}; NaN figures where there are none (sd: NaN below two values). */
  public static Summary of(double[] values) {
    double[] v = Arrays.stream(values).filter(d -> !Double.isNaN(d)).toArray();
    if (v.length == 0) return new Summary(0, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN);
    DescriptiveStatistics s = new DescriptiveStatistics(v);
    return new Summary(v.length, s.getMean(), v.length > 1 ? s.getStandardDeviation() : Double.NaN, s.getMin(),
        median(v), s.getMax());
  }

  /**
   * The median of {@code values}, NaN left out (NaN when none): the middle value, or the mean of the
   * two middle ones for an even count (Commons Math's {@link Median}). bench, bench-inference and
   * bench-transport all report this one.
   */
  public static double median(double[] values) {
    double[] v = Arrays.stream(values).filter(d -> !Double.isNaN(d)).toArray();
    return v.length == 0 ? Double.NaN : new Median().evaluate(v);
  }

  /** The change of {@code other}'s mean against this one's, in percent. */
  public double percentChange(Summary other) {
    return (other.mean - mean) / mean * 100;
  }
}
