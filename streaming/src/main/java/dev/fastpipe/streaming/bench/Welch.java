package dev.fastpipe.streaming.bench;

import java.util.Arrays;
import org.apache.commons.math3.stat.inference.TTest;

/**
 * Welch's two-sample t-test (unequal variances, two-sided) of one figure between two
 * configurations: t, the Welch–Satterthwaite degrees of freedom and the p-value. The p-value is
 * Apache Commons Math's {@link TTest#tTest(double[], double[])}, which is this test.
 */
public record Welch(double t, double df, double p) {

  /** No test: fewer than two values on a side, or no variance on either (identical runs). */
  public static final Welch NONE = new Welch(Double.NaN, Double.NaN, Double.NaN);

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
    return new Welch(test.t(a, b), df, test.tTest(a, b));
  }

  /** True when the test ran and its p-value is below {@code alpha}. */
  public boolean significant(double alpha) {
    return !Double.isNaN(p) && p < alpha;
  }
}
