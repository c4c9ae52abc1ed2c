package dev.fastpipe.streaming.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class StatisticsTest {

  // Student's sleep data (Cushny and Peebles 1905; R's datasets::sleep): extra hours of sleep
  // under two drugs. R's t.test(extra ~ group, data = sleep), Welch's by default, gives
  // t = -1.8608, df = 17.776, p-value = 0.07939.
  static final double[] DRUG_1 = {0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0};
  static final double[] DRUG_2 = {1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4};

  @Test
  void welchMatchesTheTextbookSleepExample() {
    Welch w = Welch.test(DRUG_1, DRUG_2);
    assertEquals(-1.8608, w.t(), 1e-4);
    assertEquals(17.776, w.df(), 1e-3);
    assertEquals(0.07939, w.p(), 1e-5);
    assertFalse(w.significant(0.05));
    assertTrue(w.significant(0.10));
    // R: 95 percent confidence interval -3.3654832 0.2054832, of mean(DRUG_1) - mean(DRUG_2); ours is the other way
    assertEquals(1.58, w.difference(), 1e-12);
    assertEquals(-0.2054832, w.ciLow(), 1e-6);
    assertEquals(3.3654832, w.ciHigh(), 1e-6);
  }

  @Test
  void holmMatchesRsPAdjust() {
    // R: p.adjust(c(0.01, 0.04, 0.03, 0.005), "holm") = 0.03 0.06 0.06 0.02
    double[] adjusted = Welch.holm(new double[] {0.01, 0.04, Double.NaN, 0.03, 0.005});
    assertEquals(0.03, adjusted[0], 1e-12);
    assertEquals(0.06, adjusted[1], 1e-12);
    assertTrue(Double.isNaN(adjusted[2]), "no test stays no test and does not count");
    assertEquals(0.06, adjusted[3], 1e-12);
    assertEquals(0.02, adjusted[4], 1e-12);
    assertEquals(1.0, Welch.holm(new double[] {0.5, 0.6})[1], 1e-12, "capped at 1");
  }

  @Test
  void welchNeedsTwoValuesAndSomeVarianceOnEachSide() {
    assertTrue(Double.isNaN(Welch.test(new double[] {1}, new double[] {1, 2}).p()));
    assertTrue(Double.isNaN(Welch.test(new double[] {3, 3}, new double[] {3, 3}).p()));
    assertFalse(Welch.test(new double[] {3, 3}, new double[] {3, 3}).significant(0.05));
  }

  @Test
  void summaryHasSampleSdAndTheMedianOfAnEvenCount() {
    Summary s = Summary.of(DRUG_1);
    assertEquals(10, s.n());
    assertEquals(0.75, s.mean(), 1e-12);
    assertEquals(1.789010, s.sd(), 1e-6); // R: sd(sleep$extra[1:10])
    assertEquals(0.35, s.median(), 1e-12); // (0.0 + 0.7) / 2
    assertEquals(-1.6, s.min());
    assertEquals(3.7, s.max());
    assertEquals(2.33 / 0.75 * 100 - 100, s.percentChange(Summary.of(DRUG_2)), 1e-9);
  }

  @Test
  void summaryIgnoresMissingFigures() {
    Summary s = Summary.of(new double[] {Double.NaN, 2, 4});
    assertEquals(2, s.n());
    assertEquals(3, s.mean());
    assertEquals(0, Summary.of(new double[] {Double.NaN}).n());
  }
}
