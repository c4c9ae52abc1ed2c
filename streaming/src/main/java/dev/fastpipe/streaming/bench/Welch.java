package dev.fastpipe.streaming.bench;

import java.util.Arrays;
import org.apache.commons.math3.distribution.TDistribution;
import org.apache.commons.math3.stat.inference.TTest;

/**
 * Welch's two-sample t-test (unequal variances, two-sided) of one figure between two
 * configurations: t, the Welch–Satterthwaite degrees of freedom and the p-value, and the
 * difference of the means (second − first) with its 95 % confidence interval,
 * {@code diff ± t(0.975, df) · sqrt(s1²/n1 + s2²/n2)} (R's {@code t.test}). The p-value is Apache
 * Commons Math's {@link TTest#tTest(double[], double[])}, which is this test.
 */
public record Welch(double t, double df, double p, double difference, double ciLow, double ciHigh) {

  /** No test: fewer than two values on a side, or no variance on either (identical runs). */
  public static final Welch NONE = new Welch(Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN);

  /** The confidence level of {@link #ciLow}..{@link #ciHigh}. */
  public static final double CONFIDENCE = 0.95;

  public static Welch test(double[] a, double[] b) {
    a = Arrays.stream(a).filter(d -> !Double.isNaN(d)).toArray();
    b = Arrays.stream(b).filter(d -> !Double.isNaN(d)).toArray();
    if (a.length < 2 || b.length < 2) return NONE;
    Summary sa = Summary.of(a);
    Summary sb = Summary.of(b);
    double va = sa.sd() * sa.sd() / a.length;
    double vb = sb.sd() * sb.sd() / b.length;
    if (va + vb == 0) return NONE;
    double df = (va + vb) * (va + vb) / (va * va / (a.length - 1) + vb * vb / (b.length - 1));
    TTest test = new TTest();
    double diff = sb.mean() - sa.mean();
    double half = new TDistribution(df).inverseCumulativeProbability(1 - (1 - CONFIDENCE) / 2) * Math.sqrt(va + vb);
    return new Welch(test.t(a, b), df, test.tTest(a, b), diff, diff - half, diff + half);
  }

  /**
   * Holm's step-down adjustment of {@code p} (R's {@code p.adjust(p, "holm")}): with the m p-values
   * sorted, the i-th smallest becomes max over j ≤ i of min(1, (m − j + 1) · p(j)). NaN (no test)
   * stays NaN and does not count in m. Controls the family-wise error rate at alpha.
   */
  public static double[] holm(double[] p) {
    return Holm.adjust(p);
  }

  /** True when the test ran and its p-value is below {@code alpha}. */
  public boolean significant(double alpha) {
    return !Double.isNaN(p) && p < alpha;
  }
}
